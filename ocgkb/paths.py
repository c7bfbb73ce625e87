"""Where the sources are read from and where the built knowledge base lives.

A checkout reads `rulings_data/` and `kb/` beside the package; an installed wheel
carries copies under `ocgkb/_data/`. The built database goes to the per-user cache
unless `OCGKB_DB` (or a `--db` option) names another file. The card texts a user
imports from their own cards.cdb, and the rulings documentations they add, go to the
per-user data folder (`OCGKB_TEXTS`, `OCGKB_SOURCES`).

Paths here are strings: a question's start imports no pathlib (with urllib.parse
and ipaddress, it costs a question 2.7 ms). The build wraps them in `Path`.
"""

from __future__ import annotations

import contextlib
import os
import sys

# What a path may be given as: a command's string, the build's and the tests' Path.
StrPath = str | os.PathLike[str]
# A path given, or None for its default place (the functions below).
Where = StrPath | None

_PACKAGE = os.path.dirname(os.path.realpath(__file__))


def plain(path: StrPath) -> str:
    """`path` spelled as pathlib spells it (`./a//b/` is `a/b`; `..` stays): a
    folder named twice, by a command and by the build, is the same text in the
    stat signature (sources/inputs.py) and in every message."""
    text = os.fspath(path)
    if os.sep != "/":  # drives and backslashes: pathlib's own rules, where they apply
        from pathlib import Path

        return str(Path(text))
    root = "/" if text.startswith("/") else ""
    if text.startswith("//") and not text.startswith("///"):
        root = "//"  # POSIX leaves the meaning of exactly two to the system, and pathlib keeps them
    return root + "/".join(part for part in text.split("/") if part not in ("", ".")) or "."


def _bundled(name: str) -> str:
    """The folder `name` beside the package in a checkout, else the copy a wheel carries."""
    beside, carried = os.path.join(os.path.dirname(_PACKAGE), name), os.path.join(_PACKAGE, "_data", name)
    return carried if not os.path.isdir(beside) and os.path.isdir(carried) else beside


def data_dir() -> str:
    """The folder of source documents (`OCGKB_DATA` overrides)."""
    if env := os.environ.get("OCGKB_DATA"):
        return plain(env)
    return _bundled("rulings_data")


def kb_dir() -> str:
    """The folder of curated knowledge: ontology, repairs, terms (`OCGKB_KB` overrides)."""
    if env := os.environ.get("OCGKB_KB"):
        return plain(env)
    return _bundled("kb")


def _user_dir(xdg_variable: str, linux_default: str, other_systems: str) -> str:
    """A per-user folder of ocgkb: the XDG rule platformdirs applies on Linux,
    without importing it; platformdirs' `other_systems` function elsewhere."""
    if sys.platform.startswith("linux"):
        home = os.path.join(os.path.expanduser("~"), linux_default)
        return os.path.join(plain(os.environ.get(xdg_variable) or home), "ocgkb")
    import platformdirs

    return plain(getattr(platformdirs, other_systems)("ocgkb"))


def cache_dir() -> str:
    """The per-user cache folder of ocgkb."""
    return _user_dir("XDG_CACHE_HOME", ".cache", "user_cache_dir")


def user_data_dir() -> str:
    """The per-user data folder of ocgkb: what a user brought, never rebuilt from the sources."""
    return _user_dir("XDG_DATA_HOME", os.path.join(".local", "share"), "user_data_dir")


def card_texts_path() -> str:
    """The card texts a user imported from their own ygopro cards.cdb (`OCGKB_TEXTS`
    overrides): in the user's data folder, never in the package or the knowledge base."""
    if env := os.environ.get("OCGKB_TEXTS"):
        return plain(env)
    return os.path.join(user_data_dir(), "card_texts.sqlite")


def sources_dir() -> str:
    """The rulings documentations a user added (`ocgkb sources add`), one folder each
    (`OCGKB_SOURCES` overrides): in the user's data folder, kept across upgrades."""
    if env := os.environ.get("OCGKB_SOURCES"):
        return plain(env)
    return os.path.join(user_data_dir(), "sources")


def default_db_path() -> str:
    """The built knowledge base: `OCGKB_DB`, else the per-user cache."""
    if env := os.environ.get("OCGKB_DB"):
        return plain(env)
    return os.path.join(cache_dir(), "ocgkb.sqlite")


def parts_dir() -> str:
    """Where a build keeps what it may reuse next time, by content hash
    (`OCGKB_PARTS` overrides; by default beside the per-user knowledge base)."""
    if env := os.environ.get("OCGKB_PARTS"):
        return plain(env)
    return os.path.join(cache_dir(), "parts")


def remove_dead_builds(db_path: StrPath) -> None:
    """Remove the half-written files of builds that were killed (kill -9 leaves
    `NAME.building-PID` behind): their process is gone. (One os.scandir on every
    command's start: no glob, whose patterns compile at each start.)"""
    folder, name = os.path.split(os.fspath(db_path))
    prefix = f"{name}.building-"
    try:
        with os.scandir(folder or ".") as entries:
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
