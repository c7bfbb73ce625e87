"""The command line's parameter types: what a typed value must be before any
knowledge base is opened."""

from __future__ import annotations

import click

from ocgkb import OcgkbError
from ocgkb.query.filters import DateError, Filters, parse_date
from ocgkb.store.schema import MAX_QUERY

# An option's value, or None when it is not given.
Option = str | None


class TextError(OcgkbError):
    """A text argument that is not valid UTF-8, or absurdly long."""


class OptionError(OcgkbError):
    """An option given an empty value, or options that contradict each other."""

    exit_code = 2


class Text(click.ParamType):
    """A text argument: the one place that refuses bytes that are not UTF-8
    (the shell hands them over as lone surrogates, which nothing can print)
    and text far longer than any question."""

    name = "text"

    def __init__(self, most: int | None = MAX_QUERY, what: str = "the query") -> None:
        self.most, self.what = most, what

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise TextError(f"{self.what} is not valid UTF-8") from None
            if self.most is not None and len(value) > self.most:
                option = param is not None and param.param_type_name == "option"
                what = param.opts[0] if option else self.what
                raise TextError(f"{what} is {len(value):,} characters long; ask in at most {self.most}")
        return value


def count_option(*names: str, low: int, high: int, default: int | None, help: str):
    """An option taking a whole number from `low` to `high`, its default shown."""
    return click.option(
        *names, type=Count(low, high), default=default, show_default=default is not None, help=help
    )


class Count(click.IntRange):
    """A whole number in a range, in the digits 0-9 only: Python's int() also
    takes '٣' and '1_0', which no one means as a count."""

    name = "integer"

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            digits = value.strip()
            digits = digits[1:] if digits[:1] in ("+", "-") else digits
            if not (digits.isascii() and digits.isdigit()):
                self.fail(f"{value!r} is not a whole number in the digits 0-9.", param, ctx)
        return super().convert(value, param, ctx)


TEXT = Text()
# A card's effect text: its length is the reading's to judge (views/read.py).
CARD_TEXT = Text(None, "the card text")


def search_filters(
    kind: Option, section: Option, concept: Option, card: Option, since: Option, until: Option
) -> Filters:
    """The search filters from the options of `search` and `ask`, in their names:
    an empty value is a usage error, dates are read once and must make a range."""
    named = (("--section", section), ("--concept", concept), ("--card", card), ("--since", since))
    for option, value in (*named, ("--until", until)):
        if value is not None and not value.strip():
            raise OptionError(f"{option} needs a value")
    first, last = date_option("--since", since), date_option("--until", until)
    if first and last and first > last:  # a range no date fits: a mistake, not "no results"
        raise OptionError(f"--since {first} is after --until {last}")
    return Filters(kind, section.strip() if section else None, concept, card, first, last)


def date_option(option: str, value: str | None) -> str | None:
    """An option's date in ISO form (None when not given), an error naming the option."""
    if value is not None and not value.strip():
        raise OptionError(f"{option} needs a value")
    try:
        return parse_date(value) if value else None
    except DateError as exc:
        raise DateError(f"{option}: {exc}") from None
