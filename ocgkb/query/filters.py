"""What a search keeps: `Filters`, a plain typed value each front end fills in
its own terms (the CLI's options, the web's query parameters), and how a search
turns it into a store `Restriction` (naming a concept or a card by any name)."""

from __future__ import annotations

import datetime as dt
import re

from ocgkb import OcgkbError


class DateError(OcgkbError):
    """Text that is not a date (a front end names the parameter it came from)."""


class Filters:
    """What a search keeps; every field optional. (A class with slots: its class is
    made at every command's start, where a dataclass or a NamedTuple costs twenty
    times more, compiling code for the class and for each annotation.)"""

    __slots__ = ("kind", "section", "concept", "card", "since", "until")

    def __init__(
        self,
        kind: str | None = None,  # one of PASSAGE_KINDS
        section: str | None = None,  # a section and those below it
        concept: str | None = None,  # any name of a concept
        card: str | None = None,  # any name of a card
        # ISO days; with both, one date of the passage inside both bounds
        since: str | None = None,
        until: str | None = None,
    ) -> None:
        self.kind, self.section, self.concept, self.card = kind, section, concept, card
        self.since, self.until = since, until


def parse_date(value: str) -> str:
    """An ISO date from what people type: 2023-01-01, 2023-1-1, 2023 or 23/1/1."""
    value = value.strip()
    for pattern, build in (
        (r"(\d{4})", lambda y: (int(y), 1, 1)),
        (r"(\d{4})-(\d{1,2})", lambda y, m: (int(y), int(m), 1)),
        (r"(\d{4})-(\d{1,2})-(\d{1,2})", lambda y, m, d: (int(y), int(m), int(d))),
        (r"(\d{2})/(\d{1,2})/(\d{1,2})", lambda y, m, d: (2000 + int(y), int(m), int(d))),
    ):
        match = re.fullmatch(pattern, value)
        if match:
            try:
                return dt.date(*build(*match.groups())).isoformat()
            except ValueError:
                break
    raise DateError(f"not a date: {value!r} (use YYYY-MM-DD)")
