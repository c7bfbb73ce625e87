"""The search form of a text: what indexing and matching compare, never what is shown.

Corrupted characters are repaired (kb/repairs.yaml), traditional characters folded
to simplified (OpenCC), full and half width unified (NFKC), Latin lower-cased, and
the middle dots • · ・ made one.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from pathlib import Path

from ocgkb import OntologyError, paths

_DOTS = str.maketrans({"•": "·", "・": "·", "‧": "·", "･": "·", "∙": "·"})


@functools.cache
def _t2s():
    import opencc

    return opencc.OpenCC("t2s")


def load_repairs(kb_dir: Path | None = None) -> dict[str, str]:
    """The corrupted-character table, one character to one character."""
    from ocgkb import yamlio  # only when building, never on a query's start-up path

    path = (kb_dir or paths.kb_dir()) / "repairs.yaml"
    try:
        table = (yamlio.load(path.read_text(encoding="utf-8")) or {}).get("repairs") or {}
    except (OSError, yamlio.YAMLError) as exc:
        raise OntologyError(f"{path}: {exc}".splitlines()[0]) from exc
    return {str(k): str(v) for k, v in table.items()}


class Normalizer:
    """Turns text into its search form; one instance per repairs table."""

    def __init__(self, repairs: dict[str, str] | None = None) -> None:
        self.repairs = dict(repairs or {})
        self._repair_table = str.maketrans(self.repairs)

    def __call__(self, text: str) -> str:
        # Repairs go first: OpenCC would turn some corruptions (鈳, 鈈) into other
        # real characters (钶, 钚) and hide them.
        text = text.translate(self._repair_table)
        if not text.isascii():  # English needs no folding, nor OpenCC's start-up
            text = _t2s().convert(text)
        text = unicodedata.normalize("NFKC", text).lower()
        return text.translate(_DOTS)

    def repaired_count(self, text: str) -> int:
        return sum(text.count(ch) for ch in self.repairs)


_SPACE = re.compile(r"\s+")


def squash(text: str) -> str:
    """Search form without white space, for substring comparisons."""
    return _SPACE.sub("", text)
