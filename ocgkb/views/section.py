"""`section`: one rulebook section (or ruling topic) with everything linked to it."""

from __future__ import annotations

import json

from ocgkb import NotFound
from ocgkb.store.database import KnowledgeBase, like_literal
from ocgkb.store.passages import passage_hits
from ocgkb.views.replay import scenarios_replaying


def section_view(kb: KnowledgeBase, number: str) -> dict:
    """A rulebook section or ruling topic: its passages, the sections below it, the
    concepts it is about or defines, the dated rulings on them, what refers to it."""
    number = number.strip().removeprefix("§")
    row = _section(kb, number)
    if row is None and kb.query(
        "SELECT 1 FROM sections WHERE number LIKE ? ESCAPE '\\' LIMIT 1", (like_literal(number) + ".%",)
    ):
        return _numbered_below(kb, number)
    if row is None:
        near = [
            r[0]
            for r in kb.query(
                "SELECT number FROM sections WHERE number LIKE ? ESCAPE '\\' ORDER BY ord LIMIT 5",
                (like_literal(number.split(".")[0]) + "%",),
            )
        ]
        hint = f"; sections near it: {', '.join(near)}" if near and "/" not in number else ""
        raise NotFound(f"no section {number!r}{hint}")
    number = row["number"]
    ids = [r[0] for r in kb.query("SELECT id FROM passages WHERE section = ? ORDER BY rowid", (number,))]
    passages = [hit.as_dict() for hit in passage_hits(kb, ids)]
    children = [
        dict(r)
        for r in kb.query("SELECT number, title FROM sections WHERE parent = ? ORDER BY ord", (number,))
    ]
    concepts, defining = _concepts_of(kb, number)
    concept_ids = [c["id"] for c in defining] or [c["id"] for c in concepts[:3]]
    referred = [
        r[0].removeprefix("passage:")
        for r in kb.query(
            "SELECT src FROM links WHERE dst = ? AND relation = 'refers_to' ORDER BY rowid",
            (f"section:{number}",),
        )
    ]
    return {
        "number": number,
        "title": row["title"],
        "doc": row["doc"],
        "breadcrumb": _breadcrumb(kb, number),
        "passages": passages,
        "children": children,
        "tree": _tree(kb, number),
        "concepts": concepts,
        "defines": [{"id": c["id"], "name_zh": c["name_zh"], "name_en": c["name_en"]} for c in defining],
        "rulings": _rulings_about(kb, concept_ids),
        "referred_by": referred,
        "scenarios": scenarios_replaying(kb, [p["id"] for p in passages]),
    }


def _numbered_below(kb: KnowledgeBase, number: str) -> dict:
    """The source has no text for this number (there is no 4), but sections below it."""
    return {
        "number": number,
        "title": "",
        "doc": "rulebook",
        "breadcrumb": [],
        "passages": [],
        "children": [],
        "tree": _tree(kb, number),
        "concepts": [],
        "defines": [],
        "rulings": [],
        "referred_by": [],
        "note": f"the source has no section {number} of its own; these are the sections numbered below it",
        "scenarios": [],
    }


def _concepts_of(kb: KnowledgeBase, number: str) -> tuple[list[dict], list[dict]]:
    """The concepts a section's passages are about, and those it defines."""
    concepts = [
        dict(r)
        for r in kb.query(
            """SELECT c.id, c.name_zh, c.name_en, count(*) AS passages FROM passage_concepts pc
               JOIN concepts c ON c.id = pc.concept JOIN passages p ON p.id = pc.passage_id
               WHERE p.section = ? AND pc.how = 'text' GROUP BY c.id ORDER BY passages DESC, c.id""",
            (number,),
        )
    ]
    defining = [
        dict(r)
        for r in kb.query("SELECT id, name_zh, name_en, sections FROM concepts ORDER BY id")
        if number in json.loads(r["sections"])
    ]
    return concepts, defining


def _section(kb: KnowledgeBase, number: str):
    rows = kb.query("SELECT * FROM sections WHERE number = ?", (number,))
    if not rows and "/" not in number:  # a ruling topic by its title: `cost` → rulings/cost
        rows = kb.query(
            "SELECT * FROM sections WHERE doc != 'rulebook' AND title = ? ORDER BY ord", (number,)
        )
    return rows[0] if rows else None


def _breadcrumb(kb: KnowledgeBase, number: str) -> list[dict]:
    trail = []
    current = number
    while current:
        row = kb.query("SELECT number, title, parent FROM sections WHERE number = ?", (current,))
        if not row:
            break
        trail.append({"number": row[0]["number"], "title": row[0]["title"]})
        current = row[0]["parent"]
    return list(reversed(trail))


def _tree(kb: KnowledgeBase, number: str) -> list[dict]:
    rows = kb.query(
        "SELECT number, title FROM sections WHERE number LIKE ? ESCAPE '\\' ORDER BY ord",
        (like_literal(number) + ".%",),
    )
    prefix = number + "."
    return [
        {"number": r["number"], "title": r["title"], "depth": r["number"].count(".") - number.count(".")}
        for r in rows
        if r["number"].startswith(prefix)
    ]


def _rulings_about(kb: KnowledgeBase, concept_ids: list[str], limit: int = 8) -> list[dict]:
    """The dated rulings about these concepts, those about more of them and newest first."""
    if not concept_ids:
        return []
    marks = ",".join("?" * len(concept_ids))
    rows = kb.query(
        f"""SELECT p.id, max(d.date) AS newest FROM passages p
            JOIN passage_concepts pc ON pc.passage_id = p.id AND pc.how = 'text'
            JOIN dates d ON d.passage_id = p.id
            WHERE pc.concept IN ({marks}) AND p.doc != 'rulebook'
            GROUP BY p.id ORDER BY count(DISTINCT pc.concept) DESC, newest DESC, p.rowid LIMIT ?""",
        (*concept_ids, limit),
    )
    return [hit.as_dict() for hit in passage_hits(kb, [r[0] for r in rows])]
