"""Reads of the Forbidden & Limited lists the build stored (`limit_lists`, `card_limits`)."""

from __future__ import annotations

from ocgkb.store.database import KnowledgeBase


def limit_list_rows(kb: KnowledgeBase) -> list[tuple[str, str, int, bool]]:
    """(region, effective, cards, partial) of every list, by region, oldest first."""
    return [
        (r["region"], r["effective"], r["cards"], bool(r["partial"]))
        for r in kb.query(
            "SELECT region, effective, cards, partial FROM limit_lists ORDER BY region, effective"
        )
    ]


def listed_statuses(kb: KnowledgeBase, region: str, effective: str, cards: list[str]) -> dict[str, str]:
    """The status of those of these cards a list names (the others are unlimited)."""
    marks = ",".join("?" * len(cards))
    return dict(
        kb.query(
            f"SELECT card, status FROM card_limits WHERE region = ? AND effective = ? AND card IN ({marks})",
            (region, effective, *cards),
        )
    )


def card_limit_rows(kb: KnowledgeBase, card: str) -> list[tuple[str, str, str]]:
    """(region, effective, status) of every list that names a card (any of its
    passwords: the build stores each under the card's name), oldest first."""
    return [
        (r["region"], r["effective"], r["status"])
        for r in kb.query(
            "SELECT region, effective, status FROM card_limits WHERE card = ? ORDER BY region, effective",
            (card,),
        )
    ]
