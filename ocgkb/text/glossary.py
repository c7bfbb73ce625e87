"""English game vocabulary in a question, read as the rule texts' Chinese words.

kb/glossary.yaml maps English words and phrases (banish, chain link, damage
step, once per turn) to the texts' words (除外, 连锁, 伤害步骤, 1回合1次). A key
is matched as whole words, never inside another word (set is not in reset), and
a question's inflected words are read as the glossary's own (banished, chains,
destroying → banish, chain, destroy). Longer phrases win over the words inside them.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z0-9]+")
# Left out of keys and questions alike: "send to the graveyard" is "send to graveyard".
_SKIPPED = frozenset({"the", "a", "an", "s"})
_IRREGULAR = {
    "sent": "send",
    "drew": "draw",
    "drawn": "draw",
    "paid": "pay",
    "took": "take",
    "taken": "take",
    "lost": "lose",
    "won": "win",
    "chose": "choose",
    "chosen": "choose",
    "gave": "give",
    "given": "give",
    "dealt": "deal",
    "fought": "fight",
    "hit": "hit",
    "shuffling": "shuffle",
}


# Inflections, tried in order; a stem counts only when the glossary knows it.
_SUFFIXES = (
    ("ies", "y"),
    ("ied", "y"),
    ("es", ""),
    ("s", ""),
    ("ed", ""),
    ("ed", "e"),
    ("d", ""),
    ("ing", ""),
    ("ing", "e"),
)


def phrase_words(text: str) -> list[str]:
    """The words of a key or a question, lower-case, articles left out."""
    return [w for w in _WORD.findall(text.lower()) if w not in _SKIPPED]


class Glossary:
    """English phrases (as word tuples) and the Chinese words they stand for."""

    def __init__(self, entries: dict[str, list[str]]) -> None:
        raw = {tuple(phrase_words(key)): targets for key, targets in entries.items()}
        self.known = {w for phrase in raw for w in phrase}
        self.whole = {phrase[0] for phrase in raw if len(phrase) == 1}
        # A key's own words are read like a question's: "destroyed by battle" is
        # destroy + by + battle, so a lone "destroyed" still means destroy.
        self.phrases: dict[tuple[str, ...], list[str]] = {}
        for words, targets in raw.items():
            if words:
                phrase = tuple(self.lemma(w) for w in words)
                self.phrases.setdefault(phrase, []).extend(t for t in targets if t)
        self.longest = max(map(len, self.phrases), default=0)

    def stored(self) -> dict:
        """What `from_stored` needs, computed once at build time."""
        return {
            "phrases": [[list(p), t] for p, t in self.phrases.items()],
            "known": sorted(self.known),
            "whole": sorted(self.whole),
        }

    @classmethod
    def from_stored(cls, data: dict) -> Glossary:
        glossary = cls({})
        glossary.phrases = {tuple(words): targets for words, targets in data.get("phrases", [])}
        glossary.known = set(data.get("known", []))
        glossary.whole = set(data.get("whole", []))
        glossary.longest = max(map(len, glossary.phrases), default=0)
        return glossary

    def lemma(self, word: str) -> str:
        """The glossary's base form of an inflected word: chains → chain, banished →
        banish, destroying → destroy, stopped → stop, copies → copy; else the word."""
        if word in _IRREGULAR:
            return _IRREGULAR[word]
        if word in self.whole:
            return word  # a key of its own: timing is not time, ruling is not rule
        for suffix, replacement in _SUFFIXES:
            if word.endswith(suffix) and len(word) > len(suffix) + 1:
                stem = word[: -len(suffix)] + replacement
                if stem in self.known:
                    return stem
                if replacement == "" and len(stem) > 2 and stem[-1] == stem[-2] and stem[:-1] in self.known:
                    return stem[:-1]  # stopped → stop
        return word

    def translate(self, text: str) -> list[str]:
        """The Chinese words for the English phrases in `text`, left to right, each
        stretch of words read once by the longest phrase starting there."""
        words = [self.lemma(w) for w in phrase_words(text)]
        found: list[str] = []
        i = 0
        while i < len(words):
            for length in range(min(self.longest, len(words) - i), 0, -1):
                targets = self.phrases.get(tuple(words[i : i + length]))
                if targets:
                    found += [t for t in targets if t not in found]
                    i += length
                    break
            else:
                i += 1
        return found
