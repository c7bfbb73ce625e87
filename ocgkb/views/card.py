"""`card`: the card a query most likely means (by password or any name), its facts
in every language, its Forbidden & Limited status with its history, and the
passages that mention it, newest ruling first; or the cards of the set a query
names; a guess says it is one."""

from __future__ import annotations

from ocgkb import NotFound
from ocgkb.messages import no_such_card
from ocgkb.query.lookup import MIN_SCORE, SUGGEST_SCORE, look_up_card
from ocgkb.store.cards import passages_mentioning
from ocgkb.store.database import KnowledgeBase
from ocgkb.store.passages import passage_hits
from ocgkb.store.schema import DEFAULT_CARD_PASSAGES, MOST_SET_CARDS
from ocgkb.views.card_facts import card_facts
from ocgkb.views.card_texts import effect_text
from ocgkb.views.status import card_status_view


def card_view(
    kb: KnowledgeBase, query: str, limit: int = DEFAULT_CARD_PASSAGES, day: str | None = None
) -> dict:
    """The matches for a query (best first, each with its facts), how sure the best
    is, its status under the lists in force on `day` (the newest when None), its
    effect text when the user imported it, with its reading (views/card_texts.py), and the
    passages that mention it: dated ones newest first, by the date the texts give
    for this card where a passage dates several. A set's name gives `set_view`."""
    found = look_up_card(kb, query)
    if found.set_cards:
        return set_view(kb, query, found.set_cards)
    matches = [m for m in found.scored if m.score >= MIN_SCORE][:5]
    facts = card_facts(kb, [m.name for m in matches])
    view: dict = {"query": query, "matches": [{**m.as_dict(), **facts.get(m.name, {})} for m in matches]}
    if not matches:
        view["rulings"] = []
        view["suggestions"] = [m.name for m in found.scored if m.score >= SUGGEST_SCORE][:5]
        view["message"] = no_such_card(query)
        raise NotFound(view["message"], detail=view)
    best = matches[0]
    # A name that is not what was typed is a guess, and every front end says so.
    view["confidence"] = "low" if best.guessed else "high"
    if best.guessed:
        view["message"] = f"no card is called {query!r}; did you mean 「{best.name}」?"
    view["status"] = card_status_view(kb, best.name, day)
    view["effect_text"] = effect_text(kb, view["matches"][0].get("password"))
    newest = passages_mentioning(kb, best.name, limit)
    view["rulings"] = [{**hit.as_dict(), "date": newest[hit.id]} for hit in passage_hits(kb, list(newest))]
    return view


def set_view(kb: KnowledgeBase, query: str, cards: list[str]) -> dict:
    """`{"query", "set", "count", "cards": [{"name", "password", "names", "mentions"}]}`:
    the cards whose names hold a set's name, those they begin with first."""
    shown = cards[:MOST_SET_CARDS]
    facts = card_facts(kb, shown)
    return {
        "query": query,
        "set": query.strip(),
        "count": len(cards),
        "cards": [
            {"name": card, **{k: facts[card][k] for k in ("password", "names", "mentions")}}
            for card in shown
            if card in facts
        ],
    }
