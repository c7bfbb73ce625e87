"""Ranking passages for a question.

1. The question is put in search form and cut into the index's words (no jieba
   at query time), its character bigrams, and the words its synonyms and the
   concepts it names add (kb/synonyms.yaml, kb/concepts.yaml).
2. SQLite FTS5 ranks candidates by BM25 over three columns: jieba words, bigrams,
   and the section title or topic each passage stands under.
3. The candidates are re-ranked: a passage about the concepts and cards the
   question names gains, a rule clause outranks a loose paragraph, and a
   near-twin of another passage is merged into it.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
from dataclasses import dataclass, field

from . import OcgkbError
from .normalize import squash
from .store import KnowledgeBase
from .tokenize import bigrams, query_words

MAX_QUERY = 300
CANDIDATES = 150
# Column weights of BM25: words, bigrams, section title / topic.
COLUMN_WEIGHTS = (1.0, 0.6, 0.5)
KIND_PRIOR = {"clause": 1.0, "subitem": 0.93, "ruling": 0.95, "example": 0.85, "note": 0.85, "paragraph": 0.8}
CONCEPT_BONUS = 0.18
CARD_BONUS = 0.25


class QueryError(OcgkbError):
    """A query that cannot be run: empty, too long, or with a bad filter."""


@dataclass
class Filters:
    kind: str | None = None
    section: str | None = None
    concept: str | None = None
    card: str | None = None
    since: str | None = None
    until: str | None = None


@dataclass
class Hit:
    id: str
    kind: str
    text: str
    source: dict
    section: str | None
    topic: str
    dates: list[str]
    cards: list[str]
    concepts: list[str]
    score: float
    flags: list[str] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)  # near-twins folded into this hit

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
            "flags": self.flags,
            "merged": self.merged,
        }


@dataclass
class QueryPlan:
    """What a question was turned into; `ask --explain` shows it."""

    text: str
    words: list[str]
    expansions: list[str]
    grams: list[str]
    concepts: list[str]
    cards: list[str]


def plan_query(kb: KnowledgeBase, question: str) -> QueryPlan:
    question = question.strip()
    if not question:
        raise QueryError("the query is empty")
    if len(question) > MAX_QUERY:
        raise QueryError(f"the query is {len(question)} characters long; ask in at most {MAX_QUERY}")
    text = kb.normalize(question)
    vocabulary = kb.vocabulary
    words = query_words(text, vocabulary)
    concepts = _concepts_in(kb, text)
    expansions: list[str] = []
    for key, targets in _synonyms(kb).items():
        if key in text:
            expansions += targets
    for cid in concepts:
        expansions += _concept_terms(kb)[cid]
    expansion_words = []
    for term in expansions:
        term = squash(kb.normalize(term))
        for word in query_words(term, vocabulary) if term not in vocabulary else [term]:
            if word not in words and word not in expansion_words:
                expansion_words.append(word)
    cards = _cards_in(kb, text)
    grams = [g for g in dict.fromkeys(bigrams(text)) if len(g) == 2]
    if not words and not grams and not expansion_words:
        raise QueryError(f"nothing to search for in {question!r}")
    return QueryPlan(text, words, expansion_words, grams, concepts, cards)


def search(kb: KnowledgeBase, question: str, filters: Filters | None = None, limit: int = 10) -> list[Hit]:
    """The best passages for a question, best first."""
    filters = filters or Filters()
    where, params = _filter_sql(kb, filters)
    plan = plan_query(kb, question)
    match = _match_expression(plan)
    sql = f"""
        SELECT p.rowid, p.id, p.kind, p.dup_of, bm25(passage_fts, ?, ?, ?) AS bm
        FROM passage_fts JOIN passages p ON p.rowid = passage_fts.rowid
        WHERE passage_fts MATCH ? {where}
        ORDER BY bm LIMIT {CANDIDATES}
    """
    rows = kb.query(sql, (*COLUMN_WEIGHTS, match, *params))
    if not rows:
        return []
    ids = [r["id"] for r in rows]
    tags = _tags(kb, ids)
    card_tags = _card_tags(kb, ids)
    best = -min(r["bm"] for r in rows) or 1.0
    scored: dict[str, float] = {}
    merged: dict[str, list[str]] = {}
    for r in rows:
        score = (-r["bm"] / best) * KIND_PRIOR.get(r["kind"], 0.8)
        passage_concepts = tags.get(r["id"], {})
        for cid in plan.concepts:
            if cid in passage_concepts:
                score += CONCEPT_BONUS * (1.0 if passage_concepts[cid] == "text" else 0.5) / len(plan.concepts)
        if plan.cards and set(plan.cards) & card_tags.get(r["id"], set()):
            score += CARD_BONUS
        # A near-twin counts for the passage it repeats, shown once.
        target = r["dup_of"] if r["dup_of"] and _passes(kb, r["dup_of"], where, params) else r["id"]
        if target != r["id"]:
            merged.setdefault(target, []).append(r["id"])
        scored[target] = max(scored.get(target, 0.0), score)
    ranked = sorted(scored.items(), key=lambda item: (-item[1], item[0]))[:limit]
    return [_hit(kb, pid, score, merged.get(pid, [])) for pid, score in ranked]


def _match_expression(plan: QueryPlan) -> str:
    """An FTS5 expression with every term quoted, so input such as `No.62`, `NOT`
    or `-` is never read as FTS5 syntax."""

    def any_of(terms: list[str]) -> str:
        return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)

    parts = []
    words = plan.words + plan.expansions
    if words:
        parts.append(f"{{words context}} : ({any_of(words)})")
    if plan.grams:
        parts.append(f"grams : ({any_of(plan.grams)})")
    return " OR ".join(parts)


def _filter_sql(kb: KnowledgeBase, filters: Filters) -> tuple[str, list]:
    clauses, params = [], []
    if filters.kind:
        clauses.append("p.kind = ?")
        params.append(filters.kind)
    if filters.section:
        clauses.append("(p.section = ? OR p.section LIKE ? ESCAPE '\\')")
        escaped = filters.section.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        params += [filters.section, escaped + ".%"]
    if filters.concept:
        from .lookup import find_concept

        concept = find_concept(kb, filters.concept)
        clauses.append("p.id IN (SELECT passage_id FROM passage_concepts WHERE concept = ?)")
        params.append(concept["id"])
    if filters.card:
        from .lookup import find_cards

        matches = find_cards(kb, filters.card, limit=1)
        if not matches:
            raise QueryError(f"no card is called anything like {filters.card!r}")
        clauses.append("p.id IN (SELECT passage_id FROM passage_cards WHERE card = ?)")
        params.append(matches[0].name)
    for bound, op in ((filters.since, ">="), (filters.until, "<=")):
        if bound:
            clauses.append(f"p.id IN (SELECT passage_id FROM dates WHERE date {op} ?)")
            params.append(parse_date(bound))
    return "".join(" AND " + c for c in clauses), params


def parse_date(value: str) -> str:
    """An ISO date for --since / --until: 2023-01-01, 2023-1-1, 2023 or 23/1/1."""
    value = value.strip()
    for pattern, build in (
        (r"(\d{4})", lambda y: (int(y), 1, 1)),
        (r"(\d{4})-(\d{1,2})", lambda y, m: (int(y), int(m), 1)),
        (r"(\d{4})-(\d{1,2})-(\d{1,2})", lambda y, m, d: (int(y), int(m), int(d))),
        (r"(\d{2})/(\d{1,2})/(\d{1,2})", lambda y, m, d: (2000 + int(y), int(m), int(d))),
    ):
        match = re.fullmatch(pattern, value)
        if match:
            try:
                return dt.date(*build(*match.groups())).isoformat()
            except ValueError:
                break
    raise QueryError(f"not a date: {value!r} (use YYYY-MM-DD)")


def _passes(kb: KnowledgeBase, pid: str, where: str, params: list) -> bool:
    if not where:
        return True
    sql = f"SELECT 1 FROM passages p WHERE p.id = ? {where}"
    return bool(kb.query(sql, (pid, *params)))


def _tags(kb: KnowledgeBase, ids: list[str]) -> dict[str, dict[str, str]]:
    marks = ",".join("?" * len(ids))
    tags: dict[str, dict[str, str]] = {}
    for row in kb.query(f"SELECT passage_id, concept, how FROM passage_concepts WHERE passage_id IN ({marks})", ids):
        tags.setdefault(row[0], {})[row[1]] = row[2]
    return tags


def _card_tags(kb: KnowledgeBase, ids: list[str]) -> dict[str, set[str]]:
    marks = ",".join("?" * len(ids))
    cards: dict[str, set[str]] = {}
    for row in kb.query(f"SELECT passage_id, card FROM passage_cards WHERE passage_id IN ({marks})", ids):
        cards.setdefault(row[0], set()).add(row[1])
    return cards


def passage_hit(kb: KnowledgeBase, pid: str, score: float = 0.0) -> Hit:
    return _hit(kb, pid, score, [])


def _hit(kb: KnowledgeBase, pid: str, score: float, merged: list[str]) -> Hit:
    row = kb.query("SELECT * FROM passages WHERE id = ?", (pid,))[0]
    dates = [r[0] for r in kb.query("SELECT date FROM dates WHERE passage_id = ? ORDER BY position", (pid,))]
    cards = [r[0] for r in kb.query("SELECT DISTINCT card FROM passage_cards WHERE passage_id = ? ORDER BY rowid", (pid,))]
    concepts = [r[0] for r in kb.query("SELECT concept FROM passage_concepts WHERE passage_id = ? ORDER BY concept", (pid,))]
    return Hit(
        id=row["id"],
        kind=row["kind"],
        text=row["text"],
        source={"file": row["file"], "doc": row["doc"], "line": row["line"], "line_end": row["line_end"]},
        section=row["section"] if row["doc"] == "rulebook" else None,
        topic=row["topic"],
        dates=dates,
        cards=cards,
        concepts=concepts,
        score=score,
        flags=json.loads(row["flags"]) if row["flags"] else [],
        merged=merged,
    )


# What the query layer keeps from the database between calls in one process.
@functools.lru_cache(maxsize=4)
def _concept_index(path: str) -> tuple[dict[str, list[str]], list[tuple[str, re.Pattern[str]]]]:
    from .store import KnowledgeBase as _KB

    kb = _KB(path)
    terms: dict[str, list[str]] = {}
    matchers = []
    for row in kb.query("SELECT id, zh, en, aliases FROM concepts ORDER BY id"):
        names = [*json.loads(row["zh"]), *json.loads(row["aliases"]), *json.loads(row["en"])]
        forms = sorted({squash(kb.normalize(n)) for n in names if n.strip()}, key=len, reverse=True)
        terms[row["id"]] = forms
        parts = [
            rf"(?<![a-z]){re.escape(f)}(?![a-z])" if re.fullmatch(r"[a-z0-9 ./'-]+", f) else re.escape(f)
            for f in forms
        ]
        matchers.append((row["id"], re.compile("|".join(parts))))
    kb.close()
    return terms, matchers


def _concept_terms(kb: KnowledgeBase) -> dict[str, list[str]]:
    return _concept_index(str(kb.path))[0]


def _concepts_in(kb: KnowledgeBase, text: str) -> list[str]:
    squashed = squash(text)
    found = [(cid, m.search(squashed)) for cid, m in _concept_index(str(kb.path))[1]]
    hits = [(cid, match) for cid, match in found if match]
    # A concept named inside a longer concept's name (对象 in 持续取对象) does not count.
    spans = [(m.start(), m.end()) for _, m in hits]
    return [
        cid
        for cid, m in hits
        if not any(s <= m.start() and m.end() <= e and (e - s) > (m.end() - m.start()) for s, e in spans)
    ]


def _synonyms(kb: KnowledgeBase) -> dict[str, list[str]]:
    return json.loads(kb.meta("synonyms") or "{}")


def _cards_in(kb: KnowledgeBase, text: str) -> list[str]:
    squashed = squash(text)
    return [
        row[0]
        for row in kb.query(
            "SELECT name FROM cards WHERE kind = 'card' AND length(search_name) >= 2 AND instr(?, search_name) > 0",
            (squashed,),
        )
    ]
