"""Reads of the curated scenarios (kb/scenarios/) the knowledge base lists."""

from __future__ import annotations

import sqlite3

from ocgkb.store.database import IN_JSON, KnowledgeBase, json_values
from ocgkb.store.schema import REPLAYS


def scenario(kb: KnowledgeBase, name: str) -> sqlite3.Row | None:
    """A scenario's name and file (relative to kb/scenarios/); None when it is not listed."""
    rows = kb.query("SELECT name, file FROM scenarios WHERE name = ?", (name,))
    return rows[0] if rows else None


def all_scenarios(kb: KnowledgeBase) -> list[sqlite3.Row]:
    """Every scenario's name, title and file, by name."""
    return kb.query("SELECT name, title, file FROM scenarios ORDER BY name")


def scenarios_replaying(kb: KnowledgeBase, passage_ids: list[str]) -> list[sqlite3.Row]:
    """The scenarios (name, title, file) that replay any of these passages, by name."""
    if not passage_ids:
        return []
    return kb.query(
        f"""SELECT DISTINCT s.name, s.title, s.file FROM links l JOIN scenarios s ON l.src = 'scenario:' || s.name
            WHERE l.relation = ? AND l.dst IN {IN_JSON} ORDER BY s.name""",
        (REPLAYS, json_values(f"passage:{pid}" for pid in passage_ids)),
    )
