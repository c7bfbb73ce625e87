"""Every name of every card, and which card a name the texts write stands for.

A name in 「」 is linked to a card of the card facts by, in order:

1. `exact`: it is the card's ygopro or official Chinese name as written;
2. `loose`: it is one after small normalisations (width, script, spaces, the dots
   ・ · •, hyphens, 之 for 的);
3. `alias`: kb/card_aliases.yaml says which card the texts mean by it.

A name that links to no card is a card only when kb/card_aliases.yaml lists it
as a real card the data lacks (`unlinked`, with the reason); a name many card
names contain is an archetype (元素英雄, 魔导书); anything else is not a card.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ocgkb import OntologyError
from ocgkb.sources.card_facts import CardFact
from ocgkb.sources.curated import read_mapping
from ocgkb.text.name_forms import loose_form


@dataclass(frozen=True)
class CardAliases:
    """kb/card_aliases.yaml: the texts' own names for cards the data writes otherwise,
    and the real cards the texts name that the data lacks."""

    aliases: dict[str, int] = field(default_factory=dict)  # name as the texts write it → password
    unlinked: dict[str, str] = field(default_factory=dict)  # name → why it has no password
    nicknames: dict[str, int] = field(default_factory=dict)  # players' name → password

    @classmethod
    def load(cls, kb_dir: Path) -> CardAliases:
        def read(name: str) -> dict:
            return read_mapping(kb_dir / name, missing_ok=True)

        def passwords(data: dict, key: str, file: str) -> dict[str, int]:
            table = data.get(key) or {}
            if not isinstance(table, dict):
                raise OntologyError(f"kb/{file}: {key} must map names to passwords")
            bad = [k for k, v in table.items() if not isinstance(v, int) or isinstance(v, bool)]
            if bad:
                raise OntologyError(f"kb/{file}: {key}: {bad[0]!r} needs an integer password")
            return {str(k): int(v) for k, v in table.items()}

        aliases = read("card_aliases.yaml")
        unlinked = aliases.get("unlinked") or {}
        if not isinstance(unlinked, dict):
            raise OntologyError("kb/card_aliases.yaml: unlinked must map names to reasons")
        return cls(
            passwords(aliases, "aliases", "card_aliases.yaml"),
            {str(k): str(v) for k, v in unlinked.items()},
            passwords(read("card_nicknames.yaml"), "nicknames", "card_nicknames.yaml"),
        )


@dataclass(frozen=True)
class Link:
    password: int
    how: str  # exact, loose, alias


class CardIndex:
    """The card facts by every Chinese spelling, for linking the texts' names."""

    def __init__(
        self, facts: Iterable[CardFact], normalize: Callable[[str], str], aliases: CardAliases
    ) -> None:
        self.facts = {f.password: f for f in facts}
        self.normalize = normalize
        self.aliases = aliases
        self._loose_memo: dict[str, str] = {}
        self._joined: str | None = None
        self._normal_memo: dict[str, str] = {}
        self._normalize_all(
            name
            for fact in self.facts.values()
            for name in (fact.name_zh_ygopro, fact.name_zh_official, fact.name_ja, fact.name_ja_reading)
            if name
        )
        self._exact: dict[str, int] = {}
        self._loose: dict[str, set[int]] = defaultdict(set)
        for fact in self.facts.values():
            for name in (fact.name_zh_ygopro, fact.name_zh_official):
                if name:
                    self._exact.setdefault(name, fact.password)
                    self._loose[self.loose(name)].add(fact.password)
        self._alias = {self.loose(name): pw for name, pw in aliases.aliases.items()}
        self._unlinked = {self.loose(name): reason for name, reason in aliases.unlinked.items()}
        self._password_of = {pw: pw for f in self.facts.values() for pw in (f.password, *f.alt_passwords)}
        for f in self.facts.values():
            for alt in f.alt_passwords:
                self._password_of[alt] = f.password

    def _normalize_all(self, names: Iterable[str]) -> None:
        """Normalise many names in one pass: OpenCC's cost is per call, not per character,
        and no conversion reaches across the line breaks that join them."""
        todo = sorted({n for n in names if "\n" not in n} - self._normal_memo.keys())
        if todo:
            self._normal_memo.update(zip(todo, self.normalize("\n".join(todo)).split("\n"), strict=True))

    def search_form(self, name: str) -> str:
        """The name normalised (repairs, script, width, case), remembered: a build asks often."""
        form = self._normal_memo.get(name)
        if form is None:
            form = self._normal_memo[name] = self.normalize(name)
        return form

    def loose(self, name: str) -> str:
        form = self._loose_memo.get(name)
        if form is None:
            form = self._loose_memo[name] = loose_form(self.search_form(name))
        return form

    def card(self, password: int) -> CardFact | None:
        """The card of a password, alternate artworks included."""
        main = self._password_of.get(password)
        return self.facts.get(main) if main is not None else None

    def link(self, written: str) -> Link | None:
        """The card a name the texts write stands for, or None."""
        if written in self._exact:
            return Link(self._exact[written], "exact")
        form = self.loose(written)
        if form in self._alias and self.card(self._alias[form]):
            return Link(self.card(self._alias[form]).password, "alias")
        found = self._loose.get(form, set())
        if len(found) == 1:
            return Link(next(iter(found)), "loose")
        return None

    def add_unlinked(self, written: str, reason: str) -> None:
        """A real card the card data lacks (a documentation links it as a card): named, with why."""
        self._unlinked.setdefault(self.loose(written), reason)

    def unlinked_reason(self, written: str) -> str | None:
        """Why a real card the texts name has no password (kb/card_aliases.yaml), or None."""
        return self._unlinked.get(self.loose(written))

    def names_containing(self, written: str, at_least: int = 2) -> int:
        """How many card names contain this one (up to `at_least`): an archetype is in many."""
        form = self.loose(written)
        if len(form) < 2 or "\n" in form:
            return 0
        if self._joined is None:  # every name on a line of its own: one C-level count per question
            self._joined = "\n" + "\n".join(self._loose) + "\n"
        count = self._joined.count(form) - self._joined.count(f"\n{form}\n")
        return min(count, at_least)

    def all_chinese_names(self) -> Iterator[tuple[str, int]]:
        # Aliases first: a card found by one is named as the texts write it.
        """Every (Chinese name, password) the data and the aliases know, as written."""
        for name, password in self.aliases.aliases.items():
            if self.card(password):
                yield name, self.card(password).password
        for fact in self.facts.values():
            for name in (fact.name_zh_ygopro, fact.name_zh_official):
                if name and len(self._loose[self.loose(name)]) == 1:
                    yield name, fact.password
