"""Running the app under uvicorn: one process, or several sharing one socket.

Either way each connection goes through `connections.BoundedHttpTools` (a head
timeout and a cap on open connections), repeated errors are logged once a minute
(`quiet_log`), and several workers are watched by `supervisor.Supervisor`.
"""

from __future__ import annotations

import logging
import os
import resource
import socket
import sqlite3
import sys
from pathlib import Path

import uvicorn
from starlette.types import ASGIApp
from uvicorn.config import LOGGING_CONFIG

from ocgkb import OcgkbError
from ocgkb.store.door import signature
from ocgkb.web.connections import BoundedHttpTools, QueueingServer
from ocgkb.web.limits import DEADLINE_VARIABLE, Limits
from ocgkb.web.quiet_log import log_config
from ocgkb.web.rebuild import rebuild_if_still
from ocgkb.web.supervisor import KB_DAMAGED, Supervisor, die_with_parent

APP = "ocgkb.web.app:create_app"
WORKER_APP = "ocgkb.web.server:worker_app"
BACKLOG = 64  # how many connections asyncio accepts at once (the kernel queues more)
# Descriptors kept free for the knowledge base and logs (64), and for the few
# batches of accepted sockets that arrive before the cap can close idle ones.
FD_RESERVE = 64 + 3 * BACKLOG
MOST_CONNECTIONS = 4096  # per worker, however many descriptors the system allows


class AddressError(OcgkbError):
    """An address the server cannot listen on (in use, not this machine's, unknown)."""


class ServeError(OcgkbError):
    """The server stopped because it could not go on (its workers kept failing)."""


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


def url_of(host: str, port: int) -> str:
    """The address as a URL: IPv6 in brackets, loopback as localhost."""
    if host in ("127.0.0.1", "::1"):
        host = "localhost"
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


EVERY_INTERFACE = ("0.0.0.0", "::", "")
# Any address outside this machine: connecting a UDP socket to it picks the interface
# the route to it leaves by, and sends nothing (192.0.2.0/24 is for documentation).
ELSEWHERE = ("192.0.2.1", 9)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other machines on its networks can reach (a phone
    on the same Wi-Fi); none when it is on no network. Never raises."""
    found = set()
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(ELSEWHERE)
            found.add(probe.getsockname()[0])
    except OSError:
        pass
    try:
        found |= {info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
    except OSError:
        pass
    return sorted(address for address in found if not address.startswith(("127.", "0.")))


def reach_lines(host: str, port: int) -> list[str]:
    """What to tell of reaching a server that listens on every interface from another
    machine (a phone on the same Wi-Fi): its addresses, or that it has none; [] for one address."""
    if host not in EVERY_INTERFACE:
        return []
    urls = [url_of(address, port) for address in lan_addresses()]
    if not urls:
        return ["this machine has no network address other machines can reach (is it on the Wi-Fi?)"]
    return [f"from a phone or another machine on this network: {url}" for url in urls]


def raise_open_files() -> int:
    """Raise this process's soft limit on open files to the hard limit (workers
    inherit it); the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
    if wanted > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft


def connection_cap(open_files: int) -> int:
    """Connections one worker may hold with `open_files` descriptors and still
    accept, read the knowledge base and log."""
    return max(16, min(MOST_CONNECTIONS, open_files - FD_RESERVE))


class _Config(uvicorn.Config):
    def bind_socket(self) -> socket.socket:
        # uvicorn makes the shared socket of several workers with protocol 0, so
        # asyncio leaves Nagle's algorithm on for its connections and every response
        # on a kept-alive connection waits ~40 ms for the client's delayed ACK
        # (uvicorn issue #3149). The same socket, re-read from its descriptor, is TCP.
        tcp = socket.socket(fileno=super().bind_socket().detach())
        tcp.set_inheritable(True)
        return tcp


def worker_app() -> ASGIApp:
    """The app in one of several workers: a knowledge base that will not load
    ends the worker with KB_DAMAGED, for the supervisor to rebuild."""
    from ocgkb.web.app import create_app

    die_with_parent()
    try:
        return create_app()
    except sqlite3.DatabaseError as exc:
        logging.getLogger("ocgkb.web").error("the knowledge base will not load: %s", exc)
        sys.exit(KB_DAMAGED)


def make_config(host: str, port: int, workers: int, quiet: bool, limits: Limits) -> _Config:
    cap = limits.max_connections or connection_cap(raise_open_files())
    config = _Config(
        WORKER_APP if workers > 1 else APP,
        factory=True,
        host=host,
        port=port,
        workers=workers,
        http=BoundedHttpTools,
        limit_concurrency=cap,
        timeout_keep_alive=limits.keep_alive,  # type: ignore[arg-type]
        backlog=BACKLOG,
        log_config=log_config(LOGGING_CONFIG),
        access_log=not quiet,
        log_level="warning" if quiet else "info",
    )
    config.head_timeout = limits.head_timeout  # type: ignore[attr-defined]
    return config


def _heal() -> bool:
    """Rebuild the knowledge base the workers were given (in the environment)."""
    db = Path(os.environ["OCGKB_DB"])
    data, kb = (os.environ.get(name) for name in ("OCGKB_DATA", "OCGKB_KB"))
    return rebuild_if_still(signature(db), db, Path(data) if data else None, Path(kb) if kb else None)


def run(host: str, port: int, workers: int = 1, quiet: bool = False, limits: Limits | None = None) -> None:
    """Serve until Ctrl-C (or SIGTERM). Each worker makes its own app with
    `create_app`, which reads the knowledge base's paths from the environment."""
    limits = limits or Limits()
    os.environ[DEADLINE_VARIABLE] = str(limits.request_deadline)  # read by each worker's app
    config = make_config(host, port, workers, quiet, limits)
    try:
        if workers > 1:
            supervisor = Supervisor(config, sockets=[config.bind_socket()], heal=_heal)
            supervisor.run()
            if supervisor.failure:
                raise ServeError(supervisor.failure)
        else:
            config.load_app()
            QueueingServer(config).run()
    except KeyboardInterrupt:
        pass
