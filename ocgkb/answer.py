"""`ask`: the passages that settle a question, each with its examples and the
dated rulings around it."""

from __future__ import annotations

from .search import Filters, Hit, passage_hit, plan_query, search
from .store import KnowledgeBase

RULINGS_PER_ANSWER = 3


def answer(kb: KnowledgeBase, question: str, filters: Filters | None = None, limit: int = 5) -> dict:
    """`{"query", "plan", "hits": [hit + examples + rulings + scenarios]}`."""
    plan = plan_query(kb, question)
    pool = search(kb, question, filters, limit=max(limit * 4, 20))
    hits = pool[:limit]
    shown = {h.id for h in hits}
    dated = [h for h in pool if h.dates and h.id not in shown]
    result = []
    for hit in hits:
        item = hit.as_dict()
        item["examples"] = [passage_hit(kb, pid).as_dict() for pid in _children(kb, hit.id, "example")]
        # Rulings on the same concepts, from those that also answer the question.
        about = set(hit.concepts)
        item["rulings"] = [h.as_dict() for h in dated if about & set(h.concepts)][:RULINGS_PER_ANSWER]
        result.append(item)
    return {
        "query": question,
        "plan": {
            "words": plan.words,
            "expansions": plan.expansions,
            "concepts": plan.concepts,
            "cards": plan.cards,
        },
        "hits": result,
    }


def _children(kb: KnowledgeBase, pid: str, kind: str) -> list[str]:
    rows = kb.query("SELECT id FROM passages WHERE parent = ? AND kind = ? ORDER BY rowid", (pid, kind))
    return [r[0] for r in rows]


__all__ = ["answer", "Hit"]
