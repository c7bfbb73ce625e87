"""Saying so when the texts do not answer.

A search always finds the nearest passages; this module decides whether any of
them holds what the question asks, from signals any question has:

- **what the texts can read of it**: the share of the question the texts'
  vocabulary, the curated slang, the English glossary and the card names read.
  A question about the weather or a prize is mostly words no passage has ever
  written (明天, 下雨, 奖品, banana);
- **coverage**: how much of the question's rarer words (weighted by how rare
  they are in the texts) a passage says in its own words, its text or the
  questions it is curated to answer. A passage that shares only a common word or
  a title is the nearest, not an answer (`weak`);
- **the cards it names**: a real card no passage mentions (「灰流丽」) has no
  ruling, whatever the nearest passages say;
- **what it asks**: a card's Forbidden & Limited status is in the lists, not the
  rules (ocgkb.query.limits).

The thresholds are calibrated on benchmarks/questions/abstain_calibrate.jsonl and
abstain_calibrate2.jsonl (benchmarks/abstention.py prints what they catch), never
on single questions; abstain_heldout*.jsonl are never tuned on.
"""

from __future__ import annotations

import functools
import math
import re

from ocgkb.query.named_cards import NamedCard
from ocgkb.query.plan import QueryPlan, ontology_of, word_lists
from ocgkb.store.database import KnowledgeBase
from ocgkb.store.passages import Hit
from ocgkb.store.search_index import document_counts, general_use
from ocgkb.text.name_forms import loose_form
from ocgkb.text.normalize import squash
from ocgkb.text.tokenize import STOPWORDS, is_cjk

NOTHING_FITS = "The texts do not answer this; the nearest passages are:"
NO_RULING = "No ruling in the texts mentions {cards}"
NOT_BOTH = "No passage names both {cards}"
# Calibrated on benchmarks/questions/abstain_calibrate*.jsonl (benchmarks/abstention.py).
# A passage saying less than this share of the question's words (by rarity) is weak.
WEAK_COVERAGE = 0.05
# A question the texts read less than this share of is about something else.
LEAST_READ = 0.45
# Nothing fits when the best of the first BEST_OF hits covers so little of a
# question the texts read so little of: coverage × read share below this.
LEAST_SUPPORT = 0.25
BEST_OF = 3
# A passage saying this share of the question answers it, however little of it the texts read.
SAYS_MOST = 0.6
# A word is the rules' own when the texts use it at least 10^RULES_WORD times as
# often (per passage) as general Chinese does (per word of jieba's dictionary):
# 连锁 10^4.2, 手卡 10^6.7; 天气 10^1.8, 冠军 10^1.2 (set halfway between the
# calibration sets' off-topic questions, ≤ 10^1.9, and their answerable ones, ≥ 10^3.9).
RULES_WORD = 2.5
UNREAD_RUN = 2  # unread characters in a row that count: a lone one is a particle
LATIN_UNIT = 2  # an English word counts as this many characters
_LATIN_WORD = r"[a-z][a-z0-9']*|[0-9]+"
# Asking for a card's Forbidden & Limited status: banned, limited, how many copies;
# BANNED: asking whether it is forbidden or limited (the lists hold that, not the rules).
# Compiled on first use: `ocgkb ask` pays for them only when it needs them.
# 限制 in a rule's own compound (苏生限制, 召唤限制, 次数限制) is no ban list.
_LIMIT = r"(?<!苏生|召唤|发动|次数|回合|时间|张数|使用|攻击|表示|条件)限制"
BANNED = r"禁|" + _LIMIT + r"|\bbann?ed\b|\bforbidden\b|\b(?:semi-?)?limited\b|\bban ?list\b|\bf ?& ?l\b"
STATUS_QUESTION = (
    r"禁卡|禁止卡|被禁|禁了|禁掉|解禁|限制卡|准限制|半限|限一|限1|"
    + _LIMIT
    + r"[了吗]|禁限|禁止吗|几张|能带几|能投几|能放几|能用几"
    r"|\bbann?ed\b|\bforbidden\b|\b(?:semi-?)?limited\b|\bunlimited\b|\bban ?list\b|\bf ?& ?l\b|how many copies"
)


@functools.cache
def _pattern(source: str) -> re.Pattern[str]:
    return re.compile(source)


class Verdict:
    """Whether anything in the texts answers a question, and what to say first. (A
    class with slots: a NamedTuple's class costs twenty times more at start-up.)"""

    __slots__ = ("nothing_fits", "message", "notes", "reasons", "read_share")

    def __init__(
        self,
        nothing_fits: bool,
        message: str | None,
        notes: list[str],
        reasons: list[str],  # why nothing fits, for benchmarks and --explain
        read_share: float,
    ) -> None:
        self.nothing_fits, self.message, self.notes = nothing_fits, message, notes
        self.reasons, self.read_share = reasons, read_share


def judge(
    kb: KnowledgeBase,
    plan: QueryPlan,
    hits: list[Hit],
    cards: list[NamedCard],
    counts: dict[str, int] | None = None,
) -> Verdict:
    """Whether the hits answer the question (see the module's docstring), and the
    notes to show before them. When nothing fits, every hit is marked weak."""
    notes, reasons = [], []
    unmentioned = [c.name for c in cards if not c.in_texts]
    if unmentioned:
        notes.append(NO_RULING.format(cards=quoted(unmentioned)))
        reasons.append("unmentioned card")
    if cards and asks_status(plan.text, cards) and _pattern(BANNED).search(without_cards(plan.text, cards)):
        reasons.append("status is in the lists")
    if asks_outside(kb, plan):
        reasons.append("asks outside the texts")
    if not rules_vocabulary(kb, plan, cards):
        reasons.append("no word of the rules")
    share = read_share(kb, plan, cards)
    best = max((h.coverage for h in hits[:BEST_OF]), default=0.0)
    if share < LEAST_READ and best < SAYS_MOST:  # slang the texts cannot read, unless a passage says it all
        reasons.append("the texts read little of it")
    if hits and best * share < LEAST_SUPPORT:
        reasons.append("no passage says what it asks")
    if not hits:
        reasons.append("no passage")
    nothing = bool(reasons) or all(h.weak for h in hits)
    if nothing:
        for hit in hits:
            hit.weak = True
    return Verdict(nothing, NOTHING_FITS if nothing else None, notes, reasons, round(share, 3))


def asks_outside(kb: KnowledgeBase, plan: QueryPlan) -> bool:
    """Whether a question names what the texts never cover (kb/synonyms.yaml
    `outside`: other games and apps, prices, releases, events, the anime)."""
    return says_any(plan.text, word_lists(kb)["outside"])


def says_any(text: str, phrases: list[str]) -> bool:
    """Whether a text says one of these phrases: a Chinese one anywhere, an English
    one as whole words (a curated list of kb/synonyms.yaml, stored in search form)."""
    text = text.lower()
    squashed = squash(text)
    words = " " + " ".join(re.findall(r"[a-z0-9]+", text)) + " "
    return any((f" {p} " in words) if p.isascii() else (p in squashed) for p in phrases)


def rules_vocabulary(kb: KnowledgeBase, plan: QueryPlan, cards: list[NamedCard]) -> bool:
    """Whether a question says anything in the rules' own words: a concept of the
    ontology, a card the texts mention, or a word far commoner in the texts than in
    general Chinese (English is read through its glossary translations)."""
    if plan.concepts or any(c.in_texts for c in cards):
        return True
    words = [w for w in plan.words if not w.isascii()]
    if not words:
        return False
    general, counts = general_use(kb, words), document_counts(kb, words)
    total = float(kb.meta("general_total") or 1)
    n = kb.passage_count or 1
    return any(
        math.log10(((counts.get(w, 0) + 0.5) / n) / ((general.get(w, 0) + 1) / total)) >= RULES_WORD
        for w in words
        if counts.get(w)
    )


def mark_weak(
    plan: QueryPlan, hits: list[Hit], own_words: dict[str, set[str]], weights: dict[str, dict[str, float]]
) -> None:
    """Each hit's coverage of the question (its words weighted by `weights`, by hit:
    their rarity in its family), and `weak` when it says too little of it in its own
    words (its text or the questions it answers): the nearest, not an answer."""
    sought = set(plan.words) | set(plan.expansions)
    for hit in hits:
        own = own_words.get(hit.id)
        hit.coverage = coverage(weights[hit.id], own) if own else 0.0
        hit.weak = not own or sought.isdisjoint(own) or hit.coverage < WEAK_COVERAGE


def coverage(weights: dict[str, float], own_words: set[str]) -> float:
    """The share of the question's words (weighted by rarity) a passage says in its own words."""
    total = sum(weights.values())
    return sum(w for word, w in weights.items() if word in own_words) / total if total else 0.0


def read_share(kb: KnowledgeBase, plan: QueryPlan, cards: list[NamedCard]) -> float:
    """The share of a question's content the texts can read: its Chinese characters
    inside a word of the texts, a slang phrase, a concept's or a card's name, and
    its English words the texts, the glossary or a card name know. Question words
    (怎么样, what) and lone unread characters (particles: 的, 吗) are not content."""
    text = squash(plan.text)
    lists = word_lists(kb)
    known = set(plan.words) | set(plan.inner) | set(plan.expansions)
    known |= set(lists["synonyms"]) | {squash(c.said) for c in cards}
    known |= set(ontology_of(kb).named(plan.text).values())
    state = [UNREAD] * len(text)
    _mark(text, state, lists["ignore"], ASIDE)
    _mark(text, state, known, READ)
    total = unread = 0
    run = 0
    for i, char in enumerate(text + " "):
        if i < len(text) and is_cjk(char) and state[i] == UNREAD:
            run += 1
            continue
        if run >= UNREAD_RUN:  # a lone unread character is a particle: not content
            total += run
            unread += run
        run = 0
        if i < len(text) and is_cjk(char) and state[i] == READ:
            total += 1
    glossary = lists["glossary"]
    card_forms = {c.said for c in cards if c.said.isascii()}
    vocabulary = kb.vocabulary
    for word in _pattern(_LATIN_WORD).findall(plan.text.lower()):
        if word in STOPWORDS or word in lists["ignore"]:
            continue
        total += LATIN_UNIT
        if not (word in vocabulary or glossary.lemma(word) in glossary.known or _in_card(word, card_forms)):
            unread += LATIN_UNIT
    return 1.0 - unread / total if total else 1.0


UNREAD, READ, ASIDE = 0, 1, 2


def _mark(text: str, state: list[int], words, mark: int) -> None:
    for word in words:
        if not word or word.isascii():
            continue
        start = text.find(word)
        while start != -1:
            state[start : start + len(word)] = [mark] * len(word)
            start = text.find(word, start + 1)


def _in_card(word: str, card_forms: set[str]) -> bool:
    return any(word in form for form in card_forms)


def asks_status(text: str, cards: list[NamedCard]) -> bool:
    """Whether a question asks for a card's Forbidden & Limited status (the words
    of a card's own name do not count: Forbidden Droplet, 禁忌的圣枪)."""
    return bool(_pattern(STATUS_QUESTION).search(without_cards(text, cards)))


def without_cards(text: str, cards: list[NamedCard]) -> str:
    """A question in lower case without the names of the cards it names: its
    Chinese in loose form, then its English words."""
    loose = loose_form(text.lower())
    for card in cards:  # names that mix scripts (增殖的G) go before the Latin is set aside
        if not card.said.isascii():
            loose = loose.replace(card.said, " ")
    chinese = "".join(" " if char.isascii() else char for char in loose)
    words = re.findall(r"[a-z0-9]+", text.lower())  # as named_cards reads English names
    for card in cards:
        if not card.said.isascii():
            continue
        for start in range(len(words)):  # English: the run of words that spells the name
            for end in range(start + 1, len(words) + 1):
                if "".join(words[start:end]) == card.said:
                    words[start:end] = [""] * (end - start)
    return chinese + " " + " ".join(w for w in words if w)


def quoted(names: list[str]) -> str:
    """「A」, 「A」 and 「B」, 「A」, 「B」 and 「C」."""
    marked = [f"「{n}」" for n in names]
    return marked[0] if len(marked) == 1 else ", ".join(marked[:-1]) + " and " + marked[-1]
