"""The one door to a knowledge base, for every front end: open it (building it on
first use or when its inputs changed), build it, check it, repair it.

Every build passes through `_build_locked`: one build of a file at a time, a
process that waited for another's build uses it. Front ends (the command line,
the web site and its supervisor) import this module, never the build.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, NamedTuple

from ocgkb import OcgkbError, paths
from ocgkb.files import UnsafePathError, is_file, kind_of, replaceable
from ocgkb.paths import StrPath, Where
from ocgkb.sources import inputs
from ocgkb.store.damage import is_damage
from ocgkb.store.database import KnowledgeBase, connect_read_only, deadline, past_deadline
from ocgkb.store.schema import SCHEMA_VERSION

if TYPE_CHECKING:
    from ocgkb.build.pipeline import BuildReport

# What the front ends use: the knowledge base and its file, the four operations,
# and a deadline for a thread's reads (a web request's).
__all__ = [
    "KnowledgeBase", "Signature", "build", "build_steps", "check", "deadline", "is_current", "is_damage",
    "open_kb", "past_deadline", "repair", "signature",
]  # fmt: skip

Progress = Callable[[str], None]
# A build to run, given what to tell of each step; a caller may wrap it (a progress bar).
Run = Callable[[Progress | None], "BuildReport"]
OnBuild = Callable[[Run], "BuildReport"]


class Signature(NamedTuple):
    """What identifies one version of a file at a path."""

    device: int
    inode: int
    size: int
    mtime_ns: int


def signature(path: StrPath) -> Signature | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return Signature(info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def build_steps() -> int:
    """How many steps a build reports (a progress bar's length), without importing the build first."""
    from ocgkb.build.pipeline import BUILD_STEPS

    return len(BUILD_STEPS)


def open_kb(
    db_path: Where = None,
    data_dir: Where = None,
    kb_dir: Where = None,
    on_build: OnBuild | None = None,
    on_stale_kept: Callable[[str], None] | None = None,
) -> KnowledgeBase:
    """The knowledge base at `db_path`, built first when missing or out of date.

    `on_build(run)` lets a caller wrap the build (a progress bar); it must call
    `run(progress)`. When a rebuild fails but an older build exists, the older one
    is opened and `on_stale_kept(message)` is told why.
    """
    db_path = _place(db_path)
    paths.remove_dead_builds(db_path)
    current = _open_if_current(db_path, data_dir, kb_dir)
    if current is not None:
        return current
    wanted = _wanted_fingerprint(data_dir, kb_dir)
    stale_kept = on_stale_kept or (lambda message: None)
    with _build_locked(db_path) as (locked, run_build):
        if _fingerprint_of(db_path) == wanted:  # built by the process we waited for
            return KnowledgeBase(db_path)
        if locked is False and _fingerprint_of(db_path) is not None:
            # Nothing can be written here: say so at once instead of building in vain.
            stale_kept(f"cannot write to {_folder(db_path)}; using the stale knowledge base built before")
            return KnowledgeBase(db_path)
        try:
            run_build(data_dir, kb_dir, on_build)
        except OcgkbError as exc:
            if _fingerprint_of(db_path) is None:
                raise
            stale_kept(f"{exc}; using the stale knowledge base built before")
    return KnowledgeBase(db_path)


def build(
    db_path: Where = None, data_dir: Where = None, kb_dir: Where = None, on_build: OnBuild | None = None
) -> BuildReport:
    """Build the knowledge base now, whatever is there, and return the build report."""
    with _build_locked(_place(db_path)) as (_, run_build):
        return run_build(data_dir, kb_dir, on_build)


def repair(
    db_path: Where = None,
    data_dir: Where = None,
    kb_dir: Where = None,
    seen: Signature | None = None,
    on_build: OnBuild | None = None,
) -> bool:
    """Rebuild a knowledge base found damaged. `seen` is the file found damaged
    (default: the file there now, before waiting for the lock); when another process
    has rebuilt or replaced it meanwhile, nothing is built. True when this call built it."""
    db_path = _place(db_path)
    seen = seen or signature(db_path)
    with _build_locked(db_path) as (_, run_build):
        if seen is not None and signature(db_path) != seen:
            return False
        # The damaged file goes first: the build starts from nothing, and a process
        # waiting for the lock sees it gone.
        with contextlib.suppress(FileNotFoundError):
            os.unlink(db_path)
        run_build(data_dir, kb_dir, on_build)
    return True


def is_current(db_path: StrPath, data_dir: Where = None, kb_dir: Where = None) -> bool:
    """Whether a build is of the inputs as they are now: at once when no input file
    looks touched since the build, else by hashing every input's bytes."""
    kb = _open_if_current(db_path, data_dir, kb_dir)
    if kb is None:
        return False
    kb.close()
    return True


def _open_if_current(db_path: StrPath, data_dir: Where, kb_dir: Where) -> KnowledgeBase | None:
    """The knowledge base, open, when it is a build of the inputs as they are now
    (see `is_current`); else None. The connection that checked it is the one kept:
    SQLite reads the schema and readies the full-text index once, not twice."""
    if not is_file(db_path):
        return None
    try:
        kb = KnowledgeBase(db_path)
    except sqlite3.Error:
        return None
    current = False
    try:
        current = _is_current(_recorded_in(kb.conn), data_dir, kb_dir)
    except sqlite3.Error:  # not a usable build
        pass
    finally:
        if not current:
            kb.close()
    return kb if current else None


def _is_current(recorded: dict[str, str] | None, data_dir: Where, kb_dir: Where) -> bool:
    if recorded is None:
        return False
    data_dir, kb_dir = data_dir or paths.data_dir(), kb_dir or paths.kb_dir()
    if recorded.get("stat_signature") == inputs.stat_signature(data_dir, kb_dir, SCHEMA_VERSION):
        return True
    return recorded["fingerprint"] == _wanted_fingerprint(data_dir, kb_dir)


def check(db_path: Where = None, data_dir: Where = None, kb_dir: Where = None) -> dict:
    """Whether a built knowledge base is sound (SQLite's integrity check) and up to
    date (built from the sources and curated files as they are now)."""
    db_path = paths.plain(db_path or paths.default_db_path())
    result = {"path": db_path, "integrity": "missing", "up_to_date": False, "sound": False}
    if not is_file(db_path):
        return result
    try:
        conn = connect_read_only(db_path)
        try:
            rows = [r[0] for r in conn.execute("PRAGMA integrity_check(5)")]
        finally:
            conn.close()
        result["integrity"] = "ok" if rows == ["ok"] else "; ".join(rows)
    except sqlite3.DatabaseError as exc:
        result["integrity"] = f"unreadable: {exc}"
    result["up_to_date"] = _fingerprint_of(db_path) == _wanted_fingerprint(data_dir, kb_dir)
    result["sound"] = result["integrity"] == "ok" and result["up_to_date"]
    result["sources"] = added_sources_state()
    return result


def added_sources_state() -> list[dict]:
    """Each added documentation and whether the folder it came from is still there
    (`present`, `changed`, `missing`): its kept copy is built either way."""
    from ocgkb.sources import added

    return [
        {"name": s.name, "origin": s.origin, "added": s.added, "state": added.origin_state(s)}
        for s in added.list_sources()
    ]


def _place(db_path: Where) -> str:
    # A device, FIFO or symlink loop is refused before anything is built; a symlink is followed.
    return replaceable(paths.plain(db_path or paths.default_db_path()))


def _folder(db_path: str) -> str:
    """The folder a knowledge base file is in (`.` for a bare name, as pathlib's parent)."""
    return os.path.dirname(db_path) or "."


@contextlib.contextmanager
def _build_locked(db_path: str) -> Iterator[tuple[bool | None, Callable[..., BuildReport]]]:
    """The build lock held, and the one way to build `db_path` while it is:
    `run_build(data_dir, kb_dir, on_build)`. Yields whether the lock was taken
    (see `_lock`) beside it."""

    def run_build(data_dir: Where, kb_dir: Where, on_build: OnBuild | None) -> BuildReport:
        from ocgkb.build.pipeline import build as build_into

        def run(progress: Progress | None = None) -> BuildReport:
            return build_into(db_path, data_dir, kb_dir, progress)

        return on_build(run) if on_build else run()

    with _lock(db_path) as locked:
        yield locked, run_build


@contextlib.contextmanager
def _lock(db_path: str) -> Iterator[bool | None]:
    """One build at a time for a knowledge base: a lock file beside it, held with
    flock, so a second process waits for the first and then uses its result.
    Yields True when locked, False where no file can be made there (the place is
    not writable), None where the system has no flock (builds stay atomic)."""
    try:
        import fcntl
    except ImportError:
        yield None
        return
    db_path = replaceable(db_path)
    lock_path = replaceable(db_path + ".lock")  # a FIFO or device there: refused
    try:
        os.makedirs(_folder(db_path), exist_ok=True)
        handle = open(lock_path, "a+b")  # noqa: SIM115 - held for the whole build
    except OSError:
        yield False
        return
    try:
        mode = os.fstat(handle.fileno()).st_mode
        if not stat.S_ISREG(mode):  # swapped in between the check and the open
            raise UnsafePathError(
                f"{lock_path} is {kind_of(mode)}, not a regular file; refusing to write there"
            )
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield True
    finally:
        handle.close()  # closing releases the lock


def _recorded(db_path: str) -> dict[str, str] | None:
    """The input fingerprint and stat signature a built database records; None when
    it is not a usable build."""
    if not is_file(db_path):
        return None
    try:
        conn = connect_read_only(db_path)
        try:
            return _recorded_in(conn)
        finally:
            conn.close()
    except sqlite3.Error:
        return None


def _recorded_in(conn: sqlite3.Connection) -> dict[str, str] | None:
    """What `_recorded` reads, on a connection already open."""
    rows = conn.execute(
        "SELECT key, value FROM meta WHERE key IN ('fingerprint', 'stat_signature')"
    ).fetchall()
    conn.execute("SELECT 1 FROM seed_fts LIMIT 1")
    recorded = {key: value for key, value in rows}
    return recorded if recorded.get("fingerprint") else None


def _fingerprint_of(db_path: str) -> str | None:
    """The input fingerprint a built database records; None when it is not a usable build."""
    recorded = _recorded(db_path)
    return recorded["fingerprint"] if recorded else None


def _wanted_fingerprint(data_dir: Where = None, kb_dir: Where = None) -> str:
    return inputs.fingerprint(data_dir or paths.data_dir(), kb_dir or paths.kb_dir(), SCHEMA_VERSION)
