"""At most one log line a minute for each kind of repeated server error.

When a flood of connections exhausts the file descriptors, asyncio logs a traceback
for every failed accept() and uvicorn a warning for every request over the limit
(issue 19: 61,000 tracebacks in 15 s). The first of a kind is logged; the rest in
the next minute are counted, and the count is told with the next one let through.
"""

from __future__ import annotations

import copy
import logging
import time
from typing import Any

INTERVAL = 60.0  # seconds between two lines of one kind
LOGGERS = ("uvicorn.error", "asyncio", "ocgkb.web")


class OnceAMinute(logging.Filter):
    """Lets through one record per kind (logger, first line, exception type) a minute."""

    def __init__(self, name: str = "", interval: float = INTERVAL) -> None:
        super().__init__(name)
        self.interval = interval
        self.last: dict[tuple, float] = {}
        self.held: dict[tuple, int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True  # start-up and access lines are not floods
        kind = (record.name, record.getMessage().split("\n", 1)[0][:120], _exc_type(record))
        now = time.monotonic()
        if now - self.last.get(kind, -self.interval) < self.interval:
            self.held[kind] = self.held.get(kind, 0) + 1
            return False
        self.last[kind] = now
        held = self.held.pop(kind, 0)
        if held:
            record.msg = f"{record.msg} ({held} more like this in the last minute, not logged)"
        return True


def _exc_type(record: logging.LogRecord) -> str:
    return record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else ""


def log_config(base: dict[str, Any]) -> dict[str, Any]:
    """uvicorn's logging configuration with the filter on the loggers that flood.
    A dict, so that every worker process applies it too."""
    config = copy.deepcopy(base)
    config.setdefault("filters", {})["once_a_minute"] = {"()": f"{__name__}.OnceAMinute"}
    loggers = config.setdefault("loggers", {})
    for name in LOGGERS:
        logger = loggers.setdefault(name, {"handlers": ["default"], "level": "INFO", "propagate": False})
        logger.setdefault("filters", []).append("once_a_minute")
    return config
