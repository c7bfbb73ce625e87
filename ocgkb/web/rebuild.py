"""Repairing a knowledge base found damaged while serving, once, from any process.

The repair is the door's (`store/door.py`): under the build lock, only a process
that still finds the file it saw damaged (its signature: device, inode, size,
mtime) rebuilds it, so several workers that meet one damage start one build
between them. It runs in a process of its own, so a worker does not keep the
build's memory afterwards.
"""

from __future__ import annotations

import logging
import multiprocessing
import sqlite3
import sys
from pathlib import Path

from ocgkb import OcgkbError
from ocgkb.store.door import Signature, repair

log = logging.getLogger("ocgkb.web")


def rebuild_if_still(
    damaged: Signature | None, db: Path, data_dir: Path | None = None, kb_dir: Path | None = None
) -> bool:
    """Repair `db` if the file there is still the damaged one; True when it is
    rebuilt (by this call or another process). Blocks for the build."""
    log.warning("rebuilding the damaged knowledge base %s from the sources", db)
    # spawn, not fork: a fresh interpreter, safe from a thread of a running server.
    process = multiprocessing.get_context("spawn").Process(
        target=_repair_in_child, args=(damaged, db, data_dir, kb_dir), name="ocgkb-repair"
    )
    process.start()
    process.join()
    if process.exitcode != 0:
        log.error("the rebuild of %s failed (exit %s); see the line above", db, process.exitcode)
        return False
    log.warning("rebuilt %s", db)
    return True


def _repair_in_child(damaged: Signature | None, db: Path, data_dir: Path | None, kb_dir: Path | None) -> None:
    """The child's whole life: the repair, and a failure as one line and exit 1."""
    try:
        repair(db, data_dir, kb_dir, seen=damaged)
    except (OcgkbError, sqlite3.Error, OSError) as exc:
        print(f"ocgkb: the rebuild of {db} failed: {str(exc).splitlines()[0]}", file=sys.stderr)
        sys.exit(1)
