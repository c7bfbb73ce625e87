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
import math
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
# Words the question did not say but its synonyms and concepts add count less.
EXPANSION_WEIGHT = 0.35
# BM25 over OR-ed words favours one rare word; a passage that says more of what
# was asked (weighted by rarity) is the better answer.
COVERAGE_WEIGHT = 0.4
# A matching example lifts its clause to this share of its own score.
PARENT_LIFT = 0.9
# A question that asks how many (几张, 多少, 上限) is answered by a passage that
# states a number of something.
COUNT_QUESTION = re.compile(r"几[张只次个回局星速点分秒]|多少|上限|下限|最多|最少|至多|至少")
COUNT_ANSWER = re.compile(
    r"\d+\s*(?:张|只|次|个|回合|局|分钟|秒|星|速|点)|[一二三四五六七八九十两]+\s*(?:张|只|次|个|回合|局|分钟)"
)
COUNT_BONUS = 0.12


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
    parent: str | None = None  # the clause or ruling an example, sub-item or note belongs to
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
            "parent": self.parent,
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
    ignore = _query_lists(str(kb.path))["ignore"]
    words = [w for w in query_words(text, vocabulary) if w not in ignore]
    concepts = _concepts_in(kb, text)
    # What the question says in the texts' own words counts in full (血 → 基本分);
    # a concept's other names count less: they widen, they do not translate.
    translations = _as_words(kb, _translate(text, _synonyms(kb)), words)
    aliases = _as_words(kb, [t for cid in concepts for t in _concept_terms(kb)[cid]], words + translations)
    words = words + translations
    expansion_words = aliases
    cards = _cards_in(kb, text)
    grams = [g for g in dict.fromkeys(bigrams(text)) if len(g) == 2]
    return QueryPlan(text, words, expansion_words, grams, concepts, cards)


def _translate(text: str, synonyms: dict[str, list[str]]) -> list[str]:
    """The texts' words for what the question says, longest phrase first: in
    攻守表示 the phrase means battle position, not 攻守 (ATK/DEF)."""
    taken = [False] * len(text)
    found: list[str] = []
    for key in sorted(synonyms, key=len, reverse=True):
        start = text.find(key)
        while start != -1:
            end = start + len(key)
            if not any(taken[start:end]):
                taken[start:end] = [True] * len(key)
                found += synonyms[key]
            start = text.find(key, end)
    return found


def _as_words(kb: KnowledgeBase, terms: list[str], known: list[str]) -> list[str]:
    """Index words for a list of terms, leaving out those already in `known`."""
    vocabulary = kb.vocabulary
    found: list[str] = []
    for term in terms:
        form = squash(kb.normalize(term))
        for word in [form] if form in vocabulary else query_words(form, vocabulary):
            if word not in known and word not in found:
                found.append(word)
    return found


def search(kb: KnowledgeBase, question: str, filters: Filters | None = None, limit: int = 10) -> list[Hit]:
    """The best passages for a question, best first."""
    filters = filters or Filters()
    where, params = _filter_sql(kb, filters)
    plan = plan_query(kb, question)
    if not plan.words and not plan.grams and not plan.expansions:
        return []  # only punctuation or question words: nothing to look for
    main = _ranked(kb, _match_expression(plan.words, plan.grams), where, params)
    expanded = _ranked(kb, _match_expression(plan.expansions, []), where, params) if plan.expansions else {}
    if not main and not expanded:
        return []
    rows = {**expanded, **main}
    ids = list(rows)
    texts = {
        r[0]: r[1]
        for r in kb.query(
            f"SELECT id, search_text FROM passages WHERE id IN ({','.join('?' * len(ids))})", ids
        )
    }
    coverage = _coverage(kb, ids, plan.words)
    tags = _tags(kb, ids)
    card_tags = _card_tags(kb, ids)
    best_main = max((r["bm"] for r in main.values()), default=1.0) or 1.0
    best_expanded = max((r["bm"] for r in expanded.values()), default=1.0) or 1.0
    scored: dict[str, float] = {}
    merged: dict[str, list[str]] = {}
    asks_count = bool(COUNT_QUESTION.search(plan.text))
    for pid, r in rows.items():
        relevance = (main[pid]["bm"] / best_main if pid in main else 0.0) + EXPANSION_WEIGHT * (
            expanded[pid]["bm"] / best_expanded if pid in expanded else 0.0
        )
        score = (
            relevance
            * KIND_PRIOR.get(r["kind"], 0.8)
            * (1 - COVERAGE_WEIGHT + COVERAGE_WEIGHT * coverage[pid])
        )
        passage_concepts = tags.get(pid, {})
        for cid in plan.concepts:
            if cid in passage_concepts:
                score += (
                    CONCEPT_BONUS * (1.0 if passage_concepts[cid] == "text" else 0.5) / len(plan.concepts)
                )
        if plan.cards and set(plan.cards) & card_tags.get(pid, set()):
            score += CARD_BONUS
        if asks_count and COUNT_ANSWER.search(texts[pid]):
            score += COUNT_BONUS
        # A near-twin counts for the passage it repeats, shown once.
        target = r["dup_of"] if r["dup_of"] and _passes(kb, r["dup_of"], where, params) else pid
        if target != pid:
            merged.setdefault(target, []).append(pid)
        scored[target] = max(scored.get(target, 0.0), score)
    _lift_parents(kb, scored)
    ranked = sorted(scored.items(), key=lambda item: (-item[1], item[0]))[:limit]
    return [_hit(kb, pid, score, merged.get(pid, [])) for pid, score in ranked]


def _lift_parents(kb: KnowledgeBase, scored: dict[str, float]) -> None:
    """A clause whose example or sub-item matches is nearly as relevant as that
    example: the rule is shown, not only its illustration."""
    ids = list(scored)
    marks = ",".join("?" * len(ids))
    rows = kb.query(
        f"SELECT id, parent FROM passages WHERE id IN ({marks}) AND parent IS NOT NULL"
        " AND kind IN ('example', 'subitem')",
        ids,
    )
    for row in rows:
        if row["parent"] in scored:
            scored[row["parent"]] = max(scored[row["parent"]], scored[row["id"]] * PARENT_LIFT)


def _ranked(kb: KnowledgeBase, match: str, where: str, params: list) -> dict[str, dict]:
    """The best candidates for one FTS5 expression: id → row with a positive `bm`."""
    if not match:
        return {}
    sql = f"""
        SELECT p.id, p.kind, p.dup_of, -bm25(passage_fts, ?, ?, ?) AS bm
        FROM passage_fts JOIN passages p ON p.rowid = passage_fts.rowid
        WHERE passage_fts MATCH ? {where}
        ORDER BY bm DESC LIMIT {CANDIDATES}
    """
    return {r["id"]: dict(r) for r in kb.query(sql, (*COLUMN_WEIGHTS, match, *params))}


def _match_expression(words: list[str], grams: list[str]) -> str:
    """An FTS5 expression with every term quoted, so input such as `No.62`, `NOT`
    or `-` is never read as FTS5 syntax."""

    def any_of(terms: list[str]) -> str:
        return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)

    parts = []
    if words:
        parts.append(f"{{words context}} : ({any_of(words)})")
    if grams:
        parts.append(f"grams : ({any_of(grams)})")
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


def _coverage(kb: KnowledgeBase, ids: list[str], words: list[str]) -> dict[str, float]:
    """The share of the question's words (weighted by rarity) each passage contains."""
    if not words:
        return dict.fromkeys(ids, 1.0)
    n = kb.passage_count
    weight = {w: math.log(1 + n / (1 + kb.vocabulary.get(w, 0))) for w in words}
    total = sum(weight.values())
    marks = ",".join("?" * len(ids))
    rows = kb.query(
        f"SELECT p.id, p.search_text, p.topic FROM passages p WHERE p.id IN ({marks})",
        ids,
    )
    result = {}
    for row in rows:
        text = squash(row["search_text"] + row["topic"].lower())
        result[row["id"]] = sum(weight[w] for w in words if w in text) / total
    return result


def _tags(kb: KnowledgeBase, ids: list[str]) -> dict[str, dict[str, str]]:
    marks = ",".join("?" * len(ids))
    tags: dict[str, dict[str, str]] = {}
    for row in kb.query(
        f"SELECT passage_id, concept, how FROM passage_concepts WHERE passage_id IN ({marks})", ids
    ):
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
    cards = [
        r[0]
        for r in kb.query(
            "SELECT DISTINCT card FROM passage_cards WHERE passage_id = ? ORDER BY rowid", (pid,)
        )
    ]
    concepts = [
        r[0]
        for r in kb.query(
            "SELECT concept FROM passage_concepts WHERE passage_id = ? ORDER BY concept", (pid,)
        )
    ]
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
        parent=row["parent"],
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
    return _query_lists(str(kb.path))["synonyms"]


@functools.lru_cache(maxsize=4)
def _query_lists(path: str) -> dict:
    from .store import KnowledgeBase as _KB

    kb = _KB(path)
    lists = json.loads(kb.meta("synonyms") or "{}")
    kb.close()
    return {"synonyms": lists.get("synonyms", {}), "ignore": set(lists.get("ignore", []))}


def _cards_in(kb: KnowledgeBase, text: str) -> list[str]:
    squashed = squash(text)
    return [
        row[0]
        for row in kb.query(
            "SELECT name FROM cards WHERE kind = 'card' AND length(search_name) >= 2 AND instr(?, search_name) > 0",
            (squashed,),
        )
    ]
