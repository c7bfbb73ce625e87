"""Text for display."""

from __future__ import annotations


def shorten(text: str, width: int) -> str:
    """One line of at most `width` characters (textwrap.shorten needs spaces; Chinese has none)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def marked(text: str, words: list[str]) -> list[tuple[str, bool]]:
    """`text` cut into runs, each flagged when it is one of `words` (longest first,
    two characters or more): what a terminal colours and a page wraps in <mark>."""
    found = sorted({w for w in words if len(w) >= 2 and w in text}, key=lambda w: (-len(w), w))
    if not found:
        return [(text, False)] if text else []
    runs: list[tuple[str, bool]] = []
    at = 0
    while True:
        # The leftmost word from here, the longest there: what an alternation of
        # them would find, without compiling one pattern per text shown.
        places = [(start, rank) for rank, word in enumerate(found) if (start := text.find(word, at)) >= 0]
        if not places:
            break
        start, rank = min(places)
        end = start + len(found[rank])
        if start > at:
            runs.append((text[at:start], False))
        runs.append((text[start:end], True))
        at = end
    if at < len(text):
        runs.append((text[at:], False))
    return runs
