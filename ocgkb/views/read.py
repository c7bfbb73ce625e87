"""`ocgkb read`: a card's effect text read as a judge reads it (text/card_text.py),
with the card's type from its facts when it is named, and each cited passage's
place in the texts."""

from __future__ import annotations

import re

from ocgkb import NotFound, UsageError
from ocgkb.messages import no_such_card
from ocgkb.store.cards import cards_named
from ocgkb.store.database import KnowledgeBase
from ocgkb.store.passages import passage_hits
from ocgkb.store.schema import MAX_CARD_TEXT
from ocgkb.text.card_text import read_card_text

# The card facts' type and property → the reader's card kind.
CARD_KINDS = {
    ("Spell", "Normal"): "normal_spell",
    ("Spell", "Ritual"): "ritual_spell",
    ("Spell", "Continuous"): "continuous_spell",
    ("Spell", "Field"): "field_spell",
    ("Spell", "Equip"): "equip_spell",
    ("Spell", "Quick-Play"): "quick_play_spell",
    ("Trap", "Normal"): "normal_trap",
    ("Trap", "Continuous"): "continuous_trap",
    ("Trap", "Counter"): "counter_trap",
}


class ReadError(UsageError):
    """A card text that cannot be read: empty or far too long."""


def read_view(kb: KnowledgeBase, text: str, card: str | None = None) -> dict:
    """The reading of TEXT, as the card named (by any name or password) has it."""
    text = text.strip()
    if not text:
        raise ReadError("the card text is empty")
    if len(text) > MAX_CARD_TEXT:
        raise ReadError(f"the card text is {len(text):,} characters long; at most {MAX_CARD_TEXT} are read")
    if re.search(r"[\u3040-\u30ff]", text) or not re.search(r"[\u4e00-\u9fff]", text):
        # Japanese (its kana) and English texts follow conventions of their own, not read yet.
        raise ReadError(
            "only a Chinese card text is read (official or ygopro wording), not Japanese or English"
        )
    facts = _card(kb, card) if card is not None else None
    reading = read_card_text(text, facts["kind"] if facts else None)
    reading["card"] = facts
    reading["sources"] = _sources(kb, reading["effects"])
    return reading


def _card(kb: KnowledgeBase, query: str) -> dict:
    """The card's name, password and the kind its type and property make."""
    if not query.strip():
        raise ReadError("--card needs a card's name or password")
    # The fuzzy lookup only when a card is named.
    from ocgkb.query.lookup import MIN_SCORE, SUGGEST_SCORE, look_up_card

    scored = look_up_card(kb, query).scored
    matches = [m for m in scored if m.score >= MIN_SCORE]
    if not matches:  # the nearest names, as the card page and the API give them
        suggestions = [m.name for m in scored if m.score >= SUGGEST_SCORE][:5]
        raise NotFound(no_such_card(query), detail={"query": query, "suggestions": suggestions})
    row = cards_named(kb, [matches[0].name])[0]
    kind = "monster" if row["card_type"] == "Monster" else CARD_KINDS.get((row["card_type"], row["property"]))
    kind_of = " ".join(filter(None, (row["property"], row["card_type"])))
    return {
        "name": row["name"],
        "password": row["password"],
        "type": row["type_line"] or kind_of,
        "kind": kind,
    }


def _sources(kb: KnowledgeBase, effects: list[dict]) -> dict[str, dict]:
    """Each cited passage's document, topic and line, by id."""
    cited = sorted({pid for effect in effects for pid in effect["cites"]})
    return {
        hit.id: {"topic": hit.topic, "file": hit.source["file"], "line": hit.source["line"]}
        for hit in passage_hits(kb, cited)
    }
