"""Opening the built knowledge base, building or rebuilding it when needed."""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

from . import OcgkbError, paths, sources
from .normalize import Normalizer


class KnowledgeBase:
    """Read-only access to a built knowledge base."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        self.conn.row_factory = sqlite3.Row

    def close(self) -> None:
        self.conn.close()

    def query(self, sql: str, params: tuple | dict = ()) -> list[sqlite3.Row]:
        return self.conn.execute(sql, params).fetchall()

    def meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    @functools.cached_property
    def fingerprint(self) -> str:
        """The build's input fingerprint: what caches of this knowledge base are keyed by."""
        return self.meta("fingerprint") or ""

    @functools.cached_property
    def normalize(self) -> Normalizer:
        return Normalizer(json.loads(self.meta("repairs") or "{}"))

    @functools.cached_property
    def vocabulary(self) -> dict[str, int]:
        return dict(self.conn.execute("SELECT term, df FROM vocabulary"))

    @functools.cached_property
    def vocabulary_total(self) -> int:
        return sum(self.vocabulary.values()) or 1

    @functools.cached_property
    def passage_count(self) -> int:
        return self.conn.execute("SELECT count(*) FROM passages").fetchone()[0]

    @functools.cached_property
    def average_tokens(self) -> dict[str, float]:
        """Mean tokens per passage in each indexed field, for BM25's length norm."""
        return json.loads(self.meta("average_tokens") or '{"words": 1, "grams": 1, "context": 1}')

    def report(self) -> dict:
        return json.loads(self.meta("report") or "{}")


def _fingerprint_of(db_path: Path) -> str | None:
    """The input fingerprint a built database records; None when it is not a usable build."""
    if not db_path.is_file():
        return None
    try:
        with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as conn:
            row = conn.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()
            conn.execute("SELECT 1 FROM passage_fts LIMIT 1")
    except sqlite3.Error:
        return None
    return row[0] if row else None


def is_current(db_path: Path, data_dir: Path | None = None, kb_dir: Path | None = None) -> bool:
    wanted = sources.fingerprint(
        data_dir or paths.data_dir(), kb_dir or paths.kb_dir(), sources.SCHEMA_VERSION
    )
    return _fingerprint_of(db_path) == wanted


def open_kb(
    db_path: Path | None = None,
    data_dir: Path | None = None,
    kb_dir: Path | None = None,
    on_build: Callable[[Callable[..., object]], object] | None = None,
    on_stale_kept: Callable[[str], None] | None = None,
) -> KnowledgeBase:
    """The knowledge base at `db_path`, built first when missing or out of date.

    `on_build(run)` lets a caller wrap the build (a progress bar); it must call
    `run(progress)`. When a rebuild fails but an older build exists, the older one
    is opened and `on_stale_kept(message)` is told why.
    """
    db_path = Path(db_path or paths.default_db_path())
    if is_current(db_path, data_dir, kb_dir):
        return KnowledgeBase(db_path)
    from .build import build

    def run(progress=None):
        return build(db_path, data_dir, kb_dir, progress)

    try:
        on_build(run) if on_build else run()
    except OcgkbError as exc:
        if _fingerprint_of(db_path) is None:
            raise
        if on_stale_kept:
            on_stale_kept(f"{exc}; using the knowledge base built before")
    return KnowledgeBase(db_path)
