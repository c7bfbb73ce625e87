"""Reads of the rule concepts: their names, the sections that define them, the
concepts related to them, and the passages about them. A concept's defining
sections and related concepts are its `links` rows, read only there."""

from __future__ import annotations

import json
import sqlite3

from ocgkb.sources.ontology import Ontology
from ocgkb.store.database import IN_JSON, KnowledgeBase, json_values
from ocgkb.store.schema import DEFINED_IN, DEFINING_ORDER, RELATED_CONCEPT


def concept_names(kb: KnowledgeBase) -> dict[str, str]:
    """Every concept's Chinese name by its id."""
    return {r["id"]: r["name_zh"] for r in kb.query("SELECT id, name_zh FROM concepts")}


def all_concepts(kb: KnowledgeBase) -> list[sqlite3.Row]:
    """Every concept's id, names, and names in Chinese and English (JSON lists), by id."""
    return kb.query("SELECT id, name_zh, name_en, zh, en FROM concepts ORDER BY id")


def concepts_by_use(kb: KnowledgeBase) -> list[dict]:
    """Every concept `{"id", "name_zh", "name_en", "passages"}`, those most passages are about first."""
    rows = kb.query(
        """SELECT c.id, c.name_zh, c.name_en, count(pc.passage_id) AS passages FROM concepts c
           LEFT JOIN passage_concepts pc ON pc.concept = c.id
           GROUP BY c.id ORDER BY passages DESC, c.id"""
    )
    return [dict(r) for r in rows]


def defining_sections(kb: KnowledgeBase, concept_id: str) -> list[str]:
    """The numbers of the sections that define a concept, in the ontology's order."""
    rows = kb.query(
        "SELECT dst FROM links WHERE src = ? AND relation = ? ORDER BY rowid",
        (f"concept:{concept_id}", DEFINED_IN),
    )
    return [r[0].removeprefix("section:") for r in rows]


def concepts_defined_in(kb: KnowledgeBase, number: str) -> list[dict]:
    """The concepts a section defines, `{"id", "name_zh", "name_en"}` by id."""
    rows = kb.query(
        """SELECT DISTINCT c.id, c.name_zh, c.name_en FROM links l JOIN concepts c ON l.src = 'concept:' || c.id
           WHERE l.dst = ? AND l.relation = ? ORDER BY c.id""",
        (f"section:{number}", DEFINED_IN),
    )
    return [dict(r) for r in rows]


def concepts_of_section(kb: KnowledgeBase, number: str) -> list[dict]:
    """The concepts a section's passages name, `{"id", "name_zh", "name_en",
    "passages"}`, those more of its passages name first."""
    rows = kb.query(
        """SELECT c.id, c.name_zh, c.name_en, count(*) AS passages FROM passage_concepts pc
           JOIN concepts c ON c.id = pc.concept JOIN passages p ON p.id = pc.passage_id
           WHERE p.section = ? AND pc.how = 'text' GROUP BY c.id ORDER BY passages DESC, c.id""",
        (number,),
    )
    return [dict(r) for r in rows]


def related_concepts(kb: KnowledgeBase, concept_id: str) -> list[dict]:
    """The concepts this one names as related and those that name it, `{"id",
    "name_zh", "name_en"}` by id."""
    node = f"concept:{concept_id}"
    rows = kb.query(
        """SELECT id, name_zh, name_en FROM concepts WHERE 'concept:' || id IN (
               SELECT dst FROM links WHERE src = :node AND relation = :relation
               UNION SELECT src FROM links WHERE dst = :node AND relation = :relation)
           ORDER BY id""",
        {"node": node, "relation": RELATED_CONCEPT},
    )
    return [dict(r) for r in rows]


def defining_clauses(kb: KnowledgeBase, concept_id: str) -> list[str]:
    """The clauses of its defining sections that name a concept, section by section."""
    ids: list[str] = []
    for number in defining_sections(kb, concept_id):
        ids += [
            r[0]
            for r in kb.query(
                "SELECT p.id FROM passages p JOIN passage_concepts pc ON pc.passage_id = p.id "
                "WHERE p.section = ? AND pc.concept = ? AND p.kind = 'clause' ORDER BY p.rowid",
                (number, concept_id),
            )
        ]
    return ids


def passages_naming(kb: KnowledgeBase, concept_id: str, limit: int = 8) -> list[str]:
    """The passages whose text names a concept (no repeats), rule clauses first (DEFINING_ORDER)."""
    rank = " ".join(f"WHEN '{kind}' THEN {i}" for i, kind in enumerate(DEFINING_ORDER))
    rows = kb.query(
        f"""SELECT p.id FROM passages p JOIN passage_concepts pc ON pc.passage_id = p.id
            WHERE pc.concept = ? AND pc.how = 'text' AND p.dup_of IS NULL
            ORDER BY CASE p.kind {rank} ELSE {len(DEFINING_ORDER)} END, p.rowid
            LIMIT ?""",
        (concept_id, limit),
    )
    return [r[0] for r in rows]


def newest_rulings(kb: KnowledgeBase, concept_id: str, limit: int) -> list[str]:
    """The dated passages whose text names a concept, newest first."""
    rows = kb.query(
        """SELECT p.id, max(d.date) AS newest FROM passages p
           JOIN passage_concepts pc ON pc.passage_id = p.id AND pc.how = 'text'
           JOIN dates d ON d.passage_id = p.id
           WHERE pc.concept = ? GROUP BY p.id ORDER BY newest DESC, p.rowid LIMIT ?""",
        (concept_id, limit),
    )
    return [r[0] for r in rows]


def rulings_about(kb: KnowledgeBase, concept_ids: list[str], limit: int) -> list[str]:
    """The dated rulings (not rulebook passages) whose text names these concepts,
    those naming more of them first, then newest first."""
    if not concept_ids:
        return []
    rows = kb.query(
        f"""SELECT p.id, max(d.date) AS newest FROM passages p
            JOIN passage_concepts pc ON pc.passage_id = p.id AND pc.how = 'text'
            JOIN dates d ON d.passage_id = p.id
            WHERE pc.concept IN {IN_JSON} AND p.doc != 'rulebook'
            GROUP BY p.id ORDER BY count(DISTINCT pc.concept) DESC, newest DESC, p.rowid LIMIT ?""",
        (json_values(concept_ids), limit),
    )
    return [r[0] for r in rows]


def passage_count(kb: KnowledgeBase, concept_id: str) -> int:
    """How many passages are about a concept, named or by context."""
    return kb.query("SELECT count(*) FROM passage_concepts WHERE concept = ?", (concept_id,))[0][0]


def ontology(kb: KnowledgeBase) -> Ontology:
    """The ontology as the knowledge base stores it, read once per open knowledge
    base (kb.memo): SQLite gathers the concepts table into one JSON document, read
    with a single json.loads (not one per cell)."""
    return kb.memo("store.concepts.ontology", lambda: _read_ontology(kb))


def _read_ontology(kb: KnowledgeBase) -> Ontology:
    fields = ("en", "zh", "aliases", "forms", "keys", "not_in")
    pairs = ", ".join(f"'{f}', json(coalesce({f}, 'null'))" for f in fields)
    sql = f"SELECT json_group_array(json_object('id', id, {pairs})) FROM (SELECT * FROM concepts ORDER BY id)"
    return Ontology.from_rows(json.loads(kb.query(sql)[0][0] or "[]"), kb.normalize)


def concept_row(kb: KnowledgeBase, concept_id: str) -> dict:
    """Every stored column of one concept."""
    return dict(kb.query("SELECT * FROM concepts WHERE id = ?", (concept_id,))[0])


def concept_labels(kb: KnowledgeBase) -> dict[str, str]:
    """Each concept's id with its English and Chinese names, by id."""
    rows = kb.query("SELECT id, name_en, name_zh FROM concepts ORDER BY id")
    return {row["id"]: f"{row['id']} {row['name_en']} {row['name_zh']}" for row in rows}
