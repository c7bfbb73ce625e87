"""`card`: the card a name most likely means, its facts in every language, and
the passages that mention it, newest ruling first."""

from __future__ import annotations

from ocgkb import NotFound
from ocgkb.messages import no_such_card
from ocgkb.query.lookup import MIN_SCORE, suggest_cards
from ocgkb.store.cards import passages_mentioning
from ocgkb.store.database import KnowledgeBase
from ocgkb.store.passages import passage_hits
from ocgkb.store.schema import DEFAULT_CARD_PASSAGES
from ocgkb.views.card_facts import card_facts


def card_view(kb: KnowledgeBase, query: str, limit: int = DEFAULT_CARD_PASSAGES) -> dict:
    """The matches for a name (best first, each with its facts) and the passages
    that mention the best one: dated ones newest first, by the date the texts give
    for this card where a passage dates several."""
    close = suggest_cards(kb, query, limit=10)
    matches = [m for m in close if m.score >= MIN_SCORE][:5]
    facts = card_facts(kb, [m.name for m in matches])
    view: dict = {
        "query": query,
        "matches": [{**m.as_dict(), **facts.get(m.name, {})} for m in matches],
        "rulings": [],
    }
    if not matches:
        view["suggestions"] = [m.name for m in close[:5]]
        view["message"] = no_such_card(query)
        raise NotFound(view["message"], detail=view)
    newest = passages_mentioning(kb, matches[0].name, limit)
    view["rulings"] = [{**hit.as_dict(), "date": newest[hit.id]} for hit in passage_hits(kb, list(newest))]
    return view
