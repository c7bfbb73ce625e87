"""Opening the built knowledge base, building or rebuilding it when needed."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import stat
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Generic, TypeVar, overload

from ocgkb import OcgkbError, paths
from ocgkb.files import UnsafePathError, kind_of, replaceable
from ocgkb.sources import manifest as sources
from ocgkb.store.schema import SCHEMA_VERSION
from ocgkb.text.normalize import Normalizer

# A list of values as one JSON parameter: `WHERE term IN {IN_JSON}` with
# `json_values(terms)`. The SQL text stays the same whatever the list's length, so
# the connection's statement cache holds one statement, not one per length: a
# statement with thousands of ? costs hundreds of kilobytes, and a server asked
# ever-new questions kept 128 of them (100 MB).
IN_JSON = "(SELECT value FROM json_each(?))"


def json_values(values: Iterable) -> str:
    return json.dumps(list(values), ensure_ascii=False)


class Vocabulary(Mapping[str, int]):
    """The words the index was cut into, with their document frequencies, read a
    few at a time: a question looks up a few hundred substrings, never all 7,800
    words (reading them all is most of a query's start-up).

    What it has read stays in memory, bounded: the words found are at most the
    vocabulary itself, and the pieces found not to be words (every substring of
    every question ever asked, which a server must not keep forever) are
    remembered only for the last `MISSES_KEPT` lookups."""

    MISSES_KEPT = 20_000

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._found: dict[str, int] = {}
        self._missing: OrderedDict[str, None] = OrderedDict()

    def prefetch(self, terms: Iterable[str]) -> None:
        """Look many terms up in one query (SQLite allows 32,766 parameters)."""
        wanted = [t for t in dict.fromkeys(terms) if not self._seen(t)][:30000]
        if not wanted:
            return
        found = dict(
            self._conn.execute(
                f"SELECT term, df FROM vocabulary WHERE term IN {IN_JSON}", (json_values(wanted),)
            )
        )
        for term in wanted:
            self._remember(term, found.get(term))

    def _seen(self, term: str) -> bool:
        return term in self._found or term in self._missing

    def _remember(self, term: str, df: int | None) -> None:
        if df is not None:
            self._found[term] = df
            return
        self._missing[term] = None
        self._missing.move_to_end(term)
        if len(self._missing) > self.MISSES_KEPT:
            self._missing.popitem(last=False)

    def _lookup(self, term: str) -> int | None:
        if term in self._found:
            return self._found[term]
        if term in self._missing:
            self._missing.move_to_end(term)
            return None
        row = self._conn.execute("SELECT df FROM vocabulary WHERE term = ?", (term,)).fetchone()
        self._remember(term, row[0] if row else None)
        return row[0] if row else None

    def memory_size(self) -> int:
        """How many lookups are remembered (found and missing), for tests and benchmarks."""
        return len(self._found) + len(self._missing)

    def __getitem__(self, term: str) -> int:
        value = self._lookup(term)
        if value is None:
            raise KeyError(term)
        return value

    def __contains__(self, term: object) -> bool:
        return isinstance(term, str) and self._lookup(term) is not None

    def __iter__(self) -> Iterator[str]:
        return (row[0] for row in self._conn.execute("SELECT term FROM vocabulary"))

    def __len__(self) -> int:
        return self._conn.execute("SELECT count(*) FROM vocabulary").fetchone()[0]


T = TypeVar("T")


class memoized(Generic[T]):  # lower case: a decorator, like functools.cached_property
    """A KnowledgeBase attribute made on its first read and kept in `kb.memo`."""

    def __init__(self, make: Callable[[KnowledgeBase], T]) -> None:
        self.make = make
        self.__doc__ = make.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, kb: None, owner: type | None = None) -> memoized[T]: ...
    @overload
    def __get__(self, kb: KnowledgeBase, owner: type | None = None) -> T: ...
    def __get__(self, kb: KnowledgeBase | None, owner: type | None = None) -> T | memoized[T]:
        if kb is None:
            return self
        return kb.memo(self.name, lambda: self.make(kb))


class KnowledgeBase:
    """Read-only access to a built knowledge base."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.conn = connect_read_only(self.path)
        self.conn.row_factory = sqlite3.Row
        self._memo: dict[Hashable, Any] = {}

    def memo(self, key: Hashable, make: Callable[[], T]) -> T:
        """What this process has read of this knowledge base, made once by `make`
        and dropped with it: a built knowledge base never changes under its readers
        (a rebuilt one is a new KnowledgeBase). Keys are the readers' own: a name,
        or a tuple beginning with their module's. Two threads may both make a value
        the first time; both then use the one kept first."""
        try:
            return self._memo[key]
        except KeyError:
            return self._memo.setdefault(key, make())

    def close(self) -> None:
        self.conn.close()

    def query(self, sql: str, params: tuple | dict = ()) -> list[sqlite3.Row]:
        return self.conn.execute(sql, params).fetchall()

    def meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    @memoized
    def fingerprint(self) -> str:
        """The build's input fingerprint: what caches of this knowledge base are keyed by."""
        return self.meta("fingerprint") or ""

    @memoized
    def normalize(self) -> Normalizer:
        return Normalizer(json.loads(self.meta("repairs") or "{}"), self.meta("traditional"))

    @memoized
    def hit_parts(self) -> dict:
        """What a hit shows of each passage, by id, kept like `candidates`."""
        return {}

    @memoized
    def candidates(self) -> dict:
        """What ranking has read of each passage (search.Candidate, by rowid), kept
        for this connection's life (a built knowledge base never changes under it)."""
        return {}

    @memoized
    def vocabulary(self) -> Vocabulary:
        return Vocabulary(self.conn)

    @memoized
    def vocabulary_total(self) -> int:
        stored = self.meta("vocabulary_total")
        if stored:
            return int(stored)
        return self.conn.execute("SELECT sum(df) FROM vocabulary").fetchone()[0] or 1

    @memoized
    def passage_count(self) -> int:
        return self.conn.execute("SELECT count(*) FROM passages").fetchone()[0]

    @memoized
    def average_tokens(self) -> dict[str, float]:
        """Mean tokens per passage in each indexed field, for BM25's length norm."""
        return json.loads(self.meta("average_tokens") or '{"words": 1, "grams": 1, "context": 1}')

    def report(self) -> dict:
        return json.loads(self.meta("report") or "{}")


def like_literal(text: str) -> str:
    """Text for a LIKE pattern with ESCAPE '\\': its own %, _ and \\ taken as themselves."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def connect_read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection to a file whatever its name: the URI escapes # ? %
    and spaces, so /tmp/a#b/kb.sqlite never opens /tmp/a. Any thread may use it
    (a web server opens it in one and answers in another): it only reads, and
    SQLite serialises access to one connection itself."""
    from urllib.parse import quote

    uri = f"file:{quote(str(Path(path).resolve()))}?mode=ro"
    return sqlite3.connect(uri, uri=True, check_same_thread=False)


def _recorded(db_path: Path) -> dict[str, str] | None:
    """The input fingerprint and stat signature a built database records; None when
    it is not a usable build."""
    if not db_path.is_file():
        return None
    try:
        conn = connect_read_only(db_path)
        try:
            rows = conn.execute(
                "SELECT key, value FROM meta WHERE key IN ('fingerprint', 'stat_signature')"
            ).fetchall()
            conn.execute("SELECT 1 FROM passage_fts LIMIT 1")
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    recorded = dict(rows)
    return recorded if recorded.get("fingerprint") else None


def _fingerprint_of(db_path: Path) -> str | None:
    """The input fingerprint a built database records; None when it is not a usable build."""
    recorded = _recorded(db_path)
    return recorded["fingerprint"] if recorded else None


def wanted_fingerprint(data_dir: Path | None = None, kb_dir: Path | None = None) -> str:
    return sources.fingerprint(data_dir or paths.data_dir(), kb_dir or paths.kb_dir(), SCHEMA_VERSION)


def is_current(db_path: Path, data_dir: Path | None = None, kb_dir: Path | None = None) -> bool:
    """Whether a build is of the inputs as they are now: at once when no input file
    looks touched since the build, else by hashing every input's bytes."""
    recorded = _recorded(db_path)
    if recorded is None:
        return False
    data_dir, kb_dir = data_dir or paths.data_dir(), kb_dir or paths.kb_dir()
    if recorded.get("stat_signature") == sources.stat_signature(data_dir, kb_dir, SCHEMA_VERSION):
        return True
    return recorded["fingerprint"] == wanted_fingerprint(data_dir, kb_dir)


def check(db_path: Path, data_dir: Path | None = None, kb_dir: Path | None = None) -> dict:
    """Whether a built knowledge base is sound (SQLite's integrity check) and up to
    date (built from the sources and curated files as they are now)."""
    db_path = Path(db_path)
    result = {"path": str(db_path), "integrity": "missing", "up_to_date": False, "sound": False}
    if not db_path.is_file():
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
    result["up_to_date"] = _fingerprint_of(db_path) == wanted_fingerprint(data_dir, kb_dir)
    result["sound"] = result["integrity"] == "ok" and result["up_to_date"]
    return result


@contextlib.contextmanager
def build_lock(db_path: Path) -> Iterator[bool | None]:
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
    lock_path = replaceable(db_path.with_name(db_path.name + ".lock"))  # a FIFO or device there: refused
    try:
        db_path.parent.mkdir(parents=True, exist_ok=True)
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


def open_kb(
    db_path: Path | None = None,
    data_dir: Path | None = None,
    kb_dir: Path | None = None,
    on_build: Callable[[Callable[..., object]], object] | None = None,
    on_stale_kept: Callable[[str], None] | None = None,
) -> KnowledgeBase:
    """The knowledge base at `db_path`, built first when missing or out of date.

    `on_build(run)` lets a caller wrap the build (a progress bar); it must call
    `run(progress)`. Builds are serialised by a lock: a process that waited for
    another's build uses it. When a rebuild fails but an older build exists, the
    older one is opened and `on_stale_kept(message)` is told why.
    """
    # A device, FIFO or symlink loop is refused before anything is built; a symlink is followed.
    db_path = replaceable(Path(db_path or paths.default_db_path()))
    paths.remove_dead_builds(db_path)
    if is_current(db_path, data_dir, kb_dir):
        return KnowledgeBase(db_path)
    wanted = wanted_fingerprint(data_dir, kb_dir)
    from ocgkb.build.pipeline import build

    def run(progress=None):
        return build(db_path, data_dir, kb_dir, progress)

    with build_lock(db_path) as locked:
        if _fingerprint_of(db_path) == wanted:  # built by the process we waited for
            return KnowledgeBase(db_path)
        if locked is False and _fingerprint_of(db_path) is not None:
            # Nothing can be written here: say so at once instead of building in vain.
            if on_stale_kept:
                on_stale_kept(
                    f"cannot write to {db_path.parent}; using the stale knowledge base built before"
                )
            return KnowledgeBase(db_path)
        try:
            on_build(run) if on_build else run()
        except OcgkbError as exc:
            if _fingerprint_of(db_path) is None:
                raise
            if on_stale_kept:
                on_stale_kept(f"{exc}; using the stale knowledge base built before")
    return KnowledgeBase(db_path)
