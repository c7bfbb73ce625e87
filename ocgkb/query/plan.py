"""Turning a question into what the index is searched for.

The question is put in search form (kb.normalize) and cut into the index's
words without jieba (tokenize.query_words); slang is translated into the texts'
words (kb/synonyms.yaml, longest phrase first; kb/glossary.yaml for English
game vocabulary, as whole words); the concepts it names
(kb/concepts.yaml) add their other names; the cards it names are recognised.
"""

from __future__ import annotations

import re
from typing import TypeVar

from ocgkb import OcgkbError
from ocgkb.query.named_cards import ENGLISH_WORDS, NamedCard, named_cards
from ocgkb.sources.ontology import Ontology
from ocgkb.store import concepts
from ocgkb.store.curated import stored_word_lists
from ocgkb.store.database import KnowledgeBase
from ocgkb.store.schema import MAX_QUERY
from ocgkb.text.glossary import Glossary
from ocgkb.text.name_forms import latin_form
from ocgkb.text.normalize import card_token, squash
from ocgkb.text.tokenize import MAX_WORD, bigrams, cjk_runs, latin_words, query_words, split_query

_LATIN = re.compile(r"[a-z0-9 ./'-]+")
_WORD = re.compile(r"[a-z0-9]+")
T = TypeVar("T")


class QueryError(OcgkbError):
    """A query that cannot be run: empty, too long, or with a bad filter."""


class QueryPlan:
    """What a question was turned into; `ask --explain` shows it. (A class with
    slots: its class is made at every question's start, where a dataclass or a
    NamedTuple costs twenty times more.)"""

    __slots__ = ("text", "words", "expansions", "inner", "grams", "concepts", "cards", "named", "pairs")

    def __init__(
        self,
        text: str,
        words: list[str],
        expansions: list[str],
        inner: list[str],  # shorter words inside the question's words: 装备 in 装备卡
        grams: list[str],
        concepts: list[str],
        cards: list[str],  # the cards the texts name that it names: they steer ranking
        named: list[NamedCard],  # every real card it names
        # The character pairs the plainer ranking seeks: the question's own, or for a
        # question with no Chinese, those of the Chinese words it was read as.
        pairs: list[str],
    ) -> None:
        self.text, self.words, self.expansions, self.inner, self.grams = text, words, expansions, inner, grams
        self.concepts, self.cards, self.named, self.pairs = concepts, cards, named, pairs

    def summary(self) -> dict:
        """What a view shows of the plan: the words sought, the concepts and cards named."""
        return {name: getattr(self, name) for name in ("words", "expansions", "concepts", "cards")}


def plan_query(kb: KnowledgeBase, question: str) -> QueryPlan:
    question = question.strip()
    if not question:
        raise QueryError("the query is empty")
    if len(question) > MAX_QUERY:
        raise QueryError(f"the query is {len(question)} characters long; ask in at most {MAX_QUERY}")
    text = kb.normalize(question)
    vocabulary = kb.vocabulary
    vocabulary.prefetch(_pieces(text))
    lists = word_lists(kb)
    ignore = lists["ignore"]
    whole, inner = split_query(text, vocabulary, kb.vocabulary_total)
    words = [w for w in whole if w not in ignore]
    inner = [w for w in inner if w not in ignore]
    ontology = ontology_of(kb)
    named = ontology.named(text)
    concepts = list(named)
    # What the question says in the texts' own words counts in full (血 → 基本分,
    # and a concept named in English → its Chinese names); a concept's other
    # names count less: they widen, they do not translate.
    english = [
        name
        for cid, said in named.items()
        if _LATIN.fullmatch(said) and said not in {squash(kb.normalize(n)) for n in ontology.concepts[cid].zh}
        for name in ontology.concepts[cid].zh
    ]
    named = named_cards(kb, question)
    unnamed = _without_names(text, named)
    # A card named in English is sought as the card (its token below), not as its English words.
    name_words = set(latin_words(text)) - set(latin_words(unnamed))
    words = [w for w in words if w not in name_words]
    said_in_english = lists["glossary"].translate(unnamed)
    squashed = squash(text)
    slang = _slang_verbs(squashed, lists["slang"])
    translations = _as_words(
        kb, _translate(squashed, lists["synonyms"]) + slang + said_in_english + english, words + inner
    )
    aliases = _as_words(
        kb, [t for cid in concepts for t in ontology.forms(cid)], words + inner + translations
    )
    words = words + translations
    expansion_words = aliases
    cards = [card.name for card in named if card.in_texts]
    # A card the question names is one word, however jieba would cut it.
    words = words + [
        t for t in (card_token(squash(kb.normalize(c))) for c in cards) if t in vocabulary and t not in words
    ]
    grams = [g for g in dict.fromkeys(bigrams(text)) if len(g) == 2]
    pairs = grams if cjk_runs(text) else _pairs_of(words)
    return QueryPlan(text, words, expansion_words, inner, grams, concepts, cards, named, pairs)


def _pairs_of(words: list[str]) -> list[str]:
    """The character pairs of the Chinese words among `words`, each once."""
    return [g for g in dict.fromkeys(g for w in words for g in bigrams(w)) if len(g) == 2]


def _without_names(text: str, named: list[NamedCard]) -> str:
    """The question's English words but the card names it says in English: the
    glossary reads Torrential Tribute as a card, not as a tribute."""
    forms = {card.said for card in named if card.said.isascii()}
    words = _WORD.findall(text)
    if not forms:
        return text
    kept = [True] * len(words)
    for start in range(len(words)):
        for end in range(start + 1, min(start + ENGLISH_WORDS, len(words)) + 1):
            if latin_form("".join(words[start:end])) in forms:
                kept[start:end] = [False] * (end - start)
    return " ".join(word for word, keep in zip(words, kept, strict=True) if keep)


def _pieces(text: str) -> list[str]:
    """Every piece of the question segmentation may ask the vocabulary about."""
    pieces = latin_words(text)
    for run in cjk_runs(text):
        for start in range(len(run)):
            pieces += [run[start:end] for end in range(start + 2, min(start + MAX_WORD, len(run)) + 1)]
    return pieces


def _translate(text: str, synonyms: dict[str, list[str]]) -> list[str]:
    """The texts' words for what the question says, longest phrase first: in
    攻守表示 the phrase means battle position, not 攻守 (ATK/DEF)."""
    taken = [False] * len(text)
    found: list[str] = []
    present = set(text)
    for key in synonyms:  # stored longest first
        if not key or key[0] not in present:
            continue
        start = text.find(key)
        while start != -1:
            end = start + len(key)
            if not any(taken[start:end]):
                taken[start:end] = [True] * len(key)
                found += synonyms[key]
            start = text.find(key, end)
    return found


def _slang_verbs(text: str, slang: dict) -> list[str]:
    """The texts' words for one-character slang verbs said beside a particle or an
    auxiliary (被康, 炸掉, 能接), never inside another word (炸弹, 直接)."""
    found: list[str] = []
    verbs, before, after = slang.get("verbs", {}), slang.get("before", []), slang.get("after", [])
    for i, char in enumerate(text):
        if char in verbs and (
            any(text.startswith(w, i + 1) for w in after) or any(text.endswith(w, 0, i) for w in before)
        ):
            found += [t for t in verbs[char] if t not in found]
    return found


def _as_words(kb: KnowledgeBase, terms: list[str], known: list[str]) -> list[str]:
    """Index words for a list of terms, leaving out those already in `known`."""
    vocabulary = kb.vocabulary
    found: list[str] = []
    for term in terms:
        form = squash(kb.normalize(term))
        for word in [form] if form in vocabulary else query_words(form, vocabulary, kb.vocabulary_total):
            if word not in known and word not in found:
                found.append(word)
    return found


def ontology_of(kb: KnowledgeBase) -> Ontology:
    """The concepts of a built knowledge base, read once per open knowledge base."""
    return concepts.ontology(kb)


def word_lists(kb: KnowledgeBase) -> dict:
    """The lists a question is read with: synonyms (longest first), ignored words,
    the English glossary, slang verbs and topics the texts never cover; read once
    per open knowledge base."""
    return kb.memo("query.word_lists", lambda: _read_word_lists(kb))


def _read_word_lists(kb: KnowledgeBase) -> dict:
    lists = stored_word_lists(kb)
    synonyms = lists.get("synonyms", {})
    longest_first = {key: synonyms[key] for key in sorted(synonyms, key=lambda k: (-len(k), k))}
    return {
        "synonyms": longest_first,
        "ignore": set(lists.get("ignore", [])),
        "glossary": Glossary.from_stored(lists.get("glossary", {})),
        "slang": lists.get("slang", {}),
        "outside": lists.get("outside", []),
        "card_text_asks": lists.get("card_text_asks", []),
        "referred_elsewhere": lists.get("referred_elsewhere", []),
    }
