"""`card`: the card a name most likely means, its facts in every language, and
the passages that mention it, newest ruling first."""

from __future__ import annotations

from ocgkb import NotFound
from ocgkb.messages import no_such_card
from ocgkb.query.lookup import MIN_SCORE, suggest_cards
from ocgkb.store.database import KnowledgeBase
from ocgkb.store.passages import passage_hits
from ocgkb.views.card_facts import card_facts

MOST_PASSAGES = 200  # passages a card's page lists at most


def card_view(kb: KnowledgeBase, query: str, limit: int = 20) -> dict:
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
    rows = kb.query(
        """SELECT pc.passage_id,
                  coalesce(max(CASE WHEN d.card = pc.card THEN d.date END), max(d.date)) AS newest
           FROM passage_cards pc
           LEFT JOIN dates d ON d.passage_id = pc.passage_id
           JOIN passages p ON p.id = pc.passage_id
           WHERE pc.card = ?
           GROUP BY pc.passage_id
           ORDER BY newest IS NULL, newest DESC, p.rowid
           LIMIT ?""",
        (matches[0].name, limit),
    )
    newest = {r[0]: r[1] for r in rows}
    view["rulings"] = [{**hit.as_dict(), "date": newest[hit.id]} for hit in passage_hits(kb, list(newest))]
    return view
