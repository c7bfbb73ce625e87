"""Noticing that the knowledge base file changed under a running server.

A new build is renamed over the path (a new inode): the server keeps reading the
file it opened until it looks, so it looks, at most once a second, before a request
(one stat() call). A new file is opened and loaded before it replaces the old; if it
will not load, the old open file is kept. A file changed in place (truncated,
overwritten) or a query that finds damage makes the site answer 503 with one line
while the knowledge base is rebuilt once, in the background; the rebuilt file is
then picked up like any new build.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from ocgkb import OcgkbError
from ocgkb.messages import BEING_REBUILT
from ocgkb.store.door import Signature, signature
from ocgkb.web.rebuild import rebuild_if_still

log = logging.getLogger("ocgkb.web")
INTERVAL = 1.0  # seconds between two looks at the file
RETRY_AFTER = "30"


class Watch:
    """The open knowledge base's file against the file now at its path."""

    def __init__(
        self, db: Path, load: Callable[[Path], None], data_dir: Path | None, kb_dir: Path | None
    ) -> None:
        self.db, self.load, self.data_dir, self.kb_dir = db, load, data_dir, kb_dir
        self.opened = signature(db)
        self.checked = time.monotonic()
        self.damage: str | None = None  # why the site answers 503, while it does
        self.refused: Signature | None = None  # a new file that would not load
        self.rebuilding: threading.Thread | None = None

    def check(self) -> str | None:
        """Why the site cannot answer now (None: it can), looking at the file at
        most once an INTERVAL."""
        now = time.monotonic()
        if now - self.checked < INTERVAL:
            return self.damage
        self.checked = now
        current = signature(self.db)
        if current is None or current == self.opened or current == self.refused:
            return self.damage  # gone (being rebuilt) or unchanged: keep what is open
        self._reopen(current)
        return self.damage

    def _reopen(self, current: Signature) -> None:
        same_file = (
            (current.device, current.inode) == (self.opened.device, self.opened.inode)
            if self.opened
            else False
        )
        try:
            self.load(self.db)
        except (sqlite3.DatabaseError, OcgkbError) as exc:
            self.refused = current
            if same_file or self.damage:  # what is open is damaged too: rebuild
                self.damaged(exc, current)
            else:
                log.error(
                    "the new knowledge base at %s will not load (%s); serving the one open", self.db, exc
                )
            return
        log.warning("the knowledge base at %s changed; reopened it", self.db)
        self.opened, self.damage, self.refused = current, None, None

    def damaged(self, exc: BaseException, seen: Signature | None = None) -> str:
        """Answer 503 from now on and rebuild the file once; the one-line reason."""
        if self.damage is None:
            log.error(
                "the knowledge base at %s is damaged: %s",
                self.db,
                str(exc).splitlines()[0] if str(exc) else exc,
            )
        self.damage = BEING_REBUILT
        if self.rebuilding is None or not self.rebuilding.is_alive():
            seen = seen or signature(self.db)
            self.rebuilding = threading.Thread(
                target=rebuild_if_still, args=(seen, self.db, self.data_dir, self.kb_dir), daemon=True
            )
            self.rebuilding.start()
        return self.damage


def unavailable(message: str) -> PlainTextResponse:
    return PlainTextResponse(message + "\n", status_code=503, headers={"retry-after": RETRY_AFTER})


class WatchMiddleware:
    """Looks at the file before a request; 503 while the knowledge base is damaged."""

    def __init__(self, app: ASGIApp, watch: Watch) -> None:
        self.app = app
        self.watch = watch

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            problem = self.watch.check()
            if problem:
                await unavailable(problem)(scope, receive, send)
                return
        await self.app(scope, receive, send)
