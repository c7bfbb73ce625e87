"""Scoring a candidate passage against a question: BM25 over all the question's
terms, computed here on the passage's text, its bigrams, its section title or
topic and the curated questions it answers; a passage that says more of what was
asked, is about the concepts the question names, or states a number when a
number is asked for, gains; a rule clause outranks a loose paragraph.
"""

from __future__ import annotations

import math
import re
from collections import Counter

from ocgkb.query.candidates import Candidate
from ocgkb.query.plan import QueryPlan
from ocgkb.store.database import Family, KnowledgeBase
from ocgkb.text.normalize import card_token, squash
from ocgkb.text.tokenize import STOPWORDS

# BM25 weights of where a term is found: the passage's words, its bigrams, its title.
WORD_WEIGHT, GRAM_WEIGHT, TITLE_WEIGHT = 1.0, 0.4, 0.25
# The curated questions a passage answers count below its own words.
ASKED_WEIGHT = 0.6
ASKED_GRAM_WEIGHT = 0.7  # their character pairs: slang the vocabulary lacks still meets slang
BM25_K1, BM25_B = 1.2, 0.75
KIND_PRIOR = {"clause": 1.0, "subitem": 0.93, "ruling": 0.95, "example": 0.85, "note": 0.85, "paragraph": 0.8}
# A heading (Candidate.heading) introduces a list: the items answer, not it.
HEADING_PRIOR = 0.5
CONCEPT_BONUS = 0.18
# A passage that names the cards a question names (a share of them: each counts)
# is about the question's situation: an added documentation's rulings are mostly
# such, about one card beside another (benchmarks/edition_retrieval.py).
CARD_BONUS = 0.2
# A shorter word inside one the question said (装备 in 装备卡) is the same idea
# again: it helps to find a passage, not to count twice.
INNER_WEIGHT = 0.15
# Words the question did not say but its concepts add count less.
EXPANSION_WEIGHT = 0.35
# BM25 over OR-ed words favours one rare word; a passage that says more of what
# was asked (weighted by rarity) is the better answer.
COVERAGE_WEIGHT = 0.25
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
# How near a curated question comes to the one asked: a word it says that the
# question does not weighs UNSAID_WEIGHT.
UNSAID_WEIGHT = 1.0


def scores(
    kb: KnowledgeBase,
    family: Family,
    plan: QueryPlan,
    candidates: dict[str, Candidate],
    counts: dict[str, int],
    relevance: dict[str, float],
    best: float,
) -> dict[str, float]:
    """Each candidate's score: its BM25 over all the question's terms (`relevance`,
    bm25()) against the best one's, by its kind and by how much of the question it
    says, with a bonus for each sign that it answers what was asked."""
    best = best or 1.0
    answers_count = _count_pattern(plan.text)
    answer_shapes = [shape for asked, shape in ANSWER_TYPES if asked.search(plan.text)]
    coverage_weights = rarity_weights(family.passages, plan.words, counts)
    card_tokens = [t for t in (card_token(squash(kb.normalize(c))) for c in plan.cards) if t]
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
        if card_tokens:
            words = passage.fields[0][0]
            score += CARD_BONUS * sum(1 for t in card_tokens if t in words) / len(card_tokens)
        if answers_count and answers_count.search(passage.body):
            score += COUNT_BONUS
        score += ANSWER_TYPE_BONUS * sum(1 for shape in answer_shapes if shape.search(passage.body))
        scores[pid] = score
    return scores


def bm25(
    family: Family, plan: QueryPlan, candidates: dict[str, Candidate], counts: dict[str, int]
) -> dict[str, float]:
    """BM25 of every candidate of a family over all the question's terms, by where
    they are found, with the family's own statistics (`counts` are its own)."""
    n = max(family.passages, 1)
    idf = {t: math.log(1 + (n - c + 0.5) / (c + 0.5)) for t, c in counts.items()}
    average = family.average_tokens
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


def rarity_weights(n: int, words: list[str], counts: dict[str, int]) -> dict[str, float]:
    """How much each question word counts toward coverage: rarer in the `n` passages
    `counts` counts in, more."""
    return {w: math.log(1 + n / (1 + counts.get(w, 0))) for w in words}


def _coverage(weights: dict[str, float], body: str) -> float:
    """The share of the question's words (weighted by rarity) a passage contains."""
    total = sum(weights.values())
    return sum(w for word, w in weights.items() if word in body) / total if total else 1.0


def _count_pattern(text: str) -> re.Pattern[str] | None:
    """What a passage answering a how-many question says: a number of the same thing."""
    match = COUNT_QUESTION.search(text)
    if not match:
        return None
    # 几个 is any count: 几个祭品 is answered by 2只, 几个回合 by 3回合.
    counter = match.group(1) if match.group(1) not in (None, "个") else f"[{COUNTERS}]"
    return re.compile(rf"(?:\d+|[一二三四五六七八九十两]+)\s*{counter}")


def nearest_question(
    family: Family, plan: QueryPlan, candidates: dict[str, Candidate], counts: dict[str, int]
) -> list[str]:
    """The candidates by how near one of their curated questions comes to the one
    asked, as a whole: the question's words it shares (by rarity) against all the
    question's words and the curated question's words it does not say."""
    asked = {w for w in plan.words if w not in STOPWORDS}
    if not asked:
        return []
    idf = rarity_weights(family.passages, list(asked), counts)
    whole = sum(idf.values())
    best: dict[str, float] = {}
    for pid, passage in candidates.items():
        for question in passage.questions:
            shared = sum(idf[w] for w in asked & question)
            if shared:
                near = shared / (whole + UNSAID_WEIGHT * len(question - asked))
                best[pid] = max(best.get(pid, 0.0), near)
    return sorted(best, key=lambda pid: (-best[pid], pid))
