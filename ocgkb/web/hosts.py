"""Which Host headers the site answers: a guard against DNS rebinding.

A page on an attacker's site can point its own host name at 127.0.0.1 and then
read a server on the visitor's loopback as same-origin; the Host header it sends is
still the attacker's name. So a server bound to loopback answers only the loopback
names by default; one bound to every address (or a public one) cannot know its
names and answers any unless `--allowed-host` lists them.
"""

from __future__ import annotations

import ipaddress

from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
ANY = "*"


def is_loopback(host: str) -> bool:
    """Whether an address to listen on is reachable from this machine only."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def default_allowed(host: str) -> list[str]:
    return list(LOOPBACK_NAMES) if is_loopback(host) else [ANY]


def host_name(header: str) -> str:
    """The name in a Host header, without its port: `[::1]:8000` → `[::1]`."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[: header.find("]") + 1] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def allows(allowed: list[str], name: str) -> bool:
    name = name.rstrip(".")
    for pattern in allowed:
        pattern = pattern.lower()
        if pattern == ANY or pattern == name:
            return True
        if pattern.startswith("*.") and name.endswith(pattern[1:]):
            return True
    return False


class AllowedHosts:
    """400, with a one-line body, for a request whose Host is not on the list."""

    def __init__(self, app: ASGIApp, allowed: list[str]) -> None:
        self.app = app
        self.allowed = [a.strip() for a in allowed if a.strip()]
        self.any = ANY in self.allowed or not self.allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not self.any:
            header = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            name = host_name(header)
            if not allows(self.allowed, name):
                shown = name[:60] or "(none)"
                body = f"this server does not answer to the host name {shown}\n"
                await PlainTextResponse(body, status_code=400)(scope, receive, send)
                return
        await self.app(scope, receive, send)
