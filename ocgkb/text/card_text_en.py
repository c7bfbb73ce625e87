"""An English card text's markers (text/card_text_markers.py reads with them),
in Problem-Solving Card Text: the condition before ':', the cost and the target
between 'You can' and ';', "If" / "When", "(Quick Effect)", "FLIP:", "Once per
turn", and the limits by card name ('You can only use this effect of "X" once
per turn', 'You can only activate 1 "X" per turn')."""

from __future__ import annotations

import re

from ocgkb.text.card_text_markers import Markers, header_limit

ANY_CASE = re.IGNORECASE
CARD_NAME_ONCE = re.compile(r'You can only use [^.]*?"[^"]*"[^.]*?per turn', ANY_CASE)
# "the 1st effect", "the second effect": the numbered effects a limit names, as ①②.
ORDINALS = {"1st": "①", "first": "①", "2nd": "②", "second": "②", "3rd": "③", "third": "③"}
ACTIVATIONS_ONCE = re.compile(r'You can only activate 1 "[^"]*" per turn', ANY_CASE)
SUMMON_CONDITION = re.compile(
    r"Cannot be (?:Normal|Special) Summoned|Must (?:first )?be [^.]*Summoned|"
    r"You can Special Summon this card \(from your [^)]*\) by",
    ANY_CASE,
)
# A sentence that carries on the effect before it.
CARRIES_ON = re.compile(
    r"^(?:Then|Also|It|Its|That|Those|They|Otherwise|This card's|If you do|You must|You cannot"
    r"|For the rest of this turn|Until the end of|After that|Afterwards)\b",
    ANY_CASE,
)


# A translation's effect number: "(1):", "(2)", "①".
NUMBERED = re.compile(r"^(?:\((\d{1,2})\)|([①-⑳]))\s*:?\s*")


def split(text: str) -> tuple[list[tuple[int, str]], dict[int, str]]:
    """One effect a sentence (a sentence that carries on joins the one before),
    numbered 1, 2 … unless the text numbers them itself ((1), ①: a sentence
    without a number then carries on the one before); a summon condition is
    n = 0; the header's limits apart."""
    header: dict[int, str] = {}
    zero, effects, numbers = [], [], []
    for sentence in (s.strip() for s in re.split(r'(?<=[.!])["”]?\s+(?=[A-Z(])|\n', text) if s.strip()):
        named = re.sub(r"\b(1st|first|2nd|second|3rd|third)\b", lambda m: ORDINALS[m[1].lower()], sentence)
        limit = header_limit(named, CARD_NAME_ONCE, ACTIVATIONS_ONCE)
        if limit:
            header.update(limit)
        elif re.match(r"You can only use [^.]*once per Duel", sentence, ANY_CASE):
            continue  # a limit per duel is no once-per-turn limit
        elif SUMMON_CONDITION.search(sentence) and ":" not in sentence:
            zero.append(sentence)
        elif number := NUMBERED.match(sentence):
            numbers.append(int(number[1]) if number[1] else ord(number[2]) - ord("①") + 1)
            effects.append(sentence[number.end() :])
        elif effects and (CARRIES_ON.search(sentence) or numbers):
            effects[-1] += " " + sentence
        else:
            effects.append(sentence)
    pieces = [(0, " ".join(zero))] if zero else []
    if numbers and len(numbers) == len(effects):
        return pieces + list(zip(numbers, effects, strict=True)), header
    return pieces + list(enumerate(effects, 1)), header


def activation(body: str) -> tuple[str, str, bool] | None:
    """The condition before ':' (its time or event, without 'Once per turn'
    or '(Quick Effect)'), the cost-and-target stretch up to ';', and whether
    'You can' makes it optional. An ignition effect has no ':' ("You can …;");
    a sentence with neither ':' nor ';' nor 'You can' is no activated effect."""
    if body.startswith("FLIP:"):  # a flip effect is activated by being flipped, not by its words
        return None
    text = body
    first = text.split(". ")[0]
    if ":" in first:
        before, _, after = text.partition(":")
    elif re.match(r"(?:Once per turn,\s*)?You can\b", text, ANY_CASE) or ";" in first:  # an ignition effect
        before, after = "", re.sub(r"^Once per turn,\s*", "", text, flags=ANY_CASE)
    else:
        return None
    condition = re.sub(
        r"\(Quick Effect\)|Once per turn,?|\(Ignition Effect\)", "", before, flags=ANY_CASE
    ).strip(" ,")
    optional = bool(re.match(r"\s*You can\b", after, ANY_CASE))
    after = re.sub(r"^\s*You can\s*", "", after, flags=ANY_CASE)
    costly = after.partition(";")[0] if ";" in after else ""
    return condition, costly, optional


MARKERS = Markers(
    language="en",
    split=split,
    activation=activation,
    clause=re.compile(r",\s*(?:then\s+)?|\s+and\s+(?=target)", ANY_CASE),
    when=re.compile(r"^When\b|,\s*when\b|^At the (?:start|end) of the Damage Step", ANY_CASE),
    if_=re.compile(r"^If\b|,\s*if\b", ANY_CASE),
    state=re.compile(
        r"^(?:While|If (?:you|your opponent) control|If this card is in your (?:GY|hand))\b[^,]*$", ANY_CASE
    ),
    chain_response=re.compile(r"\bactivates?\b|\bis activated\b|\bwould\b", ANY_CASE),
    cost=re.compile(r"^(?:discard|Tribute|pay|banish|send|detach|reveal|shuffle|return)\b", ANY_CASE),
    target=re.compile(r"\btarget\b", ANY_CASE),
    quick=re.compile(
        r"\(Quick Effect\)|opponent's turn|opponent's Main Phase|during the Battle Phase|(?<!after )damage calculation"
        r"|during either player's turn",
        ANY_CASE,
    ),
    phase=re.compile(r"Standby Phase|End Phase|after damage calculation", ANY_CASE),
    flip=re.compile(r"^FLIP:"),
    summon_condition=SUMMON_CONDITION,
    card_name_once=CARD_NAME_ONCE,
    this_card_once=re.compile(r"\bOnce per turn\b", ANY_CASE),
    card_words=re.compile(
        r"\b(?:cards?|monsters?|Summon\w*|attack\w*|ATK|DEF|destroy\w*|turn|LP|GY|banish\w*|draw\w*|damage"
        r"|target|equip\w*|Phase|Tribute|Spell|Trap|effects?)\b",
        ANY_CASE,
    ),
    not_read=(
        "English: read as Problem-Solving Card Text (the condition before ':', the cost and target "
        "before ';', If / When, (Quick Effect), FLIP:, Once per turn); not read: older texts without "
        "that punctuation, and a limit by card name on 'this effect' is put on every effect (the 1st, 2nd … "
        "are read)."
    ),
    not_read_zh=(
        "英文：按 Problem-Solving Card Text 读（“:”之前是发动条件，“;”之前是 cost 和对象，If / When、"
        "(Quick Effect)、FLIP:、Once per turn）；未读：没有这些标点的旧文本；对“this effect”的同名卡限制"
        "会加在每个效果上（1st、2nd … 能读）。"
    ),
)
