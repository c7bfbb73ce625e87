"""How long a client may take and how many may be connected, per worker: declared
once, here, with each limit's range and help. `ocgkb serve` makes its options from
these fields and the server reads the same value (datasette declares its settings
the same way). No third-party import: the command line reads it for --help."""

from __future__ import annotations

from dataclasses import dataclass, field


def _limit(default: float | None, low: float, high: float, help: str):
    return field(default=default, metadata={"range": (low, high), "help": help})


@dataclass(frozen=True)
class Limits:
    """How long a client may take and how many may be connected, per worker."""

    head_timeout: float = _limit(
        10.0, 0.1, 3600, "Seconds a client has to send a request's headers before it is disconnected."
    )
    keep_alive: float = _limit(5.0, 0.1, 3600, "Seconds an idle kept-alive connection stays open.")
    # None: from the descriptors this process may open
    max_connections: int | None = _limit(
        None,
        2,
        1_000_000,
        "Open connections per worker; past it idle ones are closed and busy ones answered 503 "
        "(default: what the open-files limit allows, at most 4096).",
    )
