"""Running the app under uvicorn: one process, or several sharing one socket."""

from __future__ import annotations

import socket

import uvicorn
from uvicorn.supervisors import Multiprocess

from ocgkb import OcgkbError

APP = "ocgkb.web.app:create_app"


class AddressError(OcgkbError):
    """An address the server cannot listen on (in use, not this machine's, unknown)."""


def check_port(host: str, port: int) -> None:
    """Say at once, in one line, when the address cannot be listened on: before a
    build, and before uvicorn would say it in a log."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise AddressError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise AddressError(f"cannot listen on {host}:{port}: {exc.strerror}") from None


class _Config(uvicorn.Config):
    def bind_socket(self) -> socket.socket:
        # uvicorn makes the shared socket of several workers with protocol 0, so
        # asyncio leaves Nagle's algorithm on for its connections and every response
        # on a kept-alive connection waits ~40 ms for the client's delayed ACK
        # (uvicorn issue #3149). The same socket, re-read from its descriptor, is TCP.
        tcp = socket.socket(fileno=super().bind_socket().detach())
        tcp.set_inheritable(True)
        return tcp


def run(host: str, port: int, workers: int = 1, quiet: bool = False) -> None:
    """Serve until Ctrl-C (or SIGTERM). Each worker makes its own app with
    `create_app`, which reads the knowledge base's paths from the environment."""
    config = _Config(
        APP,
        factory=True,
        host=host,
        port=port,
        workers=workers,
        access_log=not quiet,
        log_level="warning" if quiet else "info",
    )
    server = uvicorn.Server(config)
    try:
        if workers > 1:
            Multiprocess(config, sockets=[config.bind_socket()]).run()
        else:
            config.load_app()
            server.run()
    except KeyboardInterrupt:
        pass
