"""`concept`: a rule concept with its defining clauses, relations and rulings."""

from __future__ import annotations

import json

from ocgkb.query.lookup import find_concept
from ocgkb.store.database import KnowledgeBase
from ocgkb.store.passages import passage_hits


def concept_view(kb: KnowledgeBase, name: str, rulings: int = 10) -> dict:
    row = find_concept(kb, name)
    sections = json.loads(row["sections"])
    defining = []
    for number in sections:
        defining += [
            r[0]
            for r in kb.query(
                "SELECT p.id FROM passages p JOIN passage_concepts pc ON pc.passage_id = p.id "
                "WHERE p.section = ? AND pc.concept = ? AND p.kind = 'clause' ORDER BY p.rowid",
                (number, row["id"]),
            )
        ]
    if not defining:  # no defining section: the passages that name it, rule clauses first
        defining = [
            r[0]
            for r in kb.query(
                """SELECT p.id FROM passages p JOIN passage_concepts pc ON pc.passage_id = p.id
               WHERE pc.concept = ? AND pc.how = 'text' AND p.dup_of IS NULL
               ORDER BY CASE p.kind WHEN 'clause' THEN 0 WHEN 'ruling' THEN 1 WHEN 'subitem' THEN 2
                        WHEN 'paragraph' THEN 3 ELSE 4 END, p.rowid
               LIMIT 8""",
                (row["id"],),
            )
        ]
    definitions = [hit.as_dict() for hit in passage_hits(kb, defining)]
    related = _related(kb, row)
    ruling_rows = kb.query(
        """SELECT p.id, max(d.date) AS newest FROM passages p
           JOIN passage_concepts pc ON pc.passage_id = p.id AND pc.how = 'text'
           JOIN dates d ON d.passage_id = p.id
           WHERE pc.concept = ? GROUP BY p.id ORDER BY newest DESC, p.rowid LIMIT ?""",
        (row["id"], rulings),
    )
    count = kb.query("SELECT count(*) FROM passage_concepts WHERE concept = ?", (row["id"],))[0][0]
    return {
        "id": row["id"],
        "name_zh": row["name_zh"],
        "name_en": row["name_en"],
        "zh": json.loads(row["zh"]),
        "en": json.loads(row["en"]),
        "aliases": json.loads(row["aliases"]),
        "sections": sections,
        "definitions": definitions,
        "related": related,
        "rulings": [hit.as_dict() for hit in passage_hits(kb, [r[0] for r in ruling_rows])],
        "passages": count,
    }


def concept_names(kb: KnowledgeBase) -> dict[str, str]:
    """Every concept's Chinese name by its id, for labelling tags."""
    return {r["id"]: r["name_zh"] for r in kb.query("SELECT id, name_zh FROM concepts")}


def _related(kb: KnowledgeBase, row) -> list[dict]:
    """The concepts this one names as related, and those that name it."""
    related_ids = set(json.loads(row["related"]))
    related_ids |= {
        r[0].split(":", 1)[1]
        for r in kb.query(
            "SELECT src FROM links WHERE dst = ? AND relation = 'related_concept'", (f"concept:{row['id']}",)
        )
    }
    if not related_ids:
        return []
    marks = ",".join("?" * len(related_ids))
    return [
        dict(r)
        for r in kb.query(
            f"SELECT id, name_zh, name_en FROM concepts WHERE id IN ({marks}) ORDER BY id",
            tuple(sorted(related_ids)),
        )
    ]
