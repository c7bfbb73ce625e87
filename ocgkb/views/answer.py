"""`ask`: the passages that settle a question, each with its examples and the
dated rulings around it."""

from __future__ import annotations

import os

from ocgkb import OcgkbError
from ocgkb.paths import card_texts_path
from ocgkb.query.abstain import NOT_BOTH, asks_status, judge, quoted, without_cards
from ocgkb.query.filters import Filters
from ocgkb.query.honesty import why_not
from ocgkb.query.plan import plan_query
from ocgkb.query.ranking import search
from ocgkb.store import passages
from ocgkb.store.database import KnowledgeBase
from ocgkb.store.passages import Hit, passage_hits
from ocgkb.store.schema import BELOW_RELATION, DEFAULT_CLAUSES
from ocgkb.text.quotes import may_quote, without_quoted_texts
from ocgkb.views.card_facts import card_facts
from ocgkb.views.replay import scenarios_replaying_groups

RULINGS_PER_ANSWER = 3
RULING_FLOOR = 0.6  # share of the best hit's score a ruling needs to be shown
EXAMPLES_PER_ANSWER = 4
NAME_LENGTH = 30  # a query this short may be nothing but a card's name
NAME_SCORE = 80.0  # how sure a bare name must be to put its card first
CARDS_PER_PAGE = 3


def answer(
    kb: KnowledgeBase, question: str, filters: Filters | None = None, limit: int = DEFAULT_CLAUSES
) -> dict:
    """`{"query", "plan", "cards", "status", "nothing_fits", "reason", "message", "notes", "hits"}`
    and `readings` when there are any (see `_readings`):
    each hit as `search` ranks it, with `clause` (the clause or ruling an example,
    sub-item or note belongs to), `examples` (the worked examples of that clause)
    and `rulings` (dated rulings on the same concepts that also answer the
    question) attached. A clause is shown once even when several of its examples
    match. Before the hits: the cards the question names (those no passage
    mentions too), a card's Forbidden & Limited status when it is asked for, and
    whether any passage answers it (ocgkb.query.abstain). A quoted card text
    is read, not searched: the passages answer what is asked about it."""
    asked = without_quoted_texts(question) if may_quote(question) else question
    plan = plan_query(kb, asked)
    pool = search(kb, asked, filters, limit=max(limit * 4, 20), plan=plan)
    named = plan.named
    verdict = judge(kb, plan, pool, named)
    asks_status_of = bool(named) and asks_status(question, named)
    if asks_status_of or any(not c.in_texts for c in named):
        # The rules that decide it, not the rulings that merely name the card.
        pool = _situation(kb, asked, named, filters, limit) or pool
    pool, together = _naming_all_first(pool, [c.name for c in named if c.in_texts])
    imported = os.path.exists(card_texts_path())  # the user's card texts, once per question
    honest = why_not(kb, plan, pool, named, verdict, imported)
    if honest is not None:
        pool = _honestly(kb, pool, honest.first)
    notes = verdict.notes + together
    facts = card_facts(kb, [c.name for c in named])
    status = None
    if asks_status_of:
        from ocgkb.views.status import status_view  # the lists only when asked about

        status = status_view(kb, [c.name for c in named])
    cards = [{"name": c.name, "in_texts": c.in_texts, **facts.get(c.name, {})} for c in named]
    readings, warnings = _readings(kb, question, cards, imported)
    result = {
        "query": question,
        "plan": plan.summary(),
        "cards": cards,
        "status": status,
        "nothing_fits": honest is not None,
        # Why nothing settles it (ocgkb.query.honesty): under_review, card_text, referred, not_in_texts.
        "reason": honest.reason if honest else None,
        "message": honest.message if honest else verdict.message,
        "notes": notes + warnings,
        "hits": _answer_hits(kb, plan, pool, limit),
    }
    if readings:  # absent when none, so an answer without one is unchanged
        result["readings"] = readings
    return result


def _readings(
    kb: KnowledgeBase, question: str, cards: list[dict], imported: bool
) -> tuple[list[dict], list[str]]:
    """The readings of the card texts the question quotes or whose cards it names
    (views/card_texts.py), and a warning when the imported texts are damaged. The
    reader and the texts are loaded only when there may be a quote, or a card is
    named and texts were imported."""
    if not may_quote(question) and not (cards and imported):
        return [], []
    from ocgkb.views.card_texts import question_readings

    return question_readings(kb, question, cards)


def _honestly(kb: KnowledgeBase, pool: list[Hit], first: str | None) -> list[Hit]:
    """The hits when nothing settles the question: the passage to read first (the one
    saying 调整中, or the one referring elsewhere) first, every other one the nearest."""
    for hit in pool:
        hit.weak = hit.id != first
    if first is None:
        return pool
    shown = [h for h in pool if h.id == first] or passage_hits(kb, [first])
    return shown + [h for h in pool if h.id != first]


def _situation(kb: KnowledgeBase, question: str, named, filters: Filters | None, limit: int) -> list[Hit]:
    """For a card no ruling mentions, or a card's ban-list status, the rules that
    decide the situation: the question asked again without the names of the cards
    it names (灰流丽能无效增殖的G吗 → the rules on negating; 增殖的G还是禁卡吗 → the
    rules on the Forbidden & Limited list), each shown as the nearest, not an answer."""
    situation = without_cards(question, named).strip()
    try:
        hits = search(kb, situation, filters, limit=max(limit * 4, 20))
    except OcgkbError:  # nothing left but the names
        return []
    for hit in hits:
        hit.weak = True
    return hits


def _naming_all_first(pool: list[Hit], cards: list[str]) -> tuple[list[Hit], list[str]]:
    """With two cards or more named, the passages that name them all come first; a
    note says when none does."""
    if len(cards) < 2:
        return pool, []
    every = [h for h in pool if set(cards) <= set(h.cards)]
    if not every:
        which = "both" if len(cards) == 2 else "all of"
        return pool, [NOT_BOTH.replace("both", which).format(cards=quoted(cards))]
    return every + [h for h in pool if h not in every], []


def _answer_hits(kb: KnowledgeBase, plan, pool: list[Hit], limit: int) -> list[dict]:
    """The hits an answer shows, each under its clause, with the clause's sub-items
    (the list it introduces), its examples and rulings."""
    # Rulings worth showing beside an answer: dated, nearly as relevant as the
    # best hit, and about a concept the question names. Each is shown once.
    floor = RULING_FLOOR * max((h.score for h in pool), default=0.0)
    asked = set(plan.concepts)
    dated = [h for h in pool if h.dates and h.score >= floor and (not asked or asked & set(h.concepts))]
    chosen: list[tuple[Hit, str]] = []  # each hit with the clause or ruling it is shown under
    anchors: set[str] = set()
    for hit in pool:
        anchor = hit.parent if hit.kind in BELOW_RELATION and hit.parent else hit.id
        if anchor not in anchors:
            anchors.add(anchor)
            chosen.append((hit, anchor))
        if len(chosen) == limit:
            break
    examples = passages.examples_of(kb, list(anchors))
    items = passages.items_of(kb, list(anchors))
    # Every passage the answer shows, read in one batch.
    wanted = {a for h, a in chosen if a != h.id} | {
        pid for h, a in chosen for pid in examples.get(a, []) + items.get(a, [])
    }
    read = {h.id: h for h in passage_hits(kb, sorted(wanted))}
    replayed = scenarios_replaying_groups(kb, [[anchor, hit.id] for hit, anchor in chosen])
    shown: set[str] = set()
    result = []
    for (hit, anchor), scenarios in zip(chosen, replayed, strict=True):
        item = hit.as_dict()
        item["clause"] = read[anchor].as_dict() if anchor != hit.id else None
        # The list the clause introduces, whole (the sub-item that matched is the hit itself).
        item["items"] = [read[pid].as_dict() for pid in items.get(anchor, []) if pid != hit.id]
        item["examples"] = [read[pid].as_dict() for pid in examples.get(anchor, []) if pid != hit.id][
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
        item["scenarios"] = scenarios
        result.append(item)
    return result


def answer_page(kb: KnowledgeBase, question: str, limit: int = DEFAULT_CLAUSES) -> dict:
    """What a single search box shows: `answer` under "answer", and before it the
    cards the question names (those no passage mentions too), or, when the query
    is short and a card's name in any form (a typo, pinyin, a nickname), that card."""
    # The fuzzy card lookup only here: `ocgkb ask` starts without it.
    from ocgkb.query.lookup import find_cards

    result = answer(kb, question, limit=limit)
    cards = {card["name"]: card for card in result["cards"]}
    names = list(cards)
    if len(question.strip()) <= NAME_LENGTH:
        try:
            close = find_cards(kb, question, limit=1)
        except OcgkbError:  # nothing name-like in the query
            close = []
        names = [m.name for m in close if m.score >= NAME_SCORE] + names
    names = list(dict.fromkeys(names))[:CARDS_PER_PAGE]
    missing = [name for name in names if name not in cards]
    facts = card_facts(kb, missing)
    cards.update(
        {name: {"name": name, "in_texts": bool(facts[name]["mentions"]), **facts[name]} for name in facts}
    )
    return {"answer": result, "cards": [cards[name] for name in names if name in cards]}


__all__ = ["answer", "answer_page", "Hit"]
