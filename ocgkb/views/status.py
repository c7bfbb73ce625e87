"""The Forbidden & Limited status of cards, as a view: each card under the newest
list of each region, the list named by region and date, and a warning for a list
that looks partial upstream. `ask` shows it first for "is X banned"; a deck
check or a card page can show the same dict."""

from __future__ import annotations

from ocgkb.query.limits import COPIES, limit_lists, newest_statuses
from ocgkb.store.database import KnowledgeBase

PARTIAL_WARNING = (
    "The {region_name} list of {effective} names only {cards} cards, far fewer than the lists "
    "around it: it may be incomplete upstream, so a card missing from it may still be limited."
)


def status_view(kb: KnowledgeBase, cards: list[str]) -> dict:
    """`{"cards": [{"card", "statuses": [{"region", "region_name", "effective",
    "status", "copies", "partial"}]}], "lists": […], "warnings": […]}`."""
    rows = newest_statuses(kb, cards)
    used = {(r["region"], r["effective"]) for r in rows}
    lists = [lst for lst in limit_lists(kb) if (lst.region, lst.effective) in used]
    return {
        "cards": [
            {
                "card": card,
                "statuses": [{k: v for k, v in r.items() if k != "card"} for r in rows if r["card"] == card],
            }
            for card in cards
        ],
        "lists": [
            {
                "region": lst.region,
                "region_name": lst.region_name,
                "effective": lst.effective,
                "cards": lst.cards,
            }
            for lst in lists
        ],
        "warnings": [
            PARTIAL_WARNING.format(region_name=lst.region_name, effective=lst.effective, cards=lst.cards)
            for lst in lists
            if lst.partial
        ],
    }


def status_line(status: dict) -> str:
    """One status in words: `limited (1 copy) under the OCG list of 2026-07-01`."""
    copies = COPIES[status["status"]]
    plural = "copy" if copies == 1 else "copies"
    return f"{status['status']} ({copies} {plural}) under the {status['region_name']} list of {status['effective']}"
