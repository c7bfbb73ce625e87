"""The rulings documentations a user added (`ocgkb sources add`), kept as theirs.

Each is a folder of the user's data folder (`paths.sources_dir()`, `OCGKB_SOURCES`):

    <name>/source.json     what it is: name, title, where it was added from and when,
                           the sha256 of every file (the build's fingerprint reads it)
    <name>/docs/…/*.rst    the .rst files as they were read, byte for byte
    <name>/changes.json    what the last update changed (ocgkb.sources.changes), if any

A copy, not a pointer: the knowledge base is rebuilt from it whatever becomes of
the folder it came from, and `sources list` / `build --check` say when that folder
is gone or no longer holds what was added. A copy is written beside and renamed in,
so a failed or interrupted add leaves the previous one as it was. Nothing of the
user's documentation ever goes into the package or the project's files.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from ocgkb import OcgkbError, paths
from ocgkb.sources.rst_docs import DocFile, RulingsDocsError, find_files, read_files

SOURCE_FILE = "source.json"
CHANGES_FILE = "changes.json"
DOCS_FOLDER = "docs"
# The five seeds' names: an added documentation never takes one.
RESERVED = ("rulebook", "masterrule", "rulings", "tournament", "guide")


@dataclass
class AddedSource:
    """One added documentation, as source.json describes it."""

    name: str
    title: str
    origin: str  # the folder or file it was added from
    added: str  # when, ISO 8601 in UTC
    label: str  # the edition as the user knows it: the origin's folder name
    newest: str | None  # the newest date it cites
    files: dict[str, str] = field(default_factory=dict)  # path under docs/ → sha256
    folder: str = ""  # where the copy is kept (not stored: the folder it was read from)

    def as_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "folder"}


def source_folder(name: str, where: str | None = None) -> Path:
    return Path(where or paths.sources_dir()) / name


def list_sources(where: str | None = None) -> list[AddedSource]:
    """Every added documentation, by name; a folder whose source.json cannot be read is skipped."""
    base = Path(where or paths.sources_dir())
    found = []
    for meta in sorted(base.glob(f"*/{SOURCE_FILE}")):
        with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
            found.append(_read_meta(meta))
    return found


def find_source(name: str, where: str | None = None) -> AddedSource | None:
    meta = source_folder(name, where) / SOURCE_FILE
    if not meta.is_file():
        return None
    try:
        return _read_meta(meta)
    except (OSError, ValueError, TypeError, KeyError) as exc:
        raise RulingsDocsError(
            f"{meta}: damaged ({exc}); remove it with `ocgkb sources remove {name}`"
        ) from None


def _read_meta(meta: Path) -> AddedSource:
    data = json.loads(meta.read_text(encoding="utf-8"))
    source = AddedSource(
        **{k: data[k] for k in ("name", "title", "origin", "added", "label", "newest", "files")}
    )
    source.folder = str(meta.parent)
    return source


def kept_files(source: AddedSource) -> list[DocFile]:
    """The kept copy's files, in the order source.json lists them."""
    root = Path(source.folder) / DOCS_FOLDER
    return read_files(root, [root / path for path in source.files])


def keep(
    name: str,
    title: str,
    origin: str,
    label: str,
    newest: str | None,
    files: list[DocFile],
    changes: dict | None = None,
    where: str | None = None,
) -> AddedSource:
    """Keep a documentation's files as the source `name`, with what this update
    changed (None for a new source), replacing an earlier copy in one rename."""
    if name in RESERVED or "/" in name or name.startswith("."):
        raise RulingsDocsError(
            f"{name!r} cannot name an added source (a seed document's name, or not a name)"
        )
    base = Path(where or paths.sources_dir())
    source = AddedSource(
        name=name,
        title=title,
        origin=origin,
        added=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        label=label,
        newest=newest,
        files=digests(files),
    )
    staging = base / f".{name}.adding-{os.getpid()}"
    try:
        shutil.rmtree(staging, ignore_errors=True)
        for f in files:
            target = staging / DOCS_FOLDER / f.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(f.text, encoding="utf-8")
        (staging / SOURCE_FILE).write_text(
            json.dumps(source.as_dict(), ensure_ascii=False, indent=1), "utf-8"
        )
        if changes is not None:
            (staging / CHANGES_FILE).write_text(json.dumps(changes, ensure_ascii=False), "utf-8")
        _swap_in(staging, base / name)
    except OSError as exc:
        raise OcgkbError(f"cannot keep the documentation in {base}: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    source.folder = str(base / name)
    return source


def _swap_in(staging: Path, final: Path) -> None:
    """`staging` becomes `final` at once; the old copy is removed after."""
    old = final.with_name(f".{final.name}.old-{os.getpid()}")
    if final.exists():
        final.rename(old)
    try:
        staging.rename(final)
    except OSError:
        if old.exists():
            old.rename(final)
        raise
    shutil.rmtree(old, ignore_errors=True)


def read_changes(source: AddedSource) -> dict | None:
    path = Path(source.folder) / CHANGES_FILE
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def remove(name: str, where: str | None = None) -> AddedSource:
    """Delete an added documentation's copy; an unknown name is a NotFound naming those there are."""
    from ocgkb import NotFound

    source = find_source(name, where)
    if source is None:
        names = [s.name for s in list_sources(where)]
        known = f"; added: {', '.join(names)}" if names else "; none is added"
        raise NotFound(f"no added source named {name!r}{known}")
    folder = Path(source.folder)
    doomed = folder.with_name(f".{folder.name}.removing-{os.getpid()}")
    folder.rename(doomed)  # gone at once for a build that starts now
    shutil.rmtree(doomed, ignore_errors=True)
    return source


def origin_state(source: AddedSource) -> str:
    """Whether the folder it was added from is still there and holds what was added:
    `present`, `changed` (its files differ: `sources add` it again to update), or
    `missing` (removed or moved; the kept copy is used)."""
    try:
        root, paths_now = find_files(source.origin)
    except RulingsDocsError:
        return "missing"
    try:
        now = digests(read_files(root, paths_now))
    except RulingsDocsError:  # unreadable or no longer UTF-8: not what was added
        return "changed"
    return "present" if now == source.files else "changed"


def digests(files: list[DocFile]) -> dict[str, str]:
    """Each file's sha256, of its text as read (so a byte-order mark dropped is no change)."""
    import hashlib

    return {f.path: hashlib.sha256(f.text.encode("utf-8")).hexdigest() for f in files}
