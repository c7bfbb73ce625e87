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


def scenarios_replaying_each(kb: KnowledgeBase, passage_ids: list[str]) -> dict[str, list[sqlite3.Row]]:
    """The scenarios (name, title, file) that replay each of these passages, by
    name, in one read: from the passages' links to the scenarios by their names,
    both indexed (not every scenario's links looked up in turn)."""
    if not passage_ids:
        return {}
    rows = kb.query(
        f"""SELECT substr(l.dst, {len(_PASSAGE) + 1}) AS passage_id, s.name, s.title, s.file
            FROM links l JOIN scenarios s ON s.name = substr(l.src, {len(_SCENARIO) + 1})
            WHERE l.relation = ? AND l.dst IN {IN_JSON} AND substr(l.src, 1, {len(_SCENARIO)}) = ?
            ORDER BY s.name""",
        (REPLAYS, json_values(f"{_PASSAGE}{pid}" for pid in passage_ids), _SCENARIO),
    )
    each: dict[str, list[sqlite3.Row]] = {}
    for row in rows:
        each.setdefault(row["passage_id"], []).append(row)
    return each


# The node ids of the `links` table the scenarios' rows join.
_PASSAGE = "passage:"
_SCENARIO = "scenario:"
