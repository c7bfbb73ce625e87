"""The command line's parameter types: what a typed value must be before any
knowledge base is opened."""

from __future__ import annotations

import click

from ocgkb import OcgkbError

# query.plan.MAX_QUERY, repeated so that parsing a command imports no query code
# (a test keeps them equal). Kilobytes of text are a mistake or an attack,
# refused before SQLite sees them (a 50 KB section id is "LIKE pattern too complex").
MAX_TEXT = 300


class TextError(OcgkbError):
    """A text argument that is not valid UTF-8, or absurdly long."""


class Text(click.ParamType):
    """A text argument: the one place that refuses bytes that are not UTF-8
    (the shell hands them over as lone surrogates, which nothing can print)
    and text far longer than any question."""

    name = "text"

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise TextError("the query is not valid UTF-8") from None
            if len(value) > MAX_TEXT:
                option = param is not None and param.param_type_name == "option"
                what = param.opts[0] if option else "the query"
                raise TextError(f"{what} is {len(value):,} characters long; ask in at most {MAX_TEXT}")
        return value


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
