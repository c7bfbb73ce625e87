"""Reading a request's parameters: what is missing, empty, too long or not a number
is a BadRequest (400) with a message that says which parameter and why."""

from __future__ import annotations

import json

from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.formparsers import FormParser, MultiPartException, MultiPartParser
from starlette.requests import Request

from ocgkb import OcgkbError
from ocgkb.query.filters import DateError, Filters, parse_date
from ocgkb.store.schema import MAX_QUERY, PASSAGE_KINDS

FILTERS = ("kind", "section", "concept", "card", "since", "until")


class BadRequest(OcgkbError):
    """A request whose parameters cannot be answered as given."""


def text(request: Request, name: str = "q") -> str:
    value = request.query_params.get(name)
    if value is None or not value.strip():
        raise BadRequest(f"the parameter {name!r} is missing or empty")
    return checked(value, name)


def checked(value: str, what: str, most: int | None = MAX_QUERY) -> str:
    """A user-given string, refused when it is too long (None: its reader judges
    the length), holds control characters or is not text (a lone surrogate, which
    JSON's \\ud800 can send and nothing can print)."""
    if most is not None and len(value) > most:
        raise BadRequest(f"{what!r} is {len(value)} characters long; at most {most} are read")
    if any((ord(c) < 32 and c not in "\t\n\r") or 127 <= ord(c) < 160 for c in value):
        raise BadRequest(f"{what!r} holds control characters")
    if any("\ud800" <= c <= "\udfff" for c in value):
        raise BadRequest(f"{what!r} is not valid UTF-8")
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
    """The search filters a request names (kind, section, concept, card, since, until),
    each error naming its parameter."""
    given = {
        name: checked(request.query_params[name], name) for name in FILTERS if name in request.query_params
    }
    if not given:
        return None
    for name, value in given.items():
        if name != "kind" and not value.strip():
            raise BadRequest(f"the parameter {name!r} needs a value")
    kind = given.get("kind")
    if kind is not None and kind not in PASSAGE_KINDS:
        raise BadRequest(f"'kind': {kind!r} is none of {', '.join(PASSAGE_KINDS)}")
    since, until = _date(given, "since"), _date(given, "until")
    if since and until and since > until:  # a range no date fits: a mistake, not "no results"
        raise BadRequest(f"'since' {since} is after 'until' {until}")
    section = given.get("section")
    return Filters(
        kind, section.strip() if section else None, given.get("concept"), given.get("card"), since, until
    )


def date(request: Request, name: str) -> str | None:
    """A date parameter in ISO form, None when not given; empty or no date is a 400."""
    value = request.query_params.get(name)
    return _date({name: checked(value, name)}, name) if value is not None else None


def _date(given: dict[str, str], name: str) -> str | None:
    try:
        return parse_date(given[name]) if name in given else None
    except DateError as exc:
        raise BadRequest(f"{name!r}: {exc}") from None


async def bounded_body(request: Request, most: int) -> bytes:
    """The request's body, refused with 413 once past `most` bytes: never read whole first."""
    declared = request.headers.get("content-length", "")
    too_large = HTTPException(413, f"the body is larger than {most:,} bytes")
    if declared.isdigit() and int(declared) > most:
        raise too_large
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > most:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


# A form's envelope (boundaries, part headers, the other fields) beside its file.
FORM_ENVELOPE = 16 * 1024


async def deck_form(request: Request, most: int) -> tuple[bytes, str, str | None]:
    """The deck a form sends (an uploaded file, else the pasted text), its region and
    its date. The body is read no further than the deck's limit and its envelope."""
    form = await _form(request, most + FORM_ENVELOPE, "the deck")
    upload = form.get("file")
    if isinstance(upload, UploadFile) and upload.filename:
        data = await upload.read(most + 1)
    else:
        pasted = form.get("ydk")
        data = pasted.encode("utf-8") if isinstance(pasted, str) else b""
    region, day = form.get("region"), form.get("on")
    region = checked(region, "region") if isinstance(region, str) and region else "ocg"
    return data, region, checked(day, "on") if isinstance(day, str) and day else None


async def read_form(request: Request, most: int) -> tuple[str, str | None]:
    """The card text and the card's name (None when left blank) the /read form sends."""
    form = await _form(request, most, "the card text")
    text, card = form.get("text"), form.get("card")
    text = text if isinstance(text, str) else ""
    card = card.strip() if isinstance(card, str) else ""
    return checked(text, "text", None), checked(card, "card") if card else None


# What the body of POST /api/read looks like, for its errors.
READ_BODY = '{"text": "…", "card": null}'


async def read_body(request: Request, most: int) -> tuple[str, str | None]:
    """The card text and the card's name (or None) of a JSON body {"text", "card"}:
    anything else in it, or of another type, is refused rather than guessed at."""
    data = await bounded_body(request, most)
    try:
        body = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadRequest("the body is not UTF-8") from None
    except (ValueError, RecursionError):
        raise BadRequest(f"the body is not JSON; send {READ_BODY}") from None
    if not isinstance(body, dict):
        raise BadRequest(f"the body must be a JSON object: {READ_BODY}")
    unknown = sorted(set(body) - {"text", "card"})
    if unknown:
        raise BadRequest(f"unknown field {unknown[0]!r}: only 'text' and 'card' are read")
    text, card = body.get("text"), body.get("card")
    if not isinstance(text, str):
        raise BadRequest("'text' must be a string: the card's effect text")
    if card is not None and (not isinstance(card, str) or not card.strip()):
        raise BadRequest("'card' must be a card's name or password, or null")
    return checked(text, "text", None), checked(card, "card") if card is not None else None


async def _form(request: Request, most: int, what: str) -> FormData:
    data = await bounded_body(request, most)

    async def body():
        yield data
        yield b""

    kind = request.headers.get("content-type", "")
    if kind.startswith("multipart/form-data"):
        parser: FormParser | MultiPartParser = MultiPartParser(
            request.headers, body(), max_files=1, max_fields=8
        )
    elif kind.startswith("application/x-www-form-urlencoded"):
        parser = FormParser(request.headers, body())
    else:
        raise BadRequest(f"send {what} as a form (multipart/form-data or urlencoded)")
    try:
        return await parser.parse()
    except MultiPartException as exc:
        raise BadRequest(f"the form cannot be read: {exc.message}") from None
