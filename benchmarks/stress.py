"""Fault cases against the real command line, each in its own process and folder.

    python benchmarks/stress.py [--only WORD] [--timeout SECONDS]

Runs `ocgkb` (the one beside this Python) as a separate process for every case
and prints a table: the exit code, whether a traceback was printed, and whether
the knowledge base at the case's location is intact afterwards (it opens with
sqlite3, `PRAGMA integrity_check` says ok, and `ocgkb --db X search cost --json`
works). Cases: kill -9 and SIGTERM during a build, a corrupted file, unwritable
and read-only locations, odd path characters, an empty --db, eight first runs at
once, queries during a rebuild, an export onto a FIFO and a query that is not
UTF-8; then hostile paths and input (issue 19): a FIFO, symlink loop or FIFO lock
file where the knowledge base goes, a symlinked one, a 50 KB section id, replays
of a FIFO, a sparse 2 GB file and an empty folder, a full standard output, a
5,000-character --db, a latin-1 terminal, an export onto a read-only file and
malformed --limit/--since; and `ocgkb serve` (`--only serve`): 1,000 idle
connections under `ulimit -n 1024`, unfinished request heads and idle kept-alive
connections, a killed supervisor, two workers over a damaged knowledge base, and a
knowledge base truncated or replaced under a running server. It reports; it does
not assert. One knowledge base is built first and
copied into the cases that need one; everything lives in one temporary folder
that is removed at the end. A full run takes a few minutes on two cores.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

OCGKB = Path(sys.executable).with_name("ocgkb")
BUILDING = "Building the knowledge base"  # what the CLI says when a query builds first
PR_CAPBSET_DROP = 24


@dataclass
class Run:
    """One finished (or killed) process."""

    args: list
    code: int | None  # None: timed out and killed
    out: str
    err: str
    seconds: float

    @property
    def traceback(self) -> bool:
        return "Traceback" in self.err or "Traceback" in self.out

    @property
    def built(self) -> bool:
        return BUILDING in self.err


@dataclass
class Row:
    case: str
    code: str = "-"
    traceback: bool = False
    intact: str = "n/a"
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def took(self, run) -> None:
        """What one command did: its exit, whether it printed a traceback, its time."""
        self.code, self.traceback, self.seconds = _code(run), run.traceback, run.seconds

    def checked(self, r: Runner, db: Path, home: Path) -> Row:
        """The row, with whether the knowledge base at `db` is still whole."""
        self.intact, notes = r.check(db, home)
        self.notes += notes
        return self


class Runner:
    def __init__(self, root: Path, timeout: float) -> None:
        self.root = root
        self.timeout = timeout
        self.live: list[subprocess.Popen] = []
        self.base: Path | None = None  # a built knowledge base that cases copy

    # --- processes --------------------------------------------------------------

    def env(self, home: Path) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k != "OCGKB_DB"}
        # Nothing a case does may reach the user's own cache.
        env.update(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), PYTHONDONTWRITEBYTECODE="1")
        return env

    def start(
        self, args: list, home: Path, cwd: Path | None = None, restricted: bool = False
    ) -> subprocess.Popen:
        proc = subprocess.Popen(
            [str(OCGKB), *args],
            cwd=cwd or home,
            env=self.env(home),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # a timeout kills the whole group
            preexec_fn=_without_override if restricted else None,
        )
        proc.started = time.perf_counter()  # type: ignore[attr-defined]
        self.live.append(proc)
        return proc

    def finish(self, proc: subprocess.Popen, args: list, timeout: float | None = None) -> Run:
        try:
            out, err = proc.communicate(timeout=timeout or self.timeout)
            code = proc.returncode
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            out, err = proc.communicate()
            code = None
        self.live.remove(proc)
        seconds = time.perf_counter() - proc.started  # type: ignore[attr-defined]
        return Run(args, code, _text(out), _text(err), seconds)

    def run(self, args: list, home: Path, cwd: Path | None = None, restricted: bool = False) -> Run:
        return self.finish(self.start(args, home, cwd, restricted), args)

    def kill_all(self) -> None:
        for proc in list(self.live):
            _kill_group(proc)
            proc.communicate()
            self.live.remove(proc)

    # --- folders and knowledge bases --------------------------------------------

    def case_dir(self, name: str) -> Path:
        path = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=self.root))
        path.chmod(0o755)
        return path

    def copy_base(self, target: Path) -> Path:
        assert self.base is not None
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(self.base, target)
        return target

    def check(self, db: Path, home: Path, restricted: bool = False) -> tuple[str, list[str]]:
        """Whether the knowledge base at `db` opens, passes integrity_check and answers a search."""
        if not db.is_file():
            return "no", [f"no knowledge base at {db.name}"]
        notes = []
        try:
            uri = "file:" + urllib.parse.quote(str(db)) + "?mode=ro"
            with sqlite3.connect(uri, uri=True) as conn:
                verdict = conn.execute("PRAGMA integrity_check").fetchone()[0]
            conn.close()
        except sqlite3.Error as exc:
            verdict = f"sqlite3: {exc}"
        if verdict != "ok":
            notes.append(f"integrity_check: {verdict.splitlines()[0][:60]}")
        search = self.run(["--db", str(db), "search", "cost", "--json"], home, restricted=restricted)
        try:
            found = search.code == 0 and bool(json.loads(search.out))
        except ValueError:
            found = False
        if not found:
            notes.append(f"search cost --json: exit {search.code}, {_last_line(search.err)}")
        if search.built:
            notes.append("the check's search started a rebuild")
        if search.traceback:
            notes.append("the check's search printed a traceback")
        return ("yes" if verdict == "ok" and found else "no"), notes


def _without_override() -> None:
    """Run as root but without the capabilities that let root write anywhere
    (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER), so a 0555 folder is read-only."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2, 3):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def _kill_group(proc: subprocess.Popen, sig: int = signal.SIGKILL) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:90] if lines else "(nothing on stderr)"


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".building-" in p.name)


def _code(run: Run) -> str:
    if run.code is None:
        return "timeout"
    if run.code < 0:
        return f"{signal.Signals(-run.code).name}"
    return str(run.code)


# --- the cases ------------------------------------------------------------------


def case_kill_build(r: Runner, after: float | None, sig: int = signal.SIGKILL) -> Row:
    """Kill a build `after` seconds in, or (None) a moment after it starts writing its temporary file."""
    name = "kill -9" if sig == signal.SIGKILL else signal.Signals(sig).name
    row = Row(f"{name} of build " + (f"at {after:g} s" if after is not None else "while it writes"))
    home = r.case_dir("kill")
    db = r.copy_base(home / "ocgkb.sqlite")
    before = db.stat().st_mtime_ns
    proc = r.start(["--db", str(db), "build"], home)
    writing = False  # whether the build had begun writing its temporary file
    while proc.poll() is None:
        elapsed = time.perf_counter() - proc.started  # type: ignore[attr-defined]
        if (after is not None and elapsed >= after) or elapsed > r.timeout:
            break
        if after is None and writing:
            time.sleep(0.3)  # well into the write
            break
        writing = writing or bool(_leftovers(home))
        time.sleep(0.02)
    running = proc.poll() is None
    os.kill(proc.pid, sig)  # the build process itself, as a user's kill would
    run = r.finish(proc, ["build"])
    row.took(run)
    row.notes.append(
        "the build had already ended"
        if not running
        else "killed while writing"
        if writing
        else "killed before writing"
    )
    left = _leftovers(home)
    row.notes.append(f"temp files left: {len(left)}" + (f" ({left[0]})" if left else ""))
    if db.stat().st_mtime_ns != before:
        row.notes.append("the KB file was replaced")
    row.checked(r, db, home)
    if left:
        row.notes.append(f"after the next command: {len(_leftovers(home))}")
    return row


def case_corrupt(r: Runner) -> Row:
    row = Row("200 KB overwritten mid-file, card 增殖的G")
    home = r.case_dir("corrupt")
    db = r.copy_base(home / "ocgkb.sqlite")
    size = db.stat().st_size
    with open(db, "r+b") as out:
        out.seek(size // 2)
        out.write(random.Random(0).randbytes(200 * 1024))
    run = r.run(["--db", str(db), "card", "增殖的G"], home)
    row.took(run)
    row.notes.append("rebuilt" if run.built else "not rebuilt")
    if run.code:
        row.notes.append(_last_line(run.err))
    return row.checked(r, db, home)


def case_unwritable(r: Runner) -> Row:
    row = Row("--db /proc/x.sqlite ask cost")
    home = r.case_dir("proc")
    run = r.run(["--db", "/proc/x.sqlite", "ask", "cost"], home)
    row.took(run)
    row.notes.append(_last_line(run.err))
    return row


def case_read_only(r: Runner, stale: bool) -> Row:
    row = Row(f"read-only folder, {'stale' if stale else 'current'} KB, ask cost")
    home = r.case_dir("readonly")
    folder = home / "ro"
    db = r.copy_base(folder / "ocgkb.sqlite")
    if stale:  # as if a source had changed since it was built
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE meta SET value = 'stale' WHERE key = 'fingerprint'")
        conn.close()
    # root writes anywhere: as root the case runs without the capabilities that allow it.
    restricted = os.geteuid() == 0
    db.chmod(0o444)
    folder.chmod(0o555)
    try:
        run = r.run(["--db", str(db), "ask", "cost"], home, restricted=restricted)
        row.took(run)
        row.notes.append(
            ("root without CAP_DAC_OVERRIDE; " if restricted else "")
            + ("rebuild tried" if run.built else "no rebuild")
        )
        if run.code or stale:
            row.notes.append(_last_line(run.err))
        row.intact, notes = r.check(db, home, restricted=restricted)
        row.notes += notes
    finally:
        folder.chmod(0o755)
    return row


def case_odd_path(r: Runner) -> Row:
    row = Row("path with # ? % and a space")
    home = r.case_dir("oddpath")
    db = r.copy_base(home / "a #b?c %41 d" / "kb #1?x=%20 y.sqlite")
    run = r.run(["--db", str(db), "ask", "cost"], home)
    row.took(run)
    row.notes.append("rebuilt a current KB" if run.built else "opened without rebuilding")
    if run.code:
        row.notes.append(_last_line(run.err))
    strays = sorted(str(p.relative_to(home)) for p in home.rglob("*") if p.is_file() and p != db)
    if strays:
        row.notes.append(f"other files: {', '.join(strays)[:80]}")
    return row.checked(r, db, home)


def case_empty_db(r: Runner) -> Row:
    row = Row("--db '' ask cost")
    home = r.case_dir("emptydb")
    run = r.run(["--db", "", "ask", "cost"], home)
    row.took(run)
    row.notes.append(("built somewhere; " if run.built else "") + _last_line(run.err))
    made = sorted(str(p.relative_to(home)) for p in home.rglob("*") if p.is_file())
    if made:
        row.notes.append(f"files made: {', '.join(made)[:80]}")
    return row


def case_concurrent_first_runs(r: Runner, count: int = 8) -> Row:
    row = Row(f"{count} concurrent first runs of ask cost")
    home = r.case_dir("concurrent")
    db = home / "kb" / "ocgkb.sqlite"
    started = time.perf_counter()
    procs = [r.start(["--db", str(db), "ask", "cost"], home) for _ in range(count)]
    runs = [r.finish(proc, ["ask"], timeout=r.timeout * 2) for proc in procs]
    row.seconds = time.perf_counter() - started
    codes = [_code(run) for run in runs]
    row.code = codes[0] if len(set(codes)) == 1 else ",".join(codes)
    row.traceback = any(run.traceback for run in runs)
    ok = sum(1 for run in runs if run.code == 0)
    builds = sum(1 for run in runs if run.built)
    times = sorted(run.seconds for run in runs)
    row.notes.append(f"{ok}/{count} exit 0; {builds} said they built; times {times[0]:.0f}-{times[-1]:.0f} s")
    failed = [run for run in runs if run.code != 0]
    if failed:
        row.notes.append(_last_line(failed[0].err))
    left = _leftovers(db.parent) if db.parent.is_dir() else []
    if left:
        row.notes.append(f"temp files left: {len(left)}")
    return row.checked(r, db, home)


def case_queries_during_rebuild(r: Runner) -> Row:
    row = Row("queries while a rebuild runs")
    home = r.case_dir("rebuild")
    db = r.copy_base(home / "ocgkb.sqlite")
    started = time.perf_counter()
    build = r.start(["--db", str(db), "build"], home)
    queries: list[Run] = []
    while build.poll() is None and time.perf_counter() - started < r.timeout:
        queries.append(r.run(["--db", str(db), "search", "cost", "--json"], home))
    built = r.finish(build, ["build"])
    row.seconds = time.perf_counter() - started
    good = 0
    for query in queries:
        try:
            good += query.code == 0 and bool(json.loads(query.out))
        except ValueError:
            pass
    row.code = f"build {_code(built)}, queries " + ",".join(sorted({_code(q) for q in queries}) or ["none"])
    row.traceback = built.traceback or any(q.traceback for q in queries)
    row.notes.append(f"{good}/{len(queries)} queries answered")
    bad = [q for q in queries if q.code != 0]
    if bad:
        row.notes.append(_last_line(bad[0].err))
    if any(q.built for q in queries):
        row.notes.append("a query rebuilt too")
    return row.checked(r, db, home)


def case_export_fifo(r: Runner) -> Row:
    row = Row("export --format json onto a FIFO")
    home = r.case_dir("fifo")
    db = r.copy_base(home / "ocgkb.sqlite")
    fifo = home / "graph.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as pipe:
            received.append(pipe.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    run = r.run(["--db", str(db), "export", "--format", "json", "--around", "cost", "-o", str(fifo)], home)
    reader.join(timeout=10)
    if reader.is_alive():  # the export never opened it: let the reader go
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(timeout=10)
    row.took(run)
    kind = "still a FIFO" if stat.S_ISFIFO(os.lstat(fifo).st_mode) else "replaced by a file"
    try:
        nodes = len(json.loads(received[0])["nodes"]) if received and received[0] else 0
    except (ValueError, KeyError):
        nodes = -1
    row.notes.append(f"{kind}; reader got {len(received[0]) if received else 0} bytes, {nodes} nodes")
    if run.code:
        row.notes.append(_last_line(run.err))
    return row.checked(r, db, home)


def case_non_utf8(r: Runner) -> Row:
    row = Row("search $'\\xff\\xfe' (not UTF-8)")
    home = r.case_dir("bytes")
    db = r.copy_base(home / "ocgkb.sqlite")
    run = r.run([b"--db", os.fsencode(db), b"search", b"\xff\xfe"], home)
    row.took(run)
    row.notes.append(_last_line(run.err if run.code else run.out))
    return row.checked(r, db, home)


# --- the web server (issue 19) ----------------------------------------------------


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _get(port: int, path: str = "/api/section/4.2.2", timeout: float = 5) -> int:
    """The status of one GET, 0 when there was no answer."""
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0


def _serve(r: Runner, db: Path, home: Path, *args: str, open_files: int | None = None):
    """A `serve --quiet` on a free port, once it answers (or is dead); (process, port, log)."""
    import resource

    port = _free_port()
    log = home / "serve.log"

    def limit() -> None:
        if open_files:
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

    with open(log, "w") as err:
        proc = subprocess.Popen(
            [str(OCGKB), "--db", str(db), "serve", "--port", str(port), "--quiet", *args],
            cwd=home,
            env=r.env(home),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            start_new_session=True,
            preexec_fn=limit,
        )
    proc.started = time.perf_counter()  # type: ignore[attr-defined]
    r.live.append(proc)
    deadline = time.perf_counter() + r.timeout
    while proc.poll() is None and _get(port, timeout=2) != 200 and time.perf_counter() < deadline:
        time.sleep(0.2)
    return proc, port, log


def _log_notes(log: Path) -> list[str]:
    text = log.read_text(errors="replace")
    lines = [line for line in text.splitlines() if line.strip()]
    notes = [f"{len(lines)} log lines"]
    if "Too many open files" in text:
        notes.append(f"'Too many open files' x{text.count('Too many open files')}")
    return notes


def case_serve_idle(r: Runner, count: int = 1000, open_files: int = 1024) -> Row:
    """`count` connections that never send a byte, under `ulimit -n open_files`."""
    import resource
    import socket

    row = Row(f"serve: {count} idle connections, ulimit -n {open_files}")
    home = r.case_dir("idle")
    db = r.copy_base(home / "ocgkb.sqlite")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(max(soft, count + 200), hard), hard))
    proc, port, log = _serve(r, db, home, "--head-timeout", "60", open_files=open_files)
    held = []
    for _ in range(count):
        sock = socket.socket()
        sock.setblocking(False)
        try:
            sock.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        held.append(sock)
    time.sleep(1)
    times, codes = [], []
    for _ in range(20):
        started = time.perf_counter()
        codes.append(_get(port))
        times.append(time.perf_counter() - started)
    for sock in held:
        sock.close()
    after = _get(port)
    row.code = ",".join(str(c) for c in sorted(set(codes)))
    row.seconds = max(times)
    row.notes += [
        f"{codes.count(200)}/20 answered 200, slowest {max(times) * 1000:.0f} ms",
        f"after: {after}",
    ]
    row.notes += _log_notes(log)
    _kill_group(proc)
    return row


def case_serve_slow_head(r: Runner) -> Row:
    """A head never finished, and a kept-alive connection left idle: closed when?"""
    import socket

    row = Row("serve: unfinished head (timeout 2 s), idle keep-alive (1 s)")
    home = r.case_dir("slowhead")
    db = r.copy_base(home / "ocgkb.sqlite")
    proc, port, log = _serve(r, db, home, "--head-timeout", "2", "--keep-alive", "1")
    for label, data in (
        ("head", b"GET / HTTP/1.1\r\nHost: localhost\r\n"),
        ("keep-alive", b"GET /api/section/4.2.2 HTTP/1.1\r\nHost: localhost\r\n\r\n"),
    ):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(data)
        started = time.perf_counter()
        sock.settimeout(10)
        try:
            while sock.recv(65536):
                pass
            row.notes.append(f"{label}: closed after {time.perf_counter() - started:.1f} s")
        except OSError as exc:
            row.notes.append(f"{label}: {exc}")
        sock.close()
    row.code = str(_get(port))
    _kill_group(proc)
    return row


def case_serve_kill_supervisor(r: Runner) -> Row:
    row = Row("serve --workers 2: kill -9 of the supervisor")
    home = r.case_dir("supervisor")
    db = r.copy_base(home / "ocgkb.sqlite")
    proc, port, log = _serve(r, db, home, "--workers", "2")
    workers = [int(p) for p in Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()]
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    started = time.perf_counter()
    while any(Path(f"/proc/{w}").exists() for w in workers) and time.perf_counter() - started < 10:
        time.sleep(0.02)
    left = [w for w in workers if Path(f"/proc/{w}").exists()]
    row.seconds = time.perf_counter() - started
    row.notes.append(f"{len(workers)} workers; {len(left)} left after {row.seconds:.2f} s")
    again, port2, _ = _serve(r, db, home, "--workers", "2")
    row.code = str(_get(port2))
    row.notes.append(f"a new serve answers {row.code}")
    _kill_group(again)
    return row


def _damage_passages(db: Path) -> None:
    with sqlite3.connect(db) as conn:
        first = conn.execute("SELECT min(pageno) FROM dbstat WHERE name = 'passages'").fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    with open(db, "r+b") as out:
        out.seek((first + 100) * size)
        out.write(random.Random(0).randbytes(200 * 1024))


def case_serve_damaged_workers(r: Runner) -> Row:
    row = Row("serve --workers 2 over a KB with damaged passages")
    home = r.case_dir("damagedserve")
    db = r.copy_base(home / "ocgkb.sqlite")
    _damage_passages(db)
    proc, port, log = _serve(r, db, home, "--workers", "2")
    row.seconds = time.perf_counter() - proc.started  # type: ignore[attr-defined]
    row.code = str(_get(port, "/api/search?q=cost"))
    text = log.read_text(errors="replace")
    row.traceback = "Traceback" in text
    row.notes.append(
        f"serving {row.code} after {row.seconds:.1f} s; rebuilds: {text.count('rebuilding it once')}"
    )
    _kill_group(proc)
    return row.checked(r, db, home)


def case_serve_kb_changed(r: Runner, how: str) -> Row:
    """The KB file truncated in place, or replaced by garbage, under a running server."""
    row = Row(f"serve: KB {how} while serving")
    home = r.case_dir("changed")
    db = r.copy_base(home / "ocgkb.sqlite")
    proc, port, log = _serve(r, db, home)
    if how == "truncated":
        with open(db, "r+b") as out:
            out.truncate(db.stat().st_size // 3)
    else:
        (home / "garbage").write_bytes(os.urandom(100_000))
        os.replace(home / "garbage", db)
    time.sleep(1.1)
    started, seen = time.perf_counter(), []
    while time.perf_counter() - started < r.timeout:
        code = _get(port, "/api/search?q=cost")
        if not seen or seen[-1] != code:
            seen.append(code)
        if code == 200:
            break
        time.sleep(0.2)
    row.seconds = time.perf_counter() - started
    row.code = "→".join(str(c) for c in seen)
    row.traceback = "Traceback" in log.read_text(errors="replace")
    row.notes.append(f"statuses {row.code}; 200 after {row.seconds:.1f} s")
    _kill_group(proc)
    return row.checked(r, db, home) if how == "truncated" else row


CASES: list[tuple[str, Callable[[Runner], Row]]] = [
    ("kill-0.5", lambda r: case_kill_build(r, 0.5)),
    ("kill-2", lambda r: case_kill_build(r, 2)),
    ("kill-5", lambda r: case_kill_build(r, 5)),
    ("kill-writing", lambda r: case_kill_build(r, None)),
    ("sigterm", lambda r: case_kill_build(r, 3, signal.SIGTERM)),
    ("sigterm-writing", lambda r: case_kill_build(r, None, signal.SIGTERM)),
    ("corrupt", case_corrupt),
    ("unwritable", case_unwritable),
    ("readonly-current", lambda r: case_read_only(r, stale=False)),
    ("readonly-stale", lambda r: case_read_only(r, stale=True)),
    ("odd-path", case_odd_path),
    ("empty-db", case_empty_db),
    ("concurrent", case_concurrent_first_runs),
    ("rebuild-queries", case_queries_during_rebuild),
    ("fifo", case_export_fifo),
    ("non-utf8", case_non_utf8),
    ("serve-idle", case_serve_idle),
    ("serve-slow-head", case_serve_slow_head),
    ("serve-kill-supervisor", case_serve_kill_supervisor),
    ("serve-damaged-workers", case_serve_damaged_workers),
    ("serve-truncated", lambda r: case_serve_kb_changed(r, "truncated")),
    ("serve-replaced", lambda r: case_serve_kb_changed(r, "replaced by garbage")),
]


# --- hostile paths and input (issue 19) ------------------------------------------
# Kept in one block, appended to CASES below, so other additions merge beside it.
# Nothing here writes to a device: FIFOs, folders and loops are made in the case's
# folder; the one device is /dev/full as a case's standard output (the user's redirect).


def _safety_run(r: Runner, args: list, home: Path, env: dict | None = None, stdout=subprocess.PIPE) -> Run:
    """One ocgkb process with extra environment and any standard output."""
    proc = subprocess.Popen(
        [str(OCGKB), *args],
        cwd=home,
        env={**r.env(home), **(env or {})},
        stdin=subprocess.DEVNULL,
        stdout=stdout,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    started = time.perf_counter()
    try:
        out, err = proc.communicate(timeout=min(r.timeout, 60))
        code = proc.returncode
    except subprocess.TimeoutExpired:  # a hang is a finding: kill it and say so
        _kill_group(proc)
        out, err = proc.communicate()
        code = None
    return Run(args, code, _text(out or b""), _text(err), time.perf_counter() - started)


def _safety_row(case: str, run: Run, *notes: str) -> Row:
    row = Row(case)
    row.took(run)
    row.notes += [*notes, _last_line(run.err)]
    return row


def _kind(path: Path) -> str:
    mode = os.lstat(path).st_mode
    for test, name in ((stat.S_ISFIFO, "FIFO"), (stat.S_ISLNK, "symlink"), (stat.S_ISREG, "regular file")):
        if test(mode):
            return name
    return "other"


def case_kb_path_kinds(r: Runner, kind: str) -> Row:
    """--db naming a FIFO, a symlink loop, or a plain path whose lock file is a FIFO."""
    home = r.case_dir("kbkind")
    db = home / "kb.sqlite"
    if kind == "fifo":
        os.mkfifo(db)
    elif kind == "loop":
        os.symlink(home / "other", db)
        os.symlink(db, home / "other")
    else:
        os.mkfifo(home / "kb.sqlite.lock")
    watched = db if kind != "lock" else home / "kb.sqlite.lock"
    run = _safety_run(r, ["search", "cost"], home, env={"OCGKB_DB": str(db)})
    return _safety_row(f"OCGKB_DB is a {kind}" if kind != "lock" else "lock file is a FIFO", run,
                       f"afterwards a {_kind(watched)}", "built" if run.built else "nothing built")  # fmt: skip


def case_kb_symlink(r: Runner) -> Row:
    home = r.case_dir("kblink")
    real = r.copy_base(home / "store" / "real.sqlite")
    os.symlink(real, home / "kb.sqlite")
    run = _safety_run(r, ["--db", str(home / "kb.sqlite"), "search", "cost", "--json"], home)
    row = _safety_row("--db a symlink to a KB", run, f"link is a {_kind(home / 'kb.sqlite')}")
    return row.checked(r, real, home)


def case_long_section(r: Runner) -> Row:
    home = r.case_dir("longsection")
    db = r.copy_base(home / "ocgkb.sqlite")
    run = _safety_run(r, ["--db", str(db), "section", "4." * 25001], home)
    return _safety_row("section of 50,002 characters", run, "rebuilt" if run.built else "no rebuild").checked(
        r, db, home
    )


def case_replay_hostile(r: Runner, what: str) -> Row:
    home = r.case_dir("replay")
    target = home / what
    if what == "fifo":
        os.mkfifo(target)
    elif what == "empty":
        target.mkdir()
    else:
        with open(target, "wb") as out:
            out.truncate(2 * 1024**3)  # sparse
    return _safety_run_row(r, f"replay {what}", ["replay", str(target)], home)


def _safety_run_row(r: Runner, case: str, args: list, home: Path, **kwargs) -> Row:
    return _safety_row(case, _safety_run(r, args, home, **kwargs))


def case_full_stdout(r: Runner) -> Row:
    home = r.case_dir("full")
    db = r.copy_base(home / "ocgkb.sqlite")
    with open("/dev/full", "wb") as full:  # as `ocgkb search cost > /dev/full`
        return _safety_run_row(
            r, "search cost > /dev/full", ["--db", str(db), "search", "cost"], home, stdout=full
        )


def case_long_db_name(r: Runner) -> Row:
    home = r.case_dir("longname")
    return _safety_run_row(r, "--db of 5,000 characters", ["--db", "a" * 5000, "search", "cost"], home)


def case_latin1(r: Runner) -> Row:
    home = r.case_dir("latin1")
    db = r.copy_base(home / "ocgkb.sqlite")
    run = _safety_run(r, ["--db", str(db), "search", "cost"], home, env={"PYTHONIOENCODING": "latin-1"})
    return _safety_row("PYTHONIOENCODING=latin-1 search cost", run, f"{len(run.out)} characters out")


def case_export_read_only(r: Runner) -> Row:
    home = r.case_dir("exportro")
    db = r.copy_base(home / "ocgkb.sqlite")
    out = home / "graph.json"
    out.write_text("keep me")
    out.chmod(0o444)
    args = ["--db", str(db), "export", "--format", "json", "--around", "cost", "-o", str(out)]
    run = _safety_run(r, args, home)
    kept = "file kept" if out.read_text() == "keep me" else "file replaced"
    return _safety_row("export -o a 0444 file", run, kept)


def case_bad_options(r: Runner, *options: str) -> Row:
    home = r.case_dir("options")
    db = r.copy_base(home / "ocgkb.sqlite")
    shown = " ".join(o if o.startswith("--") else repr(o) for o in options)
    return _safety_run_row(r, f"search cost {shown}", ["--db", str(db), "search", "cost", *options], home)


SAFETY_CASES: list[tuple[str, Callable[[Runner], Row]]] = [
    ("kb-fifo", lambda r: case_kb_path_kinds(r, "fifo")),
    ("kb-loop", lambda r: case_kb_path_kinds(r, "loop")),
    ("kb-lock-fifo", lambda r: case_kb_path_kinds(r, "lock")),
    ("kb-symlink", case_kb_symlink),
    ("long-section", case_long_section),
    ("replay-fifo", lambda r: case_replay_hostile(r, "fifo")),
    ("replay-sparse", lambda r: case_replay_hostile(r, "sparse.yaml")),
    ("replay-empty", lambda r: case_replay_hostile(r, "empty")),
    ("full-stdout", case_full_stdout),
    ("long-db-name", case_long_db_name),
    ("latin1", case_latin1),
    ("export-read-only", case_export_read_only),
    ("limit-digits", lambda r: case_bad_options(r, "--limit", "٣")),
    ("since-empty", lambda r: case_bad_options(r, "--since", "")),
    ("since-after-until", lambda r: case_bad_options(r, "--since", "2024-01-01", "--until", "2020-01-01")),
]
CASES += SAFETY_CASES


def table(rows: list[Row]) -> str:
    head = ["case", "exit code", "traceback", "KB intact", "s", "notes"]
    body = [
        [
            row.case,
            row.code,
            "yes" if row.traceback else "no",
            row.intact,
            f"{row.seconds:.1f}",
            "; ".join(row.notes).replace("|", "\\|"),
        ]
        for row in rows
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(cells) + " |" for cells in body]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", action="append", help="run only the cases whose name contains this")
    parser.add_argument("--timeout", type=float, default=120, help="seconds before a process is killed")
    args = parser.parse_args()
    if not OCGKB.exists():
        print(f"no ocgkb beside {sys.executable}: install the package first (pip install .)", file=sys.stderr)
        return 2
    cases = [(n, f) for n, f in CASES if not args.only or any(word in n for word in args.only)]
    rows: list[Row] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ocgkb-stress-") as folder:
        root = Path(folder)
        runner = Runner(root, args.timeout)
        try:
            base_home = runner.case_dir("base")
            runner.base = base_home / "ocgkb.sqlite"
            print("building the knowledge base the cases copy…", file=sys.stderr, flush=True)
            base = runner.run(["--db", str(runner.base), "build"], base_home)
            if base.code != 0 or not runner.base.is_file():
                print(f"the first build failed (exit {base.code}):\n{base.err[-2000:]}", file=sys.stderr)
                return 1
            print(f"built in {base.seconds:.1f} s", file=sys.stderr)
            for name, case in cases:
                print(f"case {name}…", file=sys.stderr, flush=True)
                try:
                    rows.append(case(runner))
                except Exception as exc:  # a case that cannot even be set up is a row, not the end
                    rows.append(Row(name, code="error", notes=[f"stress.py: {type(exc).__name__}: {exc}"]))
                finally:
                    runner.kill_all()
        finally:
            runner.kill_all()
            for path in root.rglob("*"):  # read-only folders would stop the clean-up
                if path.is_dir() and not path.is_symlink():
                    path.chmod(0o755)
    print(table(rows))
    print(f"\n{len(rows)} cases in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
