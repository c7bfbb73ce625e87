"""The card texts a user brings from their own ygopro cards.cdb (store/card_texts.py):
`cards import`, `cards status` and `cards forget`; a card's text with its reading
for `card`; and the readings a question calls for in `ask`, of a text it quotes
or of a card it names whose text was imported."""

from __future__ import annotations

import os

from ocgkb import OcgkbError, UsageError
from ocgkb.messages import NO_CARD_TEXT
from ocgkb.paths import card_texts_path
from ocgkb.store import card_texts
from ocgkb.store.card_texts import CardTextsError
from ocgkb.store.database import KnowledgeBase
from ocgkb.text.quotes import quoted_card_texts


def import_texts(path: str) -> dict:
    """`{"count", "source", "path"}`: the texts of a cards.cdb kept for the user,
    replacing any imported before."""
    if not path.strip():
        raise UsageError("cards import: an empty path")
    rows = card_texts.read_cdb(path)
    target = card_texts_path()
    return {"count": card_texts.write_texts(rows, path, target), "source": path, "path": target}


def texts_status() -> dict:
    """`{"path", "count", "source"}`, and `"problem"` when the file is damaged."""
    path = card_texts_path()
    try:
        imported = card_texts.read_imported(path, [])
    except CardTextsError as exc:
        return {"path": path, "count": 0, "source": None, "problem": str(exc)}
    if imported is None:
        return {"path": path, "count": 0, "source": None}
    return {"path": path, "count": imported.count, "source": imported.source}


def forget_texts() -> dict:
    """`{"path", "forgot"}`: the imported texts deleted, and whether there were any."""
    path = card_texts_path()
    return {"path": path, "forgot": card_texts.forget(path)}


def effect_text(kb: KnowledgeBase, password: int | None) -> dict:
    """A card's imported text with its reading, `{"text", "source", "reading"}`
    (`reading` None and `reason` when the reader refuses the text); or
    `{"text": None, "hint"}` when none was imported for it (and `warning` when
    the imported texts are damaged)."""
    try:
        imported = _imported([] if password is None else [password])
    except CardTextsError as exc:
        return {"text": None, "hint": NO_CARD_TEXT, "warning": str(exc)}
    if imported is None or password not in imported.texts:
        return {"text": None, "hint": NO_CARD_TEXT}
    text = imported.texts[password]
    reading, reason = _read(kb, text, password)
    return {
        "text": text,
        "source": imported.source,
        "reading": reading,
        **({"reason": reason} if reason else {}),
    }


def question_readings(kb: KnowledgeBase, question: str, cards: list[dict]) -> tuple[list[dict], list[str]]:
    """The readings a question calls for, `[{"card", "from", "reading"}]`: each text
    it quotes ("quoted", as the one card it names outside the quote has it), then each card it names
    whose text was imported ("imported"); and a warning when those are damaged."""
    known = [card for card in cards if card.get("password") is not None]
    readings = []
    for text in quoted_card_texts(question):
        whose = _whose(text, known)
        reading, _ = _read(kb, text, whose and whose["password"])
        if reading:
            readings.append(_entry(whose, "quoted", reading))
    try:
        imported = _imported([card["password"] for card in known])
    except CardTextsError as exc:
        return readings, [str(exc)]
    for card in known:
        if imported and card["password"] in imported.texts:
            reading, _ = _read(kb, imported.texts[card["password"]], card["password"])
            if reading:
                readings.append(_entry(card, "imported", reading))
    return readings, []


def _whose(text: str, cards: list[dict]) -> dict | None:
    """The card a quoted text is of: the one card the question names outside it (a
    card the text itself names, 「黑魔术师」 in 把1只「黑魔术师」加入手卡, is not its owner)."""
    outside = [
        c for c in cards if not any(n and n in text for n in (c["name"], *c.get("names", {}).values()))
    ]
    return outside[0] if len(outside) == 1 else None


def _imported(passwords: list[int] | None) -> card_texts.Imported | None:
    """The imported texts of these cards; no file opened when none is there or none is asked."""
    path = card_texts_path()
    return card_texts.read_imported(path, passwords) if passwords and os.path.exists(path) else None


def _read(kb: KnowledgeBase, text: str, password: int | None) -> tuple[dict | None, str | None]:
    """`read_view` of a text as a card has it, or None and the reason it is not read."""
    from ocgkb.views.read import read_view  # the reader only when there is a text to read

    try:
        return read_view(kb, text, None if password is None else str(password)), None
    except OcgkbError as exc:  # empty, too long, not Chinese
        return None, str(exc)


def _entry(card: dict | None, source: str, reading: dict) -> dict:
    named = {"name": card["name"], "password": card["password"]} if card else None
    return {"card": named, "from": source, "reading": reading}
