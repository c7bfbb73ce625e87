"""The Forbidden & Limited status of cards, from the lists the build stores
(tables `limit_lists` and `card_limits`, from rulings_data/limit_regulation.jsonl.xz).

A reusable piece: `ask` answers "is X banned" with it, and anything that checks a
deck or shows a card's status reads the same functions. Every status names the
list it comes from (region and date): a list announced after the snapshot is
not in it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ocgkb.sources.limits import REGIONS
from ocgkb.store.database import KnowledgeBase
from ocgkb.store.limit_lists import limit_list_rows, listed_statuses

COPIES = {"forbidden": 0, "limited": 1, "semi-limited": 2, "unlimited": 3}


@dataclass(frozen=True)
class LimitListInfo:
    region: str
    effective: str
    cards: int
    partial: bool  # far shorter than the lists around it: perhaps incomplete upstream

    @property
    def region_name(self) -> str:
        return REGIONS.get(self.region, self.region)


def limit_lists(kb: KnowledgeBase) -> list[LimitListInfo]:
    """Every list the knowledge base holds, by region, oldest first."""
    return [LimitListInfo(*row) for row in limit_list_rows(kb)]


def list_in_force(kb: KnowledgeBase, region: str, day: str | None = None) -> LimitListInfo | None:
    """The list of a region in force on a day (ISO; the newest list when None)."""
    lists = [lst for lst in limit_lists(kb) if lst.region == region and (day is None or lst.effective <= day)]
    return lists[-1] if lists else None


def statuses(kb: KnowledgeBase, cards: list[str], lst: LimitListInfo) -> dict[str, str]:
    """Each card's status under one list: forbidden, limited, semi-limited or unlimited."""
    if not cards:
        return {}
    found = listed_statuses(kb, lst.region, lst.effective, cards)
    return {card: found.get(card, "unlimited") for card in cards}


def newest_statuses(kb: KnowledgeBase, cards: list[str]) -> list[dict]:
    """For each card, its status under the newest list of each region:
    `{"card", "region", "region_name", "effective", "status", "copies", "partial"}`."""
    rows = []
    newest = [lst for lst in (list_in_force(kb, region) for region in REGIONS) if lst]
    for lst in newest:
        for card, status in statuses(kb, cards, lst).items():
            rows.append(
                {
                    "card": card,
                    "region": lst.region,
                    "region_name": lst.region_name,
                    "effective": lst.effective,
                    "status": status,
                    "copies": COPIES[status],
                    "partial": lst.partial,
                }
            )
    return sorted(rows, key=lambda r: cards.index(r["card"]))
