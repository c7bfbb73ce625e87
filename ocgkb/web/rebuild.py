"""Rebuilding a knowledge base found damaged while serving, once, from any process.

The file's signature (device, inode, size, mtime) says which file was seen damaged.
Under the build lock, only a process that still finds that same file at the path
rebuilds; one that finds another (already rebuilt, or replaced) does nothing. So
several workers that meet one damage start one build between them. The build runs
as `python -m ocgkb … build` in its own process: the web layer does not import the
build, and a worker does not keep the build's memory afterwards.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

from ocgkb.store.database import build_lock

log = logging.getLogger("ocgkb.web")


class Signature(NamedTuple):
    """What identifies one version of a file at a path."""

    device: int
    inode: int
    size: int
    mtime_ns: int


def signature(path: Path) -> Signature | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return Signature(info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def build_command(db: Path, data_dir: Path | None, kb_dir: Path | None) -> list[str]:
    command = [sys.executable, "-m", "ocgkb", "--db", str(db)]
    if data_dir:
        command += ["--data-dir", str(data_dir)]
    if kb_dir:
        command += ["--kb-dir", str(kb_dir)]
    return [*command, "build", "--json"]


def rebuild_if_still(
    damaged: Signature | None, db: Path, data_dir: Path | None = None, kb_dir: Path | None = None
) -> bool:
    """Rebuild `db` if the file there is still the damaged one; True when this
    call built it (or found it rebuilt by another). Blocks for the build."""
    with build_lock(db):
        if damaged is not None and signature(db) != damaged:
            return True  # someone else rebuilt or replaced it
        # Move the damaged file out of the way: the build, run next, then starts
        # from nothing, and a process waiting for the lock sees it is gone.
        if damaged is not None:
            os.unlink(db)
    log.warning("rebuilding the damaged knowledge base %s from the sources", db)
    done = subprocess.run(
        build_command(db, data_dir, kb_dir),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        log.error("the rebuild of %s failed (exit %s): %s", db, done.returncode, last)
        return False
    log.warning("rebuilt %s", db)
    return True
