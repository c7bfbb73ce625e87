"""Ranking passages for a question.

1. The question becomes words, bigrams and expansions (ocgkb.query.plan).
2. Candidates: SQLite FTS5 ranks passages by BM25 over the question's
   selective terms (those in at most MAX_SHARE of passages; the commonest
   cost the most and tell the least), and separately over its expansions
   (ocgkb.store.search_index).
3. Each candidate is scored (ocgkb.query.scoring); a near-twin of another
   passage is merged into it.
4. That ranking is fused (reciprocal rank fusion) with a plainer one, FTS5's
   BM25 over the character pairs of each passage and of the curated questions it
   answers; an example among the first answers is followed by its rule.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from ocgkb.query.abstain import mark_weak
from ocgkb.query.candidates import Candidate, candidates_by_id, read_candidates
from ocgkb.query.filters import Filters
from ocgkb.query.plan import QueryError, QueryPlan, plan_query
from ocgkb.query.restriction import restriction
from ocgkb.query.scoring import bm25, nearest_question, rarity_weights, scores
from ocgkb.store.database import Family, KnowledgeBase
from ocgkb.store.passages import Hit, ranked_hits
from ocgkb.store.search_index import (
    Restriction,
    best_by_fts,
    document_counts,
    passage_families,
    passing_ids,
    passing_rowids,
)
from ocgkb.text.normalize import card_token, squash
from ocgkb.text.tokenize import STOPWORDS, is_cjk, latin_words

CANDIDATES = 30  # passages ranked in full per question; the tuned sets score the same with 40
# Terms in more passages than MAX_POSTINGS, or than MAX_SHARE of them, are left
# out of the candidate lookup: they cost the most and weigh the least (they still
# count in scoring). 效果 is in 60% of passages.
MAX_POSTINGS = 1000
MAX_SHARE = 0.25
RAREST_KEPT = 3
# A paragraph that only repeats a clause's words ranks below the clause when the
# clause scores at least this share of the paragraph's score.
REPEAT_MARGIN = 0.8
# The ranking above is fused (reciprocal rank fusion, FUSION_K) with a plainer
# one that counts PAIR_SHARE as much: FTS5's BM25 over the character pairs of the
# passage's text and of the curated questions it answers (their columns, weighted),
# which meets slang and English the vocabulary lacks.
FUSE = True
FUSION_K, PAIR_SHARE = 60, 0.5
# The nearest curated question, whole (not pooled with the passage's other
# questions), counts QUESTION_SHARE (ocgkb.query.scoring.nearest_question).
QUESTION_SHARE = 0.5
PAIR_SHARE_MAX = 0.25
PAIR_POSTINGS_MAX = 1500  # however many passages there are: each posting costs FTS5 a lookup
PAIR_CARDS = True  # and the cards it names, whole, in the words column
PAIR_COLUMNS = ("grams", "asked")
PAIR_WEIGHTS = {"words": 1, "grams": 1, "context": 0, "asked": 1}
# An example among the first EXAMPLE_TOP answers is followed by its rule.
EXAMPLE_TOP = 3

__all__ = ["Filters", "QueryError", "plan_query", "search"]


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
    `plan` is the question already planned (plan_query), so a caller plans once.

    Each family of documents (the seeds, what the user added) ranks its passages
    by its own statistics, so an added documentation never reorders the seeds'
    among themselves; which family answers at each place is decided by ranking
    the passages the families would show all together, on all the texts' statistics."""
    where = restriction(kb, filters or Filters())
    plan = plan or plan_query(kb, question)
    terms = list(dict.fromkeys(plan.words + plan.inner + plan.grams + plan.expansions + plan.pairs))
    if not terms:
        return []  # only punctuation or question words: nothing to look for
    pools = [
        pool
        for pool in (Pool.of(kb, family, plan, terms, where) for family in kb.families)
        if pool.candidates
    ]
    if not pools:
        return []
    own, merged = {}, {}
    for pool in pools:
        own[pool.family.name], its_merged = _ranked(kb, pool, plan, where, limit)
        for pid, twins in its_merged.items():
            merged[pid] = list(dict.fromkeys(merged.get(pid, []) + twins))
    if len(pools) == 1:
        shown = own[pools[0].family.name]
    else:
        # Only the places are decided here: the passages each family would show are enough.
        shown_by_any = {pid for ranking in own.values() for pid, _ in ranking}
        whole = Pool.together(kb, pools, plan, shown_by_any)
        order, _ = _ranked(kb, whole, plan, where, limit)
        shown = _filled(order, own, passage_families(kb, [pid for pid, _ in order]))
    hits = ranked_hits(kb, shown, merged)
    _mark_weak(kb, plan, hits, pools)
    return hits


class Pool:
    """One family's candidates for a question, with the family's own term counts
    and the candidates' BM25 (a class with slots: see Candidate)."""

    __slots__ = ("family", "counts", "candidates", "pairs", "relevance")

    def __init__(
        self,
        family: Family,
        counts: dict[str, int],
        candidates: dict[str, Candidate],
        pairs: list[tuple[int, float]],  # (rowid, FTS5 BM25) of the character-pair ranking
    ) -> None:
        self.family, self.counts, self.candidates, self.pairs = family, counts, candidates, pairs
        self.relevance: dict[str, float] = {}

    @classmethod
    def of(
        cls, kb: KnowledgeBase, family: Family, plan: QueryPlan, terms: list[str], where: Restriction
    ) -> Pool:
        """The family's passages that FTS5 ranks best for the question's selective
        terms, and (FUSE) for its character pairs."""
        counts = document_counts(kb, terms, family.name)
        # Bigrams inside a word already sought add cost, not candidates.
        said = plan.words + plan.inner + plan.expansions
        novel_grams = [g for g in plan.grams if not any(g in w for w in said)]
        found = best_by_fts(
            kb, family.name, _selective(family, said + novel_grams, counts), where, CANDIDATES
        )
        pairs = []
        if FUSE:
            # The cards the question names are sought whole (增殖的g) in the passages' words.
            names = [card_token(squash(kb.normalize(c))) for c in plan.cards] if PAIR_CARDS else []
            names = [t for t in names if t in plan.words]
            pair_terms = _pair_terms(family, plan, counts)
            pairs = best_by_fts(
                kb, family.name, pair_terms, where, CANDIDATES, PAIR_COLUMNS, PAIR_WEIGHTS, names
            )
        rowids = [rowid for rowid, _ in found + pairs]
        pool = cls(family, counts, candidates_by_id(kb, list(dict.fromkeys(rowids))), pairs)
        pool.relevance = bm25(family, plan, pool.candidates, counts)
        return pool

    @classmethod
    def together(cls, kb: KnowledgeBase, pools: list[Pool], plan: QueryPlan, kept: set[str]) -> Pool:
        """The families' candidates among `kept` (and their near-twins) as one pool,
        on all the texts' statistics (the families' own, added up)."""
        passages = sum(pool.family.passages for pool in pools)
        average = {
            field: sum(pool.family.average_tokens[field] * pool.family.passages for pool in pools) / passages
            for field in pools[0].family.average_tokens
        }
        family = Family("all", passages, average)
        # Every family with passages has a pool here (two families, both with candidates).
        counts: dict[str, int] = {}
        for pool in pools:
            for term, count in pool.counts.items():
                counts[term] = counts.get(term, 0) + count
        candidates = {
            pid: c for pool in pools for pid, c in pool.candidates.items() if pid in kept or c.dup_of in kept
        }
        # FTS5's BM25 is negative, best lowest.
        pairs = sorted((pair for pool in pools for pair in pool.pairs), key=lambda pair: pair[1])
        read = read_candidates(kb, [rowid for rowid, _ in pairs])
        pairs = [pair for pair in pairs if pair[0] in read and read[pair[0]].id in candidates]
        pool = cls(family, counts, candidates, pairs[:CANDIDATES])
        pool.relevance = bm25(family, plan, candidates, counts)
        return pool

    def weights(self, plan: QueryPlan) -> dict[str, float]:
        """How much each of the question's words counts toward a passage's coverage here."""
        return rarity_weights(self.family.passages, plan.words, self.counts)


def _ranked(
    kb: KnowledgeBase, pool: Pool, plan: QueryPlan, where: Restriction, limit: int
) -> tuple[list[tuple[str, float]], dict[str, list[str]]]:
    """A pool's first `limit` passages, best first, each with its score capped by
    the one above it (the order is the fused one), and the near-twins merged into each."""
    candidates = pool.candidates
    best = max(pool.relevance.values())
    own = scores(kb, pool.family, plan, candidates, pool.counts, pool.relevance, best)
    # A near-twin counts for the passage it repeats, shown once.
    twins_allowed = _passing(kb, {c.dup_of for c in candidates.values() if c.dup_of}, where)
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
        order = _fuse_rankings(kb, pool, plan, order, twin)
    if EXAMPLE_TOP:
        order = _rules_after_examples(kb, order, candidates, scored, where, twin)
    shown = order[:limit]
    return list(zip(shown, itertools.accumulate((scored[pid] for pid in shown), min), strict=True)), merged


def _filled(
    whole: list[tuple[str, float]], own: dict[str, list[tuple[str, float]]], family_of: dict[str, str]
) -> list[tuple[str, float]]:
    """The ranking of all the texts, each place filled by the next passage of its
    family's own ranking, with the place's score: the families answer where the
    whole ranking says, each in its own order. A passage already shown (a twin in
    two families' rankings) is not shown again."""
    queues = {name: iter(ranking) for name, ranking in own.items()}
    shown: dict[str, float] = {}
    for pid, score in whole:
        queue = queues.get(family_of.get(pid, ""))
        found = next((p for p, _ in queue if p not in shown), None) if queue else None
        if found is not None:
            shown[found] = score
    return list(shown.items())


def _rules_after_examples(
    kb: KnowledgeBase,
    order: list[str],
    candidates: dict[str, Candidate],
    scored: dict[str, float],
    where: Restriction,
    twin: dict[str, str],
) -> list[str]:
    """An example among the first EXAMPLE_TOP is followed by the rule it illustrates
    (or the passage that rule repeats, `twin`, as it is shown)."""
    examples = [
        pid
        for pid in order[:EXAMPLE_TOP]
        if pid in candidates and candidates[pid].kind == "example" and candidates[pid].parent
    ]
    wanted = {candidates[pid].parent for pid in examples} - candidates.keys()
    if wanted:
        read = candidates_by_id(kb, passing_rowids(kb, sorted(wanted), where))
        candidates.update(read)
        allowed = _passing(kb, {c.dup_of for c in read.values() if c.dup_of}, where)
        twin.update({pid: c.dup_of if c.dup_of in allowed else pid for pid, c in read.items()})
    order = list(order)
    for pid in examples:
        parent = candidates[pid].parent
        rule = twin.get(parent, parent)
        if parent not in candidates or rule in order[: order.index(pid)]:
            continue
        if rule in order:
            order.remove(rule)
        order.insert(order.index(pid) + 1, rule)
        scored.setdefault(rule, scored[pid])
    return order


def _pair_terms(family: Family, plan: QueryPlan, counts: dict[str, int]) -> list[str]:
    """What the second ranking looks for: the question's character pairs (for a
    question in English, those of the Chinese words it was read as) and its Latin
    words, but those in more than PAIR_SHARE_MAX of the family's passages (的效, 效果),
    or than PAIR_POSTINGS_MAX (a large added documentation):
    every passage they match is scored, for almost nothing."""
    terms = plan.pairs + [w for w in latin_words(plan.text) if w not in STOPWORDS]
    most = min(PAIR_SHARE_MAX * family.passages, PAIR_POSTINGS_MAX)
    kept = [t for t in terms if counts.get(t, 0) <= most]
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


def _fuse_rankings(
    kb: KnowledgeBase, pool: Pool, plan: QueryPlan, order: list[str], twin: dict[str, str]
) -> list[str]:
    """The full ranking fused with the character-pair one; for a question asked in
    English, the passages with curated questions reordered among themselves by the
    nearest one (in Chinese the pooled questions already serve: ranking_ablation.py)."""
    candidates = pool.candidates
    pair_order = [twin[c.id] for c in read_candidates(kb, [rowid for rowid, _ in pool.pairs]).values()]
    order = _fused(order, pair_order, [])
    english = not any(is_cjk(ch) for ch in plan.text)
    nearest = nearest_question(pool.family, plan, candidates, pool.counts) if english else []
    if nearest:
        curated = {twin[pid] for pid, c in candidates.items() if c.questions}
        order = _among(order, _fused(order, pair_order, [twin[pid] for pid in nearest]), curated)
    return order


def _among(order: list[str], reordered: list[str], these: set[str]) -> list[str]:
    """`order`, with the places `these` hold in it filled in their `reordered` order:
    the curated questions say which of the passages that have some answers best,
    nothing of a passage that has none (an added documentation's), which keeps its place."""
    moved = iter([pid for pid in reordered if pid in these])
    return [next(moved) if pid in these else pid for pid in order]


def _mark_weak(kb: KnowledgeBase, plan: QueryPlan, hits: list[Hit], pools: list[Pool]) -> None:
    """A hit that says too little of the question in its own words is the nearest,
    not an answer (ocgkb.query.abstain.mark_weak), by its family's statistics."""
    known = {pid: (pool.family.name, c) for pool in pools for pid, c in pool.candidates.items()}
    unread = [h.id for h in hits if h.id not in known]
    if unread:  # a passage shown for its twin in another family
        families = passage_families(kb, unread)
        for pid, c in candidates_by_id(kb, passing_rowids(kb, unread, Restriction())).items():
            known[pid] = (families[pid], c)
    family_weights = {pool.family.name: pool.weights(plan) for pool in pools}
    own_words, weights = {}, {}
    for hit in hits:
        if hit.id in known:
            family, c = known[hit.id]
            own_words[hit.id] = c.own_words
            weights[hit.id] = family_weights.get(family) or next(iter(family_weights.values()))
    mark_weak(plan, hits, own_words, weights)


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


def _selective(family: Family, terms: list[str], counts: dict[str, int]) -> list[str]:
    """The terms worth a full-text lookup: those in at most MAX_POSTINGS of the
    family's passages and MAX_SHARE of them, or the RAREST_KEPT rarest when every
    term is common."""
    present = [t for t in dict.fromkeys(terms) if counts.get(t, 0) > 0]
    limit = min(MAX_POSTINGS, MAX_SHARE * family.passages)
    kept = [t for t in present if counts[t] <= limit]
    if len(kept) < RAREST_KEPT:
        kept = sorted(present, key=lambda t: counts[t])[:RAREST_KEPT]
    return kept


def _passing(kb: KnowledgeBase, ids: Iterable[str], where: Restriction) -> set[str]:
    """Which of these passages the filters let through."""
    return passing_ids(kb, ids, where)
