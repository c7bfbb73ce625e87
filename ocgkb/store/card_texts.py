"""The card texts a user brings: read from their own ygopro `cards.cdb` (opened
read-only) and kept in a small SQLite file of theirs (`paths.card_texts_path()`),
never in the package or the knowledge base, which ship no card's effect text.

Every SQLite error here is about these two files, never about the knowledge base,
so each becomes a one-line `CardTextsError` (the command line would otherwise
take a damaged file for a damaged knowledge base and rebuild it).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from typing import NamedTuple

from ocgkb import OcgkbError, paths
from ocgkb.files import UnsafePathError, read_at_most, replaceable, short_path
from ocgkb.store.damage import is_damage
from ocgkb.store.database import connect_read_only

SQLITE_HEADER = b"SQLite format 3\x00"
# What the import reads of ygopro's database: the tables and the columns it needs.
CDB_COLUMNS = {"datas": ("id",), "texts": ("id", "name", "desc")}
CDB_TEXTS = (
    "SELECT texts.id, texts.name, texts.desc FROM texts JOIN datas ON datas.id = texts.id ORDER BY texts.id"
)
SCHEMA = """
CREATE TABLE card_texts (password INTEGER PRIMARY KEY, name TEXT NOT NULL, text TEXT NOT NULL);
CREATE TABLE about (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class CardTextsError(OcgkbError):
    """A cards.cdb that cannot be imported, or imported texts that cannot be read."""


class Imported(NamedTuple):
    """What was imported: from which file, how many texts, and those asked for by password."""

    source: str
    count: int
    texts: dict[int, str]


def read_cdb(path: str) -> list[tuple[int, str, str]]:
    """Each card's password, name and effect text in a ygopro cards.cdb, read-only.
    Anything that is not such a database, or a damaged or empty one, is refused."""
    _check_is_sqlite(path)
    try:
        with contextlib.closing(connect_read_only(path)) as conn:
            _check_columns(conn, path)
            rows = conn.execute(CDB_TEXTS).fetchall()
            if conn.execute("PRAGMA quick_check(1)").fetchone() != ("ok",):
                raise sqlite3.DatabaseError("database disk image is malformed")
    except sqlite3.Error as exc:
        raise CardTextsError(f"{short_path(path)}: {_why(exc)}") from None
    texts = [
        (password, name if isinstance(name, str) else "", text.replace("\r\n", "\n").strip())
        for password, name, text in rows
        if isinstance(password, int) and isinstance(text, str) and text.strip()
    ]
    if not texts:
        raise CardTextsError(f"{short_path(path)}: a ygopro card database, but it holds no card text")
    return texts


def _check_is_sqlite(path: str) -> None:
    """A missing file, a folder, a device or a file of another kind, refused from its first bytes."""
    try:
        head = read_at_most(path, len(SQLITE_HEADER) - 1)
    except UnsafePathError as exc:
        raise CardTextsError(str(exc)) from None
    except OSError as exc:
        raise CardTextsError(f"{short_path(path)}: {exc.strerror or exc}") from None
    if head != SQLITE_HEADER:
        raise CardTextsError(f"{short_path(path)}: not an SQLite database, so not a ygopro cards.cdb")


def _check_columns(conn: sqlite3.Connection, path: str) -> None:
    for table, needed in CDB_COLUMNS.items():
        have = {row[1] for row in conn.execute("SELECT * FROM pragma_table_info(?)", (table,))}
        if missing := [column for column in needed if column not in have]:
            what = f"no table {table!r}" if not have else f"table {table!r} lacks {', '.join(missing)}"
            raise CardTextsError(f"{short_path(path)}: not a ygopro cards.cdb ({what})")


def _why(exc: sqlite3.Error) -> str:
    if is_damage(exc):
        return f"a damaged or truncated database ({exc})"
    return f"cannot be read ({exc})"


def write_texts(rows: list[tuple[int, str, str]], source: str, target: str) -> int:
    """Keep the texts at `target`, replacing what was imported before as one step:
    written beside it and renamed in, so an import cut short loses nothing. How many."""
    try:
        target = replaceable(target)
        os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
        paths.remove_dead_builds(target)
        temporary = f"{target}.building-{os.getpid()}"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        try:
            _write(temporary, rows, os.path.abspath(source))
            os.replace(temporary, target)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
    except (OSError, sqlite3.Error) as exc:
        raise CardTextsError(f"cannot write the card texts to {short_path(target)}: {exc}") from None
    return len(rows)


def _write(path: str, rows: list[tuple[int, str, str]], source: str) -> None:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        with conn:
            conn.executescript(SCHEMA)
            conn.executemany("INSERT OR REPLACE INTO card_texts VALUES (?, ?, ?)", rows)
            conn.execute("INSERT INTO about VALUES ('source', ?)", (source,))


def read_imported(path: str, passwords: list[int]) -> Imported | None:
    """The imported texts of these passwords, with their source and count; None
    when nothing was imported. A damaged or foreign file is a CardTextsError."""
    if not os.path.exists(path):
        return None
    try:
        with contextlib.closing(connect_read_only(path)) as conn:
            (source,) = conn.execute("SELECT value FROM about WHERE key = 'source'").fetchone()
            (count,) = conn.execute("SELECT count(*) FROM card_texts").fetchone()
            marks = ",".join("?" * len(passwords))
            found = conn.execute(
                f"SELECT password, text FROM card_texts WHERE password IN ({marks})", passwords
            ).fetchall()
    except (sqlite3.Error, TypeError) as exc:  # TypeError: no source row to unpack
        raise CardTextsError(
            f"the imported card texts {short_path(path)} are damaged ({exc}); "
            "import them again with `ocgkb cards import PATH/cards.cdb`"
        ) from None
    return Imported(source, count, dict(found))


def forget(path: str) -> bool:
    """Delete the imported texts; whether there were any."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise CardTextsError(f"cannot delete {short_path(path)}: {exc.strerror or exc}") from None
    return True
