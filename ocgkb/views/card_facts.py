"""A card's facts as a card box shows them: password, names in every language,
type line, stats and how many passages mention it. A plain read, no fuzzy lookup:
`ocgkb ask` shows the cards a question names without loading it."""

from __future__ import annotations

from ocgkb.store.cards import cards_named
from ocgkb.store.database import KnowledgeBase

FACT_FIELDS = (
    "card_type",
    "type_line",
    "property",
    "attribute",
    "level",
    "rank",
    "link_arrows",
    "pendulum_scale",
    "atk",
    "def",
)


def card_facts(kb: KnowledgeBase, names: list[str]) -> dict[str, dict]:
    """The facts of cards by name: password, names in every language, type line, stats."""
    facts = {}
    for row in cards_named(kb, names):
        fact = {
            "password": row["password"],
            "names": {
                "zh": row["name_zh"],
                "zh_official": row["name_zh_official"],
                "en": row["name_en"],
                "ja": row["name_ja"],
                "ja_reading": row["name_ja_reading"],
            },
        }
        fact.update({field: row[field] for field in FACT_FIELDS if row[field] is not None})
        fact["mentions"] = row["mentions"]
        if row["password"] is None:
            fact["unlinked"] = True
        facts[row["name"]] = fact
    return facts
