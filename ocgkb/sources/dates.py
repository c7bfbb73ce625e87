"""Ruling dates: `YY/M/D` anywhere in a line, and the cards each date is about.

A date closes the statement before it: the text since the previous date of the
line. The card it dates is the 「card」 it directly follows ("「钻尘妖」17/3/24"),
else the statement's first card ("17/7/8 「新空间侠·黑暗豹」也不能。17/4/13").
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

DATE = re.compile(r"(?<![\d/])(\d{2})/(\d{1,2})/(\d{1,2})(?![\d/])")
# `wiki` stands where a date would: the ruling's source is the wiki, not a day.
WIKI_SOURCE = re.compile(r"(?<![A-Za-z])wiki(?![A-Za-z])", re.IGNORECASE)


@dataclass(frozen=True)
class DateMention:
    iso: str  # 2017-03-24
    raw: str  # 17/3/24
    start: int  # offset in the line
    names: tuple[str, ...]  # what sits in 「」 in the statement the date closes, the likeliest card first

    @property
    def card(self) -> str | None:
        """The name the date most likely dates."""
        return self.names[0] if self.names else None


def to_iso(yy: str, month: str, day: str) -> str | None:
    """`17/3/24` → `2017-03-24`; None when it is no calendar day."""
    year = 2000 + int(yy) if int(yy) < 70 else 1900 + int(yy)
    try:
        return dt.date(year, int(month), int(day)).isoformat()
    except ValueError:
        return None


def find_dates(line: str) -> list[DateMention]:
    """Every date in a line, in order, with the names of the statement it closes."""
    from ocgkb.text.names import bracket_names

    found = []
    statement_start = 0
    for match in DATE.finditer(line):
        iso = to_iso(*match.groups())
        if iso is None:
            continue
        names = bracket_names(line[statement_start : match.start()])
        if names and re.search(r"」\s*$", line[statement_start : match.start()]):
            names = [names[-1], *names[:-1]]  # the card the date directly follows
        names = tuple(names)
        found.append(DateMention(iso, match.group(0), match.start(), names))
        statement_start = match.end()
    return found


def has_wiki_source(line: str) -> bool:
    return WIKI_SOURCE.search(line) is not None
