"""Card names: which 「」 holds a card, and finding known cards in running text.

The one rule (`classify_bracket`): a 「name」 is
- a *placeholder* when it holds ○, ?, ~ (『当作「○○」使用』),
- a *term* when kb/terms.yaml lists it, a concept of the ontology names it,
  it is kana only (rarity names), or it names an effect or a value (…效果, …数值),
- an *archetype* when the words around it say so (名字带有「光道」, 「暗黑界」怪兽),
- a *card* otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ocgkb import OntologyError, paths

# A name in 「」, which may itself hold one: 「炎舞-「玉衡」」 is one card.
BRACKET = re.compile(r"「((?:[^「」\n]|「[^「」\n]{1,40}」){1,60})」")
_PLACEHOLDER = re.compile(r"[○〇?？~～]")
_KANA_ONLY = re.compile(r"^[\u3040-\u30ff・ー\s]+$")
# Effects, values and timings quoted as terms: 「…的效果」, 「原本数值」, 「攻击宣言时」.
_EFFECT_OR_VALUE = re.compile(r"(效果|数值|宣言时|发动时|时点|的场合)$|攻击力|守备力")


@dataclass
class NameRules:
    not_cards: set[str] = field(default_factory=set)
    archetype_before: tuple[str, ...] = ()
    archetype_after: tuple[str, ...] = ()

    @classmethod
    def load(cls, kb_dir: Path | None = None, concept_terms: Iterable[str] = ()) -> NameRules:
        from ocgkb import yamlio  # only when building, never on a query's start-up path

        path = (kb_dir or paths.kb_dir()) / "terms.yaml"
        try:
            data = yamlio.load(path.read_text(encoding="utf-8")) or {}
        except (OSError, yamlio.YAMLError) as exc:
            raise OntologyError(f"{path}: {exc}".splitlines()[0]) from exc
        not_cards = {str(t) for t in data.get("not_cards") or []} | {str(t) for t in concept_terms}
        return cls(
            not_cards,
            tuple(data.get("archetype_before") or ()),
            tuple(data.get("archetype_after") or ()),
        )

    def classify_bracket(self, name: str, before: str = "", after: str = "") -> str:
        """'card', 'archetype', 'term' or 'placeholder' for the text inside 「」."""
        stripped = name.strip()
        if not stripped or _PLACEHOLDER.search(stripped):
            return "placeholder"
        if stripped in self.not_cards or _KANA_ONLY.match(stripped) or _EFFECT_OR_VALUE.search(stripped):
            return "term"
        if before.endswith(self.archetype_before) or after.startswith(self.archetype_after):
            return "archetype"
        return "card"


def card_token(search_name: str) -> str:
    """A card name as one index token: its search form without spaces or
    punctuation, so that 「No.41 泥睡魔兽 睡梦貘」 is found whole (FTS5 splits at . and space)."""
    return re.sub(r"[\W_]+", "", search_name)


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
    """Every 「」 of a text with what it holds."""
    mentions = []
    for match in BRACKET.finditer(text):
        before = text[max(0, match.start() - 6) : match.start()]
        after = text[match.end() : match.end() + 6]
        kind = rules.classify_bracket(match.group(1), before, after)
        mentions.append(NameMention(match.group(1).strip(), kind, match.start()))
    return mentions


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
        return [self._names[name] for _, _, name in sorted(taken)]
