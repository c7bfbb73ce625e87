"""The card effect texts a question quotes: a stretch in 「」, 『』, “” or "",
or the rest of the question after a colon, that reads as effect text (it has an
effect's words and is long enough). A card's name in 「」 is not one. Pure."""

from __future__ import annotations

# What a question holds when it may quote a text: checked before anything is imported.
QUOTE_MARKS = '「『“"：:'
PAIRS = {"「": "」", "『": "』", "“": "”"}
# The words of an effect's text (ygopro's and the official wording), one of which a quote must have.
EFFECT_WORDS = ("发动", "才能", "可以", "时，", "的场合", "的情况下", "①", "1回合", "每回合")
MIN_LENGTH = 12  # shorter is a name or a phrase, not an effect
MOST_QUOTES = 3
MIN_ASKED = 4  # what is left of a question without its quote, shorter is no question
CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩"


def may_quote(question: str) -> bool:
    """Whether the question has a quotation mark or a colon at all (a cheap test first)."""
    return any(mark in question for mark in QUOTE_MARKS)


def quoted_card_texts(question: str) -> list[str]:
    """The effect texts the question quotes, in order, at most MOST_QUOTES: those in
    quotation marks, else the rest after its first colon (not an effect's ①：)
    when no quotation holds one (a card's 「name」 does not)."""
    found = _effect_texts(_in_marks(question)) or _effect_texts([_after_colon(question)])
    return list(dict.fromkeys(found))[:MOST_QUOTES]


def without_quoted_texts(question: str) -> str:
    """The question with the whole effect texts it quotes taken out (and the marks
    left empty by them): what it asks about the text, which is what the rules answer.
    The question as it is when nothing is quoted or too little is left."""
    rest = question
    # A snippet ("…被送去墓地时，可以……") is what the question is about: only a
    # whole text, sentences closed by 。, is set aside.
    for text in (t for t in quoted_card_texts(question) if "。" in t.rstrip("。")):
        rest = rest.replace(text, "")
    for opening, closing in (*PAIRS.items(), ('"', '"')):
        rest = rest.replace(opening + closing, "")
    rest = rest.strip(" ：:，,")
    return rest if rest != question and len(rest) >= MIN_ASKED else question


def _effect_texts(stretches: list[str]) -> list[str]:
    """The stretches that read as effect text, without a question after them."""
    texts = [_without_question(s).strip() for s in stretches]
    return [t for t in texts if len(t) >= MIN_LENGTH and any(w in t for w in EFFECT_WORDS)]


def _in_marks(question: str) -> list[str]:
    """The outermost stretches in paired marks (a card's 「name」 inside a quoted text
    stays in it) and in straight double quotes."""
    found, depth, start, closing = [], 0, 0, ""
    for at, char in enumerate(question):
        if depth == 0 and char in PAIRS:
            depth, start, closing = 1, at + 1, PAIRS[char]
        elif depth and char == closing:
            depth -= 1
            if depth == 0:
                found.append(question[start:at])
        elif depth and PAIRS.get(char) == closing:
            depth += 1
    straight = question.split('"')[1:-1:2] if question.count('"') >= 2 else []
    return found + straight


def _after_colon(question: str) -> str:
    """The rest of the question after its first colon that does not follow ①…⑩."""
    for at, char in enumerate(question):
        if char in "：:" and (at == 0 or question[at - 1] not in CIRCLED):
            return question[at + 1 :]
    return ""


def _without_question(stretch: str) -> str:
    """The stretch without the question that follows the text (…。这个效果能连锁吗？)."""
    ask = min((stretch.find(mark) for mark in "？?" if mark in stretch), default=-1)
    if ask < 0:
        return stretch
    return stretch[: stretch.rfind("。", 0, ask) + 1]
