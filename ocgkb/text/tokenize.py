"""Tokens for the full-text index, and the same tokens for a query.

Chinese has no spaces, so a passage is indexed three ways: jieba's words (the
build loads jieba once, with the concept terms and card names as words of its
own so they survive whole), overlapping character bigrams (they find what a
segmenter cut differently), and the words of its section title or topic.

A query is segmented *without* jieba: jieba costs over a second per process,
which a judge at a table should not wait for. The build stores the index's
vocabulary, and a query is cut into the vocabulary words it contains.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import re
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from ocgkb import paths

if TYPE_CHECKING:
    from pathlib import Path

LATIN_WORD = re.compile(r"[a-z0-9]+(?:[.'][a-z0-9]+)*")
MAX_WORD = 12


# Plain comparisons, not regular expressions: a character class over the CJK
# blocks takes milliseconds to compile, in every process that asks a question.
def is_cjk(char: str) -> bool:
    return "\u3400" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff"


def has_cjk(text: str) -> bool:
    return any("\u3400" <= c <= "\u9fff" for c in text)


def cjk_runs(text: str) -> list[str]:
    """The stretches of Chinese characters in a text."""
    runs, start = [], None
    for i, char in enumerate(text):
        if is_cjk(char):
            if start is None:
                start = i
        elif start is not None:
            runs.append(text[start:i])
            start = None
    if start is not None:
        runs.append(text[start:])
    return runs


def bigrams(text: str) -> list[str]:
    """Overlapping character pairs of every Chinese run; a lone character stands alone."""
    grams = []
    for run in cjk_runs(text):
        if len(run) == 1:
            grams.append(run)
        grams.extend(run[i : i + 2] for i in range(len(run) - 1))
    return grams


# English words that carry no rule: left out of the curated questions' index.
STOPWORDS = frozenset(
    "a an the is are was be been do does did can could will would should may might must i you he she it we"
    " they my your his her its our their me him them this that these those of to in on at by for with from"
    " as and or but if then so what when where which who whom how why there here any some about into than"
    " also just not no yes still get got".split()
)


def latin_words(text: str) -> list[str]:
    """The Latin words of a text, lower-case and stemmed (the index and a question
    alike: "destroyed" meets "destroy", "chains" meets "chain")."""
    return [w if w in STOPWORDS else english_stem(w) for w in LATIN_WORD.findall(text.lower())]


def english_stem(word: str) -> str:
    """A light stem of an English word, the same for its inflections: plural and
    -ed/-ing endings off, a doubled consonant undone, a final e dropped, a stem of
    three letters at least (tributed, tributes, tribute → tribut; flipped → flip;
    makes, make → mak; wins → win; copies → copy; speed stays speed)."""
    if not word.isalpha() or len(word) <= 3:
        return word
    stem = _unsuffixed(word)
    if stem != word and len(stem) > 3 and stem[-1] == stem[-2] and stem[-1] in _DOUBLED:
        stem = stem[:-1]  # flipped → flip, setting → set
    return stem[:-1] if len(stem) > 3 and stem.endswith("e") else stem


_DOUBLED = frozenset("bdgmnprt")


def _unsuffixed(word: str) -> str:
    """A word without its plural, -ed or -ing ending, when three letters remain."""
    if word.endswith(("ies", "ied")) and len(word) >= 6:
        return word[:-3] + "y"
    if word.endswith("ing") and len(word) - 3 >= 3:
        return word[:-3]
    if word.endswith("ed") and not word.endswith("eed") and len(word) - 2 >= 3:
        return word[:-2]  # speed and need are not inflected
    if word.endswith("ed") and not word.endswith("eed") and len(word) == 4:
        return word[:-1]  # used → use
    if word.endswith("es") and word[-3] in "sxz" and len(word) - 2 >= 3:
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


class Segmenter:
    """jieba in search mode, loaded on first use (build time only)."""

    def __init__(self, extra_words: Iterable[str] = ()) -> None:
        self._extra = sorted({w for w in extra_words if has_cjk(w) and len(w) >= 2})
        self._cut: Callable[[str], Iterable[str]] | None = None

    @property
    def extra_words(self) -> list[str]:
        """The words added to jieba's dictionary: with the code, what a text's words depend on."""
        return self._extra

    def words(self, text: str) -> list[str]:
        if self._cut is None:
            import logging

            import jieba

            jieba.setLogLevel(logging.WARNING)
            tokenizer = jieba.Tokenizer()
            # jieba keeps its prefix dictionary in the system's temporary folder by
            # default; ours stays in our own cache, where no other user can plant one.
            tokenizer.tmp_dir = paths.parts_dir()
            with contextlib.suppress(OSError):  # unwritable: jieba only skips its cache
                os.makedirs(paths.parts_dir(), exist_ok=True)
            for word in self._extra:
                tokenizer.add_word(word, freq=2000)
            self._cut = tokenizer.cut_for_search
        words = []
        for token in self._cut(text):
            token = token.strip().lower()
            if len(token) >= 2 and has_cjk(token) and not re.search(r"\s", token):
                words.append(token)
        return words + latin_words(text)


@functools.lru_cache(maxsize=1)
def common_words() -> dict[str, int]:
    """The words of jieba's general dictionary with their frequencies (build time
    only): how much general Chinese uses a word, beside how much the texts do."""
    return dictionary_frequencies((jieba_folder() / "dict.txt").read_text(encoding="utf-8"))


def dictionary_frequencies(text: str) -> dict[str, int]:
    """A jieba dictionary's words and frequencies, one `word frequency [tag]` a line."""
    fields = text.split()
    if len(fields) == 3 * len(text.splitlines()):  # word, frequency, tag on every line: a third faster
        return dict(zip(fields[0::3], map(int, fields[1::3]), strict=True))
    words = {}
    for line in text.splitlines():
        word, _, rest = line.partition(" ")
        if word:
            words[word] = int(rest.split(" ", 1)[0] or 0)
    return words


def jieba_folder() -> Path:
    """Where jieba's code and default dictionary are, found without importing it:
    the import costs 0.3 s (jieba loads pkg_resources), and a build whose
    segmentation is remembered (build/segments.py) cuts nothing with it."""
    import importlib.util
    from pathlib import Path  # here: only a build reads jieba's files, a question imports no pathlib

    spec = importlib.util.find_spec("jieba")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("jieba is not installed")
    return Path(spec.submodule_search_locations[0])


def query_words(text: str, vocabulary: Mapping[str, int], total: int | None = None) -> list[str]:
    """The words of a query, cut the way the index was cut (see `split_query`)."""
    whole, inner = split_query(text, vocabulary, total)
    return whole + inner


def split_query(
    text: str, vocabulary: Mapping[str, int], total: int | None = None
) -> tuple[list[str], list[str]]:
    """The words of a query: the whole words it is made of, and the shorter words inside them.

    Each Chinese run is segmented by the most probable path through the index's
    vocabulary (word frequencies are their document frequencies); then, as
    jieba's search mode does on the index side, the shorter vocabulary words
    inside each long word are added apart (装备卡 → 装备, 备卡), so that a caller
    can count one idea once. Latin words are kept as they are.
    """
    whole: dict[str, None] = {}
    inner: dict[str, None] = {}
    total = total or sum(vocabulary.values()) or 1
    for run in cjk_runs(text):
        for word in _best_path(run, vocabulary, total):
            if len(word) < 2:
                continue
            whole.setdefault(word)
            for length in range(len(word) - 1, 1, -1):
                for start in range(len(word) - length + 1):
                    piece = word[start : start + length]
                    if piece in vocabulary:
                        inner.setdefault(piece)
    for word in latin_words(text):
        whole.setdefault(word)
    return list(whole), [w for w in inner if w not in whole]


def _best_path(run: str, vocabulary: Mapping[str, int], total: int) -> list[str]:
    # A lone character costs more than any known word, so known words win.
    lone = math.log(0.2 / total)
    best = [0.0] + [-math.inf] * len(run)
    back = [0] * (len(run) + 1)
    for end in range(1, len(run) + 1):
        for start in range(max(0, end - MAX_WORD), end):
            piece = run[start:end]
            if end - start == 1:
                score = lone
            elif piece in vocabulary:
                score = math.log(vocabulary[piece] / total)
            else:
                continue
            if best[start] + score > best[end]:
                best[end], back[end] = best[start] + score, start
    words, end = [], len(run)
    while end > 0:
        words.append(run[back[end] : end])
        end = back[end]
    return words[::-1]
