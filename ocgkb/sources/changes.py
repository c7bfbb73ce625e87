"""What changed between two editions of a rulings documentation.

A ruling is a passage of the edition. One that cites an official FAQ is matched by
the FAQ's id (`fid`): an id only the new edition cites is added, one only the old
cites is removed, one both cite with other words is changed (a FAQ re-dated is a
change too). A ruling that cites none is matched by its text: the same words in
both are the same ruling wherever they moved; of the rest, a new ruling as like an
old one of the same topic as LIKE_ENOUGH is that ruling changed, and the others are
added or removed. Each ruling says its FAQ id (or None), date, topic, text and
address, and the lists come in the editions' order, so a topic's rulings stand
together.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from ocgkb.sources.model import Edition, Passage

# How alike (rapidfuzz's ratio, 0–100) an unmatched new ruling must be to an old one
# of the same topic to be that ruling changed rather than one added and one removed.
LIKE_ENOUGH = 70
KINDS = ("added", "removed", "changed")


@dataclass(frozen=True)
class _Cited:
    passage: Passage
    citation: dict | None


def compare(old: Edition, new: Edition, since: str | None = None) -> dict:
    """`{"old", "new", "totals", "added", "removed", "changed"}` between two editions;
    with `since` (YYYY-MM-DD), only the rulings dated that day or later."""
    old_fids, old_plain = _units(old)
    new_fids, new_plain = _units(new)
    result: dict[str, list[dict]] = {kind: [] for kind in KINDS}
    for fid, cited in new_fids.items():
        if fid not in old_fids:
            result["added"].append(_ruling(cited[0]))
        elif (pair := _changed_pair(old_fids[fid], cited)) is not None:
            result["changed"].append(_ruling(pair[1], before=pair[0]))
    result["removed"] = [_ruling(cited[0]) for fid, cited in old_fids.items() if fid not in new_fids]
    added, removed, changed = _by_text(old_plain, new_plain)
    result["added"] += [_ruling(_Cited(p, None)) for p in added]
    result["removed"] += [_ruling(_Cited(p, None)) for p in removed]
    result["changed"] += [_ruling(_Cited(n, None), before=_Cited(o, None)) for o, n in changed]
    order = {p.id: i for i, p in enumerate(new.passages)}
    old_order = {p.id: i for i, p in enumerate(old.passages)}
    for kind in KINDS:
        place = old_order if kind == "removed" else order
        result[kind].sort(key=lambda r: (place.get(r["id"], 0), r["fid"] or 0))
    compared = {"old": describe(old), "new": describe(new), "since": None, **result}
    compared["totals"] = totals(compared)
    return dated_since(compared, since) if since else compared


def dated_since(compared: dict, since: str) -> dict:
    """The changes dated `since` (YYYY-MM-DD) or later (an undated ruling is left out), with their totals."""
    kept = {kind: [r for r in compared[kind] if (r["date"] or "") >= since] for kind in KINDS}
    narrowed = {**compared, **kept, "since": since}
    return {**narrowed, "totals": totals(narrowed)}


def totals(compared: dict) -> dict:
    """How many rulings were added, removed and changed, and of them how many FAQ ids."""
    counts: dict = {kind: len(compared[kind]) for kind in KINDS}
    counts["faq_ids"] = {kind: len({r["fid"] for r in compared[kind] if r["fid"]}) for kind in KINDS}
    return counts


def describe(edition: Edition) -> dict:
    """An edition in a line: its name, title, where it was read and its newest ruling."""
    fids = {c["fid"] for p in edition.passages for c in p.citations if c.get("fid")}
    return {
        "name": edition.name,
        "title": edition.title,
        "folder": edition.root,
        "newest": edition.newest,
        "rulings": len(edition.passages),
        "faq_ids": len(fids),
    }


def _units(edition: Edition) -> tuple[dict[int, list[_Cited]], list[Passage]]:
    """The rulings citing each FAQ id, in order, and those citing none."""
    by_fid: dict[int, list[_Cited]] = defaultdict(list)
    plain: list[Passage] = []
    for p in edition.passages:
        cited = [c for c in p.citations if c.get("fid")]
        for c in cited:
            by_fid[c["fid"]].append(_Cited(p, c))
        if not cited:
            plain.append(p)
    return by_fid, plain


def _words(text: str) -> str:
    return "".join(text.split())


def _changed_pair(old: list[_Cited], new: list[_Cited]) -> tuple[_Cited, _Cited] | None:
    """The old and new words of one FAQ id, when they changed: a wording (or date)
    the new edition cites that the old did not, and one it no longer cites. A copy
    cited in one more or one fewer place is the same ruling."""

    def said(c: _Cited) -> tuple[str, str | None]:
        return _words(c.passage.text), c.citation["date"]

    gone = [o for o in old if said(o) not in {said(n) for n in new}]
    came = [n for n in new if said(n) not in {said(o) for o in old}]
    if not gone or not came:
        return None
    from rapidfuzz import fuzz

    return max(
        ((o, n) for o in gone for n in came), key=lambda pair: fuzz.ratio(said(pair[0])[0], said(pair[1])[0])
    )


def _by_text(old: list[Passage], new: list[Passage]):
    """Rulings citing no FAQ: the same words are the same ruling; of the rest, a new
    one as like an old one of its topic as LIKE_ENOUGH is that one changed."""
    from rapidfuzz import fuzz, process

    remaining: dict[str, list[Passage]] = defaultdict(list)
    for p in old:
        remaining[_words(p.text)].append(p)
    unmatched_new = []
    for p in new:
        same = remaining.get(_words(p.text))
        if same:
            same.pop(0)
        else:
            unmatched_new.append(p)
    left_old = [p for group in remaining.values() for p in group]
    by_topic: dict[str, list[Passage]] = defaultdict(list)
    for p in left_old:
        by_topic[p.topic].append(p)
    changed, added, taken = [], [], set()
    for p in unmatched_new:
        choices = [o for o in by_topic.get(p.topic, []) if o.id not in taken]
        best = process.extractOne(
            _words(p.text), [_words(o.text) for o in choices], scorer=fuzz.ratio, score_cutoff=LIKE_ENOUGH
        )
        if best:
            match = choices[best[2]]
            taken.add(match.id)
            changed.append((match, p))
        else:
            added.append(p)
    removed = [p for p in left_old if p.id not in taken]
    return added, removed, changed


def _ruling(cited: _Cited, before: _Cited | None = None) -> dict:
    p, c = cited.passage, cited.citation or (cited.passage.citations[0] if cited.passage.citations else {})
    ruling = {
        "fid": c.get("fid"),
        "date": c.get("date"),
        "topic": p.topic,
        "text": p.text,
        "url": c.get("url"),
        "id": p.id,
        "file": p.file,
        "line": p.line,
    }
    if before is not None:
        b = before.citation or (before.passage.citations[0] if before.passage.citations else {})
        ruling["old_text"] = before.passage.text
        ruling["old_date"] = b.get("date")
    return ruling
