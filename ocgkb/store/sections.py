"""Reads of the rulebook's sections and the rulings' topics: one section, the
trail above it, the sections below it, and what refers to it."""

from __future__ import annotations

import sqlite3

from ocgkb.store.database import KnowledgeBase, like_literal
from ocgkb.store.schema import REFERS_TO


def section(kb: KnowledgeBase, number: str) -> sqlite3.Row | None:
    """The section of this number, or the ruling topic of this title (`cost` →
    rulings/cost) when it has no slash; None when there is neither."""
    rows = kb.query("SELECT * FROM sections WHERE number = ?", (number,))
    if not rows and "/" not in number:
        rows = kb.query(
            "SELECT * FROM sections WHERE doc != 'rulebook' AND title = ? ORDER BY ord", (number,)
        )
    return rows[0] if rows else None


def sections_below(kb: KnowledgeBase, number: str) -> list[sqlite3.Row]:
    """Every section numbered below this one (4 → 4.1, 4.1.1, …), in the text's order."""
    rows = kb.query(
        "SELECT number, title FROM sections WHERE number LIKE ? ESCAPE '\\' ORDER BY ord",
        (like_literal(number) + ".%",),
    )
    return [r for r in rows if r["number"].startswith(number + ".")]


def has_sections_below(kb: KnowledgeBase, number: str) -> bool:
    return bool(
        kb.query(
            "SELECT 1 FROM sections WHERE number LIKE ? ESCAPE '\\' LIMIT 1", (like_literal(number) + ".%",)
        )
    )


def numbers_starting(kb: KnowledgeBase, prefix: str, limit: int = 5) -> list[str]:
    """The first section numbers that begin with `prefix`, in the text's order."""
    rows = kb.query(
        "SELECT number FROM sections WHERE number LIKE ? ESCAPE '\\' ORDER BY ord LIMIT ?",
        (like_literal(prefix) + "%", limit),
    )
    return [r[0] for r in rows]


def children(kb: KnowledgeBase, number: str) -> list[dict]:
    """The sections directly below this one: `{"number", "title"}`."""
    return [
        dict(r)
        for r in kb.query("SELECT number, title FROM sections WHERE parent = ? ORDER BY ord", (number,))
    ]


def breadcrumb(kb: KnowledgeBase, number: str) -> list[dict]:
    """The sections from the top down to this one: `{"number", "title"}`."""
    trail = []
    current = number
    while current:
        rows = kb.query("SELECT number, title, parent FROM sections WHERE number = ?", (current,))
        if not rows:
            break
        trail.append({"number": rows[0]["number"], "title": rows[0]["title"]})
        current = rows[0]["parent"]
    return list(reversed(trail))


def all_sections(kb: KnowledgeBase) -> list[sqlite3.Row]:
    """Every section and topic, in the order of the texts."""
    return kb.query("SELECT number, title, parent, doc, line FROM sections ORDER BY ord")


def referred_by(kb: KnowledgeBase, number: str) -> list[str]:
    """The ids of the passages that send the reader to this section."""
    rows = kb.query(
        "SELECT src FROM links WHERE dst = ? AND relation = ? ORDER BY rowid",
        (f"section:{number}", REFERS_TO),
    )
    return [r[0].removeprefix("passage:") for r in rows]
