"""Reads of what the build stored of the curated files: the ontology's concepts
and the word lists a question is read with (kb/synonyms.yaml, kb/glossary.yaml)."""

from __future__ import annotations

import json

from ocgkb.sources.ontology import Ontology
from ocgkb.store.database import KnowledgeBase


def stored_ontology(kb: KnowledgeBase) -> Ontology:
    """The concepts of a built knowledge base."""
    return Ontology.from_stored(kb.query, kb.normalize)


def stored_word_lists(kb: KnowledgeBase) -> dict:
    """The synonyms, ignored words, glossary, slang and outside topics, as stored."""
    return json.loads(kb.meta("synonyms") or "{}")


def concept_row(kb: KnowledgeBase, concept_id: str) -> dict:
    """Every stored column of one concept."""
    return dict(kb.query("SELECT * FROM concepts WHERE id = ?", (concept_id,))[0])


def concept_labels(kb: KnowledgeBase) -> dict[str, str]:
    """Each concept's id with its English and Chinese names, by id."""
    rows = kb.query("SELECT id, name_en, name_zh FROM concepts ORDER BY id")
    return {row["id"]: f"{row['id']} {row['name_en']} {row['name_zh']}" for row in rows}
