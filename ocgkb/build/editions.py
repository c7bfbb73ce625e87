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
from ocgkb.sources import added, rst_docs, sphinx_vocabulary
from ocgkb.sources.model import Edition, edition_from_json, edition_to_json
from ocgkb.sources.rst_docs import DocFile

FORMAT = 1


def _key(name: str, title: str, files: dict[str, str]) -> str:
    """What a parse depends on: the files, the name and title, the reader's code and docutils."""
    import docutils

    code = [Path(m.__file__).read_bytes() for m in (rst_docs, sphinx_vocabulary)]
    parts = [FORMAT, docutils.__version__, name, title, sorted(files.items())]
    parts += [hashlib.sha256(c).hexdigest() for c in code]
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()[:24]


def _path(key: str) -> Path:
    return Path(paths.parts_dir()) / f"edition-{key}.json"


def parsed(name: str, title: str, root: str, files: list[DocFile]) -> Edition:
    """The edition these files make, read back when it was parsed before."""
    digests = {f.path: hashlib.sha256(f.text.encode("utf-8")).hexdigest() for f in files}
    path = _path(_key(name, title, digests))
    with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
        edition = edition_from_json(json.loads(path.read_text(encoding="utf-8")))
        edition.root = edition.file = root
        return edition
    edition = rst_docs.parse_edition(files, name, title, root)
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}")
        partial.write_text(json.dumps(edition_to_json(edition), ensure_ascii=False), encoding="utf-8")
        os.replace(partial, path)
    return edition


def kept_edition(source: added.AddedSource) -> Edition:
    """An added source's edition, from its kept copy."""
    return parsed(source.name, source.title, source.folder, added.kept_files(source))
