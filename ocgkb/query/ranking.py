"""Ranking passages for a question.

1. The question becomes words, bigrams and expansions (ocgkb.query.plan).
2. Candidates: SQLite FTS5 ranks passages by BM25 over the question's
   selective terms (those in at most MAX_SHARE of passages; the commonest
   cost the most and tell the least), and separately over its expansions.
3. Each candidate is scored by BM25 over *all* the terms, computed here on its
   text, its bigrams and its section title or topic; a passage that says more
   of what was asked, is about the concepts the question names, or
   states a number when a number is asked for, gains; a rule clause outranks a
   loose paragraph; a near-twin of another passage is merged into it.
4. That ranking is fused (reciprocal rank fusion) with a plainer one, FTS5's
   BM25 over the character pairs of each passage and of the curated questions it
   answers; an example among the first answers is followed by its rule.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from ocgkb import UsageError
from ocgkb.messages import no_such_card
from ocgkb.query.plan import QueryError, QueryPlan, plan_query
from ocgkb.store.database import IN_JSON, KnowledgeBase, json_values, like_literal
from ocgkb.store.schema import PASSAGE_KINDS
from ocgkb.text.names import card_token
from ocgkb.text.normalize import squash
from ocgkb.text.tokenize import STOPWORDS, is_cjk, latin_words

CANDIDATES = 30  # passages ranked in full per question; the tuned sets score the same with 40
# BM25 weights of where a term is found: the passage's words, its bigrams, its title.
WORD_WEIGHT, GRAM_WEIGHT, TITLE_WEIGHT = 1.0, 0.4, 0.25
# The curated questions a passage answers count below its own words.
ASKED_WEIGHT = 0.6
ASKED_GRAM_WEIGHT = 0.7  # their character pairs: slang the vocabulary lacks still meets slang
BM25_K1, BM25_B = 1.2, 0.75
KIND_PRIOR = {"clause": 1.0, "subitem": 0.93, "ruling": 0.95, "example": 0.85, "note": 0.85, "paragraph": 0.8}
# A short line ending in a colon introduces a list: the items answer, not it.
HEADING_LENGTH, HEADING_PRIOR = 20, 0.5
CONCEPT_BONUS = 0.18
# (A bonus for naming a card the question names, even only for a passage that
# also says the question's other words, won nothing on any question set: the
# card's name is a word of the question, found like the others.)
# A shorter word inside one the question said (装备 in 装备卡) is the same idea
# again: it helps to find a passage, not to count twice.
INNER_WEIGHT = 0.15
# Words the question did not say but its concepts add count less.
EXPANSION_WEIGHT = 0.35
# BM25 over OR-ed words favours one rare word; a passage that says more of what
# was asked (weighted by rarity) is the better answer.
COVERAGE_WEIGHT = 0.25
# Terms in more passages than MAX_POSTINGS, or than MAX_SHARE of them, are left
# out of the candidate lookup: they cost the most and weigh the least (they still
# count in scoring). 效果 is in 60% of passages.
MAX_POSTINGS = 2000
MAX_SHARE = 0.25
RAREST_KEPT = 3
# A paragraph that only repeats a clause's words ranks below the clause when the
# clause scores at least this share of the paragraph's score.
REPEAT_MARGIN = 0.8
# The documents that retell the rules (the Master Rule wiki, the tournament text,
# the phase/chain guide); the rulebook and the dated rulings state them.
LOOSE_DOCS = ("masterrule", "tournament", "guide")
# Answer types. A question that asks how many (几张, 多少, 上限) is answered by a
# passage that states a number of the thing asked about (几张 → 15张). (A bonus
# for a passage defining a term a what-is question names won nothing on any
# question set, nor did lifting a clause to its matching example: both are gone.)
COUNT_QUESTION = re.compile(
    r"几\s*([张只次个回局星速点分秒])|多少|上限|下限|最多|最少|至多|至少|how (?:many|much|often|long)|maximum|minimum"
)
COUNTERS = "张只次个回合局分钟秒星速点"
COUNT_BONUS = 0.12
# Who decides (谁说了算, 由谁决定) is answered by a passage that says who decides or
# chooses; at which step (哪一步, 什么时候, 时机) by one that names a phase, a step or a timing.
ANSWER_TYPES = (
    (
        re.compile(
            r"谁(?:说了算|决定|来定|定|选)|由谁|(?:谁|哪方|哪一方)(?:来)?(?:选择|决定)|who (?:decides|chooses|picks)"
        ),
        re.compile(r"决定|选择"),
    ),
    (
        re.compile(
            r"哪一?步|哪个(?:阶段|步骤|时点)|什么时候|何时|什么时点|时机|(?:之?前|之?后)还是|when (?:exactly|does|do|is|can)|which (?:step|phase)|what (?:point|timing)|until when|how late"
        ),
        re.compile(r"阶段|步骤|时点|之前|之后|时机"),
    ),
)
ANSWER_TYPE_BONUS = 0.08
# The ranking above is fused (reciprocal rank fusion, FUSION_K) with a plainer
# one that counts PAIR_SHARE as much: FTS5's BM25 over the character pairs of the
# passage's text and of the curated questions it answers (their columns, weighted),
# which meets slang and English the vocabulary lacks.
FUSE = True
FUSION_K, PAIR_SHARE = 60, 0.5
# The nearest curated question, whole (not pooled with the passage's other
# questions), counts QUESTION_SHARE; a word it says that the question does not
# weighs UNSAID_WEIGHT.
QUESTION_SHARE, UNSAID_WEIGHT = 0.5, 1.0
PAIR_SHARE_MAX = 0.25
PAIR_CARDS = True  # and the cards it names, whole, in the words column
PAIR_COLUMNS, PAIR_WEIGHTS = "grams asked", ", 1, 1, 0, 1"
# An example among the first EXAMPLE_TOP answers is followed by its rule.
EXAMPLE_TOP = 3

__all__ = ["Filters", "Hit", "QueryError", "parse_date", "passage_hit", "plan_query", "search"]


# A value typed on the command line, or none.
Option = str | None


@dataclass
class Filters:
    """What a search keeps: dates are ISO days (`parse` reads what people type)."""

    kind: Option = None
    # a section and those below it
    section: Option = None
    concept: Option = None
    card: Option = None
    # ISO days; with both, one date of the passage inside both bounds
    since: Option = None
    until: Option = None

    @classmethod
    def parse(cls, kind=None, section=None, concept=None, card=None, since=None, until=None) -> Filters:
        """Filters from typed options: an empty name is a usage error, dates are read once."""
        named = (("--section", section), ("--concept", concept), ("--card", card))
        for option, value in (*named, ("--since", since), ("--until", until)):
            if value is not None and not value.strip():
                raise UsageError(f"{option} needs a value")
        if kind is not None and kind not in PASSAGE_KINDS:
            raise UsageError(f"--kind: {kind!r} is none of {', '.join(PASSAGE_KINDS)}")
        first, last = parse_date(since) if since else None, parse_date(until) if until else None
        if first and last and first > last:  # a range no date fits: a mistake, not "no results"
            raise UsageError(f"--since {first} is after --until {last}")
        return cls(kind, section.strip() if section else None, concept, card, first, last)


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
    weak: bool = False  # nothing the question says is in its own words: the nearest, not an answer
    coverage: float = 0.0  # the share of the question's words (by rarity) it says; not shown

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
        }


def search(
    kb: KnowledgeBase,
    question: str,
    filters: Filters | None = None,
    limit: int = 10,
    plan: QueryPlan | None = None,
) -> list[Hit]:
    """The best passages for a question, best first. A hit whose own words (its
    text or the questions it answers) hold nothing the question says, only its
    title or a few characters, is marked `weak`: the nearest passage, not an answer.
    `plan` is the question already planned (plan_query), so a caller plans once."""
    where, params = _filter_sql(kb, filters or Filters())
    plan = plan or plan_query(kb, question)
    terms = list(dict.fromkeys(plan.words + plan.inner + plan.grams + plan.expansions + plan.pairs))
    if not terms:
        return []  # only punctuation or question words: nothing to look for
    counts = _document_counts(kb, terms)
    # Bigrams inside a word already sought add cost, not candidates.
    said = plan.words + plan.inner + plan.expansions
    novel_grams = [g for g in plan.grams if not any(g in w for w in said)]
    found = _best_by_fts(kb, _selective(kb, said + novel_grams, counts), where, params)
    pairs = []
    if FUSE:
        # The cards the question names are sought whole (增殖的g) in the passages' words.
        names = [card_token(squash(kb.normalize(c))) for c in plan.cards] if PAIR_CARDS else []
        names = [t for t in names if t in plan.words]
        pairs = _best_by_fts(
            kb, _pair_terms(kb, plan, counts), where, params, PAIR_COLUMNS, PAIR_WEIGHTS, names
        )
    candidates = _candidates(kb, list(dict.fromkeys(found + pairs)))
    if not candidates:
        return []
    own = _scores(kb, plan, candidates, counts)
    # A near-twin counts for the passage it repeats, shown once.
    twins_allowed = _passing(kb, {c.dup_of for c in candidates.values() if c.dup_of}, where, params)
    twin = {pid: c.dup_of if c.dup_of in twins_allowed else pid for pid, c in candidates.items()}
    scored: dict[str, float] = {}
    merged: dict[str, list[str]] = {}
    for pid, score in own.items():
        if twin[pid] != pid:
            merged.setdefault(twin[pid], []).append(pid)
        scored[twin[pid]] = max(scored.get(twin[pid], 0.0), score)
    _rules_before_repeats(plan, candidates, scored)
    order = sorted(scored, key=lambda pid: (-scored[pid], pid))
    if FUSE:
        # A question asked in English meets the curated English questions whole; in
        # Chinese, the pooled questions already serve (measured: ranking_ablation.py).
        english = not any(is_cjk(ch) for ch in plan.text)
        nearest = _nearest_question(kb, plan, candidates, counts) if english else []
        order = _fused(
            order, [twin[c.id] for c in _read_candidates(kb, pairs).values()], [twin[pid] for pid in nearest]
        )
    if EXAMPLE_TOP:
        order = _rules_after_examples(kb, order, candidates, scored, where, params)
    # A hit's score is its own, capped by the one above it: the order is the fused one.
    shown = order[:limit]
    ranked = list(zip(shown, itertools.accumulate((scored[pid] for pid in shown), min), strict=True))
    hits = _hits(kb, ranked, merged)
    _mark_weak(kb, plan, hits, candidates, counts)
    return hits


def _scores(
    kb: KnowledgeBase, plan: QueryPlan, candidates: dict[str, Candidate], counts: dict[str, int]
) -> dict[str, float]:
    """Each candidate's score: its BM25 over all the question's terms against the
    best one's, by its kind and by how much of the question it says, with a bonus
    for each sign that it answers what was asked."""
    relevance = _bm25(kb, plan, candidates, counts)
    best = max(relevance.values()) or 1.0
    answers_count = _count_pattern(plan.text)
    answer_shapes = [shape for asked, shape in ANSWER_TYPES if asked.search(plan.text)]
    coverage_weights = rarity_weights(kb, plan.words, counts)
    scores = {}
    for pid, passage in candidates.items():
        score = relevance[pid] / best * KIND_PRIOR.get(passage.kind, 0.8)
        if passage.heading:
            score *= HEADING_PRIOR
        score *= 1 - COVERAGE_WEIGHT + COVERAGE_WEIGHT * _coverage(coverage_weights, passage.body)
        for cid in plan.concepts:
            if cid in passage.concepts:
                strength = 1.0 if passage.concepts[cid] == "text" else 0.5
                score += CONCEPT_BONUS * strength / len(plan.concepts)
        if answers_count and answers_count.search(passage.body):
            score += COUNT_BONUS
        score += ANSWER_TYPE_BONUS * sum(1 for shape in answer_shapes if shape.search(passage.body))
        scores[pid] = score
    return scores


def _rules_after_examples(
    kb: KnowledgeBase,
    order: list[str],
    candidates: dict[str, Candidate],
    scored: dict[str, float],
    where: str,
    params: list,
) -> list[str]:
    """An example among the first EXAMPLE_TOP is followed by the rule it illustrates."""
    examples = [
        pid
        for pid in order[:EXAMPLE_TOP]
        if pid in candidates and candidates[pid].kind == "example" and candidates[pid].parent
    ]
    wanted = {candidates[pid].parent for pid in examples} - candidates.keys()
    if wanted:
        marks = ",".join("?" * len(wanted))
        rows = kb.query(
            f"SELECT p.rowid FROM passages p WHERE p.id IN ({marks}) {where}", (*sorted(wanted), *params)
        )
        candidates.update(_candidates(kb, [r[0] for r in rows]))
    order = list(order)
    for pid in examples:
        rule = candidates[pid].parent
        if rule not in candidates or rule in order[: order.index(pid)]:
            continue
        if rule in order:
            order.remove(rule)
        order.insert(order.index(pid) + 1, rule)
        scored.setdefault(rule, scored[pid])
    return order


def _pair_terms(kb: KnowledgeBase, plan: QueryPlan, counts: dict[str, int]) -> list[str]:
    """What the second ranking looks for: the question's character pairs (for a
    question in English, those of the Chinese words it was read as) and its Latin
    words, but those in more than PAIR_SHARE_MAX of the passages (的效, 效果):
    every passage they match is scored, for almost nothing."""
    terms = plan.pairs + [w for w in latin_words(plan.text) if w not in STOPWORDS]
    kept = [t for t in terms if counts.get(t, 0) <= PAIR_SHARE_MAX * kb.passage_count]
    return kept or terms


def _fused(ranked: list[str], pairs: list[str], nearest: list[str]) -> list[str]:
    """Reciprocal rank fusion: a passage scores 1/(FUSION_K + its rank) in the
    full ranking, PAIR_SHARE of that in the character-pair ranking and
    QUESTION_SHARE in the nearest-curated-question ranking."""
    total: dict[str, float] = {}
    for share, ranking in ((1.0, ranked), (PAIR_SHARE, pairs), (QUESTION_SHARE, nearest)):
        for rank, pid in enumerate(dict.fromkeys(ranking), 1):
            total[pid] = total.get(pid, 0.0) + share / (FUSION_K + rank)
    return sorted(total, key=lambda pid: (-total[pid], pid))


def _nearest_question(
    kb: KnowledgeBase, plan: QueryPlan, candidates: dict[str, Candidate], counts: dict[str, int]
) -> list[str]:
    """The candidates by how near one of their curated questions comes to the one
    asked, as a whole: the question's words it shares (by rarity) against all the
    question's words and the curated question's words it does not say."""
    asked = {w for w in plan.words if w not in STOPWORDS}
    if not asked:
        return []
    idf = rarity_weights(kb, list(asked), counts)
    whole = sum(idf.values())
    best: dict[str, float] = {}
    for pid, passage in candidates.items():
        for question in passage.questions:
            shared = sum(idf[w] for w in asked & question)
            if shared:
                near = shared / (whole + UNSAID_WEIGHT * len(question - asked))
                best[pid] = max(best.get(pid, 0.0), near)
    return sorted(best, key=lambda pid: (-best[pid], pid))


def _mark_weak(
    kb: KnowledgeBase, plan: QueryPlan, hits: list[Hit], candidates: dict[str, Candidate], counts: dict
) -> None:
    """A hit that says too little of the question in its own words is the nearest,
    not an answer (ocgkb.query.abstain.mark_weak)."""
    from ocgkb.query.abstain import mark_weak

    mark_weak(kb, plan, hits, {h.id: candidates[h.id].own_words for h in hits if h.id in candidates}, counts)


def _rules_before_repeats(
    plan: QueryPlan, candidates: dict[str, Candidate], scored: dict[str, float]
) -> None:
    """A loose paragraph or bullet (the wiki, the guide, the tournament text) that
    says nothing of the question a rule clause does not also say ranks below it."""
    wanted = set(plan.words) | set(plan.expansions)
    said = {pid: wanted & c.fields[0][0].keys() for pid, c in candidates.items() if pid in scored}
    clauses = [pid for pid in said if candidates[pid].kind == "clause" and said[pid]]
    for pid, words in said.items():
        if not candidates[pid].loose or not words:
            continue
        covering = [
            scored[c] for c in clauses if words <= said[c] and scored[c] >= REPEAT_MARGIN * scored[pid]
        ]
        if covering:
            scored[pid] = min(scored[pid], max(covering) - 1e-6)


def _count_pattern(text: str) -> re.Pattern[str] | None:
    """What a passage answering a how-many question says: a number of the same thing."""
    match = COUNT_QUESTION.search(text)
    if not match:
        return None
    # 几个 is any count: 几个祭品 is answered by 2只, 几个回合 by 3回合.
    counter = match.group(1) if match.group(1) not in (None, "个") else f"[{COUNTERS}]"
    return re.compile(rf"(?:\d+|[一二三四五六七八九十两]+)\s*{counter}")


def _document_counts(kb: KnowledgeBase, terms: list[str]) -> dict[str, int]:
    return dict(kb.query(f"SELECT term, doc FROM term_counts WHERE term IN {IN_JSON}", (json_values(terms),)))


def _selective(kb: KnowledgeBase, terms: list[str], counts: dict[str, int]) -> list[str]:
    """The terms worth a full-text lookup: those in at most MAX_POSTINGS passages
    and MAX_SHARE of them, or the RAREST_KEPT rarest when every term is common."""
    present = [t for t in dict.fromkeys(terms) if counts.get(t, 0) > 0]
    limit = min(MAX_POSTINGS, MAX_SHARE * kb.passage_count)
    kept = [t for t in present if counts[t] <= limit]
    if len(kept) < RAREST_KEPT:
        kept = sorted(present, key=lambda t: counts[t])[:RAREST_KEPT]
    return kept


def _candidates(kb: KnowledgeBase, rowids: list[int]) -> dict[str, Candidate]:
    """What scoring needs of these passages, by id, in the order given."""
    known = _read_candidates(kb, rowids)
    return {known[rowid].id: known[rowid] for rowid in rowids if rowid in known}


def _best_by_fts(
    kb: KnowledgeBase,
    terms: list[str],
    where: str,
    params: list,
    columns: str = "",
    weights: str = "",
    names: list[str] | None = None,
) -> list[int]:
    """The rowids of the CANDIDATES best passages for some terms by FTS5's BM25
    (over some columns, with some column weights, when given)."""
    if not terms:
        return []
    # Every term quoted, so input such as `No.62`, `NOT` or `-` is never FTS5 syntax.
    match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
    if columns:
        match = f"{{{columns}}} : ({match})"
    if names:  # sought in the words column only
        match = " OR ".join([match, *('words : "' + t.replace('"', '""') + '"' for t in names)])
    rank = f"bm25(passage_fts{weights})"
    if where:
        sql = f"""
            SELECT p.rowid FROM passage_fts f JOIN passages p ON p.rowid = f.rowid
            WHERE passage_fts MATCH ? {where}
            ORDER BY {rank} LIMIT {CANDIDATES}
        """
        return [r[0] for r in kb.query(sql, (match, *params))]
    # Without filters the index ranks alone: half the time.
    sql = f"SELECT rowid FROM passage_fts WHERE passage_fts MATCH ? ORDER BY {rank} LIMIT {CANDIDATES}"
    return [r[0] for r in kb.query(sql, (match,))]


@dataclass(frozen=True)
class Candidate:
    """What ranking needs of a passage. A built knowledge base never changes under
    an open connection, so each passage is read once per process (kb.candidates)."""

    id: str
    doc: str
    kind: str
    dup_of: str | None
    parent: str | None
    body: str
    # (token counts, number of tokens) of the words, grams, context and asked fields
    fields: tuple[tuple[Counter, int], ...]
    concepts: dict[str, str]  # concept → how it is tagged ("text" or weaker)
    questions: tuple[frozenset[str], ...] = ()  # the words of each curated question it answers

    @property
    def loose(self) -> bool:
        """Text that repeats the rules in its own way (LOOSE_DOCS), not a rule itself."""
        return self.doc in LOOSE_DOCS and self.kind in ("paragraph", "subitem")

    @property
    def heading(self) -> bool:
        """A short line that only introduces a list (咒文速度1的例子：), not a rule."""
        return len(self.body) <= HEADING_LENGTH and self.body.rstrip().endswith((":", "："))

    @property
    def own_words(self) -> set[str]:
        """The words of its text and of the questions it answers."""
        return self.fields[0][0].keys() | self.fields[3][0].keys()


def warm(kb: KnowledgeBase) -> int:
    """Read what ranking needs of every passage now, as a long-running process (a
    server) would over its first questions; returns how many passages."""
    rows = kb.query("SELECT rowid, id FROM passages")
    for start in range(0, len(rows), 5000):
        _read_candidates(kb, [r[0] for r in rows[start : start + 5000]])
        _hit_parts(kb, [r[1] for r in rows[start : start + 5000]])
    return len(rows)


def _read_candidates(kb: KnowledgeBase, rowids: list[int]) -> dict[int, Candidate]:
    """Candidates by rowid: those not yet read in this process in two queries."""
    cache = kb.candidates
    missing = [r for r in rowids if r not in cache]
    if missing:
        marks = ",".join("?" * len(missing))
        rows = kb.query(
            "SELECT rowid, id, doc, kind, dup_of, parent, search_text, words, grams, context, asked, asked_each"
            f" FROM passages WHERE rowid IN ({marks})",
            missing,
        )
        ids = [r["id"] for r in rows]
        tags = _concept_tags(kb, ids)
        for r in rows:
            fields = tuple(
                (Counter(tokens), len(tokens))
                for tokens in ((r[f] or "").split() for f in ("words", "grams", "context", "asked"))
            )
            cache[r["rowid"]] = Candidate(
                r["id"],
                r["doc"],
                r["kind"],
                r["dup_of"],
                r["parent"],
                r["search_text"],
                fields,
                tags.get(r["id"], {}),
                tuple(frozenset(line.split()) for line in (r["asked_each"] or "").splitlines() if line),
            )
    return {r: cache[r] for r in rowids if r in cache}


def _bm25(
    kb: KnowledgeBase, plan: QueryPlan, candidates: dict[str, Candidate], counts: dict[str, int]
) -> dict[str, float]:
    """BM25 of every candidate over all the question's terms, by where they are found."""
    n = max(kb.passage_count, 1)
    idf = {t: math.log(1 + (n - c + 0.5) / (c + 0.5)) for t, c in counts.items()}
    average = kb.average_tokens
    words = {t: idf.get(t, 0.0) for t in plan.words}
    words.update({t: INNER_WEIGHT * idf.get(t, 0.0) for t in plan.inner})
    grams = {t: idf.get(t, 0.0) for t in plan.grams}
    expansions = {t: idf.get(t, 0.0) for t in plan.expansions}
    asked_average = average.get("asked") or 1.0
    scores = {}
    for pid, passage in candidates.items():
        text, pairs, title, asked = passage.fields
        scores[pid] = (
            WORD_WEIGHT * _field(text, words, average["words"])
            + GRAM_WEIGHT * _field(pairs, grams, average["grams"])
            + TITLE_WEIGHT * _field(title, words, average["context"])
            + EXPANSION_WEIGHT * _field(text, expansions, average["words"])
            + ASKED_WEIGHT * _field(asked, words, asked_average)
            + ASKED_GRAM_WEIGHT * _field(asked, grams, asked_average)
        )
    return scores


def _field(field: tuple[Counter, int], weights: dict[str, float], average: float) -> float:
    """BM25 of one field, (its token counts, its length); `weights` the idf of the terms sought."""
    counts, length = field
    found = weights.keys() & counts.keys()
    if not found:
        return 0.0
    norm = BM25_K1 * (1 - BM25_B + BM25_B * length / (average or 1.0))
    return sum(weights[t] * counts[t] * (BM25_K1 + 1) / (counts[t] + norm) for t in found)


def rarity_weights(kb: KnowledgeBase, words: list[str], counts: dict[str, int]) -> dict[str, float]:
    """How much each question word counts toward coverage: rarer in the texts, more."""
    n = kb.passage_count
    return {w: math.log(1 + n / (1 + counts.get(w, 0))) for w in words}


def _coverage(weights: dict[str, float], body: str) -> float:
    """The share of the question's words (weighted by rarity) a passage contains."""
    total = sum(weights.values())
    return sum(w for word, w in weights.items() if word in body) / total if total else 1.0


def _filter_sql(kb: KnowledgeBase, filters: Filters) -> tuple[str, list]:
    clauses, params = [], []
    if filters.kind:
        clauses.append("p.kind = ?")
        params.append(filters.kind)
    if filters.section:
        escaped = like_literal(filters.section)
        known = kb.query(
            "SELECT 1 FROM sections WHERE number = ? OR number LIKE ? ESCAPE '\\' LIMIT 1",
            (filters.section, escaped + ".%"),
        )
        if not known:
            raise QueryError(f"no section {filters.section}")
        clauses.append("(p.section = ? OR p.section LIKE ? ESCAPE '\\')")
        params += [filters.section, escaped + ".%"]
    if filters.concept:
        from ocgkb.query.lookup import NotFound, find_concept

        try:
            concept = find_concept(kb, filters.concept)
        except NotFound as exc:  # a filter naming nothing is bad input, like an unknown section or card
            raise QueryError(str(exc)) from None
        clauses.append("p.id IN (SELECT passage_id FROM passage_concepts WHERE concept = ?)")
        params.append(concept["id"])
    if filters.card:
        from ocgkb.query.lookup import find_cards

        matches = find_cards(kb, filters.card, limit=1)
        if not matches:
            raise QueryError(no_such_card(filters.card))
        clauses.append("p.id IN (SELECT passage_id FROM passage_cards WHERE card = ?)")
        params.append(matches[0].name)
    if filters.since or filters.until:
        # One date of the passage inside both bounds, not one date per bound.
        clauses.append("p.id IN (SELECT passage_id FROM dates WHERE date >= ? AND date <= ?)")
        params += [filters.since or "0000-00-00", filters.until or "9999-99-99"]
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


def _passing(kb: KnowledgeBase, ids: Iterable[str], where: str, params: list) -> set[str]:
    """Which of these passages the filters let through."""
    ids = list(ids)
    if not ids:
        return set()
    marks = ",".join("?" * len(ids))
    return {
        r[0]
        for r in kb.query(f"SELECT p.id FROM passages p WHERE p.id IN ({marks}) {where}", (*ids, *params))
    }


def _concept_tags(kb: KnowledgeBase, ids: list[str]) -> dict[str, dict[str, str]]:
    marks = ",".join("?" * len(ids))
    tags: dict[str, dict[str, str]] = {}
    for row in kb.query(
        f"SELECT passage_id, concept, how FROM passage_concepts WHERE passage_id IN ({marks})", ids
    ):
        tags.setdefault(row[0], {})[row[1]] = row[2]
    return tags


def passage_hit(kb: KnowledgeBase, pid: str, score: float = 0.0) -> Hit:
    """One passage as a hit, by its id."""
    return _hits(kb, [(pid, score)], {})[0]


def passage_hits(kb: KnowledgeBase, ids: list[str]) -> list[Hit]:
    """Passages as hits, in the order given, read in one batch."""
    return _hits(kb, [(pid, 0.0) for pid in ids], {})


def _hits(kb: KnowledgeBase, ranked: list[tuple[str, float]], merged: dict[str, list[str]]) -> list[Hit]:
    """Whole hits for ranked ids: what each passage shows is read once per process,
    those not yet read in four queries whatever their number."""
    parts = _hit_parts(kb, [pid for pid, _ in ranked])
    return [
        Hit(**parts[pid], score=score, merged=merged.get(pid, []))  # type: ignore[arg-type]
        for pid, score in ranked
    ]


def _hit_parts(kb: KnowledgeBase, ids: list[str]) -> dict[str, dict]:
    cache = kb.hit_parts
    missing = [pid for pid in dict.fromkeys(ids) if pid not in cache]
    if missing:
        marks = ",".join("?" * len(missing))
        rows = {r["id"]: r for r in kb.query(f"SELECT * FROM passages WHERE id IN ({marks})", missing)}
        dates = _grouped(
            kb, f"SELECT passage_id, date FROM dates WHERE passage_id IN ({marks}) ORDER BY position", missing
        )
        cards = _grouped(
            kb,
            f"SELECT passage_id, card FROM passage_cards WHERE passage_id IN ({marks}) ORDER BY rowid",
            missing,
        )
        concepts = _grouped(
            kb,
            f"SELECT passage_id, concept FROM passage_concepts WHERE passage_id IN ({marks}) ORDER BY concept",
            missing,
        )
        for pid, row in rows.items():
            cache[pid] = {
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
            }
    # Copies: a caller may change its hits, never the cache.
    return {pid: {k: (list(v) if isinstance(v, list) else v) for k, v in cache[pid].items()} for pid in ids}


def _grouped(kb: KnowledgeBase, sql: str, ids: list[str]) -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = {}
    for key, value in kb.query(sql, ids):
        grouped.setdefault(key, []).append(value)
    return grouped
