"""Reading a built knowledge base: the read-only `KnowledgeBase` and its connection.

Opening, building, checking and repairing one go through `store/door.py`."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Generic, TypeVar, overload

from ocgkb.paths import StrPath, plain
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

    def __init__(self, connection: Callable[[], sqlite3.Connection]) -> None:
        self._connection = connection  # the calling thread's
        self._found: dict[str, int] = {}
        self._missing: OrderedDict[str, None] = OrderedDict()
        # A server's threads share it: a miss moved to the end by one must not be
        # dropped by another in between (a KeyError). Held for the bookkeeping, never a read.
        self._lock = threading.Lock()

    def prefetch(self, terms: Iterable[str]) -> None:
        """Look many terms up in one query (SQLite allows 32,766 parameters)."""
        wanted = [t for t in dict.fromkeys(terms) if not self._seen(t)][:30000]
        if not wanted:
            return
        found = dict(
            self._connection().execute(
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
        with self._lock:
            self._missing[term] = None
            self._missing.move_to_end(term)
            if len(self._missing) > self.MISSES_KEPT:
                self._missing.popitem(last=False)

    def _lookup(self, term: str) -> int | None:
        if term in self._found:
            return self._found[term]
        with self._lock:
            if term in self._missing:
                self._missing.move_to_end(term)
                return None
        row = self._connection().execute("SELECT df FROM vocabulary WHERE term = ?", (term,)).fetchone()
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
        return (row[0] for row in self._connection().execute("SELECT term FROM vocabulary"))

    def __len__(self) -> int:
        return self._connection().execute("SELECT count(*) FROM vocabulary").fetchone()[0]


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
    """Read-only access to a built knowledge base.

    Each thread reads through a connection of its own, opened on its first read
    and closed with the thread or the knowledge base: a web server's slow question
    then never holds another request's reads, and a deadline (`deadline`) stops
    only the reads of the thread it was set in."""

    def __init__(self, path: StrPath) -> None:
        self.path = plain(path)
        self._local = threading.local()
        self.conn  # noqa: B018 -- opened now, so a file that will not open says so here
        self._memo: dict[Hashable, Any] = {}

    @property
    def conn(self) -> sqlite3.Connection:
        """The calling thread's connection."""
        try:
            return self._local.conn
        except AttributeError:
            self._local.conn = connect_read_only(self.path)
            self._local.conn.row_factory = sqlite3.Row
            self._local.conn.set_progress_handler(past_deadline, PROGRESS_EVERY)
            return self._local.conn

    @conn.setter
    def conn(self, connection: sqlite3.Connection) -> None:  # a test's recording wrapper
        self._local.conn = connection

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
        """Close the calling thread's connection (the others close with their threads)."""
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
        return Vocabulary(lambda: self.conn)

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
    def families(self) -> list[Family]:
        """The families of documents that have passages, each ranked on its own (schema.FAMILIES)."""
        stored = json.loads(self.meta("families") or "{}")
        return [
            Family(name, its["passages"], its["average_tokens"])
            for name, its in stored.items()
            if its["passages"]
        ]

    def report(self) -> dict:
        return json.loads(self.meta("report") or "{}")


class Family:
    """One family of documents (the seeds, or what the user added) as ranking sees
    it: its full-text index, how many passages it has and their mean tokens per
    indexed field, for BM25's length norm. (A class with slots: see Candidate.)"""

    __slots__ = ("name", "passages", "average_tokens")

    def __init__(self, name: str, passages: int, average_tokens: dict[str, float]) -> None:
        self.name, self.passages, self.average_tokens = name, passages, average_tokens


# A deadline for the reads of the current thread (a web request's), checked by
# SQLite every PROGRESS_EVERY virtual-machine steps (about a millisecond): past it
# the statement stops with sqlite3.OperationalError("interrupted").
PROGRESS_EVERY = 20_000
_deadlines = threading.local()


@contextmanager
def deadline(at: float) -> Iterator[None]:
    """Reads of this thread stop once `time.monotonic()` passes `at`."""
    _deadlines.at = at
    try:
        yield
    finally:
        _deadlines.at = None


def past_deadline() -> bool:
    """Whether this thread's deadline has passed (False without one); as SQLite's
    progress handler, True stops the statement."""
    at = getattr(_deadlines, "at", None)
    return at is not None and time.monotonic() > at


def like_literal(text: str) -> str:
    """Text for a LIKE pattern with ESCAPE '\\': its own %, _ and \\ taken as themselves."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def connect_read_only(path: StrPath) -> sqlite3.Connection:
    """A read-only connection to a file whatever its name: the URI escapes what
    would end or escape its path, so /tmp/a#b/kb.sqlite never opens /tmp/a. It is
    not tied to its thread: a connection the garbage collector closes may be closed
    from another one."""
    uri = f"file:{os.path.realpath(path).translate(_URI_ESCAPES)}?mode=ro"
    return sqlite3.connect(uri, uri=True, check_same_thread=False)


# In a file: URI's path SQLite reads `?` as the parameters' start, `#` as the
# fragment's and `%` as an escape; every other character (spaces, Chinese) is the
# file's own. (Escaped here, not by urllib.parse: a question's start imports none of it.)
_URI_ESCAPES = str.maketrans({"%": "%25", "?": "%3F", "#": "%23"})
