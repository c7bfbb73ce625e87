"""Ruling dates: `YY/M/D` anywhere in a line, and the cards each date is about.

A date closes the statement it ends: the text since the previous date at the
same level of the line. A date inside a parenthetical aside ends the aside's
own statement ("（『场上的场地魔法卡』不是特定卡片19/11/23，…）"), and that aside,
dated apart, is no part of the sentence around it: the date at the sentence's
end dates the sentence and its card. A date right after another closes the same
statement ("…可以进行通常抽卡。18/2/24 18/3/1"). The card it dates is the
「card」 it directly follows ("「钻尘妖」17/3/24"), else the statement's first
card ("17/7/8 「新空间侠·黑暗豹」也不能。17/4/13").
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

    asides = _asides(line)
    found: list[DateMention] = []
    starts: dict[int, int] = {}  # where the open statement of each level (aside or line) starts
    last: dict[int, DateMention] = {}  # the last date of each level
    dated: list[tuple[int, int]] = []  # asides closed by a date of their own
    for match in DATE.finditer(line):
        iso = to_iso(*match.groups())
        if iso is None:
            continue
        aside = next(((o, c) for o, c in reversed(asides) if o < match.start() < c), None)
        level = aside[0] if aside else -1
        start = max(starts.get(level, 0), aside[0] + 1 if aside else 0)
        statement = line[start : match.start()]
        for o, c in reversed(dated):  # a dated aside inside is a statement of its own
            if start <= o and c < match.start():
                statement = statement[: o - start] + statement[c + 1 - start :]
        if aside:
            dated.append(aside)
        names = bracket_names(statement)
        if names and re.search(r"」\s*$", statement):
            names = [names[-1], *names[:-1]]  # the card the date directly follows
        if not statement.strip() and level in last:
            names = list(last[level].names)  # "18/2/24 18/3/1": two dates of one statement
        last[level] = DateMention(iso, match.group(0), match.start(), tuple(names))
        found.append(last[level])
        starts[level] = match.end()
    return found


_OPEN, _CLOSE = "（(", "）)"


def _asides(line: str) -> list[tuple[int, int]]:
    """(open, close) of every parenthetical aside of a line that is closed, by where
    it opens; an unclosed （ (damaged text) opens no aside."""
    pairs, stack = [], []
    for i, ch in enumerate(line):
        if ch in _OPEN:
            stack.append(i)
        elif ch in _CLOSE and stack:
            pairs.append((stack.pop(), i))
    return sorted(pairs)


def has_wiki_source(line: str) -> bool:
    return WIKI_SOURCE.search(line) is not None
