"""`/p/<id>`: one passage on its own, with where it stands and what hangs on it."""

from __future__ import annotations

from ocgkb import NotFound
from ocgkb.store import passages, sections
from ocgkb.store.database import KnowledgeBase
from ocgkb.store.passages import passage_hits
from ocgkb.views.replay import scenarios_replaying


def passage_view(kb: KnowledgeBase, pid: str) -> dict:
    """The passage, where it stands (`breadcrumb`: its rulebook sections from the top,
    or its document and topic), the clause or ruling it belongs to, its own examples,
    sub-items and notes, the passage it repeats, and the scenarios that replay it."""
    row = passages.passage(kb, pid)
    if row is None:
        raise NotFound(f"no passage {pid!r}")
    below = passages.passages_below(kb, pid)
    wanted = [pid] + [p for p in (row["parent"], row["dup_of"]) if p] + below
    read = {hit.id: hit.as_dict() for hit in passage_hits(kb, wanted)}
    hit = read[pid]
    trail = sections.breadcrumb(kb, hit["section"]) if hit.get("section") else []
    if not trail and hit.get("topic"):
        trail = [{"number": hit["source"]["doc"], "title": hit["topic"]}]
    return {
        "passage": hit,
        "breadcrumb": trail,
        "parent": read.get(row["parent"]) if row["parent"] else None,
        "repeats": read.get(row["dup_of"]) if row["dup_of"] else None,
        "below": [read[p] for p in below],
        "scenarios": scenarios_replaying(kb, [pid] + ([row["parent"]] if row["parent"] else [])),
    }
