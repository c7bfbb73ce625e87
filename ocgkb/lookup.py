"""Finding a card or a concept from what a person types: typos, partial names,
traditional characters, pinyin with or without spaces, and initials."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from . import OcgkbError
from .normalize import squash
from .store import KnowledgeBase

MIN_SCORE = 60.0
_LATIN = re.compile(r"^[a-z0-9 '\-]+$")


class NotFound(OcgkbError):
    """No card, concept or section answers to the name given."""


@dataclass(frozen=True)
class CardMatch:
    name: str
    score: float
    how: str  # exact, part, typo, pinyin, initials

    def as_dict(self) -> dict:
        return {"name": self.name, "score": round(self.score, 1), "how": self.how}


@dataclass(frozen=True)
class _Card:
    name: str
    form: str
    pinyin: str
    initials: str
    mentions: int


@functools.lru_cache(maxsize=4)
def _cards(path: str) -> tuple[list[_Card], dict[str, str]]:
    kb = KnowledgeBase(path)
    cards = [
        _Card(r["name"], r["search_name"], r["pinyin"], r["initials"], r["mentions"])
        for r in kb.query("SELECT * FROM cards WHERE kind = 'card' ORDER BY name")
    ]
    pinyin_of = dict(kb.query("SELECT char, pinyin FROM char_pinyin"))
    kb.close()
    return cards, pinyin_of


def find_cards(kb: KnowledgeBase, query: str, limit: int = 5) -> list[CardMatch]:
    """The cards a query most likely means, best first; empty when none is close."""
    from rapidfuzz import fuzz

    text = squash(kb.normalize(query))
    if not text:
        raise OcgkbError("the card name is empty")
    cards, pinyin_of = _cards(str(kb.path))
    latin = bool(_LATIN.match(kb.normalize(query).strip()))
    compact = re.sub(r"[^a-z0-9]", "", text)
    spoken = "".join(pinyin_of.get(ch, ch) for ch in text)  # the query as pinyin, for homophone typos
    scored: list[CardMatch] = []
    for card in cards:
        if latin:
            candidates = [
                (100.0 if compact == card.pinyin else 0.0, "pinyin"),
                (96.0 if compact == card.initials and len(compact) >= 2 else 0.0, "initials"),
                (fuzz.ratio(compact, card.pinyin) * 0.95, "pinyin"),
                (
                    88.0 * len(compact) / len(card.pinyin) + 8
                    if len(compact) >= 4 and compact in card.pinyin
                    else 0.0,
                    "pinyin",
                ),
            ]
        else:
            candidates = [
                (100.0 if text == card.form else 0.0, "exact"),
                (
                    80.0 + 18.0 * len(text) / len(card.form) if len(text) >= 2 and text in card.form else 0.0,
                    "part",
                ),
                (fuzz.ratio(text, card.form), "typo"),
                (fuzz.ratio(spoken, card.pinyin) * 0.97 if len(text) >= 2 else 0.0, "typo"),
            ]
        score, how = max(candidates)
        if score >= MIN_SCORE:
            scored.append(CardMatch(card.name, score, how))
    mentions = {c.name: c.mentions for c in cards}
    scored.sort(key=lambda m: (-m.score, -mentions[m.name], m.name))
    return scored[:limit]


def find_concept(kb: KnowledgeBase, name: str) -> dict:
    """A concept row by id, English or Chinese name or alias; NotFound names the closest."""
    from .query import ontology_of

    concept = ontology_of(str(kb.path)).lookup(name)
    if concept:
        return dict(kb.query("SELECT * FROM concepts WHERE id = ?", (concept.id,))[0])
    from rapidfuzz import process

    rows = kb.query("SELECT id, name_en, name_zh FROM concepts ORDER BY id")
    choices = {row["id"]: f"{row['id']} {row['name_en']} {row['name_zh']}" for row in rows}
    close = process.extract(name, choices, limit=3, score_cutoff=50)
    hint = f"; did you mean {', '.join(c[2] for c in close)}?" if close else ""
    raise NotFound(f"no concept called {name!r}{hint}")
