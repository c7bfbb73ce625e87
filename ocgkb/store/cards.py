"""Reads of the cards: their facts by name, which names are real cards, and the
passages that mention one."""

from __future__ import annotations

import sqlite3

from ocgkb.store.database import IN_JSON, KnowledgeBase, json_values


def cards_named(kb: KnowledgeBase, names: list[str]) -> list[sqlite3.Row]:
    """Every stored column of the cards of these names (those that exist)."""
    if not names:
        return []
    return kb.query(f"SELECT * FROM cards WHERE name IN {IN_JSON} ORDER BY name", (json_values(names),))


def known_cards(kb: KnowledgeBase, names: list[str]) -> set[str]:
    """Which of these names are real cards."""
    return {r["name"] for r in cards_named(kb, names)}


def mentioned_cards(kb: KnowledgeBase) -> list[sqlite3.Row]:
    """The cards the texts mention (not the 14k of the card facts), by name."""
    return kb.query("SELECT * FROM cards WHERE mentions > 0 ORDER BY name")


def mentioned_card_count(kb: KnowledgeBase) -> int:
    return kb.query("SELECT count(*) FROM cards WHERE mentions > 0")[0][0]


def passages_mentioning(kb: KnowledgeBase, card: str, limit: int) -> dict[str, str | None]:
    """The passages that mention a card, each with its newest date (the date the
    texts give for this card where a passage dates several): dated ones newest
    first, then the undated, in the order of the texts."""
    rows = kb.query(
        """SELECT pc.passage_id,
                  coalesce(max(CASE WHEN d.card = pc.card THEN d.date END), max(d.date)) AS newest
           FROM passage_cards pc
           LEFT JOIN dates d ON d.passage_id = pc.passage_id
           JOIN passages p ON p.id = pc.passage_id
           WHERE pc.card = ?
           GROUP BY pc.passage_id
           ORDER BY newest IS NULL, newest DESC, p.rowid
           LIMIT ?""",
        (card, limit),
    )
    return {r[0]: r[1] for r in rows}


def cards_by_password(kb: KnowledgeBase, passwords: list[str]) -> dict[str, sqlite3.Row]:
    """The card each of these passwords prints, an alternate artwork's password
    (`alt_passwords`, comma-separated) included; a password no card has is left out."""
    wanted = set(passwords)
    if not wanted:
        return {}
    found = {
        str(row["password"]): row
        for row in kb.query(f"SELECT * FROM cards WHERE password IN {IN_JSON}", (json_values(wanted),))
    }
    missing = wanted - found.keys()
    if missing:  # alternate artworks are a comma-separated column: scanned only when needed
        for row in kb.query(
            """SELECT * FROM cards WHERE alt_passwords IS NOT NULL AND EXISTS (
                   SELECT 1 FROM json_each(?) j WHERE ',' || alt_passwords || ',' LIKE '%,' || j.value || ',%')
                ORDER BY name""",
            (json_values(missing),),
        ):
            for password in row["alt_passwords"].split(","):
                if password in missing:
                    found.setdefault(password, row)
    return found


def card_with_password(kb: KnowledgeBase, password: int) -> str | None:
    """The card printed with this password, as its main or an alternate artwork's."""
    row = cards_by_password(kb, [str(password)]).get(str(password))
    return row["name"] if row else None
