"""Finding a card or a concept from what a person types: a password, typos,
partial names, a set's name, traditional characters, pinyin with or without
spaces, initials and the start of a kana reading."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import NamedTuple

from ocgkb import NotFound, OcgkbError
from ocgkb.store import card_names as stored_cards
from ocgkb.store.cards import card_with_password
from ocgkb.store.concepts import concept_labels, concept_row
from ocgkb.store.database import KnowledgeBase
from ocgkb.text.name_forms import bare_form, latin_form, loose_form, name_grams

MIN_SCORE = 60.0
SUGGEST_SCORE = 45.0
# A part of a name that many cards share (影依, 连锁) names a set, not a card.
MAX_PART_CARDS = 3
PART_IN_TEXTS = 4.0
# Passwords have 8 digits at most (leading zeros may be typed): a longer number is none.
PASSWORD_DIGITS = 10
_LATIN = re.compile(r"^[a-z0-9 '\-.,:!?&\"/]+$")


@dataclass(frozen=True)
class CardMatch:
    name: str
    score: float
    how: str  # password, zh, zh_official, en, ja, kana, texts, nickname, pinyin, initials, part, typo

    @property
    def guessed(self) -> bool:
        """A name that is not what was typed (a typo, a pinyin near miss): shown as "did you mean"."""
        return self.how == "typo" or (self.how == "pinyin" and self.score < 100.0)

    def as_dict(self) -> dict:
        return {"name": self.name, "score": round(self.score, 1), "how": self.how}


class CardLookup(NamedTuple):
    """What a query means: scored cards, best first (the view keeps those above
    MIN_SCORE as matches, the rest as suggestions), or the cards of the set it names."""

    scored: list[CardMatch]
    set_cards: list[str]


def find_cards(kb: KnowledgeBase, query: str, limit: int = 5) -> list[CardMatch]:
    """The cards a query most likely means, best first; empty when none is close.

    Any name form is compared: the texts' names, the ygopro and official Chinese
    names, English, Japanese and its kana reading, nicknames, pinyin and initials,
    whole first (an indexed lookup), then as a part of a name, then with typos."""
    return [m for m in look_up_card(kb, query).scored if m.score >= MIN_SCORE][:limit]


def look_up_card(kb: KnowledgeBase, query: str) -> CardLookup:
    """Every card a query may mean, scored, best first; a password or a whole name
    wins outright. A query in many names and no card's whole name is a set's name
    (青眼, 元素英雄, ブルーアイズ): its cards are given instead of parts scored as cards."""
    normal = kb.normalize(query).strip()
    text = loose_form(normal)
    latin = latin_form(normal) if _LATIN.match(normal) else ""
    if not text and not latin:
        raise OcgkbError("the card name is empty")
    password = normal.isascii() and normal.isdigit() and len(normal) <= PASSWORD_DIGITS
    if password and (card := card_with_password(kb, int(normal))):
        return CardLookup([CardMatch(card, 100.0, "password")], [])
    best: dict[str, CardMatch] = {}

    def offer(card: str, score: float, how: str) -> None:
        if card not in best or score > best[card].score:
            best[card] = CardMatch(card, score, how)

    keys = [k for k in dict.fromkeys([text, latin]) if k]
    for card, how in stored_cards.cards_by_form(kb, keys):
        offer(card, 96.0 if how == "initials" else 100.0, how)
    set_cards: dict[str, bool] = {}  # a set's card → whether its name begins with the query
    if not best:
        if latin:
            if len(latin) >= 4:
                # Short Latin queries are weighed down: 2 of 4 letters alike is chance.
                set_cards = _part_and_typo(kb, latin, offer, weight=0.95, short=max(0, 8 - len(latin)) * 2.5)
        else:
            set_cards = _part_and_typo(kb, text, offer)
            _sounds_like(kb, bare_form(normal), offer)
    mentions = stored_cards.mentions(kb, [*best, *set_cards])
    # Of several names that hold the query, the card the texts discuss is the likelier.
    matches = [
        CardMatch(m.name, m.score + PART_IN_TEXTS, m.how) if m.how == "part" and mentions.get(m.name) else m
        for m in best.values()
    ]
    scored = sorted(matches, key=lambda m: (-m.score, -mentions.get(m.name, 0), m.name))
    # A set's cards whose names begin with its name first, then the most discussed.
    members = sorted(set_cards, key=lambda card: (not set_cards[card], -mentions.get(card, 0), card))
    return CardLookup(scored, members)


def _forms_sharing(kb: KnowledgeBase, query: str, share: float) -> list[tuple[str, str, str]]:
    """(form, card, how) of the name forms holding at least `share` of the query's
    characters (letter triples for Latin): the only ones that can come close."""
    grams = sorted(name_grams(query))
    need = max(1, math.ceil(len(grams) * share))
    return stored_cards.forms_sharing(kb, grams, need)


def _part_and_typo(
    kb: KnowledgeBase, query: str, offer, weight: float = 1.0, short: float = 0.0
) -> dict[str, bool]:
    """A query inside a name is a partial name, unless many cards share it (影依,
    元素英雄: a set's name, whose cards are returned, each with whether its name
    begins with the query); any other close name is a typo. The start of a kana
    reading counts as a part (ブルーアイズ): readings have no n-grams to share."""
    from rapidfuzz import fuzz

    parts: dict[str, float] = {}
    prefixes: set[str] = set()
    forms = _forms_sharing(kb, query, 0.4) + stored_cards.forms_beginning(kb, query, "kana")
    for form, card, how in forms:
        if len(query) >= 2 and query in form and len(form) > len(query):
            parts[card] = max(parts.get(card, 0.0), 80.0 + 18.0 * len(query) / len(form))
            if form.startswith(query):
                prefixes.add(card)
        elif (
            abs(len(form) - len(query)) <= max(1, len(query) // 2)
            and (score := fuzz.ratio(query, form)) >= SUGGEST_SCORE
        ):
            offer(card, score * weight - short, "pinyin" if how == "pinyin" else "typo")
    # A set's name starts the names of its cards (元素英雄 荒野侠, 影依龙); a word of
    # two characters (连锁, 墓地) in many names names them as a set does.
    if len(parts) > MAX_PART_CARDS and (len(query) <= 2 or len(prefixes) * 2 > len(parts)):
        return {card: card in prefixes for card in parts}
    for card, score in parts.items():
        offer(card, score, "part")
    return {}


def _sounds_like(kb: KnowledgeBase, bare: str, offer) -> None:
    """Homophone typos (电器尾龙 → 电气尾龙): a name that reads as the query does."""
    chars = sorted(set(bare))
    pinyin_of = stored_cards.pinyin_of(kb, chars)
    spoken = "".join(pinyin_of.get(ch, ch) for ch in bare)
    if spoken.isascii() and len(spoken) >= 2:
        for card in stored_cards.cards_read_as(kb, spoken):
            offer(card, 97.0, "typo")


def find_concept(kb: KnowledgeBase, name: str) -> dict:
    """A concept row by id, English or Chinese name or alias; NotFound names the closest."""
    from ocgkb.query.plan import ontology_of

    concept = ontology_of(kb).lookup(name)
    if concept:
        return concept_row(kb, concept.id)
    from rapidfuzz import process

    close = process.extract(name, concept_labels(kb), limit=3, score_cutoff=50)
    hint = f"; did you mean {', '.join(c[2] for c in close)}?" if close else ""
    raise NotFound(f"no concept called {name!r}{hint}")
