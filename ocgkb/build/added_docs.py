"""The rulings documentations a user added, in a build: their editions read from
the kept copies (parsed once, build/editions.py), their rows in `documents`, their
dates with the card each dates, and which of their rulings repeat another passage.

A ruling found in a seed (002 is a rendering of such a documentation) and in an
added edition is one passage with both citations: the edition's copy points at
the seed's (`dup_of`), which search shows, citing both. Within one edition, the
same words in two places are one passage cited twice.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict

from ocgkb.build.editions import forget_others, kept_edition
from ocgkb.sources import added
from ocgkb.sources.dates import find_dates
from ocgkb.sources.model import Edition, Passage

# Texts this short repeat by chance (例：, a card's name alone), not as one ruling.
TWIN_LENGTH = 16
# How alike two texts must be to be one ruling (rapidfuzz's ratio): the build's near-twin rule.
TWIN_RATIO = 96
_MARKER = re.compile(r"^(?:[●•·]|例\s*[:：]|\d+\s*[.．、])\s*")
# A text's anchors: windows of this many characters that a near-twin shares.
_ANCHOR = 8


def read_editions() -> list[tuple[added.AddedSource, Edition]]:
    """Each added source with its edition (what its reading noticed is in its notes)."""
    sources = added.list_sources()
    forget_others(sources)
    return [(source, kept_edition(source)) for source in sources]


def register_card_links(editions: list[tuple[added.AddedSource, Edition]], index) -> None:
    """A name an added documentation links as a card that the card data cannot link
    (it translates newer cards otherwise) is a real card without a password: kept as
    a card of its rulings and named in the build report, never dropped."""
    for source, edition in editions:
        for name, kind in sorted(edition.card_links.items()):
            if kind == "card" and index.link(name) is None:
                index.add_unlinked(
                    name, f"{source.name} links it as a card; the card data knows no card so named"
                )


def document_row(source: added.AddedSource, edition: Edition) -> dict:
    """The `documents` row of an added edition."""
    digest = hashlib.sha256(json.dumps(sorted(source.files.items())).encode()).hexdigest()
    return {
        "name": source.name,
        "file": source.origin,
        "title": source.title,
        "description": f"{len(edition.files)} reST files added {source.added[:10]} from {source.origin}",
        "parser": "rst",
        "sha256": digest,
        "lines": 0,
        "kind": "added",
        "origin": source.origin,
        "added": source.added,
        "label": source.label,
        "newest": source.newest,
    }


def edition_dates(p: Passage, name_of) -> list[dict]:
    """An added passage's dated links as `dates` rows, each with the card it dates
    (the 「card」 the date follows, as for the seeds) and its FAQ id and address."""
    mentions = {m.raw: m for m in find_dates(p.text)}
    rows = []
    for position, citation in enumerate(c for c in p.citations if c.get("date")):
        mention = mentions.get(citation["raw"] or "")
        cards = (name_of(written) for written in (mention.names if mention else ()))
        rows.append(
            {
                "passage_id": p.id,
                "date": citation["date"],
                "raw": citation["raw"],
                "card": next((c for c in cards if c), None),
                "position": position,
            }
        )
    return rows


def edition_twins(passages: list[Passage], search_text: dict[str, str], seeds: set[str]) -> dict[str, str]:
    """Added passages that repeat another: an added one → the seed passage it
    repeats (exactly, or as near as TWIN_RATIO), else → the first added passage of
    its source with the same words. Only added passages are ever folded."""
    from rapidfuzz import fuzz

    def body(pid: str) -> str:
        return _MARKER.sub("", "".join(search_text[pid].split()))

    seed_ids = [p.id for p in passages if p.doc in seeds and len(body(p.id)) >= TWIN_LENGTH]
    exact = {}
    for pid in seed_ids:
        exact.setdefault(body(pid), pid)
    anchors: dict[str, set[str]] = defaultdict(set)
    for pid in seed_ids:
        for window in _anchors(body(pid)):
            anchors[window].add(pid)
    dup_of: dict[str, str] = {}
    first_of: dict[tuple[str, str], str] = {}
    for p in passages:
        if p.doc in seeds:
            continue
        text = body(p.id)
        if len(text) < TWIN_LENGTH:
            continue
        twin = exact.get(text)
        if twin is None:
            near = {pid for window in _anchors(text) for pid in anchors.get(window, ())}
            scored = [(fuzz.ratio(text, body(pid)), pid) for pid in sorted(near)]
            best = max(scored, default=(0.0, None))
            twin = best[1] if best[0] >= TWIN_RATIO else None
        if twin is None:
            twin = first_of.setdefault((p.doc, text), p.id)
        if twin != p.id:
            dup_of[p.id] = twin
    return dup_of


def _anchors(text: str) -> set[str]:
    """Windows at the start, middle and end: a near-twin (a few characters apart) shares one."""
    if len(text) <= _ANCHOR:
        return {text}
    middle = (len(text) - _ANCHOR) // 2
    return {text[:_ANCHOR], text[middle : middle + _ANCHOR], text[-_ANCHOR:]}
