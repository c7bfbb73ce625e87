"""How long a client and a request may take and how many may be connected, per worker: declared
once, here, with each limit's range and help. `ocgkb serve` makes its options from
these and the server reads the same values (datasette declares its settings the
same way). No third-party import: the command line reads it for --help."""

from __future__ import annotations

from typing import NamedTuple

from ocgkb.store.schema import MAX_CARD_TEXT, MAX_QUERY


class Limits(NamedTuple):
    """How long a client may take and how many may be connected, per worker."""

    head_timeout: float = 10.0
    keep_alive: float = 5.0
    request_deadline: float = 10.0
    max_connections: int | None = None  # None: from the descriptors this process may open


# Each limit's range and help, by name.
OPTIONS: dict[str, tuple[tuple[float, float], str]] = {
    "head_timeout": (
        (0.1, 3600),
        "Seconds a client has to send a request's headers before it is disconnected.",
    ),
    "keep_alive": ((0.1, 3600), "Seconds an idle kept-alive connection stays open."),
    "request_deadline": (
        (0.1, 3600),
        "Seconds a page or API request may take, waiting for a thread included, before it is "
        "answered 503 and its reads stopped.",
    ),
    "max_connections": (
        (2, 1_000_000),
        "Open connections per worker; past it idle ones are closed and busy ones answered 503 "
        "(default: what the open-files limit allows, at most 4096).",
    ),
}

# How `ocgkb serve` gives its workers (each making its app) the request deadline.
DEADLINE_VARIABLE = "OCGKB_REQUEST_DEADLINE"

# The most a card text's reading (POST /read, POST /api/read) reads of a body: the
# text and the card's name at their longest, each character at its widest (a
# form's %XX%XX%XX, nine bytes; JSON's \uXXXX is six), and room for the rest.
READ_BODY_BYTES = 9 * (MAX_CARD_TEXT + MAX_QUERY) + 1024
