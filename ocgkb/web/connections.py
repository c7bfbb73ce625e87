"""Bounded connections: uvicorn's httptools protocol with a request-head timeout and
a cap on open connections that sheds idle ones first.

uvicorn times out only idle kept-alive connections: a client that opens a socket and
never finishes its request head holds it, and its file descriptor, forever (issue 19:
1,100 such sockets under `ulimit -n 1024` stopped all service). Here every request
head must be complete within `HEAD_TIMEOUT` seconds of the connection (or of the
request's first byte on a kept-alive connection), and when the open connections
reach the cap, the one that has waited longest without a request in progress is
closed to make room (nginx drains its idle connections the same way), so a real
request still gets in. When every connection is busy, uvicorn's `limit_concurrency`
(the same cap) answers 503.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import Server, ServerState

log = logging.getLogger("uvicorn.error")
LISTEN_BACKLOG = 2048  # connections the kernel holds for us before accept()


class QueueingServer(Server):
    """uvicorn's server with a long kernel queue of connections to accept.

    asyncio accepts up to `backlog` sockets at a time, and uvicorn uses one number
    for both: a long queue would let a flood take more descriptors in one go than
    the cap can free in time. So the config's backlog stays short (the batch) and
    the queue is lengthened after start-up; a short queue drops the SYNs of a flood
    and of the real clients behind it, who then wait a second to retry."""

    async def startup(self, sockets: list | None = None) -> None:
        await super().startup(sockets=sockets)
        for server in getattr(self, "servers", []):
            for sock in server.sockets or ():  # asyncio's wrappers hide listen(): use a copy
                with socket.socket(fileno=os.dup(sock.fileno())) as same:
                    same.listen(LISTEN_BACKLOG)


class BoundedHttpTools(HttpToolsProtocol):
    """One connection. The config's `head_timeout` (seconds) bounds the wait for a
    request head; `limit_concurrency` bounds the open connections of this worker."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.head_timeout: float = getattr(config, "head_timeout", 10.0)
        self.head_timer: asyncio.TimerHandle | None = None
        # Connections waiting for a request head, oldest first (a dict keeps order).
        if not hasattr(server_state, "waiting"):
            server_state.waiting = {}  # type: ignore[attr-defined]
        self.waiting: dict[BoundedHttpTools, None] = server_state.waiting  # type: ignore[attr-defined]

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._wait_for_head()
        self._shed_idle()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.head_timer is None:  # a kept-alive connection's next request
            self._wait_for_head()

    def on_headers_complete(self) -> None:
        self._stop_waiting()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and not self.pipeline:
            self.waiting[self] = None  # idle between requests: first to go when full

    # --- the head timeout and the cap ---------------------------------------------

    def _wait_for_head(self) -> None:
        self.waiting.pop(self, None)
        self.waiting[self] = None
        if self.head_timer is not None:
            self.head_timer.cancel()
        self.head_timer = self.loop.call_later(self.head_timeout, self._head_timed_out)

    def _stop_waiting(self) -> None:
        self.waiting.pop(self, None)
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _head_timed_out(self) -> None:
        self.head_timer = None
        self.waiting.pop(self, None)
        if not self.transport.is_closing():
            self.transport.close()

    def _shed_idle(self) -> None:
        """At the cap, close the connections that have waited longest for a request
        head (never this new one, which has not had a chance yet)."""
        limit = self.limit_concurrency
        if limit is None:
            return
        while len(self.connections) >= limit and len(self.waiting) > 1:
            oldest = next(iter(self.waiting))
            if oldest is self:
                break
            oldest._stop_waiting()
            oldest.transport.close()
            self.connections.discard(oldest)  # its descriptor goes on the next loop turn
