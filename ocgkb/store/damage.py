"""Which SQLite errors mean the knowledge base file is damaged.

Only these justify a rebuild. Anything else SQLite says ("LIKE or GLOB pattern
too complex", "too many SQL variables", a busy database) is about the question
or the moment, and a 12-second rebuild would neither help nor be true.
"""

from __future__ import annotations

import sqlite3

# Extended codes start with their primary one: SQLITE_CORRUPT_INDEX, _VTAB, _SEQUENCE.
_DAMAGE_PREFIXES = ("SQLITE_CORRUPT", "SQLITE_NOTADB")
_DAMAGE_CODES = frozenset({"SQLITE_IOERR_SHORT_READ"})  # a file cut short
# An error raised without a code (a test, an older Python) is judged by its words.
_DAMAGE_WORDS = ("malformed", "not a database", "file is encrypted")


def is_damage(exc: sqlite3.Error) -> bool:
    """Whether `exc` says the database file itself is damaged."""
    name = getattr(exc, "sqlite_errorname", None)
    if name:
        return name.startswith(_DAMAGE_PREFIXES) or name in _DAMAGE_CODES
    return any(words in str(exc) for words in _DAMAGE_WORDS)
