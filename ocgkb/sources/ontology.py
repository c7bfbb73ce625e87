"""The curated concept ontology (kb/concepts.yaml): loading, lookup and tagging."""

from __future__ import annotations

import re

from ocgkb import OntologyError, paths
from ocgkb.text.normalize import Normalizer, squash


class Concept:
    """One concept of the ontology. (A class with slots: its class is made at every
    question's start, where a dataclass or a NamedTuple costs twenty times more.)"""

    __slots__ = ("id", "en", "zh", "aliases", "related", "sections", "not_in")

    def __init__(
        self,
        id: str,
        en: list[str],
        zh: list[str],
        aliases: list[str],
        related: list[str],
        sections: list[str],
        # Longer words its names sit in that are not about it: 对象 in 攻击对象 (the
        # attack's target) is no effect's target.
        not_in: list[str],
    ) -> None:
        self.id, self.en, self.zh, self.aliases = id, en, zh, aliases
        self.related, self.sections, self.not_in = related, sections, not_in

    @property
    def name_zh(self) -> str:
        return self.zh[0] if self.zh else self.id

    @property
    def name_en(self) -> str:
        return self.en[0] if self.en else self.id

    @property
    def terms(self) -> list[str]:
        """Every name the texts or a person may use for it."""
        return [*self.zh, *self.aliases, *self.en]


class Ontology:
    """The concepts, found in text by one scan over all their names.

    A built knowledge base stores each concept's names in search form (`forms`)
    and as lookup keys (`keys`), so a query process never normalises or compiles
    them again: the ontology is ready in a millisecond."""

    def __init__(
        self,
        concepts: list[Concept],
        normalize: Normalizer,
        forms: dict[str, list[str]] | None = None,
        keys: dict[str, list[str]] | None = None,
        not_in: dict[str, list[str]] | None = None,
    ) -> None:
        self.concepts = {c.id: c for c in concepts}
        self._normalize = normalize
        self._forms = forms or {
            c.id: sorted({squash(normalize(t)) for t in c.terms if t.strip()}, key=lambda t: (-len(t), t))
            for c in concepts
        }
        self._keys = keys or {c.id: [_key(n, normalize) for n in [c.id, *c.terms]] for c in concepts}
        self._not_in = (
            not_in
            if not_in is not None
            else {c.id: [squash(normalize(w)) for w in c.not_in if w.strip()] for c in concepts if c.not_in}
        )
        self._by_name: dict[str, str] = {}
        for concept in concepts:
            for key in self._keys[concept.id]:
                self._by_name.setdefault(key, concept.id)
        # Every name by its first character, longest first: one pass finds them all.
        self._by_first: dict[str, list[tuple[str, str]]] = {}
        for cid, forms in self._forms.items():
            for form in forms:
                self._by_first.setdefault(form[0], []).append((form, cid))
        for bucket in self._by_first.values():
            bucket.sort(key=lambda entry: -len(entry[0]))

    def stored_forms(self) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        """What a built knowledge base keeps so that `from_rows` needs no normalising."""
        return self._forms, self._keys

    def not_in(self, cid: str) -> list[str]:
        """The words, in search form, a concept's names do not count inside."""
        return self._not_in.get(cid, [])

    def _spans(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, concept) of every name in a text in search form. Latin names
        match whole words only: `lp` is not in `help`; a name inside a word its
        concept declares `not_in` (对象 in 攻击对象) does not count."""
        found = []
        for i, ch in enumerate(text):
            for form, cid in self._by_first.get(ch, ()):
                if not text.startswith(form, i):
                    continue
                end = i + len(form)
                if _LATIN_NAME.fullmatch(form) and (
                    (i and text[i - 1] in _ASCII_LOWER) or (end < len(text) and text[end] in _ASCII_LOWER)
                ):
                    continue
                if any(
                    text.find(w, max(0, end - len(w)), i + len(w)) != -1 for w in self._not_in.get(cid, ())
                ):
                    continue  # the word that holds the name covers it here
                found.append((i, end, cid))
        return found

    @classmethod
    def load(cls, kb_dir: paths.Where = None, normalize: Normalizer | None = None) -> Ontology:
        from pathlib import Path  # here: the build reads the YAML, a question the stored ontology

        from ocgkb import yamlio

        path = Path(kb_dir or paths.kb_dir()) / "concepts.yaml"
        try:
            data = yamlio.load(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, yamlio.YAMLError) as exc:
            raise OntologyError(f"cannot read the ontology {path}: {str(exc).splitlines()[0]}") from exc
        entries = (data or {}).get("concepts") if isinstance(data, dict) else None
        if not isinstance(entries, dict) or not entries:
            raise OntologyError(f"{path}: expected a mapping `concepts:` of concept ids")
        concepts = []
        for cid, entry in entries.items():
            if not isinstance(entry, dict):
                raise OntologyError(f"{path}: concept {cid!r} is not a mapping")
            lists = {
                k: [str(v) for v in entry.get(k) or []]
                for k in ("en", "zh", "aliases", "related", "sections", "not_in")
            }
            if not lists["zh"] and not lists["en"]:
                raise OntologyError(f"{path}: concept {cid!r} has no zh or en name")
            concepts.append(Concept(str(cid), **lists))
        known = {c.id for c in concepts}
        for concept in concepts:
            unknown = [r for r in concept.related if r not in known]
            if unknown:
                raise OntologyError(f"{path}: concept {concept.id!r} relates to unknown {', '.join(unknown)}")
        return cls(concepts, normalize or Normalizer())

    def lookup(self, name: str) -> Concept | None:
        """A concept by id, English or Chinese name or alias (case and width insensitive)."""
        cid = self._by_name.get(_key(name, self._normalize))
        return self.concepts.get(cid) if cid else None

    def tag(self, search_text: str) -> list[str]:
        """Ids of the concepts a text (in search form) is about. A card's own text
        quoted in 『』 is the card's wording, not the rule's subject, and what the
        text says does not happen (不进行伤害计算) is not what it is about."""
        text = re.sub(_QUOTED_CARD_TEXT, "　", squash(search_text))
        about = {cid for start, end, cid in self._spans(text) if not _negated(text, start, end)}
        return [cid for cid in self._forms if cid in about]

    def named(self, search_text: str) -> dict[str, str]:
        """The concepts a text names, each with the words that named it. A name
        inside a longer concept's name (对象 in 持续取对象) does not count."""
        text = squash(search_text)
        first: dict[str, tuple[int, int]] = {}  # each concept's leftmost, then longest, name
        for start, end, cid in self._spans(text):
            known = first.get(cid)
            if known is None or (start, -end) < (known[0], -known[1]):
                first[cid] = (start, end)
        spans = list(first.values())
        return {
            cid: text[start:end]
            for cid in self._forms
            if cid in first
            for start, end in [first[cid]]
            if not any(s <= start and end <= e and (e - s) > (end - start) for s, e in spans)
        }

    def forms(self, cid: str) -> list[str]:
        """Every name of a concept in search form, longest first."""
        return self._forms[cid]

    @classmethod
    def from_rows(cls, rows, normalize: Normalizer) -> Ontology:
        """The ontology as a built knowledge base stores it (its `concepts` table),
        each row's JSON columns already read (`ocgkb.store.concepts.ontology` reads
        them in one go). Its relations and sections are `links` rows there, not needed
        to find concepts in a question."""
        concepts = [
            Concept(
                r["id"],
                r["en"],
                r["zh"],
                r["aliases"],
                r.get("related") or [],
                r.get("sections") or [],
                r.get("not_in") or [],
            )
            for r in rows
        ]
        if all(r.get("forms") for r in rows):
            forms = {r["id"]: r["forms"] for r in rows}
            keys = {r["id"]: r["keys"] for r in rows}
            not_in = {c.id: c.not_in for c in concepts if c.not_in}  # stored in search form
            return cls(concepts, normalize, forms, keys, not_in)
        return cls(concepts, normalize)


# Patterns of tagging, which only the build does: kept as text, compiled on first
# use (re caches them), not on every question's start.
# A quotation of card text: 『』 holding a sentence (short ones name a rule: 『失去基本分』).
_QUOTED_CARD_TEXT = r"『[^『』]{12,}』"
# What a text says is not done, right before the term it names.
_NEGATED = r"(?:不|没有|未)(?:会|再)?(?:进行|经过)$"


def _negated(text: str, start: int, end: int) -> bool:
    """不进行伤害计算 / 没有经过…: the named thing is said not to happen."""
    before = text[max(0, start - 6) : start]
    term = text[start:end]
    return bool(re.search(_NEGATED, before + term[:2] if term.startswith(("进行", "经过")) else before))


_LATIN_NAME = re.compile(r"[a-z0-9 ./'-]+")
_ASCII_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")


def _key(name: str, normalize: Normalizer) -> str:
    return squash(normalize(name)).replace("-", "").replace("_", "")
