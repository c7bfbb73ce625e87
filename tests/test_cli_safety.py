"""Faults and hostile input at the command line (issue 19), each run as a real
process where the behaviour is the process's: its exit code, its one line on
standard error, what is left on disk. Nothing here writes to a device: the
device and FIFO cases use files made under tmp_path, and /dev/null is only
stat-ed by the check that refuses it."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ocgkb.build import pipeline as build_module
from ocgkb.cli.main import main
from ocgkb.files import UnsafePathError, read_at_most, replaceable
from ocgkb.store.damage import is_damage
from ocgkb.store.door import KnowledgeBase, build, open_kb

from conftest import DATA, KB

TIMEOUT = 60  # a refusal takes a fraction of a second; a build or a hang would take this


def ocgkb(*args: str, home: Path, db: Path | str | None = None, env: dict | None = None, **kwargs):
    """`python -m ocgkb ARGS` in its own process, with a home of its own (never ~/.cache)."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("OCGKB_")}
    environ.update(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), **(env or {}))
    command = [sys.executable, "-m", "ocgkb", *(["--db", str(db)] if db is not None else []), *args]
    kwargs.setdefault("stdout", subprocess.PIPE)
    return subprocess.run(
        command, env=environ, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=TIMEOUT, **kwargs
    )


def in_process(*args: str, db: Path) -> subprocess.CompletedProcess:
    """`ocgkb --db DB ARGS` through click's runner, for a refusal that is click's and
    not the process's (a bad option value): the same exit code and standard error."""
    result = CliRunner().invoke(main, ["--db", str(db), *args])
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout_bytes, result.stderr_bytes)


def one_line(result, code: int, words: str) -> str:
    """The process exited `code` with one error line on standard error that says
    `words` (a usage error, exit 2, has click's usage hint above it)."""
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == code, err
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    if code == 2 and len(lines) == 3 and lines[0].startswith("Usage:"):
        lines = lines[2:]
    assert len(lines) == 1 and words in lines[0], err
    return lines[0]


@pytest.fixture
def odd_files(tmp_path) -> dict[str, Path]:
    """A FIFO, a folder and a symlink loop, where a knowledge base might be named."""
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "folder").mkdir()
    os.symlink(tmp_path / "loop-b", tmp_path / "loop-a")
    os.symlink(tmp_path / "loop-a", tmp_path / "loop-b")
    return {"fifo": tmp_path / "fifo", "folder": tmp_path / "folder", "loop": tmp_path / "loop-a"}


# --- 1. what sits at the knowledge base's path -------------------------------------


def test_the_check_refuses_a_device_before_any_write():
    # Only stat-ed: the refusal is the first thing replaceable() does, and it raises.
    with pytest.raises(UnsafePathError, match="/dev/null is a character device"):
        replaceable(Path("/dev/null"))
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_the_check_refuses_fifos_folders_and_loops_and_follows_links(odd_files, tmp_path):
    for name, words in (("fifo", "a FIFO"), ("folder", "a directory"), ("loop", "a symlink loop")):
        with pytest.raises(UnsafePathError, match=words):
            replaceable(odd_files[name])
    real = tmp_path / "real.sqlite"
    real.write_bytes(b"x")
    os.symlink(real, tmp_path / "link.sqlite")
    assert replaceable(tmp_path / "link.sqlite") == real
    assert replaceable(real) == real and replaceable(tmp_path / "new.sqlite") == tmp_path / "new.sqlite"


@pytest.mark.parametrize("kind, words", [("fifo", "is a FIFO"), ("loop", "a symlink loop")])
def test_a_kb_path_that_is_no_regular_file_is_one_line_and_untouched(odd_files, tmp_path, kind, words):
    target = odd_files[kind]
    before = os.lstat(target)
    result = ocgkb("search", "cost", home=tmp_path, env={"OCGKB_DB": str(target)})
    one_line(result, 1, words)
    assert os.lstat(target).st_mode == before.st_mode and os.lstat(target).st_ino == before.st_ino


def test_a_kb_path_that_is_a_folder_is_refused(odd_files, tmp_path):
    one_line(ocgkb("search", "cost", home=tmp_path, db=odd_files["folder"]), 2, "is a directory")
    with pytest.raises(UnsafePathError, match="a directory"):
        open_kb(odd_files["folder"], DATA, KB)


def test_a_lock_file_that_is_a_fifo_is_refused_before_building(tmp_path):
    db = tmp_path / "kb.sqlite"
    os.mkfifo(tmp_path / "kb.sqlite.lock")
    one_line(ocgkb("search", "cost", home=tmp_path, db=db), 1, "kb.sqlite.lock is a FIFO")
    assert not db.exists() and stat.S_ISFIFO(os.lstat(tmp_path / "kb.sqlite.lock").st_mode)
    with pytest.raises(UnsafePathError):
        build(db, DATA, KB)


def test_a_build_refuses_a_fifo_before_reading_anything(odd_files, monkeypatch):
    monkeypatch.setattr(build_module, "_read_inputs", lambda *a: pytest.fail("read the sources in vain"))
    with pytest.raises(UnsafePathError, match="a FIFO"):
        build_module.build(odd_files["fifo"], DATA, KB)


def fake_write(tmp: Path, built) -> None:
    tmp.write_bytes(b"new build")


def test_a_build_through_a_symlink_writes_its_target_and_keeps_the_link(tmp_path, monkeypatch):
    real = tmp_path / "store" / "real.sqlite"
    real.parent.mkdir()
    real.write_bytes(b"old build")
    link = tmp_path / "kb.sqlite"
    os.symlink(real, link)
    monkeypatch.setattr(build_module, "write", fake_write)
    build_module._write_in_place(replaceable(link), None)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == b"new build"
    assert sorted(p.name for p in real.parent.iterdir()) == ["real.sqlite"]  # no temp file left


def test_a_fifo_put_in_place_during_a_build_is_not_replaced(tmp_path, monkeypatch):
    db = tmp_path / "kb.sqlite"

    def write_while_a_fifo_appears(tmp: Path, built) -> None:
        tmp.write_bytes(b"new build")
        os.mkfifo(db)

    monkeypatch.setattr(build_module, "write", write_while_a_fifo_appears)
    with pytest.raises(UnsafePathError, match="a FIFO"):
        build_module._write_in_place(db, None)
    assert stat.S_ISFIFO(os.lstat(db).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kb.sqlite"]


def test_a_symlinked_kb_is_opened_at_its_target(kb_path, tmp_path):
    real = tmp_path / "real.sqlite"
    shutil.copy(kb_path, real)
    os.symlink(real, tmp_path / "link.sqlite")
    kb = open_kb(tmp_path / "link.sqlite", DATA, KB)
    try:
        assert kb.path == str(real)  # a str: a question's path imports no pathlib
    finally:
        kb.close()


# --- 2. only damage is damage --------------------------------------------------------


def sqlite_error(sql: str, params: tuple = (), path: str = ":memory:") -> sqlite3.Error:
    conn = sqlite3.connect(path)
    try:
        conn.execute(sql, params)
    except sqlite3.Error as exc:
        return exc
    finally:
        conn.close()
    raise AssertionError(f"{sql} raised nothing")


def test_only_corruption_is_damage(tmp_path):
    not_a_db = tmp_path / "junk.sqlite"
    not_a_db.write_bytes(b"this is no SQLite file at all" * 200)
    assert is_damage(sqlite_error("SELECT * FROM sqlite_master", path=str(not_a_db)))
    assert not is_damage(sqlite_error("SELECT 'a' LIKE ?", ("4." * 25001,)))
    assert not is_damage(sqlite_error("SELECT * FROM no_such_table"))
    assert is_damage(sqlite3.DatabaseError("database disk image is malformed"))  # raised without a code


def test_a_sqlite_error_about_the_input_is_one_line_and_no_rebuild(kb_path, monkeypatch):
    too_complex = sqlite_error("SELECT 'a' LIKE ?", ("4." * 25001,))

    def query(self, sql, params=()):
        raise too_complex

    monkeypatch.setattr(KnowledgeBase, "query", query)
    monkeypatch.setattr(build_module, "build", lambda *a, **k: pytest.fail("rebuilt for bad input"))
    result = CliRunner().invoke(main, ["--db", str(kb_path), "section", "4.2"])
    assert result.exit_code == 1, result.output
    assert "LIKE or GLOB pattern too complex" in result.stderr and "damaged" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "args, words",
    [
        (["section", "4." * 25001], "the query is 50,002 characters long"),
        (["search", "cost", "--section", "4." * 25001], "--section is 50,002 characters long"),
        (["card", "x" * 20000], "the query is 20,000 characters long"),
    ],
)
def test_absurdly_long_text_is_refused_at_once(kb_path, args, words):
    result = in_process(*args, db=kb_path)
    assert "rebuilding" not in one_line(result, 1, words)


# --- 3. tracebacks and hangs ------------------------------------------------------------


def test_replay_refuses_a_fifo_without_waiting_for_a_writer(odd_files, tmp_path):
    one_line(ocgkb("replay", str(odd_files["fifo"]), home=tmp_path), 2, "is a FIFO, not a regular file")


def test_replay_reads_no_more_than_its_limit(tmp_path):
    huge = tmp_path / "huge.yaml"
    with open(huge, "wb") as out:
        out.truncate(2 * 1024**3)  # sparse: 2 GB that read whole would be a MemoryError
    one_line(ocgkb("replay", str(huge), home=tmp_path), 2, "too big for a scenario")
    assert len(read_at_most(huge, 1000)) == 1001
    with pytest.raises(UnsafePathError, match="a character device"):
        read_at_most(Path("/dev/zero"), 1000)  # refused from its stat, never opened


def test_replay_of_a_folder_without_scenarios_fails(tmp_path):
    (tmp_path / "empty").mkdir()
    one_line(ocgkb("replay", str(tmp_path / "empty"), home=tmp_path), 1, "no scenario files")


@pytest.mark.parametrize(
    "args",
    [
        ["search", "cost"],
        ["ask", "cost", "--json"],
        ["card", "增殖的G"],
        ["section", "4.2"],
        ["export", "--format", "json", "--around", "cost"],
        ["replay", str(KB / "scenarios" / "atk_rush_then_gale.yaml")],
        ["--help"],
    ],
)
def test_a_full_standard_output_is_one_line(kb_path, tmp_path, args):
    # The redirect is the user's act, as `ocgkb search cost > /dev/full` in a shell.
    with open("/dev/full", "wb") as full:
        result = ocgkb(*args, home=tmp_path, db=kb_path, stdout=full)
    err = result.stderr.decode()
    assert result.returncode in (1, 2) and "Traceback" not in err and "Exception ignored" not in err, err
    assert len(err.strip().splitlines()) == 1 and "cannot write to standard output: No space left" in err, err


@pytest.mark.parametrize("args", [["search", "cost"], ["export", "--format", "json", "--around", "cost"]])
def test_a_closed_pipe_ends_quietly(kb_path, tmp_path, args):
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody reads: the first write is a broken pipe
    try:
        result = ocgkb(*args, home=tmp_path, db=kb_path, stdout=write_end)
    finally:
        os.close(write_end)
    assert result.returncode == 1 and result.stderr == b"", result.stderr


@pytest.mark.parametrize("args", [["search", "cost"], ["build", "--check"]])
def test_a_name_too_long_is_one_line(tmp_path, args):
    one_line(ocgkb(*args, home=tmp_path, db="a" * 5000), 1, "File name too long")


def test_an_encoding_without_chinese_prints_what_it_can(kb_path, tmp_path):
    result = ocgkb(
        "search", "cost", "-n", "2", home=tmp_path, db=kb_path, env={"PYTHONIOENCODING": "latin-1"}
    )
    assert result.returncode == 0, result.stderr.decode("latin-1")
    assert b"cost" in result.stdout and b"?" in result.stdout
    wrong = ocgkb("card", "不存在的卡名字", home=tmp_path, db=kb_path, env={"PYTHONIOENCODING": "latin-1"})
    assert wrong.returncode == 1 and b"Traceback" not in wrong.stderr


def test_export_does_not_replace_a_read_only_file(kb_path, tmp_path):
    out = tmp_path / "graph.json"
    out.write_text("keep me")
    out.chmod(0o444)
    os.symlink(out, tmp_path / "link.json")
    for target in (out, tmp_path / "link.json"):
        result = ocgkb(
            "export", "--format", "json", "--around", "cost", "-o", str(target), home=tmp_path, db=kb_path
        )
        one_line(result, 2, "is read-only (-r--r--r--)")
    assert out.read_text() == "keep me" and stat.S_IMODE(out.stat().st_mode) == 0o444
    out.chmod(0o644)
    result = ocgkb(
        "export", "--format", "json", "--around", "cost", "-o", str(out), home=tmp_path, db=kb_path
    )
    assert result.returncode == 0 and json.loads(out.read_text())["nodes"]


# --- 4. numbers and dates --------------------------------------------------------------


@pytest.mark.parametrize("value", ["٣", "1_0", "３", "0x3", "3.0"])
def test_limit_takes_ascii_digits_only(kb_path, value):
    one_line(in_process("search", "cost", "--limit", value, db=kb_path), 2, "digits 0-9")


def test_limit_in_ascii_digits_still_works(cli_json):
    assert len(cli_json("search", "效果", "--limit", " 3")["hits"]) == 3


@pytest.mark.parametrize(
    "args, words",
    [
        (["--since", ""], "--since needs a value"),
        (["--until", " "], "--until needs a value"),
        (
            ["--since", "2024-01-01", "--until", "2020-01-01"],
            "--since 2024-01-01 is after --until 2020-01-01",
        ),
    ],
)
def test_a_date_range_must_make_sense(kb_path, args, words):
    one_line(in_process("search", "cost", *args, db=kb_path), 2, words)
