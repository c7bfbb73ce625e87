"""The forms a card name is compared in: the same functions at build time and
for every query, kept light so a query's start-up imports nothing else."""

from __future__ import annotations

import re

_LOOSE_DROP = re.compile(r"[\s·\-‐‑‒–—―－~～=＝\"“”'‘’「」『』()（）!！?？,，.．:：/／＆&]")
_KATAKANA = {code: code - 0x60 for code in range(0x30A1, 0x30F7)}
_LATIN_DROP = re.compile(r"[^a-z0-9]+")


def bare_form(normalized: str) -> str:
    """A name without spaces, dots, hyphens or quotes, katakana as hiragana: what
    its pinyin is read from. Takes text already in search form."""
    return _LOOSE_DROP.sub("", normalized).translate(_KATAKANA)


def loose_form(normalized: str) -> str:
    """What two spellings of one name share: the bare form with 之 read as 的."""
    return bare_form(normalized).replace("之", "的")


_SCAN_DROP = re.compile(r"[\s·\-‐‑‒–—―－~～=＝]")


def scan_form(normalized: str) -> str:
    """How a name is looked for in running text: without spaces, dots or hyphens,
    之 read as 的, but keeping ！ and ？ (「等级上升！」 is not in 让等级上升1)."""
    return _SCAN_DROP.sub("", normalized).replace("之", "的")


def latin_form(text: str) -> str:
    """An English name or pinyin compared without case, spaces or punctuation: `Maxx "C"` → maxxc."""
    return _LATIN_DROP.sub("", text.lower())


def name_grams(form: str) -> set[str]:
    """What a typo search looks a name form up by: its characters, or for a Latin
    form (English, pinyin) its letter triples, since single letters say little."""
    if form.isascii():
        return {form[i : i + 3] for i in range(len(form) - 2)} or {form}
    return set(form)
