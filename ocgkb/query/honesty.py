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

from ocgkb.query.abstain import NOTHING_FITS, Verdict, says_any, without_cards
from ocgkb.query.named_cards import NamedCard
from ocgkb.query.plan import QueryPlan, word_lists
from ocgkb.store.database import KnowledgeBase
from ocgkb.store.passages import Hit
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
# A passage saying 调整中 ranked first (REVIEW_AMONG), and not merely the nearest, is
# what the question asks about; among the first 3 it found one more on honest_b.jsonl
# and raised a false alarm there too.
REVIEW_AMONG = 1
# Where the texts explain what 调整中 means: a question about that is answered there.
UNDER_REVIEW_TOPIC = "调整中"


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
    reviewed = next((h for h in hits[:REVIEW_AMONG] if under_review(h) and not h.weak), None)
    if reviewed is not None:
        return Honest("under_review", UNDER_REVIEW, reviewed.id)
    lists = word_lists(kb)
    asked = without_cards(plan.text, cards) if cards else plan.text
    if cards and says_any(asked, lists.get("card_text_asks", [])):
        return Honest("card_text", CARD_TEXT_IMPORTED if texts_imported else CARD_TEXT)
    if says_any(asked, lists.get("referred_elsewhere", [])):
        referring = referring_passages(kb)
        if referring:
            return Honest("referred", REFERRED.format(where=referring[0]), referring[0])
        return Honest("referred", REFERRED_NOWHERE)
    if verdict.nothing_fits:
        return Honest("not_in_texts", NOTHING_FITS)
    return None


def under_review(hit: Hit) -> bool:
    """A passage that says its point is under review (调整中), not one of those
    explaining what 调整中 means."""
    return UNDER_REVIEW_TOPIC in hit.text and not (hit.topic or "").endswith(UNDER_REVIEW_TOPIC)
