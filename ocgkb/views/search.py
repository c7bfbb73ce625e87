"""The `search` view: the passages that best answer a query, ranked."""

from __future__ import annotations

from ocgkb.query.abstain import judge
from ocgkb.query.filters import Filters
from ocgkb.query.plan import plan_query
from ocgkb.query.ranking import search
from ocgkb.store.database import KnowledgeBase
from ocgkb.store.schema import DEFAULT_HITS


def search_view(
    kb: KnowledgeBase, query: str, filters: Filters | None = None, limit: int = DEFAULT_HITS
) -> dict:
    """`{"query", "plan", "hits", "nothing_fits", "message", "notes"}`: the question
    planned once, its ranked hits, and whether any of them answers it (when none
    does, `message` says so and every hit is `weak`: the nearest passages)."""
    plan = plan_query(kb, query)
    hits = search(kb, query, filters, limit, plan=plan)
    verdict = judge(kb, plan, hits, plan.named)
    return {
        "query": query,
        "plan": plan.summary(),
        "hits": [hit.as_dict() for hit in hits],
        "nothing_fits": verdict.nothing_fits,
        "message": verdict.message,
        "notes": verdict.notes,
    }
