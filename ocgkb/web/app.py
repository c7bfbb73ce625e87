"""The web application: pages and API over one read-only knowledge base.

The app keeps no state but the open knowledge base and what it has read of it,
so it scales by running more workers (`ocgkb serve --workers N`) or more
replicas over the same immutable SQLite file.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ocgkb import OcgkbError, paths
from ocgkb.messages import not_damage
from ocgkb.store.door import KnowledgeBase, is_damage, open_kb
from ocgkb.web import api, pages
from ocgkb.web.caching import Revalidate
from ocgkb.web.cors import ShareReadApi
from ocgkb.web.hosts import AllowedHosts
from ocgkb.web.kb_watch import Watch, WatchMiddleware, unavailable
from ocgkb.web.limits import DEADLINE_VARIABLE, Limits
from ocgkb.web.offload import pools
from ocgkb.web.static_files import HashedStaticFiles

GZIP_FROM_BYTES = 1000  # below about a packet, compressing saves no round trip
log = logging.getLogger("ocgkb.web")

SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'none'; "
        b"base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeaders:
    """Every response says: no scripts, no framing, no type sniffing."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers if scope["type"] == "http" else send)


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith(("/api/", "/openapi"))


def _error(request: Request, status: int, message: str, detail: dict | None = None) -> Response:
    if _wants_json(request):
        return api.JSON({"error": message, **(detail or {})}, status_code=status)
    return pages.page(request, "error.html", status_code=status, status=status, message=message)


async def ocgkb_error(request: Request, exc: Exception) -> Response:
    """Every error of ocgkb answered by its own status. A 500 is a fault in the
    project's own data (a damaged curated file): one line in the log, and the
    visitor is told it is ours, never shown a traceback."""
    assert isinstance(exc, OcgkbError)
    message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if exc.http_status == 500:
        log.error("%s on %s: %s", type(exc).__name__, request.url.path, message)
        return _error(
            request, exc.http_status, "something is wrong in the site's own data; the error is logged"
        )
    response = _error(request, exc.http_status, message, getattr(exc, "detail", None))
    if retry_after := getattr(exc, "retry_after", None):  # a busy moment (offload.TooSlow)
        response.headers["retry-after"] = retry_after
    return response


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    message = {
        404: "no such page",
        405: "this site is read-only: only GET and HEAD (POST to check a deck or read a card text, "
        "stored nowhere: /deck, /read, /api/deck/check, /api/read)",
    }.get(exc.status_code, str(exc.detail))
    response = _error(request, exc.status_code, message)
    if exc.headers:
        response.headers.update(exc.headers)
    return response


async def server_error(request: Request, exc: Exception) -> Response:
    log.exception("unexpected error on %s", request.url.path)
    return _error(request, 500, "something went wrong on our side; the error is logged")


def create_app(
    db: Path | None = None,
    data_dir: Path | None = None,
    kb_dir: Path | None = None,
    allowed_hosts: list[str] | None = None,
    deadline: float | None = None,
) -> Starlette:
    """The app over the knowledge base at `db` (default: OCGKB_DB, then the
    per-user cache), built first when missing or stale. Workers started by
    `ocgkb serve --workers N` each call this, with the paths in the environment.
    `allowed_hosts` (default: OCGKB_ALLOWED_HOSTS, comma-separated; unset: any)
    are the Host names it answers; `deadline` (default: OCGKB_REQUEST_DEADLINE,
    else `Limits.request_deadline`) the seconds a request may take before a 503."""
    db = db or _env_path("OCGKB_DB")
    data_dir = data_dir or _env_path("OCGKB_DATA")
    kb_dir = kb_dir or _env_path("OCGKB_KB")
    if allowed_hosts is None:
        allowed_hosts = [h for h in os.environ.get("OCGKB_ALLOWED_HOSTS", "").split(",") if h]
    kb = open_kb(db, data_dir, kb_dir)
    app = Starlette(
        routes=[
            *pages.routes,
            *api.routes,
            Mount("/static", HashedStaticFiles(), name="static"),
        ],
        exception_handlers={
            OcgkbError: ocgkb_error,
            HTTPException: http_error,
            sqlite3.DatabaseError: sqlite_error,
            Exception: server_error,
        },
    )
    app.state.kb_dir = kb_dir or paths.kb_dir()
    app.state.deadline = deadline or float(os.environ.get(DEADLINE_VARIABLE) or Limits().request_deadline)
    app.state.pools = pools()
    _load(app, kb)
    app.state.watch = Watch(kb.path, lambda path: _load(app, KnowledgeBase(path)), data_dir, kb_dir)
    # add_middleware puts each outside the last: the headers go on every answer,
    # and an ETag is made only once the file has been looked at.
    app.add_middleware(Revalidate)
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_FROM_BYTES)
    app.add_middleware(ShareReadApi)
    app.add_middleware(WatchMiddleware, watch=app.state.watch)
    app.add_middleware(AllowedHosts, allowed=allowed_hosts)
    app.add_middleware(SecurityHeaders)
    return app


def _load(app: Starlette, kb: KnowledgeBase) -> None:
    """Read what every request needs of `kb`, then serve it: a knowledge base that
    fails here raises before it replaces the one being served."""
    from ocgkb.views.home import document_titles, has_changes
    from ocgkb.views.warm import warm_up

    names, titles = warm_up(kb), document_titles(kb)
    app.state.kb, app.state.concept_names, app.state.doc_titles = kb, names, titles
    app.state.has_changes = has_changes(kb)  # the foot links "what changed" after an update


async def sqlite_error(request: Request, exc: Exception) -> Response:
    """A query that met damage: 503 in one line while the file is rebuilt. Any
    other SQLite error is about the question (a pattern too complex): 400, as the
    command line says it, and nothing rebuilt."""
    assert isinstance(exc, sqlite3.DatabaseError)
    if not is_damage(exc):
        return _error(request, 400, not_damage(exc))
    return unavailable(request.app.state.watch.damaged(exc))


def _env_path(name: str) -> Path | None:
    value = os.environ.get(name)
    return Path(value) if value else None
