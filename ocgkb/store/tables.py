"""Whole tables in their stored order, as the graph of the knowledge base reads
them (ocgkb.study.graph): the documents, the archetypes, and every row of the
tables that relate two things."""

from __future__ import annotations

import sqlite3

from ocgkb.store.database import KnowledgeBase


def documents(kb: KnowledgeBase) -> list[sqlite3.Row]:
    """Every source document's name, title and file, by name."""
    return kb.query("SELECT name, title, file FROM documents ORDER BY name")


def archetypes(kb: KnowledgeBase) -> list[str]:
    """The names of the archetypes the texts mention, sorted."""
    return [r[0] for r in kb.query("SELECT name FROM archetypes ORDER BY name")]


def links(kb: KnowledgeBase) -> list[sqlite3.Row]:
    """Every link (src, dst, relation), in the order the build made them."""
    return kb.query("SELECT src, dst, relation FROM links ORDER BY rowid")


def passage_cards(kb: KnowledgeBase) -> list[sqlite3.Row]:
    """Every (passage id, card name) a passage mentions, in the build's order."""
    return kb.query("SELECT passage_id, card FROM passage_cards ORDER BY rowid")


def passage_archetypes(kb: KnowledgeBase) -> list[sqlite3.Row]:
    """Every (passage id, archetype) a passage mentions, in the build's order."""
    return kb.query("SELECT passage_id, archetype FROM passage_archetypes ORDER BY rowid")


def passage_concepts(kb: KnowledgeBase) -> list[sqlite3.Row]:
    """Every (passage id, concept id, how it was tagged), in the build's order."""
    return kb.query("SELECT passage_id, concept, how FROM passage_concepts ORDER BY rowid")
