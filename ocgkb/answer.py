"""`ask`: the passages that settle a question, each with its examples and the
dated rulings around it."""

from __future__ import annotations

from .query import plan_query
from .search import Filters, Hit, passage_hit, search
from .sections import scenarios_replaying
from .store import KnowledgeBase

RULINGS_PER_ANSWER = 3
RULING_FLOOR = 0.6  # share of the best hit's score a ruling needs to be shown
EXAMPLES_PER_ANSWER = 4


def answer(kb: KnowledgeBase, question: str, filters: Filters | None = None, limit: int = 5) -> dict:
    """`{"query", "plan", "hits"}`: each hit as `search` ranks it, with `clause`
    (the clause or ruling an example, sub-item or note belongs to), `examples`
    (the worked examples of that clause) and `rulings` (dated rulings on the same
    concepts that also answer the question) attached. A clause is shown once even
    when several of its examples match."""
    plan = plan_query(kb, question)
    pool = search(kb, question, filters, limit=max(limit * 4, 20))
    # Rulings worth showing beside an answer: dated, nearly as relevant as the
    # best hit, and about a concept the question names. Each is shown once.
    floor = RULING_FLOOR * (pool[0].score if pool else 0.0)
    asked = set(plan.concepts)
    dated = [h for h in pool if h.dates and h.score >= floor and (not asked or asked & set(h.concepts))]
    shown: set[str] = set()
    anchors: set[str] = set()
    result = []
    for hit in pool:
        anchor = hit.parent if hit.kind in ("example", "subitem", "note") and hit.parent else hit.id
        if anchor in anchors:
            continue
        anchors.add(anchor)
        item = hit.as_dict()
        item["clause"] = passage_hit(kb, anchor).as_dict() if anchor != hit.id else None
        examples = _children(kb, anchor, "example")
        item["examples"] = [passage_hit(kb, pid).as_dict() for pid in examples if pid != hit.id][
            :EXAMPLES_PER_ANSWER
        ]
        about = set(hit.concepts)
        rulings = [
            h
            for h in dated
            if h.id not in shown | {hit.id} and h.parent != anchor and about & set(h.concepts)
        ]
        item["rulings"] = [h.as_dict() for h in rulings[:RULINGS_PER_ANSWER]]
        shown |= {h.id for h in rulings[:RULINGS_PER_ANSWER]} | {hit.id}
        item["scenarios"] = scenarios_replaying(kb, [anchor, hit.id])
        result.append(item)
        if len(result) == limit:
            break
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
