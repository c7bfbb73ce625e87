"""The search form of a text: what indexing and matching compare, never what is shown.

Corrupted characters are repaired (kb/repairs.yaml's table, read by
sources/curated.py), traditional characters folded to simplified (OpenCC), full
and half width unified (NFKC), Latin lower-cased, and the middle dots • · ・ made one.
"""

from __future__ import annotations

import functools
import re
import unicodedata

_DOTS = str.maketrans({"•": "·", "・": "·", "‧": "·", "･": "·", "∙": "·"})


@functools.cache
def _t2s():
    import opencc

    return opencc.OpenCC("t2s")


# The CJK blocks whose characters OpenCC may fold (unified, extension A and B, compatibility).
_CJK_BLOCKS = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x2A6DF))


def traditional_characters() -> str:
    """Every character OpenCC's t2s changes on its own, in code point order: the
    build stores them so that a question without any of them skips OpenCC's
    start-up. A traditional question always has some (們, 發, 對…), and then the
    whole question is converted, phrases included."""
    chars = [chr(code) for first, last in _CJK_BLOCKS for code in range(first, last + 1)]
    folded = _t2s().convert("\n".join(chars)).split("\n")
    return "".join(char for char, simple in zip(chars, folded, strict=True) if simple != char)


class Normalizer:
    """Turns text into its search form; one instance per repairs table.

    `traditional`, when given, is the characters that may need folding
    (`traditional_characters`); text with none of them skips OpenCC."""

    def __init__(self, repairs: dict[str, str] | None = None, traditional: str | None = None) -> None:
        self.repairs = dict(repairs or {})
        self._repair_table = str.maketrans(self.repairs)
        self._traditional = frozenset(traditional) if traditional is not None else None

    def _needs_folding(self, text: str) -> bool:
        if text.isascii():  # English needs no folding, nor OpenCC's start-up
            return False
        return self._traditional is None or not self._traditional.isdisjoint(text)

    def __call__(self, text: str) -> str:
        # Repairs go first: OpenCC would turn some corruptions (鈳, 鈈) into other
        # real characters (钶, 钚) and hide them.
        text = text.translate(self._repair_table)
        if self._needs_folding(text):
            text = _t2s().convert(text)
        text = unicodedata.normalize("NFKC", text).lower()
        return text.translate(_DOTS)

    def repaired_count(self, text: str) -> int:
        return sum(text.count(ch) for ch in self.repairs)


_SPACE = re.compile(r"\s+")


def squash(text: str) -> str:
    """Search form without white space, for substring comparisons."""
    return _SPACE.sub("", text)


def card_token(search_name: str) -> str:
    """A card name as one index token: its search form without spaces or
    punctuation, so that 「No.41 泥睡魔兽 睡梦貘」 is found whole (FTS5 splits at . and space)."""
    return re.sub(r"[\W_]+", "", search_name)
