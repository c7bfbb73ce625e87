"""A card's Japanese or English effect text read from its own markers, with the
Chinese reader's conclusions, citations and notes (text/card_text.py).

Each language says its markers once (text/card_text_ja.py, text/card_text_en.py);
this module holds the reading they share: split the text into effects, find the
stretch before the activation, split it into condition, cost and target, and name
the kind, the timing wording and the once-per-turn limit.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from ocgkb.text.card_text import ACTIVATION_LIMIT, build_effect, finish_reading

Pattern = re.Pattern


class Markers(NamedTuple):
    """What marks each part of an effect in one language."""

    language: str
    # The effects as (n, text) and the header's once-per-turn limits (as card_text._split).
    split: Callable[[str], tuple[list[tuple[int, str]], dict[int, str]]]
    # An effect's activation: (the stretch before it, the cost-and-target stretch, optional) or None.
    activation: Callable[[str], tuple[str, str, bool] | None]
    clause: Pattern  # what separates the clauses of a stretch
    when: Pattern  # an event condition's 'when' wording, at its end
    if_: Pattern  # an 'if' wording
    state: Pattern  # a condition that is a state, not an event
    chain_response: Pattern  # …is activated: chained directly or not at all
    cost: Pattern  # a clause that is a cost
    target: Pattern  # a clause that targets
    quick: Pattern  # a time only a quick effect can use
    phase: Pattern  # a phase or step a trigger waits on
    flip: Pattern
    summon_condition: Pattern
    card_name_once: Pattern
    this_card_once: Pattern
    card_words: Pattern  # words no card text is without: a text with none holds no effect
    not_read: str  # what the reading of this language leaves out, said in its notes
    not_read_zh: str  # the same, as a Chinese page says it


def read_marked(text: str, card_kind: str | None, markers: Markers) -> dict:
    """The reading of a text in the language the markers are for."""
    pieces, header_once = markers.split(text.strip()) if markers.card_words.search(text) else ([], {})
    effects = [_effect(n, body, card_kind, header_once, markers) for n, body in pieces]
    reading = finish_reading(text, card_kind, effects, header_once, markers.language)
    reading["notes"].insert(0, markers.not_read)
    reading["notes_zh"].insert(0, markers.not_read_zh)
    return reading


def _effect(n: int, body: str, card_kind: str | None, header_once: dict[int, str], markers: Markers) -> dict:
    """One effect's reading from the language's markers."""
    activation = markers.activation(body)
    before, costly, optional = activation or ("", "", None)
    clauses = markers.clause.split(costly)
    if not activation and markers.flip.search(body):  # a flip effect's target, before its ';' or 。
        clauses = markers.clause.split(re.split(r"[;。]", body)[0])
    clauses = [c.strip() for c in clauses if c and c.strip()]
    target = next((c for c in clauses if markers.target.search(c)), None)
    cost = [c for c in clauses if c != target and markers.cost.search(c)]
    condition = before.strip(" ,、，") or None
    # A state (…存在する場合) or a quick effect's time (ダメージ計算時) is no event.
    timeless = not condition or markers.state.search(condition) or markers.quick.search(condition)
    event = None if timeless else _wording(condition, markers)
    chain_response = bool(condition and markers.chain_response.search(condition))
    once = markers.card_name_once.search(body) or markers.this_card_once.search(body)
    found = {
        "kind": _kind(body, activation, bool(event), card_kind, markers),
        "condition": condition,
        "cost": (", " if markers.language == "en" else "、").join(cost) or None,
        "target": target,
        "once_per_turn": header_once.get(n) or header_once.get(0) or _once(body, markers),
        # A flip effect is activated: optional only when it says so (You can, できる).
        "optional": optional if activation or not markers.flip.search(body) else _says_optional(body),
        "trigger_wording": None if chain_response or not event else event,
        "limit": once and once.group(0),
    }
    return build_effect(n, body, found, card_kind, chain_response)


def _says_optional(body: str) -> bool:
    """Whether an effect's first sentence says it may be used: 'You can', できる."""
    first = re.split(r"(?<=[.。])\s*", body)[0]
    return bool(re.search(r"\bYou can\b|できる", first, re.IGNORECASE))


def _wording(condition: str, markers: Markers) -> str | None:
    """'when' or 'if' for an event condition, None for none."""
    if markers.when.search(condition):
        return "when"
    return "if" if markers.if_.search(condition) else None


def _kind(body: str, activation, event: bool, card_kind: str | None, markers: Markers) -> str:
    """The effect's kind from its markers, as the Chinese reader decides it."""
    if markers.summon_condition.search(body) and not activation:
        return "summon_condition"
    if markers.flip.search(body):
        return "flip"
    if card_kind not in (None, "monster"):
        return "other" if activation else "continuous"
    if not activation:
        return "continuous"
    if markers.quick.search(body) or (event and markers.chain_response.search(activation[0])):
        return "quick"
    return "trigger" if event or markers.phase.search(activation[0]) else "ignition"


def _once(body: str, markers: Markers) -> str:
    if markers.card_name_once.search(body):
        return "card_name"
    return "this_card" if markers.this_card_once.search(body) else "none"


def header_limit(sentence: str, card_name_once: Pattern, activations_once: Pattern) -> dict[int, str]:
    """The once-per-turn limits a header sentence puts (n → 'card_name'; 0 for
    every effect, ACTIVATION_LIMIT for the card's activation), or none."""
    if activations_once.search(sentence):
        return {ACTIVATION_LIMIT: "card_name"}
    if card_name_once.search(sentence):
        numbers = [ord(c) - ord("①") + 1 for c in sentence if "①" <= c <= "⑳"]
        return dict.fromkeys(numbers or [0], "card_name")
    return {}
