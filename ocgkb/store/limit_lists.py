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
