"""Reads of what the build stored of the curated files: the word lists a question
is read with (kb/synonyms.yaml, kb/glossary.yaml). The concepts are store/concepts.py's."""

from __future__ import annotations

import json

from ocgkb.store.database import KnowledgeBase


def stored_word_lists(kb: KnowledgeBase) -> dict:
    """The synonyms, ignored words, glossary, slang and outside topics, as stored."""
    return json.loads(kb.meta("synonyms") or "{}")
