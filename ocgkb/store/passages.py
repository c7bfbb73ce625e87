"""Reads of passages by where they stand: one passage, those of a section,
those hanging under a clause or ruling, and how many of each kind there are."""

from __future__ import annotations

import sqlite3

from ocgkb.store.database import IN_JSON, KnowledgeBase, json_values


def passage(kb: KnowledgeBase, pid: str) -> sqlite3.Row | None:
    """A passage's id, `parent` (the clause or ruling it belongs to) and `dup_of`
    (the passage it repeats); None when there is no such passage."""
    rows = kb.query("SELECT id, parent, dup_of FROM passages WHERE id = ?", (pid,))
    return rows[0] if rows else None


def passages_in(kb: KnowledgeBase, number: str) -> list[str]:
    """The ids of a section's own passages, in the order of the text."""
    return [r[0] for r in kb.query("SELECT id FROM passages WHERE section = ? ORDER BY rowid", (number,))]


def passages_below(kb: KnowledgeBase, pid: str) -> list[str]:
    """The ids of the examples, sub-items and notes under a passage, in the order of the text."""
    return [r[0] for r in kb.query("SELECT id FROM passages WHERE parent = ? ORDER BY rowid", (pid,))]


def examples_of(kb: KnowledgeBase, anchors: list[str]) -> dict[str, list[str]]:
    """The worked examples of each clause or ruling, in the order of the text."""
    if not anchors:
        return {}
    examples: dict[str, list[str]] = {}
    for pid, parent in kb.query(
        f"SELECT id, parent FROM passages WHERE parent IN {IN_JSON} AND kind = 'example' ORDER BY rowid",
        (json_values(anchors),),
    ):
        examples.setdefault(parent, []).append(pid)
    return examples


def kind_counts(kb: KnowledgeBase) -> dict[str, int]:
    """How many passages there are of each kind."""
    return {r[0]: r[1] for r in kb.query("SELECT kind, count(*) FROM passages GROUP BY kind")}


def all_passages(kb: KnowledgeBase) -> list[sqlite3.Row]:
    """Every passage with its text and place, in the order of the texts."""
    return kb.query(
        "SELECT id, kind, text, doc, file, line, section, topic, flags FROM passages ORDER BY rowid"
    )


def dates_by_passage(kb: KnowledgeBase) -> dict[str, str]:
    """The dates each dated passage gives, comma-separated, by passage id."""
    rows = kb.query("SELECT passage_id, group_concat(date, ',') AS dates FROM dates GROUP BY passage_id")
    return {r[0]: r[1] for r in rows}
