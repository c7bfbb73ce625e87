"""`ocgkb read`: a card's effect text read as a judge reads it (text/card_text.py),
with the card's type from its facts when it is named, and each cited passage's
place in the texts."""

from __future__ import annotations

from ocgkb import NotFound, UsageError
from ocgkb.messages import no_such_card
from ocgkb.store.cards import card_with_password, cards_named
from ocgkb.store.database import KnowledgeBase
from ocgkb.store.passages import passage_hits
from ocgkb.store.schema import MAX_CARD_TEXT
from ocgkb.text.card_text import language_of, read_card_text

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
    """A card text that cannot be read: empty, binary, far too long, or no effect at all."""


# A card text's most bytes: UTF-8 spends at most four on a character.
MAX_CARD_BYTES = 4 * MAX_CARD_TEXT


def card_text_from(data: bytes) -> str:
    """A card text given as bytes (standard input, a file), refused in one line
    when it is longer than a card text can be, binary or not UTF-8."""
    if len(data) > MAX_CARD_BYTES:
        raise ReadError(
            f"the card text is longer than {MAX_CARD_TEXT} characters; at most {MAX_CARD_TEXT} are read"
        )
    if b"\0" in data:
        raise ReadError("the card text is binary data (it holds NUL bytes), not a text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ReadError("the card text is not valid UTF-8") from None


def read_view(kb: KnowledgeBase, text: str, card: str | None = None) -> dict:
    """The reading of TEXT, as the card named (by any name or password) has it:
    Chinese, Japanese or English, each as far as its conventions allow."""
    text = text.strip()
    if not text:
        raise ReadError("the card text is empty")
    if len(text) > MAX_CARD_TEXT:
        raise ReadError(f"the card text is {len(text):,} characters long; at most {MAX_CARD_TEXT} are read")
    facts = _card(kb, card) if card is not None else None
    reading = read_in_its_language(text, facts["kind"] if facts else None)
    if not reading["effects"]:
        raise ReadError("no card effect found in the text: nothing it says reads as a card's effect")
    reading["card"] = facts
    reading["sources"] = _sources(kb, reading["effects"])
    return reading


def read_in_its_language(text: str, card_kind: str | None) -> dict:
    """The text read in its language: Chinese by its reader, Japanese and English
    by their markers (imported only for a text in that language)."""
    language = language_of(text)
    if language == "zh":
        return read_card_text(text, card_kind)
    from ocgkb.text.card_text_markers import read_marked

    if language == "ja":
        from ocgkb.text.card_text_ja import MARKERS
    else:
        from ocgkb.text.card_text_en import MARKERS
    return read_marked(text, card_kind, MARKERS)


def _card(kb: KnowledgeBase, query: str) -> dict:
    """The card's name, password and the kind its type and property make."""
    if not query.strip():
        raise ReadError("--card needs a card's name or password")
    # A password (an imported text's card) is read by the index; the fuzzy lookup
    # only when a card is named.
    query = query.strip()
    name = card_with_password(kb, int(query)) if query.isascii() and query.isdigit() else None
    if name is None:
        from ocgkb.query.lookup import MIN_SCORE, SUGGEST_SCORE, look_up_card

        scored = look_up_card(kb, query).scored
        matches = [m for m in scored if m.score >= MIN_SCORE]
        if not matches:  # the nearest names, as the card page and the API give them
            suggestions = [m.name for m in scored if m.score >= SUGGEST_SCORE][:5]
            raise NotFound(no_such_card(query), detail={"query": query, "suggestions": suggestions})
        name = matches[0].name
    row = cards_named(kb, [name])[0]
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
