"""Reads of the full-text index and of the passages' search fields: FTS5
candidates by BM25, how many passages hold each term, which passages a filter
lets through, and the fields ranking scores."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping

from ocgkb.store.database import IN_JSON, KnowledgeBase, json_values, like_literal
from ocgkb.store.schema import FAMILIES, FTS_FIELDS, PASSAGE_INDEX_COLUMNS, fts_table

# What ranking reads of a candidate: its text and the tokens of its indexed fields.
CANDIDATE_FIELDS = ", ".join(
    ("rowid", "id", "doc", "kind", "dup_of", "parent", "search_text", *PASSAGE_INDEX_COLUMNS)
)


Text = str | None  # a restriction's value, None for none


class Restriction:
    """Which passages a search may return, as SQL over `passages p` (empty: all).
    Built from filter values already resolved: a concept's id, a card's name. (A
    class with slots: a NamedTuple's class costs twenty times more at start-up.)"""

    __slots__ = ("sql", "params")

    def __init__(self, sql: str = "", params: tuple = ()) -> None:
        self.sql, self.params = sql, params

    @classmethod
    def of(
        cls, kind: Text, section: Text, concept: Text, card: Text, since: Text, until: Text
    ) -> Restriction:
        """Each value None when not restricted. `section` keeps the sections below it
        too; with both dates, one date of the passage inside both bounds, not one
        date per bound; `kind: ruling` keeps every dated line too."""
        clauses: list[str] = []
        params: list[str] = []
        if kind == "ruling":
            # What a user sees as a ruling: a ruling paragraph, or any dated line (002's
            # dated answers are stored as the examples of their topic's statement).
            clauses.append("(p.kind = 'ruling' OR p.id IN (SELECT passage_id FROM dates))")
        elif kind:
            clauses.append("p.kind = ?")
            params.append(kind)
        if section:
            clauses.append("(p.section = ? OR p.section LIKE ? ESCAPE '\\')")
            params += [section, like_literal(section) + ".%"]
        if concept:
            clauses.append("p.id IN (SELECT passage_id FROM passage_concepts WHERE concept = ?)")
            params.append(concept)
        if card:
            clauses.append("p.id IN (SELECT passage_id FROM passage_cards WHERE card = ?)")
            params.append(card)
        if since or until:
            clauses.append("p.id IN (SELECT passage_id FROM dates WHERE date >= ? AND date <= ?)")
            params += [since or "0000-00-00", until or "9999-99-99"]
        return cls("".join(" AND " + c for c in clauses), tuple(params))


def section_exists(kb: KnowledgeBase, section: str) -> bool:
    """Whether the rulebook has this section or one below it."""
    return bool(
        kb.query(
            "SELECT 1 FROM sections WHERE number = ? OR number LIKE ? ESCAPE '\\' LIMIT 1",
            (section, like_literal(section) + ".%"),
        )
    )


def best_by_fts(
    kb: KnowledgeBase,
    family: str,
    terms: list[str],
    restriction: Restriction,
    limit: int,
    columns: Iterable[str] = (),
    weights: Mapping[str, float] | None = None,
    names: Iterable[str] = (),
) -> list[tuple[int, float]]:
    """The rowids, with their BM25 (best lowest), of the `limit` best passages of
    a family for some terms (any of them) by FTS5's BM25, in some columns only and
    with column weights by name when given (a column not named weighs 0); `names`
    are sought whole in the words column."""
    if not terms:
        return []
    # Every term quoted, so input such as `No.62`, `NOT` or `-` is never FTS5 syntax.
    match = " OR ".join(_quoted(t) for t in terms)
    columns = list(columns)
    if columns:
        match = f"{{{' '.join(columns)}}} : ({match})"
    match = " OR ".join([match, *(f"words : {_quoted(t)}" for t in names)])
    table = fts_table(family)
    rank = f"bm25({table})"
    if weights:
        # bm25() takes its column weights by position: in the schema's order of the fields
        rank = f"bm25({table}, " + ", ".join(f"{weights.get(c, 0):g}" for c in FTS_FIELDS) + ")"
    if restriction.sql:
        sql = f"""
            SELECT p.rowid, {rank} AS rank FROM {table} f JOIN passages p ON p.rowid = f.rowid
            WHERE {table} MATCH ? {restriction.sql}
            ORDER BY rank LIMIT {limit}
        """
        return [(r["rowid"], r["rank"]) for r in kb.query(sql, (match, *restriction.params))]
    # Without filters the index ranks alone: half the time.
    sql = f"SELECT rowid, {rank} AS rank FROM {table} WHERE {table} MATCH ? ORDER BY rank LIMIT {limit}"
    return [(r["rowid"], r["rank"]) for r in kb.query(sql, (match,))]


def _quoted(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def document_counts(kb: KnowledgeBase, terms: list[str], family: str | None = None) -> dict[str, int]:
    """How many passages (of one family, or of all) hold each term; those in none are left out."""
    count = family if family in FAMILIES else " + ".join(FAMILIES)
    sql = f"SELECT term, {count} AS n FROM term_counts WHERE term IN {IN_JSON} AND n > 0"
    return dict(kb.query(sql, (json_values(terms),)))


def general_use(kb: KnowledgeBase, words: list[str]) -> dict[str, int]:
    """How often general Chinese uses each word (jieba's dictionary; those it lacks are left out)."""
    return dict(
        kb.query(f"SELECT term, freq FROM general_use WHERE term IN {IN_JSON}", (json_values(words),))
    )


def passage_families(kb: KnowledgeBase, ids: list[str]) -> dict[str, str]:
    """The family (documents.kind) of each of these passages."""
    sql = f"SELECT p.id, d.kind FROM passages p JOIN documents d ON d.name = p.doc WHERE p.id IN {IN_JSON}"
    return dict(kb.query(sql, (json_values(ids),)))


def passing_ids(kb: KnowledgeBase, ids: Iterable[str], restriction: Restriction) -> set[str]:
    """Which of these passages the restriction lets through."""
    ids = list(ids)
    if not ids:
        return set()
    marks = ",".join("?" * len(ids))
    sql = f"SELECT p.id FROM passages p WHERE p.id IN ({marks}) {restriction.sql}"
    return {r["id"] for r in kb.query(sql, (*ids, *restriction.params))}


def passing_rowids(kb: KnowledgeBase, ids: list[str], restriction: Restriction) -> list[int]:
    """The rowids of those of these passages the restriction lets through."""
    marks = ",".join("?" * len(ids))
    sql = f"SELECT p.rowid FROM passages p WHERE p.id IN ({marks}) {restriction.sql}"
    return [r["rowid"] for r in kb.query(sql, (*ids, *restriction.params))]


def candidate_rows(kb: KnowledgeBase, rowids: list[int]) -> list[sqlite3.Row]:
    """What ranking scores of these passages (CANDIDATE_FIELDS), by rowid."""
    marks = ",".join("?" * len(rowids))
    return kb.query(f"SELECT {CANDIDATE_FIELDS} FROM passages WHERE rowid IN ({marks})", rowids)


def concept_tags(kb: KnowledgeBase, ids: list[str]) -> dict[str, dict[str, str]]:
    """Each passage's concepts and how each is tagged ("text" or weaker)."""
    marks = ",".join("?" * len(ids))
    tags: dict[str, dict[str, str]] = {}
    for row in kb.query(
        f"SELECT passage_id, concept, how FROM passage_concepts WHERE passage_id IN ({marks})", ids
    ):
        tags.setdefault(row["passage_id"], {})[row["concept"]] = row["how"]
    return tags


def referring_passages(kb: KnowledgeBase) -> list[str]:
    """The passages that hand a matter to another document (请参照…规定: 003's
    "代表性的违规请参照大会罚则规定"), in the order of the texts."""
    return kb.memo(
        "store.search_index.referring",
        lambda: [
            r["id"]
            for r in kb.query(
                "SELECT id FROM passages WHERE text LIKE '%请参照%规定%' AND doc IN (SELECT name FROM documents WHERE kind = 'seed') ORDER BY rowid"
            )
        ],
    )
