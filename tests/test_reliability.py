"""No traceback and nothing lost, whatever the input, the path or the fault: one
test per fault the reliability issue lists, and a property test over every command."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ocgkb.build import pipeline as build_module
from ocgkb.build.pipeline import build
from ocgkb.cli.main import main
from ocgkb.query.plan import plan_query
from ocgkb.store.door import KnowledgeBase, is_current, open_kb

from conftest import KB, SMALL

OCGKB = [sys.executable, "-m", "ocgkb"]


def run(kb_path: Path | str, *args: str):
    return CliRunner().invoke(main, ["--db", str(kb_path), *args])


def one_line_error(result, code: int, words: str) -> None:
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert any(words in line for line in lines), result.output
    assert "Traceback" not in result.output


# --- text that is not UTF-8 -------------------------------------------------------

NOT_UTF8 = "\udcff\udcfe"  # what the shell hands Python for the bytes ff fe


@pytest.mark.parametrize(
    "args",
    [
        ["search", NOT_UTF8],
        ["ask", NOT_UTF8],
        ["card", NOT_UTF8],
        ["concept", NOT_UTF8],
        ["section", NOT_UTF8],
        ["search", "cost", "--card", NOT_UTF8],
        ["search", "cost", "--concept", NOT_UTF8],
        ["search", "cost", "--section", NOT_UTF8],
        ["export", "--format", "json", "--around", NOT_UTF8],
    ],
)
def test_text_that_is_not_utf8_is_one_line_exit_1(kb_path, args):
    one_line_error(run(kb_path, *args), 1, "the query is not valid UTF-8")


def test_bytes_that_are_not_utf8_from_a_real_shell(kb_path):
    result = subprocess.run(
        [*OCGKB, "--db", str(kb_path), "search", os.fsdecode(b"\xff\xfe")], capture_output=True
    )
    assert result.returncode == 1
    assert result.stderr.decode().strip() == "Error: the query is not valid UTF-8"


# --- where the knowledge base lives ------------------------------------------------


def test_an_unwritable_location_is_one_line_naming_it(tmp_path):
    # Nothing is built there yet: the small corpus, so that the build found out in vain is short.
    result = run("/proc/ocgkb-test/kb.sqlite", "--data-dir", str(SMALL), "ask", "cost")
    one_line_error(result, 1, "/proc/ocgkb-test/kb.sqlite")


def stale_copy(small_kb: Path, tmp_path: Path) -> tuple[Path, Path]:
    """The small knowledge base and a kb/ folder changed since it was built."""
    db = tmp_path / "kb.sqlite"
    shutil.copy(small_kb, db)
    changed_kb = tmp_path / "kb"
    shutil.copytree(KB, changed_kb)
    with open(changed_kb / "synonyms.yaml", "a", encoding="utf-8") as out:
        out.write("\n# a change, so the built knowledge base is stale\n")
    return db, changed_kb


def test_a_place_that_cannot_be_written_is_not_built_in_vain(small_kb, tmp_path, monkeypatch):
    db, changed_kb = stale_copy(small_kb, tmp_path)
    real_open = open

    def no_lock_file(file, *args, **kwargs):
        if str(file).endswith(".lock"):
            raise PermissionError(13, "Permission denied")
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", no_lock_file)
    monkeypatch.setattr(build_module, "build", lambda *a, **k: pytest.fail("built in vain"))
    result = CliRunner().invoke(
        main,
        ["--db", str(db), "--data-dir", str(SMALL), "--kb-dir", str(changed_kb), "search", "cost", "--json"],
    )
    assert result.exit_code == 0 and "stale" in result.stderr
    assert json.loads(result.stdout)["hits"]


def test_a_stale_knowledge_base_that_cannot_be_rebuilt_is_used_with_a_warning(
    small_kb, tmp_path, monkeypatch
):
    db, changed_kb = stale_copy(small_kb, tmp_path)
    assert not is_current(db, SMALL, changed_kb)

    def cannot_write(tmp, built):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(build_module, "write", cannot_write)
    result = CliRunner().invoke(
        main,
        ["--db", str(db), "--data-dir", str(SMALL), "--kb-dir", str(changed_kb), "search", "cost", "--json"],
    )
    assert result.exit_code == 0, result.output
    assert "stale" in result.stderr and "Permission denied" in result.stderr
    assert json.loads(result.stdout)["hits"]


def test_clean_up_never_hides_the_real_error(tmp_path, monkeypatch):
    def cannot_write(tmp, built):
        tmp.write_bytes(b"half")
        raise OSError(28, "No space left on device")

    real_unlink = Path.unlink

    def unlink(self, missing_ok=False):
        if ".building-" in self.name:
            raise PermissionError(13, "Permission denied")
        return real_unlink(self, missing_ok=missing_ok)

    monkeypatch.setattr(build_module, "write", cannot_write)
    monkeypatch.setattr(Path, "unlink", unlink)
    with pytest.raises(build_module.BuildError, match="No space left on device"):
        build(tmp_path / "kb.sqlite", SMALL, KB)


@pytest.mark.parametrize("folder", ["a#b", "a?b", "a%20b", "a b", "a%", "卡 #?%41&mode=rw"])
def test_any_path_works_and_opens_nothing_else(small_kb, tmp_path, folder):
    place = tmp_path / folder
    place.mkdir()
    shutil.copy(small_kb, place / "kb.sqlite")
    assert is_current(place / "kb.sqlite", SMALL, KB)  # read through the escaped URI: no rebuild
    result = run(place / "kb.sqlite", "--data-dir", str(SMALL), "search", "cost", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["hits"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [folder]  # no stray /tmp/a


def test_an_empty_db_option_is_a_usage_error():
    one_line_error(CliRunner().invoke(main, ["--db", "", "search", "cost"]), 2, "--db: an empty path")


# --- damage --------------------------------------------------------------------------


def damaged_copy(small_kb: Path, tmp_path: Path) -> Path:
    """The small knowledge base with garbage written over its middle."""
    db = tmp_path / "kb.sqlite"
    shutil.copy(small_kb, db)
    size = db.stat().st_size
    with open(db, "r+b") as out:
        out.seek(size // 2)
        out.write(os.urandom(200_000))
    return db


def test_a_query_that_meets_damage_rebuilds_once_and_answers(small_kb, tmp_path, monkeypatch):
    db = tmp_path / "kb.sqlite"
    shutil.copy(small_kb, db)
    calls = {"n": 0}
    real_query = KnowledgeBase.query

    def query_once_damaged(self, sql, params=()):
        calls["n"] += 1
        if calls["n"] == 1:
            raise sqlite3.DatabaseError("database disk image is malformed")
        return real_query(self, sql, params)

    monkeypatch.setattr(KnowledgeBase, "query", query_once_damaged)
    result = run(db, "--data-dir", str(SMALL), "card", "增殖的G", "--json")
    assert result.exit_code == 0, result.output
    assert "damaged" in result.stderr and "rebuilding" in result.stderr
    assert json.loads(result.stdout)["matches"][0]["name"] == "增殖的G"


@pytest.mark.parametrize(
    "args",
    [["card", "增殖的G"], ["concept", "cost"], ["search", "卡时点"], ["ask", "伤害步骤"], ["section", "4"]],
)
def test_real_mid_file_corruption_gives_no_traceback(small_kb, tmp_path, args):
    result = run(damaged_copy(small_kb, tmp_path), "--data-dir", str(SMALL), *args)
    assert result.exit_code in (0, 1), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception


def test_build_check_finds_the_damage_and_the_staleness(kb_path, small_kb, tmp_path):
    assert run(kb_path, "build", "--check").exit_code == 0
    result = run(damaged_copy(small_kb, tmp_path), "--data-dir", str(SMALL), "build", "--check", "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["integrity"] != "ok"


# --- builds --------------------------------------------------------------------------


def test_dead_builds_leave_no_temp_files(tmp_path):
    db = tmp_path / "kb.sqlite"
    dead = tmp_path / "kb.sqlite.building-999999999"  # no process has this id
    dead.write_bytes(b"x" * 1000)
    build(db, SMALL, KB)
    assert not dead.exists()
    assert [p.name for p in tmp_path.iterdir() if ".building-" in p.name] == []
    # The next command removes what a build killed while writing left, even with nothing to build.
    dead.write_bytes(b"x" * 1000)
    alive = tmp_path / f"kb.sqlite.building-{os.getpid()}"
    alive.write_bytes(b"mine")
    assert run(db, "--data-dir", str(SMALL), "search", "cost", "--json").exit_code == 0
    assert not dead.exists() and alive.exists()


def test_sigterm_during_a_build_cleans_up_and_keeps_the_old_knowledge_base(small_kb_copy, tmp_path):
    db = small_kb_copy
    before = db.read_bytes()
    proc = subprocess.Popen(
        [*OCGKB, "--db", str(db), "--data-dir", str(SMALL), "build"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob("kb.sqlite.building-*")) and time.monotonic() < deadline:
        time.sleep(0.05)  # wait until it writes
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and b"Traceback" not in err
    assert list(tmp_path.glob("*.building-*")) == []
    assert db.read_bytes() == before


@pytest.mark.parametrize(
    "file, message", [("000_*.txt", "no passage could be read"), ("002_*.txt", "no passage could be read")]
)
def test_a_build_that_would_drop_a_document_fails_and_keeps_the_old(
    small_kb_copy, small_corpus_copy, file, message
):
    db = small_kb_copy
    before = db.read_bytes()
    next(small_corpus_copy.glob(file)).write_text("", encoding="utf-8")
    result = CliRunner().invoke(main, ["--db", str(db), "--data-dir", str(small_corpus_copy), "build"])
    one_line_error(result, 1, message)
    assert db.read_bytes() == before


def test_a_rulebook_without_numbered_sections_fails(tmp_path, small_corpus_copy):
    next(small_corpus_copy.glob("000_*.txt")).write_text("只有一段文字，没有编号。\n", encoding="utf-8")
    with pytest.raises(build_module.BuildError, match="no numbered section"):
        build(tmp_path / "kb.sqlite", small_corpus_copy, KB)


def test_simultaneous_first_runs_build_once(tmp_path):
    db = tmp_path / "kb.sqlite"
    procs = [
        subprocess.Popen(
            [*OCGKB, "--db", str(db), "--data-dir", str(SMALL), "search", "cost", "--json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(3)
    ]
    outputs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0]
    assert all(json.loads(out)["hits"] for out, _ in outputs)
    builds = sum(err.decode().count("Building the knowledge base") for _, err in outputs)
    assert builds == 1


def test_a_rebuild_in_a_running_process_is_seen_at_once(small_kb_copy, tmp_path):
    db = small_kb_copy
    question = "咕噜咕噜是什么"
    before = plan_query(KnowledgeBase(db), question)
    changed_kb = tmp_path / "kb"
    shutil.copytree(KB, changed_kb)
    import yaml

    synonyms = yaml.safe_load((changed_kb / "synonyms.yaml").read_text(encoding="utf-8"))
    synonyms["synonyms"]["咕噜咕噜"] = ["卷回"]
    (changed_kb / "synonyms.yaml").write_text(yaml.safe_dump(synonyms, allow_unicode=True), encoding="utf-8")
    build(db, SMALL, changed_kb)
    after = plan_query(open_kb(db, SMALL, changed_kb), question)
    assert "卷回" not in before.words + before.expansions
    assert "卷回" in after.words + after.expansions


# --- export, filters, limits, one error path ----------------------------------------


def test_a_date_range_needs_one_date_inside_both_bounds(cli_json):
    hits = cli_json("search", "增殖的G", "--since", "2018-01-01", "--until", "2024-12-31")["hits"]
    assert all(any("2018-01-01" <= d <= "2024-12-31" for d in h["dates"]) for h in hits)
    wide = cli_json("search", "增殖的G", "--since", "2017-01-01", "--until", "2025-12-31")["hits"]
    assert wide and all(any("2017-01-01" <= d <= "2025-12-31" for d in h["dates"]) for h in wide)
    assert {h["id"] for h in hits} < {h["id"] for h in wide}


def test_limit_is_honoured_up_to_its_stated_maximum(cli, cli_json):
    assert 10 < len(cli_json("search", "效果", "--limit", "40")["hits"]) <= 40
    one_line_error(cli("search", "效果", "--limit", "41", expect=None), 2, "1<=x<=40")
    one_line_error(cli("ask", "效果", "--limit", "11", expect=None), 2, "1<=x<=10")
    assert "at most 40" in cli("search", "--help").output


@pytest.mark.parametrize(
    "args, code, words",
    [
        (["search", "cost", "--card", ""], 2, "--card needs a value"),
        (["search", "cost", "--concept", " "], 2, "--concept needs a value"),
        (["search", "cost", "--section", "99.99"], 1, "no section 99.99"),
        (["ask", "cost", "--section", "7"], 1, "no section 7"),
        (["export", "--kinds", "nosuchkind"], 2, "nosuchkind"),
        (["export", "--format", "nope"], 2, "unknown format 'nope'"),
        (["replay", "no-such-scenario"], 2, "no such file or folder"),
    ],
)
def test_every_error_takes_one_path(cli, args, code, words):
    one_line_error(cli(*args, expect=None), code, words)


def test_replay_honours_kb_dir(tmp_path):
    kb = tmp_path / "kb"
    (kb / "scenarios").mkdir(parents=True)
    shutil.copy(KB / "scenarios" / "atk_rush_then_gale.yaml", kb / "scenarios")
    result = CliRunner().invoke(main, ["--kb-dir", str(kb), "replay", "--json"])
    assert result.exit_code == 0, result.output
    assert [Path(r["file"]).name for r in json.loads(result.stdout)] == ["atk_rush_then_gale.yaml"]


# --- any text, any command ---------------------------------------------------------

COMMANDS = [
    ["search"], ["ask"], ["card"], ["concept"], ["section"], ["search", "cost", "--card"],
    ["search", "cost", "--concept"], ["search", "cost", "--section"], ["search", "cost", "--since"],
    ["export", "--format", "json", "-o", "{out}", "--around"],
]  # fmt: skip


# Any character, lone surrogates included: the shell hands those over for bytes that are not UTF-8.
ANY_CHARACTER = st.characters() | st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(COMMANDS), text=st.text(ANY_CHARACTER, max_size=40))
def test_any_text_in_any_command_gives_no_traceback(kb_path, tmp_path_factory, command, text):
    # An export goes to a file of the test's own, never to a device (the tests may run as root).
    out = str(tmp_path_factory.getbasetemp() / "any-text-export.json")
    command = [out if part == "{out}" else part for part in command]
    result = CliRunner().invoke(main, ["--db", str(kb_path), *command, text])
    assert result.exit_code in (0, 1, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
