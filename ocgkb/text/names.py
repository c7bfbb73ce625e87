"""Card names: which 「」 holds a card, and finding known cards in running text.

The one rule (`classify_bracket`): a 「name」 is
- a *placeholder* when it holds ○, ?, ~ (『当作「○○」使用』),
- a *term* when kb/terms.yaml lists it, a concept of the ontology names it,
  it is kana only (rarity names), or it names an effect or a value (…效果, …数值);
  but a term that is also a card's name (融合 is Polymerization) is that card
  where the words around it use a card: 不使用「融合」来特殊召唤, 「融合」的效果,
  「死者苏生」「融合」 listed beside another card (terms.yaml `card_before`, `card_after`),
- an *archetype* when the words around it say so (名字带有「光道」, 「暗黑界」怪兽),
- a *card* otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

# A name in 「」, which may itself hold one: 「炎舞-「玉衡」」 is one card.
BRACKET = re.compile(r"「((?:[^「」\n]|「[^「」\n]{1,40}」){1,60})」")
_PLACEHOLDER = re.compile(r"[○〇?？~～]")
_KANA_ONLY = re.compile(r"^[\u3040-\u30ff・ー\s]+$")
# Effects, values and timings quoted as terms: 「…的效果」, 「原本数值」, 「攻击宣言时」.
_EFFECT_OR_VALUE = re.compile(r"(效果|数值|宣言时|发动时|时点|的场合)$|攻击力|守备力")
# What may stand between two names of one list: 「A」「B」, 「A」、「B」, 「A」和「B」.
_LIST_GAP = re.compile(r"\s*[、，,和与及或·]?\s*")
_CONTEXT_KEYS = ("archetype_before", "archetype_after", "card_before", "card_after")


@dataclass
class NameRules:
    not_cards: set[str] = field(default_factory=set)
    archetype_before: tuple[str, ...] = ()
    archetype_after: tuple[str, ...] = ()
    card_before: tuple[str, ...] = ()  # words right before a 「term」 that use it as a card
    card_after: tuple[str, ...] = ()
    card_terms: frozenset[str] = frozenset()  # terms that are also a card's name

    def with_card_terms(self, is_card: Callable[[str], object]) -> NameRules:
        """These rules knowing which of their terms also name a card (by the card facts)."""
        return replace(self, card_terms=frozenset(t for t in self.not_cards if is_card(t)))

    @classmethod
    def from_mapping(cls, data: dict, concept_terms: Iterable[str] = ()) -> NameRules:
        """The rules of kb/terms.yaml's mapping; every concept's terms are terms too."""
        not_cards = {str(t) for t in data.get("not_cards") or []} | {str(t) for t in concept_terms}
        return cls(
            not_cards,
            *(tuple(str(w) for w in data.get(key) or ()) for key in _CONTEXT_KEYS),
        )

    def classify_bracket(
        self, name: str, before: str = "", after: str = "", beside_card: bool = False
    ) -> str:
        """'card', 'archetype', 'term' or 'placeholder' for the text inside 「」;
        `beside_card`: it is listed right beside a 「card」."""
        stripped = name.strip()
        if not stripped or _PLACEHOLDER.search(stripped):
            return "placeholder"
        if stripped in self.card_terms and (
            beside_card or before.endswith(self.card_before) or after.startswith(self.card_after)
        ):
            return "card"
        if stripped in self.not_cards or _KANA_ONLY.match(stripped) or _EFFECT_OR_VALUE.search(stripped):
            return "term"
        if before.endswith(self.archetype_before) or after.startswith(self.archetype_after):
            return "archetype"
        return "card"


@dataclass(frozen=True)
class NameMention:
    name: str
    kind: str
    start: int


def bracket_names(text: str) -> list[str]:
    """What sits in each 「」 of a text, in order."""
    return [match.group(1).strip() for match in BRACKET.finditer(text)]


def without_brackets(text: str) -> str:
    """The text with every 「name」 blanked out, for finding names written bare."""
    return BRACKET.sub(" ", text)


def bracket_mentions(text: str, rules: NameRules) -> list[NameMention]:
    """Every 「」 of a text with what it holds; a term that also names a card is
    read again beside its neighbours: listed beside a 「card」, it is a card too."""
    matches = list(BRACKET.finditer(text))
    kinds = [
        rules.classify_bracket(
            m.group(1), text[max(0, m.start() - 6) : m.start()], text[m.end() : m.end() + 6]
        )
        for m in matches
    ]
    for i, match in enumerate(matches):
        if kinds[i] == "term" and match.group(1).strip() in rules.card_terms:
            if any(kinds[j] == "card" for j in _listed_beside(text, matches, i)):
                kinds[i] = rules.classify_bracket(match.group(1), beside_card=True)
    return [NameMention(m.group(1).strip(), kind, m.start()) for m, kind in zip(matches, kinds, strict=True)]


def _listed_beside(text: str, matches: list[re.Match], i: int) -> list[int]:
    """The 「」 right before and after the i-th, when only a list's separator parts them."""
    beside = []
    for j in (i - 1, i + 1):
        if 0 <= j < len(matches):
            left, right = sorted((matches[i], matches[j]), key=lambda m: m.start())
            if _LIST_GAP.fullmatch(text[left.end() : right.start()]):
                beside.append(j)
    return beside


class NameScanner:
    """Finds known names written without 「」 (the wiki and the guide quote cards
    bare or in “”): never two overlapping, the longest of any that overlap
    winning, and at least 3 characters, so that a short name such as 旋风 is not
    found inside 银河旋风, nor 龙战士 inside 杀龙战士 where that longer name
    starts earlier. Names are looked up by their first characters, so thousands
    of names cost no more than a few."""

    def __init__(self, names: dict[str, object], min_length: int = 3) -> None:
        self._names = {n: key for n, key in names.items() if len(n) >= min_length}
        self._by_start: dict[str, list[str]] = {}
        for name in sorted(self._names, key=lambda n: (-len(n), n)):
            self._by_start.setdefault(name[:min_length], []).append(name)
        self._min = min_length

    def find(self, text: str) -> list:
        """The keys of the names found, in the order the text names them."""
        return [self._names[name] for name in self.found(text)]

    def key(self, name: str) -> object:
        """The key a name found stands for."""
        return self._names[name]

    def found(self, text: str) -> list[str]:
        """The names found, as this scanner knows them, in the order the text names them."""
        candidates = []  # (start, name): the longest name starting at each place
        for i in range(len(text) - self._min + 1):
            bucket = self._by_start.get(text[i : i + self._min])
            match = next((n for n in bucket if text.startswith(n, i)), None) if bucket else None
            if match:
                candidates.append((i, match))
        taken: list[tuple[int, int, str]] = []
        for start, name in sorted(candidates, key=lambda c: (-len(c[1]), c[0])):
            end = start + len(name)
            if all(end <= s or e <= start for s, e, _ in taken):
                taken.append((start, end, name))
        return [name for _, _, name in sorted(taken)]
