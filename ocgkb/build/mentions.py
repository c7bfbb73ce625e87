"""Which cards and archetypes each passage mentions, decided by the card facts.

Every 「name」 the bracket rule calls a card is linked to a password
(`CardIndex.link`). Spellings of one card are one card, named as the texts
write it most often (a spelling with a corrupted character only when there is
no other). Cards written without 「」 are found by every Chinese name the data
and the aliases know, as whole names.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from ocgkb.build.card_index import CardIndex
from ocgkb.sources.model import Passage
from ocgkb.text.name_forms import scan_form
from ocgkb.text.names import NameRules, NameScanner, bracket_mentions, without_brackets
from ocgkb.text.normalize import Normalizer


@dataclass
class CardMentions:
    cards: dict[str, int | None] = field(default_factory=dict)  # texts' name → password
    how_linked: dict[str, str] = field(default_factory=dict)  # exact, loose, alias, unlinked
    spellings: dict[str, list[str]] = field(default_factory=dict)  # every way the texts write it
    unlinked: dict[str, str] = field(default_factory=dict)  # real card without password → why
    archetypes: set[str] = field(default_factory=set)
    mentions: list[tuple[str, str, str]] = field(default_factory=list)  # (passage, card, bracket|bare)
    archetype_mentions: list[tuple[str, str]] = field(default_factory=list)
    not_cards: Counter = field(default_factory=Counter)  # in 「」 but no card, no archetype
    by_spelling: dict[str, str] = field(default_factory=dict)  # loose spelling → texts' name
    # Each card's name as only some passages write it (the seeds', whatever a
    # documentation added says): the segmentation of those passages depends on no other.
    names_in: Callable[[set[str]], set[str]] = lambda pids: set()
    bare_hits: list[tuple[str, int, str]] = field(default_factory=list)  # (passage, password, as written)

    def name_of(self, written: str, index: CardIndex) -> str | None:
        """The card a spelling in the texts stands for, if it is a card."""
        return self.by_spelling.get(index.loose(written))


def _decide_spellings(
    found: list[tuple[str, str, str]], index: CardIndex, result: CardMentions
) -> tuple[dict[str, object], dict[object, Counter]]:
    """Decide each spelling once: which card (a password, or a real card the data
    lacks), a set of cards (None), or no card at all (False)."""
    key_of: dict[str, object] = {}
    written_counts: dict[object, Counter] = defaultdict(Counter)
    for _, written, kind in found:
        if kind == "archetype":
            continue
        if written not in key_of:
            link = index.link(written)
            if link:
                key_of[written] = link.password
                result.how_linked.setdefault(f"#{link.password}", link.how)
            elif reason := index.unlinked_reason(written):
                key_of[written] = index.loose(written)
                result.unlinked.setdefault(index.loose(written), reason)
            elif index.names_containing(written) >= 2:
                key_of[written] = None
            else:
                key_of[written] = False
        if key_of[written]:
            written_counts[key_of[written]][written] += 1
    return key_of, written_counts


def _display_name(index: CardIndex, normalize: Normalizer) -> Callable[[object, Counter], str]:
    def display(key: object, counts: Counter) -> str:
        """A card's name: its commonest spelling with no corrupted character."""
        clean = [w for w, _ in counts.most_common() if not normalize.repaired_count(w)]
        fact = index.card(key) if isinstance(key, int) else None
        return clean[0] if clean else (fact.display_name if fact else counts.most_common(1)[0][0])

    return display


def _names_in(found, key_of: dict, result: CardMentions, display) -> Callable[[set[str]], set[str]]:
    def names_in(pids: set[str]) -> set[str]:
        """The cards these passages name: in 「」 as they write them, and bare by a card
        of the card data (so that another document's names change nothing here)."""
        counts: dict[object, Counter] = defaultdict(Counter)
        for pid, written, kind in found:
            if pid in pids and kind != "archetype" and key_of.get(written):
                counts[key_of[written]][written] += 1
        bare: dict[int, str] = {}  # a card of the data named bare, as these passages first write it
        for pid, password, written in result.bare_hits:
            if pid in pids and password not in counts:
                bare.setdefault(password, written)
        return {display(key, written) for key, written in counts.items()} | set(bare.values())

    return names_in


def collect_mentions(
    passages: list[Passage],
    search_text: dict[str, str],
    rules: NameRules,
    index: CardIndex,
    normalize: Normalizer,
) -> CardMentions:
    result = CardMentions()
    found: list[tuple[str, str, str]] = []  # (passage, written, bracket kind)
    for p in passages:
        found += [
            (p.id, m.name, m.kind) for m in bracket_mentions(p.text, rules) if m.kind in ("card", "archetype")
        ]

    key_of, written_counts = _decide_spellings(found, index, result)

    display = _display_name(index, normalize)
    result.names_in = _names_in(found, key_of, result, display)
    names: dict[object, str] = {}
    for key, counts in written_counts.items():
        names[key] = display(key, counts)
        name = names[key]
        result.cards[name] = key if isinstance(key, int) else None
        result.how_linked[name] = (
            result.how_linked.pop(f"#{key}", "unlinked") if isinstance(key, int) else "unlinked"
        )
        result.spellings[name] = sorted(counts)
        if not isinstance(key, int):
            result.unlinked[name] = result.unlinked.pop(key)
        for written in counts:
            result.by_spelling[index.loose(written)] = name

    seen: set[tuple[str, str]] = set()
    archetypes_seen: set[tuple[str, str]] = set()
    for pid, written, kind in found:
        key = key_of.get(written)
        if kind == "archetype" or key is None:
            name = written.strip()
            result.archetypes.add(name)
            if (pid, name) not in archetypes_seen:
                archetypes_seen.add((pid, name))
                result.archetype_mentions.append((pid, name))
        elif key is False:
            result.not_cards[written] += 1
        elif (pid, names[key]) not in seen:
            seen.add((pid, names[key]))
            result.mentions.append((pid, names[key], "bracket"))

    _find_bare(passages, search_text, rules, index, result, names, seen)
    return result


def _find_bare(
    passages, search_text, rules: NameRules, index: CardIndex, result: CardMentions, names: dict, seen: set
) -> None:
    """Cards written without 「」, by every Chinese name the texts or the data know,
    as whole names: the longest name wins where names overlap (杀龙战士 holds 龙战士),
    and a rule term or another 「」 name that holds a card name (灵摆区域 holds 灵摆区)
    or is one (同调素材) is read as the term."""
    normalize = index.search_form
    forms: dict[str, object] = {}
    for name, password in index.all_chinese_names():
        forms.setdefault(scan_form(normalize(name)), (password, name))
    data_names = dict(forms)  # a card of the data as its name is written, whatever 「」 names say
    for name, spellings in result.spellings.items():
        forms.update({scan_form(normalize(written)): name for written in spellings})
    forms.update({scan_form(normalize(term)): None for term in rules.not_cards})
    # Every other name the texts write in 「」 hides the shorter card names inside it.
    for name in [*result.archetypes, *result.not_cards]:
        forms.setdefault(scan_form(normalize(name)), None)
    scanner = NameScanner(forms)
    for p in passages:
        for form in scanner.found(scan_form(without_brackets(search_text[p.id]))):
            key = scanner.key(form)
            if key is None:
                continue
            if isinstance(data_names.get(form), tuple):
                result.bare_hits.append((p.id, *data_names[form]))
            if isinstance(key, tuple):
                password, written = key
                if password not in names:
                    names[password] = written
                    result.cards[written] = password
                    result.how_linked[written] = "bare"
                    result.spellings[written] = [written]
                name = names[password]
                if written not in result.spellings[name]:
                    result.spellings[name].append(written)
            else:
                name = key
            if (p.id, name) not in seen:
                seen.add((p.id, name))
                result.mentions.append((p.id, name, "bare"))
