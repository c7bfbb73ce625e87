"""The front page: what the knowledge base holds, as a map to browse."""

from __future__ import annotations

import weakref

from ocgkb.store.database import KnowledgeBase

_MADE: weakref.WeakKeyDictionary[KnowledgeBase, dict] = weakref.WeakKeyDictionary()


def home_view(kb: KnowledgeBase) -> dict:
    """The section tree of every document, the concepts (most discussed first),
    the scenarios, and how much of each kind of passage there is. Made once per
    open knowledge base (it never changes under its readers); callers get a copy."""
    import copy

    if kb not in _MADE:
        _MADE[kb] = _make_home(kb)
    return copy.deepcopy(_MADE[kb])


def _make_home(kb: KnowledgeBase) -> dict:
    sections: dict[str, list[dict]] = {}
    for row in kb.query("SELECT number, title, parent, doc FROM sections ORDER BY ord"):
        sections.setdefault(row["doc"], []).append(
            {"number": row["number"], "title": row["title"], "parent": row["parent"]}
        )
    concepts = [
        dict(r)
        for r in kb.query(
            """SELECT c.id, c.name_zh, c.name_en, count(pc.passage_id) AS passages FROM concepts c
               LEFT JOIN passage_concepts pc ON pc.concept = c.id
               GROUP BY c.id ORDER BY passages DESC, c.id"""
        )
    ]
    scenarios = [dict(r) for r in kb.query("SELECT name, title FROM scenarios ORDER BY name")]
    kinds = {r[0]: r[1] for r in kb.query("SELECT kind, count(*) FROM passages GROUP BY kind")}
    cards = kb.query("SELECT count(*) FROM cards WHERE mentions > 0")[0][0]
    return {
        "documents": [
            {"doc": doc, "title": document_titles(kb).get(doc, doc), "sections": rows}
            for doc, rows in sections.items()
        ],
        "concepts": concepts,
        "scenarios": scenarios,
        "counts": {"passages": sum(kinds.values()), "kinds": kinds, "cards": cards},
    }


def document_titles(kb: KnowledgeBase) -> dict[str, str]:
    """Each document's title by its short name, as rulings_data/manifest.yaml gives it."""
    return {r["name"]: r["title"] for r in kb.query("SELECT name, title FROM documents")}
