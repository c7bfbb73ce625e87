"""Pages and API answers revalidated, not recomputed: an ETag and 304.

An answer depends only on the knowledge base (its input fingerprint), the card
texts a user imported, the code that renders it, the URL and, for a page, the language asked for (Accept-Language
or the `lang` cookie). The tag is made from those before the view runs, so a
browser that already holds the answer gets a 304 without any query being run.
"""

from __future__ import annotations

import hashlib
import os
from functools import cache

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import ocgkb
from ocgkb.paths import card_texts_path

# Pages revalidate on every visit (cheap: a 304); their language comes from these headers.
PAGE_HEADERS = {"cache-control": "no-cache", "vary": "Accept-Language, Cookie"}
API_HEADERS = {"cache-control": "no-cache"}


@cache
def code_identity() -> str:
    """What identifies the code serving: its version and its files' sizes and times,
    the same in every worker, changed by any upgrade or edit."""
    package = os.path.dirname(ocgkb.__file__)
    stats = [ocgkb.__version__]
    for folder, dirs, files in sorted(os.walk(package)):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".py", ".html", ".css", ".svg")):
                info = os.stat(os.path.join(folder, name))
                stats.append(f"{os.path.relpath(folder, package)}/{name} {info.st_size} {info.st_mtime_ns}")
    return hashlib.sha256("\n".join(stats).encode()).hexdigest()


def _imported_texts() -> str:
    """The card texts a user imported, by their file's size and time: a card page
    and an answer show them, so an import or a forget changes the tag."""
    try:
        info = os.stat(card_texts_path())
    except OSError:
        return "no imported texts"
    return f"{info.st_size} {info.st_mtime_ns}"


def is_api(path: str) -> bool:
    return path.startswith("/api/") or path == "/openapi.json"


def etag(fingerprint: str, scope: Scope) -> str:
    """A weak tag (gzip may change the bytes, not the meaning) for this request's answer."""
    headers = Headers(scope=scope)
    parts = [
        code_identity(),
        fingerprint,
        _imported_texts(),
        scope["path"],
        scope.get("query_string", b"").decode("latin-1"),
    ]
    if not is_api(scope["path"]):
        parts += [headers.get("accept-language", ""), headers.get("cookie", "")]
    return 'W/"' + hashlib.sha256("\0".join(parts).encode()).hexdigest()[:32] + '"'


def matches(tag: str, if_none_match: str | None) -> bool:
    """Whether If-None-Match names `tag` (weak comparison, as RFC 9110 asks for it)."""
    if not if_none_match:
        return False
    wanted = tag.removeprefix("W/")
    return any(one.strip() in ("*", wanted, "W/" + wanted) for one in if_none_match.split(","))


class Revalidate:
    """An ETag on every page and GET API answer that succeeds; 304 when the browser has it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD") or path.startswith("/static/"):
            await self.app(scope, receive, send)
            return
        tag = etag(scope["app"].state.kb.fingerprint, scope)
        headers = {"etag": tag, **(API_HEADERS if is_api(path) else PAGE_HEADERS)}
        if matches(tag, Headers(scope=scope).get("if-none-match")):
            await Response(status_code=304, headers=headers)(scope, receive, send)
            return

        async def tagged(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 200:
                MutableHeaders(scope=message).update(headers)
            await send(message)

        await self.app(scope, receive, tagged)
