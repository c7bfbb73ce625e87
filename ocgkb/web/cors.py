"""Cross-origin reading of the API: another site may fetch and embed answers.

Only the read-only GET API is shared (`Access-Control-Allow-Origin: *`, no
credentials); the POSTs (a deck to check, a card text to read) are not, so no
other site's script can read what its visitors post here."""

from __future__ import annotations

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ocgkb.web.caching import is_api

READ_METHODS = ("GET", "HEAD")
SHARED = {"access-control-allow-origin": "*", "access-control-expose-headers": "ETag"}
PREFLIGHT_SECONDS = "86400"


class ShareReadApi:
    """CORS headers on GET and HEAD of the API, and the preflight for them; nothing else."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not is_api(scope["path"]):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        if scope["method"] == "OPTIONS" and headers.get("access-control-request-method") in READ_METHODS:
            preflight = {
                **SHARED,
                "access-control-allow-methods": ", ".join(READ_METHODS),
                "access-control-allow-headers": "If-None-Match",
                "access-control-max-age": PREFLIGHT_SECONDS,
            }
            await Response(status_code=204, headers=preflight)(scope, receive, send)
            return
        if scope["method"] not in READ_METHODS:
            await self.app(scope, receive, send)
            return

        async def shared(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message).update(SHARED)
            await send(message)

        await self.app(scope, receive, shared)
