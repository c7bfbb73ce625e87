"""The passage reader: a passage as a `Hit`, with its dates, cards and concepts,
read in one batch and kept for the connection's life (kb.hit_parts); and passages
by where they stand: one passage, those of a section, those hanging under a clause
or ruling, and how many of each kind there are."""

from __future__ import annotations

import json
import sqlite3

from ocgkb.store.database import IN_JSON, KnowledgeBase, json_values


class Hit:
    """A passage as a search shows it. (A class with slots, not a dataclass: its
    class is made at every question's start, where a dataclass's costs forty times
    more; ranking and abstention still mark its score, weakness and coverage.)"""

    __slots__ = (
        "id", "kind", "text", "source", "section", "topic", "dates", "cards", "concepts",
        "score", "parent", "flags", "merged", "weak", "coverage", "citations",
    )  # fmt: skip

    def __init__(
        self,
        id: str,
        kind: str,
        text: str,
        source: dict,
        section: str | None,
        topic: str,
        dates: list[str],
        cards: list[str],
        concepts: list[str],
        score: float,
        parent: str | None = None,  # the clause or ruling an example, sub-item or note belongs to
        flags: list[str] | None = None,
        merged: list[str] | None = None,  # near-twins folded into this hit
        weak: bool = False,  # nothing the question says is in its own words: the nearest, not an answer
        coverage: float = 0.0,  # the share of the question's words (by rarity) it says; not shown
        citations: list[dict] | None = None,  # where it stands: its own place first, then each copy's
    ) -> None:
        self.id, self.kind, self.text, self.source = id, kind, text, source
        self.section, self.topic, self.dates, self.cards = section, topic, dates, cards
        self.concepts, self.score, self.parent = concepts, score, parent
        self.flags = [] if flags is None else flags
        self.merged = [] if merged is None else merged
        self.weak, self.coverage = weak, coverage
        self.citations = [] if citations is None else citations

    def __repr__(self) -> str:
        return f"Hit({self.id!r}, score={self.score!r}, weak={self.weak!r})"

    def as_dict(self) -> dict:
        return {
            "id": self.id,
            "kind": self.kind,
            "text": self.text,
            "source": self.source,
            "section": self.section,
            "topic": self.topic,
            "dates": self.dates,
            "cards": self.cards,
            "concepts": self.concepts,
            "score": round(self.score, 4),
            "parent": self.parent,
            "flags": self.flags,
            "merged": self.merged,
            "weak": self.weak,
            "citations": self.citations,
        }


def passage_hit(kb: KnowledgeBase, pid: str, score: float = 0.0) -> Hit:
    """One passage as a hit, by its id."""
    return ranked_hits(kb, [(pid, score)], {})[0]


def passage_hits(kb: KnowledgeBase, ids: list[str]) -> list[Hit]:
    """Passages as hits, in the order given, read in one batch."""
    return ranked_hits(kb, [(pid, 0.0) for pid in ids], {})


def ranked_hits(
    kb: KnowledgeBase, ranked: list[tuple[str, float]], merged: dict[str, list[str]]
) -> list[Hit]:
    """Whole hits for ranked ids: what each passage shows is read once per process,
    those not yet read in four queries whatever their number."""
    parts = hit_parts(kb, [pid for pid, _ in ranked])
    return [
        Hit(**parts[pid], score=score, merged=merged.get(pid, []))  # type: ignore[arg-type]
        for pid, score in ranked
    ]


def passage_keys(kb: KnowledgeBase) -> list[tuple[int, str]]:
    """(rowid, id) of every passage."""
    return [(r["rowid"], r["id"]) for r in kb.query("SELECT rowid, id FROM passages")]


def hit_parts(kb: KnowledgeBase, ids: list[str]) -> dict[str, dict]:
    """What a hit shows of each passage, by id: copies, so a caller may change its
    hits, never the cache."""
    cache = kb.hit_parts
    missing = [pid for pid in dict.fromkeys(ids) if pid not in cache]
    if missing:
        cache.update(_read_parts(kb, missing))
    return {pid: {k: (list(v) if isinstance(v, list) else v) for k, v in cache[pid].items()} for pid in ids}


def document_titles(kb: KnowledgeBase) -> dict[str, tuple[str, bool]]:
    """Each document's title by name, and whether the user added it (else a seed)."""
    return kb.memo(
        "passages.documents",
        lambda: {r[0]: (r[1], r[2] == "added") for r in kb.query("SELECT name, title, kind FROM documents")},
    )


def _place(row: sqlite3.Row, titles: dict[str, tuple[str, bool]], dates: list[str]) -> dict:
    """Where one copy of a passage stands: its document, topic, file and line, its
    dates, and each official FAQ (or wiki) link it cites with date, id and address."""
    cited = json.loads(row["citations"]) if row["citations"] else []
    title, added = titles.get(row["doc"], (row["doc"], False))
    return {
        "id": row["id"],
        "doc": row["doc"],
        "document": title,
        "added": added,
        "topic": row["topic"],
        "file": row["file"],
        "line": row["line"],
        "line_end": row["line_end"],
        "dates": dates,
        "faq": [
            {k: c.get(k) for k in ("date", "raw", "fid", "url", "source")} for c in cited if c.get("url")
        ],
        "source": row["source_note"],
    }


def _read_parts(kb: KnowledgeBase, ids: list[str]) -> dict[str, dict]:
    marks = ",".join("?" * len(ids))
    rows = {r["id"]: r for r in kb.query(f"SELECT * FROM passages WHERE id IN ({marks})", ids)}
    # The copies folded into these (a seed's ruling repeated by an added documentation…).
    copies: dict[str, list[sqlite3.Row]] = {}
    for row in kb.query(f"SELECT * FROM passages WHERE dup_of IN ({marks}) ORDER BY rowid", ids):
        copies.setdefault(row["dup_of"], []).append(row)
    every = ids + [row["id"] for rows_of in copies.values() for row in rows_of]
    every_marks = ",".join("?" * len(every))
    dates = _grouped(
        kb, f"SELECT passage_id, date FROM dates WHERE passage_id IN ({every_marks}) ORDER BY position", every
    )
    titles = document_titles(kb)
    cards = _grouped(
        kb, f"SELECT passage_id, card FROM passage_cards WHERE passage_id IN ({marks}) ORDER BY rowid", ids
    )
    concepts = _grouped(
        kb,
        f"SELECT passage_id, concept FROM passage_concepts WHERE passage_id IN ({marks}) ORDER BY concept",
        ids,
    )
    return {
        pid: {
            "id": pid,
            "kind": row["kind"],
            "text": row["text"],
            "source": {
                "file": row["file"],
                "doc": row["doc"],
                "line": row["line"],
                "line_end": row["line_end"],
            },
            "section": row["section"] if row["doc"] == "rulebook" else None,
            "topic": row["topic"],
            "dates": dates.get(pid, []),
            "cards": list(dict.fromkeys(cards.get(pid, []))),
            "concepts": concepts.get(pid, []),
            "parent": row["parent"],
            "flags": json.loads(row["flags"]) if row["flags"] else [],
            "citations": [
                _place(copy, titles, dates.get(copy["id"], [])) for copy in [row, *copies.get(pid, [])]
            ],
        }
        for pid, row in rows.items()
    }


def _grouped(kb: KnowledgeBase, sql: str, ids: list[str]) -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = {}
    for key, value in kb.query(sql, ids):
        grouped.setdefault(key, []).append(value)
    return grouped


def passage(kb: KnowledgeBase, pid: str) -> sqlite3.Row | None:
    """A passage's id, `parent` (the clause or ruling it belongs to) and `dup_of`
    (the passage it repeats); None when there is no such passage."""
    rows = kb.query("SELECT id, parent, dup_of FROM passages WHERE id = ?", (pid,))
    return rows[0] if rows else None


def passages_in(kb: KnowledgeBase, number: str) -> list[str]:
    """The ids of a section's own passages, in the order of the text."""
    return [r[0] for r in kb.query("SELECT id FROM passages WHERE section = ? ORDER BY rowid", (number,))]


def passages_below(kb: KnowledgeBase, pid: str) -> list[str]:
    """The ids of the examples, sub-items and notes under a passage, in the order of the text."""
    return [r[0] for r in kb.query("SELECT id FROM passages WHERE parent = ? ORDER BY rowid", (pid,))]


def examples_of(kb: KnowledgeBase, anchors: list[str]) -> dict[str, list[str]]:
    """The worked examples of each clause or ruling, in the order of the text."""
    return _below_of(kb, anchors, "example")


def items_of(kb: KnowledgeBase, ids: list[str]) -> dict[str, list[str]]:
    """The sub-items of each passage (the list a clause introduces: 以下 …), in the
    order of the text."""
    return _below_of(kb, ids, "subitem")


def _below_of(kb: KnowledgeBase, ids: list[str], kind: str) -> dict[str, list[str]]:
    """The passages of one kind under each of these, by parent, in the order of the text."""
    if not ids:
        return {}
    found: dict[str, list[str]] = {}
    for pid, parent in kb.query(
        f"SELECT id, parent FROM passages WHERE parent IN {IN_JSON} AND kind = ? ORDER BY rowid",
        (json_values(ids), kind),
    ):
        found.setdefault(parent, []).append(pid)
    return found


def passages_saying(kb: KnowledgeBase, phrase: str) -> list[sqlite3.Row]:
    """(id, text, topic) of every passage whose text holds the phrase."""
    return kb.query("SELECT id, text, topic FROM passages WHERE text LIKE ?", (f"%{phrase}%",))


def kind_counts(kb: KnowledgeBase) -> dict[str, int]:
    """How many passages there are of each kind."""
    return {r[0]: r[1] for r in kb.query("SELECT kind, count(*) FROM passages GROUP BY kind")}


def all_passages(kb: KnowledgeBase) -> list[sqlite3.Row]:
    """Every passage with its text and place, in the order of the texts."""
    return kb.query(
        "SELECT id, kind, text, doc, file, line, section, topic, flags FROM passages ORDER BY rowid"
    )


def dates_by_passage(kb: KnowledgeBase) -> dict[str, str]:
    """The dates each dated passage gives, comma-separated, by passage id."""
    rows = kb.query("SELECT passage_id, group_concat(date, ',') AS dates FROM dates GROUP BY passage_id")
    return {r[0]: r[1] for r in rows}
