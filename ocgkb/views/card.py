"""`card`: the card a name most likely means, its facts in every language, and
the passages that mention it, newest ruling first."""

from __future__ import annotations

from ocgkb.query.lookup import MIN_SCORE, suggest_cards
from ocgkb.query.ranking import passage_hits
from ocgkb.store.database import KnowledgeBase

MOST_PASSAGES = 200  # passages a card's page lists at most
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
    if not names:
        return {}
    marks = ",".join("?" * len(names))
    facts = {}
    for row in kb.query(f"SELECT * FROM cards WHERE name IN ({marks})", names):
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


def card_view(kb: KnowledgeBase, query: str, limit: int = 20) -> dict:
    """The matches for a name (best first, each with its facts) and the passages
    that mention the best one: dated ones newest first, by the date the texts give
    for this card where a passage dates several."""
    close = suggest_cards(kb, query, limit=10)
    matches = [m for m in close if m.score >= MIN_SCORE][:5]
    facts = card_facts(kb, [m.name for m in matches])
    view: dict = {
        "query": query,
        "matches": [{**m.as_dict(), **facts.get(m.name, {})} for m in matches],
        "rulings": [],
    }
    if not matches:
        view["suggestions"] = [m.name for m in close[:5]]
        return view
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
        (matches[0].name, limit),
    )
    newest = {r[0]: r[1] for r in rows}
    view["rulings"] = [{**hit.as_dict(), "date": newest[hit.id]} for hit in passage_hits(kb, list(newest))]
    return view
