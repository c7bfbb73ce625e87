"""Segmentation remembered between builds.

jieba is most of a build's time (5 of 7 s), and what it makes of a text depends
only on the text, the words added to its dictionary and the segmenter's code. So a
build keeps each text's words in a file named by the hash of those (under
`paths.parts_dir()`), and the next build with the same dictionary reads them back:
editing one passage or one curated question re-segments only what changed. The
file holds only the texts of the latest build, so it never grows beyond one
corpus; an unreadable or foreign file is ignored, never trusted.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path

from ocgkb import paths
from ocgkb.text import tokenize
from ocgkb.text.tokenize import Segmenter

FORMAT = 1


class RememberedSegmenter:
    """A Segmenter whose results are read from, and saved to, a content-addressed file."""

    def __init__(self, segmenter: Segmenter, folder: Path | None = None, name: str | None = None) -> None:
        self._segmenter = segmenter
        # An added documentation's texts are remembered apart from the seeds' (`name`).
        prefix = f"segments-{name}-" if name else "segments-"
        self.path = Path(folder or paths.parts_dir()) / f"{prefix}{self._key()}.json"
        self._known = self._load()
        self._used: dict[str, list[str]] = {}
        self.reused = 0

    def _key(self) -> str:
        # jieba's own __init__ (its version and its cutting code), read, not imported.
        code = [Path(tokenize.__file__).read_bytes(), (tokenize.jieba_folder() / "__init__.py").read_bytes()]
        parts = [FORMAT, *(hashlib.sha256(c).hexdigest() for c in code), self._segmenter.extra_words]
        return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()[:24]

    def _load(self) -> dict[str, list[str]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def words(self, text: str) -> list[str]:
        found = self._known.get(text)
        if isinstance(found, list):
            self.reused += 1
        else:
            found = self._segmenter.words(text)
        self._used[text] = found
        return list(found)

    def save(self) -> None:
        """Keep this build's texts for the next one; a place that cannot be written
        only costs the next build its speed."""
        if self._used == self._known:
            return
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial = self.path.with_name(f"{self.path.name}.{os.getpid()}")
            partial.write_text(json.dumps(self._used, ensure_ascii=False), encoding="utf-8")
            os.replace(partial, self.path)
