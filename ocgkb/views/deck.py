"""A deck checked as a judge checks it before a round: the deck construction
rules of the rulebook (000 §1.2) and the tournament rules (003), and the
Forbidden & Limited list in force for a region on a day.

Every problem cites the passages that state its rule, names the cards at fault
by password and name, and says in which sections they stand. An unknown
password is a problem, never a crash; a file that is not a .ydk is a DeckError.
"""

from __future__ import annotations

from collections import Counter

from ocgkb import UsageError
from ocgkb.files import UnsafePathError, read_at_most, short_path
from ocgkb.query.filters import DateError, parse_date
from ocgkb.query.limits import COPIES, LimitListInfo, list_in_force, statuses
from ocgkb.sources.limits import REGIONS
from ocgkb.store.cards import cards_by_password
from ocgkb.store.database import KnowledgeBase
from ocgkb.text.ydk import MAX_YDK_BYTES, Deck, DeckError, parse_ydk
from ocgkb.views.status import PARTIAL_WARNING

# The passages (ids) that state each rule: the rulebook's clause, then the tournament text's.
CITES = {
    "main-size": ["1.2.1/2", "tournament/123"],
    "extra-size": ["1.2.2/2", "tournament/131"],
    "side-size": ["1.2.3/3", "tournament/150"],
    "copies": ["1.2.1/5", "1.2.3/2", "1.2.1.1/2"],
    "limit": ["tournament/129", "tournament/32"],
    "extra-monster-in-main": ["1.2.1/4", "1.2.2/1"],
    "not-extra-monster": ["1.2.2/1"],
    "unknown-card": [],
}
SIZES = {"main": (40, 60, "main-size"), "extra": (0, 15, "extra-size"), "side": (0, 15, "side-size")}
MOST_COPIES = COPIES["unlimited"]
# The type-line words of the monsters that stand in the extra deck.
EXTRA_DECK_KINDS = {"Fusion", "Synchro", "Xyz", "Link"}
# (section, rule, whether a card there that is an extra-deck monster breaks it, what is wrong)
ZONE_RULES = (
    (
        "main",
        "extra-monster-in-main",
        True,
        "is an extra-deck monster (Fusion, Synchro, Xyz or Link) in the main deck",
    ),
    (
        "extra",
        "not-extra-monster",
        False,
        "is in the extra deck but is not a Fusion, Synchro, Xyz or Link monster",
    ),
)


def deck_file_view(kb: KnowledgeBase, path: str, region: str = "ocg", on: str | None = None) -> dict:
    """`deck_view` of a file, read no further than a .ydk's limit; a missing
    file, a folder or a FIFO is a DeckError."""
    try:
        data = read_at_most(path, MAX_YDK_BYTES)
    except UnsafePathError as exc:
        raise DeckError(str(exc)) from None
    except OSError as exc:
        raise DeckError(f"{short_path(path)}: {exc.strerror or exc}") from None
    return deck_view(kb, data, region, on)


def deck_view(kb: KnowledgeBase, text: bytes | str, region: str = "ocg", on: str | None = None) -> dict:
    """`{"legal", "region", "region_name", "list_date", "counts", "problems":
    [{"rule", "cites", "cards", "message"}], "cards": {password: names}, "warnings"}`."""
    lst = _list(kb, region, on)
    deck = parse_ydk(text.encode("utf-8") if isinstance(text, str) else text)
    known = cards_by_password(kb, sorted({*deck.main, *deck.extra, *deck.side}))
    problems = [
        *_size_problems(deck),
        *_unknown_problems(deck, known),
        *_zone_problems(deck, known),
        *_copy_problems(kb, deck, known, lst),
    ]
    named = sorted({p for problem in problems for p in problem["cards"]}, key=int)
    return {
        "legal": not problems,
        "region": lst.region,
        "region_name": lst.region_name,
        "list_date": lst.effective,
        "counts": {zone: len(cards) for zone, cards in deck._asdict().items()},
        "problems": problems,
        "cards": {p: _names(known.get(p)) for p in named},
        "warnings": [
            PARTIAL_WARNING.format(region_name=lst.region_name, effective=lst.effective, cards=lst.cards)
        ]
        if lst.partial
        else [],
    }


def _list(kb: KnowledgeBase, region: str, on: str | None) -> LimitListInfo:
    """The list in force for the region on the day (the newest without one)."""
    if region not in REGIONS:
        raise UsageError(f"unknown region {region!r}: use {' or '.join(REGIONS)}")
    try:
        day = parse_date(on) if on else None
    except DateError as exc:
        raise UsageError(str(exc)) from None
    lst = list_in_force(kb, region, day)
    if lst is None:
        raise UsageError(f"no {REGIONS[region]} Forbidden & Limited list was in force on {day}")
    return lst


def _problem(rule: str, cards: list[str], message: str) -> dict:
    return {"rule": rule, "cites": CITES[rule], "cards": cards, "message": message}


def _names(row) -> dict:
    if row is None:
        return {"password": None, "name": None, "name_en": None, "name_ja": None}
    return {key: row[key] for key in ("name", "name_en", "name_ja")} | {"password": str(row["password"])}


def _size_problems(deck: Deck) -> list[dict]:
    problems = []
    for zone, (low, high, rule) in SIZES.items():
        count = len(getattr(deck, zone))
        if not low <= count <= high:
            bounds = f"{low} to {high}" if low else f"at most {high}"
            problems.append(_problem(rule, [], f"the {zone} deck holds {count} cards; it must hold {bounds}"))
    return problems


def _unknown_problems(deck: Deck, known: dict) -> list[dict]:
    return [
        _problem(
            "unknown-card", [p], f"{p} (in {zone}) is not the password of any card the knowledge base knows"
        )
        for zone, cards in deck._asdict().items()
        for p in dict.fromkeys(cards)
        if p not in known
    ]


def _is_extra_monster(row) -> bool:
    return bool(EXTRA_DECK_KINDS & {word.strip() for word in (row["type_line"] or "").split("/")})


def _zone_problems(deck: Deck, known: dict) -> list[dict]:
    """Extra-deck monsters in the main deck; anything else in the extra deck."""
    return [
        _problem(rule, [p], f"「{known[p]['name']}」 ({p}) {say}")
        for zone, rule, belongs_in_extra, say in ZONE_RULES
        for p in dict.fromkeys(getattr(deck, zone))
        if p in known and _is_extra_monster(known[p]) is belongs_in_extra
    ]


def _copy_problems(kb: KnowledgeBase, deck: Deck, known: dict, lst: LimitListInfo) -> list[dict]:
    """More than three of a card, or more than the list allows, counted by card
    name across main, extra and side: alternate artworks are one card."""
    by_card: dict[str, Counter] = {}
    for zone, cards in deck._asdict().items():
        for p in cards:
            if p in known:
                by_card.setdefault(known[p]["name"], Counter())[(zone, p)] += 1
    status = statuses(kb, sorted(by_card), lst)
    problems = []
    for name, placed in by_card.items():
        count, passwords = sum(placed.values()), sorted({p for _, p in placed}, key=int)
        where = ", ".join(f"{zone} {p} ×{n}" for (zone, p), n in placed.items())
        allowed = COPIES[status[name]]
        if count > MOST_COPIES:
            problems.append(
                _problem(
                    "copies", passwords, f"「{name}」 appears {count} times ({where}); at most {MOST_COPIES}"
                )
            )
        if status[name] != "unlimited" and count > allowed:
            under = f"the {lst.region_name} list of {lst.effective}"
            problems.append(
                _problem(
                    "limit",
                    passwords,
                    f"「{name}」 is {status[name]} under {under}: {allowed} allowed, the deck has {count} ({where})",
                )
            )
    return problems
