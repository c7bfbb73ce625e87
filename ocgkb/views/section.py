"""`section`: one rulebook section (or ruling topic) with everything linked to it."""

from __future__ import annotations

from ocgkb import NotFound
from ocgkb.store import concepts, passages, sections
from ocgkb.store.database import KnowledgeBase
from ocgkb.store.passages import passage_hits
from ocgkb.views.replay import scenarios_replaying

RULINGS_PER_SECTION = 8  # dated rulings a section shows about its concepts


def section_view(kb: KnowledgeBase, number: str) -> dict:
    """A rulebook section or ruling topic: its passages, the sections below it, the
    concepts it is about or defines, the dated rulings on them, what refers to it."""
    number = number.strip().removeprefix("§")
    row = sections.section(kb, number)
    if row is None and sections.has_sections_below(kb, number):
        return _numbered_below(kb, number)
    if row is None:
        near = sections.numbers_starting(kb, number.split(".")[0])
        hint = f"; sections near it: {', '.join(near)}" if near and "/" not in number else ""
        raise NotFound(f"no section {number!r}{hint}")
    number = row["number"]
    shown = [hit.as_dict() for hit in passage_hits(kb, passages.passages_in(kb, number))]
    about = concepts.concepts_of_section(kb, number)
    defining = concepts.concepts_defined_in(kb, number)
    concept_ids = [c["id"] for c in defining] or [c["id"] for c in about[:3]]
    rulings = concepts.rulings_about(kb, concept_ids, RULINGS_PER_SECTION)
    return {
        "number": number,
        "title": row["title"],
        "doc": row["doc"],
        "breadcrumb": sections.breadcrumb(kb, number),
        "passages": shown,
        "children": sections.children(kb, number),
        "tree": _tree(kb, number),
        "concepts": about,
        "defines": defining,
        "rulings": [hit.as_dict() for hit in passage_hits(kb, rulings)],
        "referred_by": sections.referred_by(kb, number),
        "scenarios": scenarios_replaying(kb, [p["id"] for p in shown]),
    }


def _numbered_below(kb: KnowledgeBase, number: str) -> dict:
    """The source has no text for this number (there is no 4), but sections below it."""
    return {
        "number": number,
        "title": "",
        "doc": "rulebook",
        "breadcrumb": [],
        "passages": [],
        "children": [],
        "tree": _tree(kb, number),
        "concepts": [],
        "defines": [],
        "rulings": [],
        "referred_by": [],
        "note": f"the source has no section {number} of its own; these are the sections numbered below it",
        "scenarios": [],
    }


def _tree(kb: KnowledgeBase, number: str) -> list[dict]:
    """Every section below this one, with its depth under it."""
    return [
        {"number": r["number"], "title": r["title"], "depth": r["number"].count(".") - number.count(".")}
        for r in sections.sections_below(kb, number)
    ]
