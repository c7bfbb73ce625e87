"""The pinyin of card names, remembered between builds.

Reading 14k card names aloud costs a build about half a CPU-second, most of it
loading pypinyin and its phrases, and the readings depend only on the names and
on pypinyin, never on the rule texts (a worker process would spend the same
CPU-seconds and more, only in parallel). So a build keeps them in a file under
`paths.parts_dir()` named by the hash of pypinyin's version and the code that
forms them, and the next build reads them back: pypinyin is not even imported.
Each phrase is remembered by its own text, so a changed card file reads only its
new names; the file holds only the latest build's, and a damaged or foreign one
is ignored, never trusted.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import unicodedata
from pathlib import Path

from ocgkb import paths
from ocgkb.text import name_forms
from ocgkb.text.name_forms import latin_form

FORMAT = 1


def char_readings() -> dict[str, str]:
    """Every Chinese character's first reading, toneless, ü as v: what a query is
    compared by sound with (电器尾龙 → 电气尾龙) without loading pypinyin."""
    from pypinyin.pinyin_dict import pinyin_dict

    readings = {}
    for code in sorted(pinyin_dict):
        if 0x3400 <= code <= 0x9FFF:
            reading = pinyin_dict[code].split(",")[0]
            plain = "".join(c for c in unicodedata.normalize("NFD", reading) if not unicodedata.combining(c))
            readings[chr(code)] = plain.replace("ü", "v").lower()
    return readings


def phrase_syllables(text: str) -> list[str]:
    """pypinyin's phrase-aware reading of a name (重骑士 is zhong), one Latin form a syllable."""
    from pypinyin import Style, lazy_pinyin

    return [s for s in map(latin_form, lazy_pinyin(text, style=Style.NORMAL, errors="default")) if s]


class RememberedCardForms:
    """`char_readings` and `phrase_syllables`, read from and saved to a content-addressed file."""

    def __init__(self, folder: Path | None = None) -> None:
        self.path = Path(folder or paths.parts_dir()) / f"card-forms-{_key()}.json"
        known = self._load()
        self._readings: dict[str, str] | None = known.get("readings")
        self._known_phrases: dict[str, list[str]] = known.get("phrases", {})
        self._phrases: dict[str, list[str]] = {}
        self._changed = self._readings is None
        self.reused = 0

    def _load(self) -> dict:
        """What the file holds, or nothing when any part of it is not as saved."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return {}
        readings, phrases = data.get("readings"), data.get("phrases")
        if not (isinstance(readings, dict) and all(isinstance(v, str) for v in readings.values())):
            return {}
        if not (isinstance(phrases, dict) and all(_is_words(v) for v in phrases.values())):
            return {}
        return {"readings": readings, "phrases": phrases}

    def readings(self) -> dict[str, str]:
        if self._readings is None:
            self._readings = char_readings()
        return self._readings

    def syllables(self, text: str) -> list[str]:
        found = self._known_phrases.get(text)
        if found is None:
            found = phrase_syllables(text)
            self._changed = True
        else:
            self.reused += 1
        self._phrases[text] = found
        return list(found)

    def save(self) -> None:
        """Keep this build's forms for the next one; a place that cannot be written
        only costs the next build its speed."""
        if not self._changed:
            return
        # What earlier builds formed is kept too: builds of another corpus (a test's
        # small one, a --data-dir) then do not undo each other's work, and the file
        # stays bounded by the card names there are.
        phrases = {**self._known_phrases, **self._phrases}
        data = {"format": FORMAT, "readings": self.readings(), "phrases": phrases}
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial = self.path.with_name(f"{self.path.name}.{os.getpid()}")
            partial.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
            os.replace(partial, self.path)


def _is_words(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(s, str) for s in value)


def _key() -> str:
    """What the forms depend on besides the names: pypinyin (its __init__, which
    holds its version, read without the import this file saves), the Unicode
    tables that strip its tone marks and the forming code."""
    pypinyin = importlib.util.find_spec("pypinyin")
    if pypinyin is None or pypinyin.origin is None:
        raise ImportError("pypinyin is not installed")
    files = (pypinyin.origin, __file__, name_forms.__file__)
    parts = [
        FORMAT,
        unicodedata.unidata_version,
        *(hashlib.sha256(Path(f).read_bytes()).hexdigest() for f in files),
    ]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:24]
