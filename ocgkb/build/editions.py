"""The added documentations, parsed once: docutils reads an edition in about four
CPU-seconds, so a build keeps what it made of each kept copy in a file named by the
hash of the copy's files and the reader's code (under `paths.parts_dir()`), and a
rebuild reads it back. An unreadable or foreign file is parsed again, never trusted."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path

from ocgkb import paths
from ocgkb.sources import added, rst_docs
from ocgkb.sources.model import Edition, edition_from_json, edition_to_json
from ocgkb.sources.rst_docs import DocFile

FORMAT = 1


def _key(name: str, title: str, files: dict[str, str]) -> str:
    """What a parse depends on: the files, the name and title, the reader's code and docutils."""
    import importlib.util

    import docutils  # here: a build with no documentation added never loads it

    vocabulary = importlib.util.find_spec("ocgkb.sources.sphinx_vocabulary").origin
    code = [Path(rst_docs.__file__).read_bytes(), Path(vocabulary).read_bytes()]
    parts = [FORMAT, docutils.__version__, name, title, sorted(files.items())]
    parts += [hashlib.sha256(c).hexdigest() for c in code]
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()[:24]


def _path(key: str) -> Path:
    return Path(paths.parts_dir()) / f"edition-{key}.json"


# What this process parsed, by key: `sources add` parses, then builds in the same process.
_parsed: dict[str, Edition] = {}


def parsed(name: str, title: str, root: str, files: list[DocFile], remember: bool = True) -> Edition:
    """The edition these files make, read back when it was parsed before (and kept
    for the next build when `remember`: an edition only compared is not)."""
    key = _key(name, title, added.digests(files))
    if key in _parsed:
        return _with_root(_parsed[key], root)
    path = _path(key)
    with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
        _parsed[key] = edition_from_json(json.loads(path.read_text(encoding="utf-8")))
        return _with_root(_parsed[key], root)
    edition = _parsed[key] = rst_docs.parse_edition(files, name, title, root)
    if not remember:
        return edition
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}")
        partial.write_text(json.dumps(edition_to_json(edition), ensure_ascii=False), encoding="utf-8")
        os.replace(partial, path)
    return edition


def _with_root(edition: Edition, root: str) -> Edition:
    """The edition as read from `root` (a copy: the one remembered stays as parsed)."""
    from dataclasses import replace

    return replace(edition, root=root, file=root)


def kept_edition(source: added.AddedSource) -> Edition:
    """An added source's edition, from its kept copy."""
    return parsed(source.name, source.title, source.folder, added.kept_files(source))


def forget_others(sources: list[added.AddedSource]) -> None:
    """Delete the parses of editions no longer added (a replaced or removed one):
    each is megabytes, and only the added ones are ever read back."""
    wanted = {_path(_key(s.name, s.title, s.files)).name for s in sources}
    with contextlib.suppress(OSError):
        for path in Path(paths.parts_dir()).glob("edition-*.json"):
            if path.name not in wanted:
                path.unlink(missing_ok=True)
