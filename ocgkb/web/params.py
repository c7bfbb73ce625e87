"""Reading a request's parameters: what is missing, empty, too long or not a number
is a BadRequest (400) with a message that says which parameter and why."""

from __future__ import annotations

from starlette.requests import Request

from ocgkb import OcgkbError
from ocgkb.query.plan import MAX_QUERY
from ocgkb.query.ranking import Filters

FILTERS = ("kind", "section", "concept", "card", "since", "until")


class BadRequest(OcgkbError):
    """A request whose parameters cannot be answered as given."""


def text(request: Request, name: str = "q") -> str:
    value = request.query_params.get(name)
    if value is None or not value.strip():
        raise BadRequest(f"the parameter {name!r} is missing or empty")
    return checked(value, name)


def checked(value: str, what: str) -> str:
    """A user-given string, refused when it is too long or holds control characters."""
    if len(value) > MAX_QUERY:
        raise BadRequest(f"{what!r} is {len(value)} characters long; at most {MAX_QUERY} are read")
    if any((ord(c) < 32 and c not in "\t\n\r") or 127 <= ord(c) < 160 for c in value):
        raise BadRequest(f"{what!r} holds control characters")
    return value


def limit(request: Request, default: int, most: int) -> int:
    raw = request.query_params.get("limit")
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise BadRequest(f"'limit' must be a whole number from 1 to {most}, not {raw!r}") from None
    if not 1 <= value <= most:
        raise BadRequest(f"'limit' must be from 1 to {most}, not {value}")
    return value


def filters(request: Request) -> Filters | None:
    """The search filters a request names (kind, section, concept, card, since, until)."""
    given = {
        name: checked(request.query_params[name], name) for name in FILTERS if name in request.query_params
    }
    return Filters.parse(**given) if given else None
