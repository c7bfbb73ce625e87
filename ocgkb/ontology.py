"""The curated concept ontology (kb/concepts.yaml): loading, lookup and tagging."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from . import OntologyError, paths
from .normalize import Normalizer, squash


@dataclass
class Concept:
    id: str
    en: list[str]
    zh: list[str]
    aliases: list[str] = field(default_factory=list)
    related: list[str] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)

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
    def __init__(self, concepts: list[Concept], normalize: Normalizer) -> None:
        self.concepts = {c.id: c for c in concepts}
        self._normalize = normalize
        self._matchers = {c.id: _matcher(c.terms, normalize) for c in concepts}
        self._by_name: dict[str, str] = {}
        for concept in concepts:
            for name in [concept.id, *concept.terms]:
                self._by_name.setdefault(_key(name, normalize), concept.id)

    @classmethod
    def load(cls, kb_dir: Path | None = None, normalize: Normalizer | None = None) -> Ontology:
        import yaml  # only when building, never on a query's start-up path

        path = (kb_dir or paths.kb_dir()) / "concepts.yaml"
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
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
                for k in ("en", "zh", "aliases", "related", "sections")
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
        text = _QUOTED_CARD_TEXT.sub("　", squash(search_text))
        return [
            cid
            for cid, matcher in self._matchers.items()
            if matcher and any(not _negated(text, m) for m in matcher.finditer(text))
        ]

    def named(self, search_text: str) -> dict[str, str]:
        """The concepts a text names, each with the words that named it. A name
        inside a longer concept's name (对象 in 持续取对象) does not count."""
        text = squash(search_text)
        hits = [
            (cid, m) for cid, matcher in self._matchers.items() if matcher and (m := matcher.search(text))
        ]
        spans = [(m.start(), m.end()) for _, m in hits]
        return {
            cid: m.group(0)
            for cid, m in hits
            if not any(s <= m.start() and m.end() <= e and (e - s) > (m.end() - m.start()) for s, e in spans)
        }

    def forms(self, cid: str) -> list[str]:
        """Every name of a concept in search form, longest first."""
        concept = self.concepts[cid]
        return sorted({squash(self._normalize(t)) for t in concept.terms if t.strip()}, key=len, reverse=True)

    @classmethod
    def from_rows(cls, rows, normalize: Normalizer) -> Ontology:
        """The ontology as a built knowledge base stores it (its `concepts` table)."""
        import json

        concepts = [
            Concept(
                r["id"],
                json.loads(r["en"]),
                json.loads(r["zh"]),
                json.loads(r["aliases"]),
                json.loads(r["related"]),
                json.loads(r["sections"]),
            )
            for r in rows
        ]
        return cls(concepts, normalize)


# A quotation of card text: 『』 holding a sentence (short ones name a rule: 『失去基本分』).
_QUOTED_CARD_TEXT = re.compile(r"『[^『』]{12,}』")
# What a text says is not done, right before the term it names.
_NEGATED = re.compile(r"(?:不|没有|未)(?:会|再)?(?:进行|经过)$")


def _negated(text: str, match: re.Match[str]) -> bool:
    """不进行伤害计算 / 没有经过…: the named thing is said not to happen."""
    before = text[max(0, match.start() - 6) : match.start()]
    term = match.group(0)
    return bool(_NEGATED.search(before + term[:2] if term.startswith(("进行", "经过")) else before))


def _key(name: str, normalize: Normalizer) -> str:
    return squash(normalize(name)).replace("-", "").replace("_", "")


def _matcher(terms: list[str], normalize: Normalizer) -> re.Pattern[str] | None:
    forms = sorted({squash(normalize(t)) for t in terms if t.strip()}, key=len, reverse=True)
    parts = []
    for form in forms:
        escaped = re.escape(form)
        # Latin names match whole words only: `lp` is not in `help`.
        parts.append(rf"(?<![a-z]){escaped}(?![a-z])" if re.fullmatch(r"[a-z0-9 ./'-]+", form) else escaped)
    return re.compile("|".join(parts)) if parts else None
