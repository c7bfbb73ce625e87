"""The front page: what the knowledge base holds, as a map to browse."""

from __future__ import annotations

import copy

from ocgkb.store import cards, concepts, passages, scenarios, sections, tables
from ocgkb.store.changes import recorded_changes
from ocgkb.store.database import KnowledgeBase


def home_view(kb: KnowledgeBase) -> dict:
    """The section tree of every document, the concepts (most discussed first),
    the scenarios, and how much of each kind of passage there is. Made once per
    open knowledge base (it never changes under its readers); callers get a copy."""
    return copy.deepcopy(kb.memo("views.home", lambda: _make_home(kb)))


def _make_home(kb: KnowledgeBase) -> dict:
    by_doc: dict[str, list[dict]] = {}
    for row in sections.all_sections(kb):
        by_doc.setdefault(row["doc"], []).append(
            {"number": row["number"], "title": row["title"], "parent": row["parent"]}
        )
    kinds, titles = passages.kind_counts(kb), document_titles(kb)
    return {
        "documents": [
            {"doc": doc, "title": titles.get(doc, doc), "sections": rows} for doc, rows in by_doc.items()
        ],
        "concepts": concepts.concepts_by_use(kb),
        "scenarios": [{"name": r["name"], "title": r["title"]} for r in scenarios.all_scenarios(kb)],
        "counts": {"passages": sum(kinds.values()), "kinds": kinds, "cards": cards.mentioned_card_count(kb)},
    }


def has_changes(kb: KnowledgeBase) -> bool:
    """Whether an update of an added documentation is recorded (the site's "what changed")."""
    return bool(recorded_changes(kb))


def document_titles(kb: KnowledgeBase) -> dict[str, str]:
    """Each document's title by its short name, as rulings_data/manifest.yaml gives it."""
    return {r["name"]: r["title"] for r in tables.documents(kb)}
