"""Ruling dates: `YY/M/D` anywhere in a line, and the card a mid-line date follows."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

DATE = re.compile(r"(?<![\d/])(\d{2})/(\d{1,2})/(\d{1,2})(?![\d/])")
# `wiki` stands where a date would: the ruling's source is the wiki, not a day.
WIKI_SOURCE = re.compile(r"(?<![A-Za-z])wiki(?![A-Za-z])", re.IGNORECASE)
_CARD_BEFORE = re.compile(r"「([^「」\n]+)」\s*$")


@dataclass(frozen=True)
class DateMention:
    iso: str  # 2017-03-24
    raw: str  # 17/3/24
    start: int  # offset in the line
    card: str | None  # the 「card」 the date directly follows, if any


def to_iso(yy: str, month: str, day: str) -> str | None:
    """`17/3/24` → `2017-03-24`; None when it is no calendar day."""
    year = 2000 + int(yy) if int(yy) < 70 else 1900 + int(yy)
    try:
        return dt.date(year, int(month), int(day)).isoformat()
    except ValueError:
        return None


def find_dates(line: str) -> list[DateMention]:
    """Every date in a line, in order, with the card it is attached to."""
    found = []
    for match in DATE.finditer(line):
        iso = to_iso(*match.groups())
        if iso is None:
            continue
        card = _CARD_BEFORE.search(line[: match.start()])
        found.append(DateMention(iso, match.group(0), match.start(), card.group(1) if card else None))
    return found


def has_wiki_source(line: str) -> bool:
    return WIKI_SOURCE.search(line) is not None
