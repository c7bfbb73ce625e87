"""The `search` view: the passages that best answer a query, ranked."""

from __future__ import annotations

from ocgkb.query.abstain import judge
from ocgkb.query.filters import Filters
from ocgkb.query.plan import plan_query
from ocgkb.query.ranking import search
from ocgkb.store import passages
from ocgkb.store.database import KnowledgeBase
from ocgkb.store.passages import passage_hits
from ocgkb.store.schema import DEFAULT_HITS


def search_view(
    kb: KnowledgeBase, query: str, filters: Filters | None = None, limit: int = DEFAULT_HITS
) -> dict:
    """`{"query", "plan", "hits", "nothing_fits", "message", "notes"}`: the question
    planned once, its ranked hits, and whether any of them answers it (when none
    does, `message` says so and every hit is `weak`: the nearest passages). A hit
    that introduces a list carries it (`items`)."""
    plan = plan_query(kb, query)
    hits = search(kb, query, filters, limit, plan=plan)
    verdict = judge(kb, plan, hits, plan.named)
    return {
        "query": query,
        "plan": plan.summary(),
        "hits": with_items(kb, [hit.as_dict() for hit in hits]),
        "nothing_fits": verdict.nothing_fits,
        "message": verdict.message,
        "notes": verdict.notes,
    }


def with_items(kb: KnowledgeBase, hits: list[dict]) -> list[dict]:
    """Each hit with its sub-items, the list it introduces (empty when it has none)."""
    items = passages.items_of(kb, [h["id"] for h in hits])
    read = {h.id: h.as_dict() for h in passage_hits(kb, [pid for ids in items.values() for pid in ids])}
    for hit in hits:
        hit["items"] = [read[pid] for pid in items.get(hit["id"], [])]
    return hits
