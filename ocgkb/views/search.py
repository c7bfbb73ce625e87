"""The `search` view: the passages that best answer a query, ranked."""

from __future__ import annotations

from ocgkb.query.plan import plan_query
from ocgkb.query.ranking import Filters, search
from ocgkb.store.database import KnowledgeBase

MOST_HITS = 40  # what a search ranks at most


def search_view(kb: KnowledgeBase, query: str, filters: Filters | None = None, limit: int = 10) -> dict:
    """`{"query", "plan", "hits"}`: the question planned once, and its ranked hits."""
    plan = plan_query(kb, query)
    hits = search(kb, query, filters, limit, plan=plan)
    return {"query": query, "plan": plan.summary(), "hits": [hit.as_dict() for hit in hits]}
