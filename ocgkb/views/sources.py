"""The rulings documentations a user adds (`ocgkb sources add|list|remove`) and
what changed between two editions (`ocgkb changes`).

Adding reads the documentation whole first: a file that is not UTF-8 or not
reST, an empty folder, a folder with no .rst, a file over the size limit is one
line and nothing is kept or rebuilt. Only then is the copy kept (sources/added.py,
one rename) and the knowledge base rebuilt through the door.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from ocgkb import NotFound, UsageError
from ocgkb.build.editions import kept_edition, parsed
from ocgkb.sources import added, changes, rst_docs
from ocgkb.sources.model import Edition

Step = Callable[[str], None]


def read_edition(path: str, progress: Step | None = None) -> Edition:
    """A documentation folder (or one .rst) read and parsed, not kept; an added
    source's name reads its kept copy."""
    if not path.strip():
        raise UsageError("an empty path")
    source = added.find_source(path) if not os.path.exists(path) and "/" not in path else None
    if source is not None:
        return kept_edition(source)
    return _read(path, None, progress, remember=False)[0]


def _read(
    path: str, name: str | None, progress: Step | None, remember: bool = True
) -> tuple[Edition, list[rst_docs.DocFile]]:
    """The edition at `path` and its files (parsed once: build/editions.py keeps it for the build)."""
    root, paths = rst_docs.find_files(path)
    step = progress or (lambda what: None)
    step(f"reading {len(paths)} .rst files")
    files = rst_docs.read_files(root, paths)
    default_name, title = rst_docs.name_and_title(root)
    step("parsing them with docutils")
    return parsed(name or default_name, title, str(root.resolve()), files, remember), files


def add_source(path: str, name: str | None = None, progress: Step | None = None) -> dict:
    """Read a documentation, keep it as the user's, and say what it is: `{"name",
    "title", "files", "rulings", "faq_ids", "newest", "origin", "kept_in",
    "update"}`; `update` is the changes against the edition it replaces (totals
    first, sources/changes.py), or None for a new source. The caller rebuilds."""
    if not path.strip():
        raise UsageError("sources add: an empty path")
    if name is not None and (name != rst_docs.slug(name) or name in added.RESERVED):
        raise UsageError(f"--name {name!r}: use lower-case letters, digits and '-' (not a seed's name)")
    edition, files = _read(path, name, progress)
    previous = added.find_source(edition.name)
    update = changes.compare(kept_edition(previous), edition) if previous else None
    origin = os.path.abspath(path)
    source = added.keep(
        edition.name, edition.title, origin, _label(origin), edition.newest, files, changes=update
    )
    described = changes.describe(edition)
    return {
        "name": source.name,
        "title": source.title,
        "files": len(source.files),
        "rulings": described["rulings"],
        "faq_ids": described["faq_ids"],
        "newest": source.newest,
        "origin": source.origin,
        "kept_in": source.folder,
        "notes": edition.notes,
        "update": _update_summary(update, previous) if update else None,
    }


def _label(origin: str) -> str:
    """An edition as the user named its folder (2026-08-14, ocg-rule-main…)."""
    base = os.path.basename(origin.rstrip("/"))
    return os.path.basename(os.path.dirname(origin.rstrip("/"))) if base == "docs" else base


def _update_summary(update: dict, previous: added.AddedSource) -> dict:
    return {"from": previous.label, "from_newest": previous.newest, "totals": update["totals"]}


def list_sources() -> list[dict]:
    """Every added documentation with the state of the folder it came from
    (`present`, `changed` since it was added, or `missing`: removed or moved)."""
    return [
        {**source.as_dict(), "files": len(source.files), "kept_in": source.folder, "origin_state": state}
        for source in added.list_sources()
        for state in [added.origin_state(source)]
    ]


def remove_source(name: str) -> dict:
    """Delete an added documentation's copy (the caller rebuilds)."""
    if not name.strip():
        raise UsageError("sources remove: an empty name")
    source = added.remove(name)
    return {"name": source.name, "title": source.title, "origin": source.origin}


def changes_view(
    old: str | None, new: str | None, since: str | None = None, progress: Step | None = None
) -> dict:
    """What changed from OLD to NEW (each a folder, a .rst file or an added source's
    name); NEW alone is compared with the added source it updates; neither gives
    the last update's changes, as `sources add` recorded them."""
    if new is None and old is None:
        return _last_update(since)
    if new is None:
        old, new = None, old
    new_edition = read_edition(new, progress)
    if old is None:
        source = added.find_source(new_edition.name) or _only_source()
        old_edition = kept_edition(source)
    else:
        old_edition = read_edition(old, progress)
    return changes.compare(old_edition, new_edition, since)


def _only_source() -> added.AddedSource:
    sources = added.list_sources()
    if len(sources) == 1:
        return sources[0]
    names = ", ".join(s.name for s in sources) or "none is added"
    raise NotFound(f"no added source to compare with; name the old edition (added: {names})")


def _last_update(since: str | None) -> dict:
    recorded = [(s, c) for s in added.list_sources() if (c := added.read_changes(s)) is not None]
    if not recorded:
        raise NotFound("no update recorded: `ocgkb sources add` a newer edition, or give two editions")
    _, update = max(recorded, key=lambda pair: pair[0].added)
    return changes.dated_since(update, since) if since else update
