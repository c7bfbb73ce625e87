"""The web application: pages and API over one read-only knowledge base.

The app keeps no state but the open knowledge base and what it has read of it,
so it scales by running more workers (`ocgkb serve --workers N`) or more
replicas over the same immutable SQLite file.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ocgkb import OcgkbError, paths
from ocgkb.query.lookup import NotFound
from ocgkb.web import api, pages

HERE = Path(__file__).parent
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


def _error(request: Request, status: int, message: str) -> Response:
    if _wants_json(request):
        return api.JSON({"error": message}, status_code=status)
    return pages.page(request, "error.html", status_code=status, status=status, message=message)


async def not_found(request: Request, exc: Exception) -> Response:
    return _error(request, 404, str(exc).splitlines()[0])


async def bad_request(request: Request, exc: Exception) -> Response:
    return _error(request, 400, str(exc).splitlines()[0] or type(exc).__name__)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    message = {404: "no such page", 405: "this site is read-only: only GET and HEAD"}.get(
        exc.status_code, str(exc.detail)
    )
    response = _error(request, exc.status_code, message)
    if exc.headers:
        response.headers.update(exc.headers)
    return response


async def server_error(request: Request, exc: Exception) -> Response:
    log.exception("unexpected error on %s", request.url.path)
    return _error(request, 500, "something went wrong on our side; the error is logged")


def create_app(db: Path | None = None, data_dir: Path | None = None, kb_dir: Path | None = None) -> Starlette:
    """The app over the knowledge base at `db` (default: OCGKB_DB, then the
    per-user cache), built first when missing or stale. Workers started by
    `ocgkb serve --workers N` each call this, with the paths in the environment."""
    from ocgkb.query.ranking import warm
    from ocgkb.store.database import open_kb
    from ocgkb.study.graph import graph_of
    from ocgkb.views.concept import concept_names

    db = db or _env_path("OCGKB_DB")
    data_dir = data_dir or _env_path("OCGKB_DATA")
    kb_dir = kb_dir or _env_path("OCGKB_KB")
    kb = open_kb(db, data_dir, kb_dir)
    warm(kb)  # read every passage once, now, not on the first visitor's request
    graph_of(kb)
    app = Starlette(
        routes=[
            *pages.routes,
            *api.routes,
            Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        ],
        middleware=[Middleware(SecurityHeaders)],
        exception_handlers={
            NotFound: not_found,
            OcgkbError: bad_request,
            HTTPException: http_error,
            Exception: server_error,
        },
    )
    app.state.kb = kb
    app.state.kb_dir = Path(kb_dir) if kb_dir else paths.kb_dir()
    app.state.concept_names = concept_names(kb)
    return app


def _env_path(name: str) -> Path | None:
    value = os.environ.get(name)
    return Path(value) if value else None
