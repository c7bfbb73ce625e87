"""`card`: the card a name most likely means, and its rulings newest first."""

from __future__ import annotations

from .lookup import find_cards
from .search import passage_hit
from .store import KnowledgeBase


def card_view(kb: KnowledgeBase, query: str, limit: int = 20) -> dict:
    matches = find_cards(kb, query, limit=5)
    rulings: list[dict] = []
    if matches:
        rows = kb.query(
            """SELECT p.id, max(d.date) AS newest FROM passage_cards pc
               JOIN passages p ON p.id = pc.passage_id
               LEFT JOIN dates d ON d.passage_id = p.id
               WHERE pc.card = ?
               GROUP BY p.id
               ORDER BY newest IS NULL, newest DESC, p.rowid
               LIMIT ?""",
            (matches[0].name, limit),
        )
        rulings = [passage_hit(kb, r[0]).as_dict() for r in rows]
    return {"query": query, "matches": [m.as_dict() for m in matches], "rulings": rulings}
