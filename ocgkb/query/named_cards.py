"""Every real card a question names, the texts' cards and the others.

A question may name any of the 14k cards of the card facts (`plan` keeps those
the texts mention: they steer ranking). They are found by an exact scan of the
question's substrings against the name forms the build stored for it
(`question_names`, indexed by form): one indexed query, no fuzzy matching, so
`ocgkb ask` starts light.

The build keeps every name of the cards the texts mention, and of the others
only names that are not words (副作用 is a word, the card is 副作用？); a name
in 「」 is looked up whatever it is. Overlapping names keep the longest; a
one-word English name (Sangan, Recycle) counts only when written with a capital.
"""

from __future__ import annotations

import re

from ocgkb.store.card_names import best_named, question_names
from ocgkb.store.database import KnowledgeBase
from ocgkb.text.name_forms import latin_form, loose_form
from ocgkb.text.tokenize import STOPWORDS

LONGEST = 24  # longest Chinese or Japanese name form looked for
MIN_LATIN = 4
ENGLISH_WORDS = 8  # the longest run of words looked up as an English name
BRACKET_HOWS = ("zh", "zh_official", "texts", "ja", "kana", "nickname", "en")
_BRACKETED = r"[「『]([^「」『』]{1,40})[」』]"
_WORD = r"[A-Za-z0-9]+"


class NamedCard:
    """A card a question names. (A class with slots: a NamedTuple's class costs
    twenty times more at start-up.)"""

    __slots__ = ("name", "mentions", "said")

    def __init__(
        self,
        name: str,  # the card's name in the knowledge base
        mentions: int,  # passages of the texts that mention it
        said: str,  # the form the question wrote it in
    ) -> None:
        self.name, self.mentions, self.said = name, mentions, said

    @property
    def in_texts(self) -> bool:
        return self.mentions > 0


def named_cards(kb: KnowledgeBase, question: str) -> list[NamedCard]:
    """The cards a question names, in the order it names them."""
    text = kb.normalize(question)
    spans = _chinese(kb, text) + _bracketed(kb, text) + _english(kb, question)
    cards: dict[str, NamedCard] = {}
    for _, card in sorted(_longest_first(spans), key=lambda item: item[0]):
        cards.setdefault(card.name, card)
    return list(cards.values())


Span = tuple[int, int, NamedCard]


def _chinese(kb: KnowledgeBase, text: str) -> list[Span]:
    loose = loose_form(text)
    pieces: dict[str, list[int]] = {}
    for start in range(len(loose)):
        for end in range(start + 2, min(start + LONGEST, len(loose)) + 1):
            piece = loose[start:end]
            if not piece.isascii():
                pieces.setdefault(piece, []).append(start)
    spans = []
    for form, card, mentions, _ in question_names(kb, list(pieces), "zh"):
        spans += [(start, start + len(form), NamedCard(card, mentions, form)) for start in pieces[form]]
    return spans


def _bracketed(kb: KnowledgeBase, text: str) -> list[Span]:
    """A name the question puts in 「」 is meant as a name, word or not."""
    loose = loose_form(text)
    spans = []
    for inside in dict.fromkeys(re.findall(_BRACKETED, text)):
        forms = [f for f in dict.fromkeys([loose_form(inside), latin_form(inside)]) if f]
        if not forms:
            continue
        start = max(loose.find(loose_form(inside)), 0)
        spans += [
            (start, start + len(loose_form(inside)), NamedCard(card, mentions, form))
            for form, card, mentions in best_named(kb, forms, BRACKET_HOWS)
        ]
    return spans


def _english(kb: KnowledgeBase, question: str) -> list[Span]:
    words = re.findall(_WORD, question)
    runs: dict[str, list[tuple[int, int]]] = {}
    for start in range(len(words)):
        for end in range(start + 1, min(start + ENGLISH_WORDS, len(words)) + 1):
            run = [w.lower() for w in words[start:end]]
            form = latin_form("".join(run))
            if len(form) >= MIN_LATIN and not all(w in STOPWORDS for w in run):
                runs.setdefault(form, []).append((start, end))
    spans = []
    for form, card, mentions, single in question_names(kb, list(runs), "en"):
        for start, end in runs[form]:
            # Recycle, Promotion: one English word is a name only when written as one;
            # a short nickname (Evenly, Imperm: single = 2) so even for a card the texts name.
            if single and (not words[start][0].isupper() or start == 0) and (not mentions or single == 2):
                continue
            # After every Chinese position: a question names its cards in one script.
            spans.append((10_000 + start, 10_000 + end, NamedCard(card, mentions, form)))
    return spans


def _longest_first(spans: list[Span]) -> list[tuple[int, NamedCard]]:
    """Of overlapping names the longest, then the card the texts mention most."""
    taken: list[tuple[int, int]] = []
    kept = []
    for start, end, card in sorted(spans, key=lambda s: (s[0] - s[1], -s[2].mentions, s[0], s[2].name)):
        if any(start < e and s < end for s, e in taken):
            continue
        taken.append((start, end))
        kept.append((start, card))
    return kept
