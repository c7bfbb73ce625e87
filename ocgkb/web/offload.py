"""Running the views off the event loop, each request within its deadline.

A view reads SQLite and ranks in Python: run on the event loop, one slow question
would hold every other request of its worker (a card page, a static file, a health
check). So every page and endpoint runs its view in a worker thread, in one of two
bounded pools: `QUESTIONS` for the work that ranks the texts (ask, search, a deck
check, a card text read), as many threads as cores, and `LOOKUPS` for the rest (a
card, a section, a passage …). Questions past the pool wait their turn without
taking the processor from a lookup, which has threads of its own.

Each request has a deadline (datasette's `sql_time_limit_ms` does the same): its
SQLite reads stop when it passes (`store.database.deadline`, a progress handler),
and the request is answered 503 in one line, logged, whether it was still waiting
for a thread or running in one.
"""

from __future__ import annotations

import functools
import logging
import os
import sqlite3
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import anyio
import anyio.to_thread
from starlette.requests import Request

from ocgkb import OcgkbError
from ocgkb.store.door import deadline, past_deadline

log = logging.getLogger("ocgkb.web")
T = TypeVar("T")

QUESTIONS, LOOKUPS = "questions", "lookups"
POOL_THREADS = {QUESTIONS: max(2, os.cpu_count() or 2), LOOKUPS: 8}


class TooSlow(OcgkbError):
    """A request that passed its deadline: 503, try again."""

    http_status = 503
    retry_after = "1"


def pools() -> dict[str, anyio.CapacityLimiter]:
    """The two pools' limiters (made in the event loop that uses them)."""
    return {name: anyio.CapacityLimiter(threads) for name, threads in POOL_THREADS.items()}


async def off_loop(request: Request, pool: str, work: Callable[..., T], *args: object) -> T:
    """`work(*args)` in a thread of `pool`, within the app's deadline for a request
    (`app.state.deadline`, seconds): past it, `TooSlow`. (Keywords: functools.partial.)"""
    state = request.app.state
    seconds: float = state.deadline
    at = time.monotonic() + seconds
    try:
        with anyio.fail_after(seconds):
            return await anyio.to_thread.run_sync(
                functools.partial(_within, at, work, *args),
                limiter=state.pools[pool],
                abandon_on_cancel=True,  # its reads stop at the same deadline
            )
    except TimeoutError:  # waiting or running past it, or its reads interrupted (`_within`)
        raise _too_slow(request, seconds) from None


def _within(at: float, work: Callable[..., T], *args: object) -> T:
    with deadline(at):
        try:
            return work(*args)
        except sqlite3.OperationalError:
            if past_deadline():  # "interrupted" by the deadline, not an error of the question
                raise TimeoutError from None
            raise


def _too_slow(request: Request, seconds: float) -> TooSlow:
    log.warning("%s %s took more than %g s: answered 503", request.method, request.url.path, seconds)
    return TooSlow(f"this took more than {seconds:g} s; the site is busy, try again in a moment")


def in_thread(pool: str) -> Callable[[Callable[[Request], T]], Callable[[Request], Awaitable[T]]]:
    """An endpoint written as a plain function, run by `off_loop` in `pool`."""

    def wrap(endpoint: Callable[[Request], T]) -> Callable[[Request], Awaitable[T]]:
        @functools.wraps(endpoint)
        async def run(request: Request) -> T:
            return await off_loop(request, pool, endpoint, request)

        return run

    return wrap
