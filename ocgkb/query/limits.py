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
from ocgkb.store.limit_lists import card_limit_rows, limit_list_rows, listed_statuses

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


@dataclass(frozen=True)
class Run:
    """Consecutive lists that gave a card one status: `since` the first of them."""

    status: str
    since: str
    until: str  # the last list of the run
    partial: bool = False  # given by a list that looks incomplete upstream: never merged, said so


@dataclass(frozen=True)
class RegionStatus:
    """A card's status in one region on a day: the list in force (None before the
    first list), the status under it, and its history up to that list."""

    region: str
    region_name: str
    first: str  # the region's first and newest lists in the data
    newest: str
    list: LimitListInfo | None
    status: str | None
    history: list[Run]


def card_status(kb: KnowledgeBase, card: str, day: str | None = None) -> list[RegionStatus]:
    """A card's status in each region under the list in force on a day (the newest
    list when None), with its history: consecutive lists of one status collapse.
    A partial list that does not name the card says nothing of it and is skipped."""
    named = {(region, effective): status for region, effective, status in card_limit_rows(kb, card)}
    out = []
    for region, region_name in REGIONS.items():
        lists = [lst for lst in limit_lists(kb) if lst.region == region]
        if not lists:
            continue
        upto = [lst for lst in lists if day is None or lst.effective <= day]
        runs: list[Run] = []
        for lst in upto:
            status = named.get((region, lst.effective), "unlimited")
            if lst.partial and status == "unlimited":
                continue
            if runs and runs[-1].status == status and not (lst.partial or runs[-1].partial):
                runs[-1] = Run(status, runs[-1].since, lst.effective)
            else:
                runs.append(Run(status, lst.effective, lst.effective, lst.partial))
        current = upto[-1] if upto else None
        status = named.get((region, current.effective), "unlimited") if current else None
        out.append(
            RegionStatus(region, region_name, lists[0].effective, lists[-1].effective, current, status, runs)
        )
    return out
