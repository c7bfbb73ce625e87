"""Where the sources are read from and where the built knowledge base lives.

A checkout reads `rulings_data/` and `kb/` beside the package; an installed wheel
carries copies under `ocgkb/_data/`. The built database goes to the per-user cache
unless `OCGKB_DB` (or a `--db` option) names another file.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _first_existing(*candidates: Path) -> Path:
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return candidates[0]


def data_dir() -> Path:
    """The folder of source documents (`OCGKB_DATA` overrides)."""
    if env := os.environ.get("OCGKB_DATA"):
        return Path(env)
    return _first_existing(_PACKAGE.parent / "rulings_data", _PACKAGE / "_data" / "rulings_data")


def kb_dir() -> Path:
    """The folder of curated knowledge: ontology, repairs, terms (`OCGKB_KB` overrides)."""
    if env := os.environ.get("OCGKB_KB"):
        return Path(env)
    return _first_existing(_PACKAGE.parent / "kb", _PACKAGE / "_data" / "kb")


def cache_dir() -> Path:
    """The per-user cache folder of ocgkb."""
    if sys.platform.startswith("linux"):  # the XDG rule platformdirs applies, without importing it
        return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ocgkb"
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("ocgkb"))


def default_db_path() -> Path:
    """The built knowledge base: `OCGKB_DB`, else the per-user cache."""
    if env := os.environ.get("OCGKB_DB"):
        return Path(env)
    return cache_dir() / "ocgkb.sqlite"


def parts_dir() -> Path:
    """Where a build keeps what it may reuse next time, by content hash
    (`OCGKB_PARTS` overrides; by default beside the per-user knowledge base)."""
    if env := os.environ.get("OCGKB_PARTS"):
        return Path(env)
    return cache_dir() / "parts"


def remove_dead_builds(db_path: Path) -> None:
    """Remove the half-written files of builds that were killed (kill -9 leaves
    `NAME.building-PID` behind): their process is gone. (One os.scandir on every
    command's start: no glob, whose patterns compile at each start.)"""
    prefix = f"{db_path.name}.building-"
    try:
        with os.scandir(db_path.parent) as entries:
            stale = [entry.path for entry in entries if entry.name.startswith(prefix)]
    except OSError:  # no folder yet (or not one): nothing was built there
        return
    for path in stale:
        pid = path.rsplit("-", 1)[-1]
        if not pid.isdigit() or int(pid) == os.getpid() or _alive(int(pid)):
            continue
        with contextlib.suppress(OSError):
            os.unlink(path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, owned by someone else
    return True
