"""The Forbidden & Limited status of cards, as a view: each card under the newest
list of each region, the list named by region and date, and a warning for a list
that looks partial upstream. `ask` shows it first for "is X banned"; a deck
check can show the same dict. A card's page shows `card_status_view`: its status
in each region on a day, with its history, and never more than the data knows."""

from __future__ import annotations

from ocgkb.query.limits import COPIES, RegionStatus, card_status, limit_lists, newest_statuses
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


def card_status_view(kb: KnowledgeBase, card: str, day: str | None = None) -> dict:
    """`{"on", "regions": [{"region", "region_name", "effective", "status", "copies",
    "partial", "first_in_data", "newest_in_data", "history": [{"status", "since",
    "until"}], "says", "history_says"}], "warnings"}`: the list in force on `day`
    (the newest when None) in each region, `effective` None before the first."""
    found = card_status(kb, card, day)
    warnings = [
        PARTIAL_WARNING.format(region_name=r.region_name, effective=r.list.effective, cards=r.list.cards)
        for r in found
        if r.list and r.list.partial
    ]
    return {"on": day, "regions": [_region_status(r, day) for r in found], "warnings": warnings}


def _region_status(r: RegionStatus, day: str | None) -> dict:
    lst = r.list
    history = [
        {"status": run.status, "since": run.since, "until": run.until, "partial": run.partial}
        for run in r.history
    ]
    view = {
        "region": r.region,
        "region_name": r.region_name,
        "effective": lst.effective if lst else None,
        "status": r.status,
        "copies": COPIES[r.status] if r.status else None,
        "partial": lst.partial if lst else False,
        "first_in_data": r.first,
        "newest_in_data": r.newest,
        "history": history,
    }
    if not lst:
        view["says"] = f"no {r.region_name} list was in force on {day}: the first in the data is {r.first}"
        view["history_says"] = ""
        return view
    # The data ends at its newest list: a later one, announced or not, is not known here.
    when = (
        f", in force on {day}"
        if day and day < r.newest
        else ", the newest in the data (a list announced after it is not known here)"
    )
    view["says"] = status_line(view) + when
    view["history_says"] = _history_line(r)
    return view


def _history_line(r: RegionStatus) -> str:
    """`semi-limited from 2021-01-01, limited since 2026-01-01`; one status throughout
    is said with the span of the lists it held on."""
    runs = r.history
    if len(runs) == 1:
        run = runs[0]
        span = f"{r.region_name} list from {run.since} to {run.until}"
        return f"on no {span}" if run.status == "unlimited" else f"{run.status} on every {span}"
    first, *later = runs
    return ", ".join(
        [
            f"{first.status} from {first.since}{_partial(first)}",
            *(f"{run.status} since {run.since}{_partial(run)}" for run in later),
        ]
    )


def _partial(run) -> str:
    return " (on a list that looks incomplete upstream)" if run.partial else ""
