"""The supervisor of several workers (`ocgkb serve --workers N`): uvicorn's
Multiprocess, made to heal or stop instead of looking healthy while it is not.

- A worker that cannot load the knowledge base exits with KB_DAMAGED; the
  supervisor rebuilds the file once and starts the workers again, and stops with
  one line if they still cannot load it.
- Workers that keep dying for any other reason stop the supervisor with one line,
  instead of being restarted forever.
- A worker dies with its supervisor (Linux: PR_SET_PDEATHSIG; elsewhere a thread
  that watches the parent), so a killed supervisor leaves no worker on the port.
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from socket import socket

from uvicorn.config import STARTUP_FAILURE, Config
from uvicorn.server import Server
from uvicorn.supervisors.multiprocess import Multiprocess, Process

from ocgkb.messages import NOT_REBUILT
from ocgkb.web.connections import QueueingServer

log = logging.getLogger("uvicorn.error")
KB_DAMAGED = 4  # a worker's exit status: the knowledge base would not load
PR_SET_PDEATHSIG = 1
DEATHS_WINDOW = 60.0  # seconds
PARENT_ENV = "OCGKB_SUPERVISOR_PID"


def die_with_parent() -> None:
    """In a worker: be killed when the supervisor dies, however it dies."""
    parent = int(os.environ.get(PARENT_ENV, "0"))
    if not parent:
        return
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # it died before the line above
        os._exit(1)

    def watch() -> None:  # systems without PR_SET_PDEATHSIG
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class Worker(Process):
    """A worker process running the QueueingServer."""

    @property
    def server(self) -> Server:
        if self._server is None:
            self._server = QueueingServer(config=self.config)
        return self._server


class Supervisor(Multiprocess):
    """Multiprocess that rebuilds a damaged knowledge base once (`heal()`, which
    returns whether it worked) and stops when its workers keep dying. `failure`
    says why it stopped, in one line; None after a normal stop."""

    def __init__(self, config: Config, sockets: list[socket], heal: Callable[[], bool]) -> None:
        os.environ[PARENT_ENV] = str(os.getpid())  # spawned workers inherit it
        super().__init__(config, sockets)
        self.heal = heal
        self.healed_at: float | None = None
        self.deaths: list[float] = []
        self.failure: str | None = None

    def init_processes(self) -> None:
        self.processes = [self._start() for _ in range(self.processes_num)]

    def keep_subprocess_alive(self) -> None:
        if self.should_exit.is_set():
            return
        for idx, process in enumerate(self.processes):
            if process.is_alive(timeout=self.config.timeout_worker_healthcheck):
                continue
            process.kill()  # hung or dead: make sure
            process.join()
            if not self._may_restart(process):
                self.should_exit.set()
                return
            log.info(f"Child process [{process.pid}] died (exit {process.exitcode}); starting another")
            self.processes[idx] = self._start()

    def _start(self) -> Process:
        process = Worker(self.config, self.sockets)
        process.started_at = time.monotonic()  # type: ignore[attr-defined]
        process.start()
        return process

    def _may_restart(self, process: Process) -> bool:
        """Whether to start another worker in place of a dead one; sets `failure` if not."""
        now = time.monotonic()
        if process.exitcode == STARTUP_FAILURE:
            self.failure = "a worker could not start (see the log above); stopping"
        elif process.exitcode == KB_DAMAGED:
            return self._heal_once(getattr(process, "started_at", 0.0))
        else:
            self.deaths = [t for t in self.deaths if now - t < DEATHS_WINDOW] + [now]
            if len(self.deaths) > 3 * self.processes_num:
                self.failure = f"the workers keep dying ({len(self.deaths)} in a minute); stopping"
        return self.failure is None

    def _heal_once(self, started_at: float) -> bool:
        if self.healed_at is not None and started_at < self.healed_at:
            return True  # it was started on the file before the rebuild
        if self.healed_at is not None:
            self.failure = "the knowledge base is still damaged after a rebuild; stopping"
            return False
        log.warning("a worker found the knowledge base damaged; rebuilding it once")
        if not self.heal():
            self.failure = f"{NOT_REBUILT}; stopping"
            return False
        self.healed_at = time.monotonic()
        return True
