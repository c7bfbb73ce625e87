"""Why the texts do not answer, said plainly (issue 32): the question is about a
point the texts mark under review (调整中); or about what a card's own text says,
which no rule text prints; or about a matter the texts hand to another document
they do not include (003's penalty guidelines); or simply not in them.

`why_not` reads the question's intent, not its overlap with the passages (which
cannot tell these apart): a passage that says 调整中 ranked first, a named card with
a phrase asking what a card's text states, a phrase of a matter referred elsewhere
(kb/synonyms.yaml `card_text_asks`, `referred_elsewhere`).
"""

from __future__ import annotations

import re

from ocgkb.query.abstain import NOTHING_FITS, Verdict, says_any, without_cards
from ocgkb.query.named_cards import NamedCard
from ocgkb.query.plan import QueryPlan, word_lists
from ocgkb.store.database import KnowledgeBase
from ocgkb.store.passages import Hit, passage_hits, passages_saying
from ocgkb.store.search_index import referring_passages

# The reasons, in the order they are tried.
REASONS = ("under_review", "card_text", "referred", "not_in_texts")
UNDER_REVIEW = (
    "The texts say this is under review (调整中): at an event, the judge decides (rulings/调整中/4)."
)
CARD_TEXT_IMPORTED = "What a card's own text says is in its text, not in the rule texts: its imported text and reading are below."
CARD_TEXT = (
    "The rule texts hold no card texts; import yours (`ocgkb cards import`) to read what the card says."
)
REFERRED = "The texts refer this to a document they do not include: {where}."
REFERRED_NOWHERE = "The texts refer this to a document they do not include (the penalty guidelines)."
# A passage saying 调整中 among the first REVIEW_AMONG, scored nearly as high as the
# first (REVIEW_SHARE of its score), is what the question asks about; merely the
# nearest of several is not (among the first 3 with no share it raised a false alarm
# on honest_b.jsonl).
REVIEW_AMONG = 3
REVIEW_SHARE = 0.9
# A point under review said in so few characters is named by them (连接魔法).
SUBJECT_LENGTH = 8
# A question naming 3/4 of a point's concepts (at least 3) asks about it: on every
# question set in benchmarks/ this fires on no answerable question.
POINT_CONCEPTS = 3
CONCEPT_SHARE = 0.75
# Where the texts explain what 调整中 means: a question about that is answered there.
UNDER_REVIEW_TOPIC = "调整中"
# How the texts say a point is undecided: 调整中, or 没有明确调整 (002 公开: 「正正堂堂」…).
UNDECIDED = ("调整中", "没有明确调整")


class Honest:
    """Why nothing in the texts settles a question: the reason (REASONS), what to say
    first, and the passage to show first (the one saying 调整中, or the one referring
    elsewhere), if any. (A class with slots: see Verdict.)"""

    __slots__ = ("reason", "message", "first")

    def __init__(self, reason: str, message: str, first: str | None = None) -> None:
        self.reason, self.message, self.first = reason, message, first


def why_not(
    kb: KnowledgeBase,
    plan: QueryPlan,
    hits: list[Hit],
    cards: list[NamedCard],
    verdict: Verdict,
    texts_imported: bool,
) -> Honest | None:
    """The first reason that holds, or None when the texts answer the question."""
    best = hits[0].score if hits else 0.0
    reviewed = next(
        (h for h in hits[:REVIEW_AMONG] if under_review(h) and not h.weak and h.score >= REVIEW_SHARE * best),
        None,
    )
    if reviewed is not None:
        return Honest("under_review", UNDER_REVIEW, reviewed.id)
    said = plan.text + " " + "".join(plan.words)  # the words carry an English question's Chinese
    concepts = set(plan.concepts)
    asked_point = next((p.id for p in review_points(kb) if p.asked_by(said, concepts)), None)
    if asked_point is not None:
        return Honest("under_review", UNDER_REVIEW, asked_point)
    lists = word_lists(kb)
    asked = without_cards(plan.text, cards) if cards else plan.text
    if cards and says_any(asked, lists.get("card_text_asks", [])):
        return Honest("card_text", CARD_TEXT_IMPORTED if texts_imported else CARD_TEXT)
    if says_any(asked, lists.get("referred_elsewhere", [])):
        referring = referring_passages(kb)
        if referring:
            return Honest("referred", REFERRED.format(where=referring[0]), referring[0])
        return Honest("referred", REFERRED_NOWHERE)
    if verdict.nothing_fits and any(not card.in_texts for card in cards):
        # Nothing settles a question about a card no passage mentions: what is known
        # of that card is its own text.
        return Honest("card_text", CARD_TEXT_IMPORTED if texts_imported else CARD_TEXT)
    if verdict.nothing_fits:
        return Honest("not_in_texts", NOTHING_FITS)
    return None


class ReviewPoint:
    """A point the texts mark under review, and how a question asks about it: by its
    subject when the passage says it in a few words (连接魔法调整中……: so short a
    passage seldom ranks first), or by naming most of the rules concepts it is about
    (masterrule/82: cost, destroy, destruction_replacement, card_activation)."""

    __slots__ = ("id", "subject", "concepts")

    def __init__(self, pid: str, subject: str | None, concepts: frozenset[str]) -> None:
        self.id, self.subject, self.concepts = pid, subject, concepts

    def asked_by(self, said: str, concepts: set[str]) -> bool:
        """Whether a question (what it says, the concepts it names) asks about this point."""
        if self.subject and self.subject in said:
            return True
        named = len(self.concepts & concepts)
        return len(self.concepts) >= POINT_CONCEPTS and named >= CONCEPT_SHARE * len(self.concepts)


def review_points(kb: KnowledgeBase) -> list[ReviewPoint]:
    """The points under review, read once per knowledge base."""
    return kb.memo("query.review_points", lambda: _read_review_points(kb))


def _read_review_points(kb: KnowledgeBase) -> list[ReviewPoint]:
    rows = {r[0]: r for words in UNDECIDED for r in passages_saying(kb, words) if not _explains_review(r[2])}
    concepts = {h.id: frozenset(h.concepts) - {"official_ruling"} for h in passage_hits(kb, list(rows))}
    points = []
    for pid, text, _ in rows.values():
        subject = re.sub(r"[\s…。.，,、：:！!？?]+", "", text.replace(UNDER_REVIEW_TOPIC, ""))
        short = 2 <= len(subject) <= SUBJECT_LENGTH
        points.append(
            ReviewPoint(pid, kb.normalize(subject) if short else None, concepts.get(pid, frozenset()))
        )
    return points


def under_review(hit: Hit) -> bool:
    """A passage that says its point is under review (调整中), not one of those
    explaining what 调整中 means."""
    return any(words in hit.text for words in UNDECIDED) and not _explains_review(hit.topic)


def _explains_review(topic: str | None) -> bool:
    """The topic that explains what 调整中 means (002 调整中), not a point under review."""
    return (topic or "").endswith(UNDER_REVIEW_TOPIC)
