"""`concept`: a rule concept with its defining clauses, relations and rulings."""

from __future__ import annotations

import json

from ocgkb.query.lookup import find_concept
from ocgkb.store import concepts
from ocgkb.store.database import KnowledgeBase
from ocgkb.store.passages import passage_hits


def concept_view(kb: KnowledgeBase, name: str, rulings: int = 10) -> dict:
    row = find_concept(kb, name)
    cid = row["id"]
    # The clauses of its defining sections; without any, the passages that name it.
    defining = concepts.defining_clauses(kb, cid) or concepts.passages_naming(kb, cid)
    return {
        "id": cid,
        "name_zh": row["name_zh"],
        "name_en": row["name_en"],
        "zh": json.loads(row["zh"]),
        "en": json.loads(row["en"]),
        "aliases": json.loads(row["aliases"]),
        "sections": concepts.defining_sections(kb, cid),
        "definitions": [hit.as_dict() for hit in passage_hits(kb, defining)],
        "related": concepts.related_concepts(kb, cid),
        "rulings": [hit.as_dict() for hit in passage_hits(kb, concepts.newest_rulings(kb, cid, rulings))],
        "passages": concepts.passage_count(kb, cid),
    }


def concept_page(kb: KnowledgeBase, name: str) -> dict:
    """What a concept's web page shows: `concept_view` and, under "picture", the
    concept's neighbourhood in the graph drawn as an SVG's shapes."""
    from ocgkb.study.graph import graph_of
    from ocgkb.study.picture import neighbourhood_picture

    view = concept_view(kb, name)
    return {**view, "picture": neighbourhood_picture(graph_of(kb), f"concept:{view['id']}")}


def concept_names(kb: KnowledgeBase) -> dict[str, str]:
    """Every concept's Chinese name by its id, for labelling tags."""
    return concepts.concept_names(kb)
