"""Reads of the card names the build stored: every name form of a card (its
names, nicknames, pinyin, initials), their n-grams, the pinyin of characters,
and the forms a question is scanned for (`question_names`)."""

from __future__ import annotations

from ocgkb.store.database import IN_JSON, KnowledgeBase, json_values


def cards_by_form(kb: KnowledgeBase, forms: list[str]) -> list[tuple[str, str]]:
    """(card, how) of every card with one of these name forms."""
    marks = ",".join("?" * len(forms))
    return [
        (r["card"], r["how"])
        for r in kb.query(f"SELECT card, how FROM card_names WHERE form IN ({marks})", forms)
    ]


def mentions(kb: KnowledgeBase, cards: list[str]) -> dict[str, int]:
    """How many passages mention each card."""
    marks = ",".join("?" * len(cards))
    return dict(kb.query(f"SELECT name, mentions FROM cards WHERE name IN ({marks})", cards))


def forms_sharing(kb: KnowledgeBase, grams: list[str], need: int) -> list[tuple[str, str, str]]:
    """(form, card, how) of the name forms holding at least `need` of these n-grams."""
    return [
        (r["form"], r["card"], r["how"])
        for r in kb.query(
            f"""SELECT n.form, n.card, n.how FROM card_names n JOIN (
                   SELECT form_id FROM card_grams WHERE gram IN {IN_JSON}
                   GROUP BY form_id HAVING count(*) >= ?) g ON g.form_id = n.id""",
            (json_values(grams), need),
        )
    ]


def pinyin_of(kb: KnowledgeBase, chars: list[str]) -> dict[str, str]:
    """The pinyin of each of these characters (those without are left out)."""
    return dict(
        kb.query(f"SELECT char, pinyin FROM char_pinyin WHERE char IN {IN_JSON}", (json_values(chars),))
    )


def cards_read_as(kb: KnowledgeBase, spoken: str) -> list[str]:
    """The cards whose name reads as this pinyin."""
    return [
        r["card"]
        for r in kb.query("SELECT card FROM card_names WHERE form = ? AND how = 'pinyin'", (spoken,))
    ]


def best_named(kb: KnowledgeBase, forms: list[str], hows: tuple[str, ...]) -> list[tuple[str, str, int]]:
    """(form, card, mentions) of the card most mentioned in the texts with one of
    these forms as one of these kinds of name; empty when none has."""
    marks = ",".join("?" * len(forms))
    return [
        (r["form"], r["card"], r["mentions"])
        for r in kb.query(
            f"""SELECT n.form, n.card, c.mentions FROM card_names n JOIN cards c ON c.name = n.card
                WHERE n.form IN ({marks}) AND n.how IN ({",".join("?" * len(hows))})
                ORDER BY c.mentions DESC, n.card LIMIT 1""",
            (*forms, *hows),
        )
    ]


def question_names(kb: KnowledgeBase, forms: list[str], script: str) -> list[tuple[str, str, int, int]]:
    """(form, card, mentions, single) of the names a question is scanned for, in one
    script ("zh" or "en"), among these forms, the most mentioned card first."""
    if not forms:
        return []
    return [
        (r["form"], r["card"], r["mentions"], r["single"])
        for r in kb.query(
            f"""SELECT form, card, mentions, single FROM question_names
                WHERE form IN {IN_JSON} AND script = ? ORDER BY mentions DESC, card""",
            (json_values(forms), script),
        )
    ]


def forms_beginning(kb: KnowledgeBase, prefix: str, how: str) -> list[tuple[str, str, str]]:
    """(form, card, how) of the name forms of one kind that begin with a prefix:
    a range of the form index (U+10FFFF sorts after every character that may follow)."""
    return [
        (r["form"], r["card"], r["how"])
        for r in kb.query(
            "SELECT form, card, how FROM card_names WHERE form >= ? AND form < ? AND how = ?",
            (prefix, prefix + "\U0010ffff", how),
        )
    ]
