"""The site's "what changed" page and `/api/changes`: the last update of an added
rulings documentation, as `ocgkb sources add` recorded it (the totals first, then
the rulings added, removed and changed, grouped by topic)."""

from __future__ import annotations

from ocgkb import NotFound, UsageError
from ocgkb.sources.changes import KINDS, dated_since
from ocgkb.store.changes import recorded_changes
from ocgkb.store.database import KnowledgeBase

# A page lists at most this many of each kind (a list asked for alone, MOST_ONE).
MOST_EACH, MOST_ONE = 200, 5000


def last_changes_view(
    kb: KnowledgeBase, only: str | None = None, since: str | None = None, source: str | None = None
) -> dict:
    """`{"source", "old", "new", "since", "totals", "added", "removed", "changed", "more"}`:
    the last recorded update (of `source`, when named); `only` keeps one list, `since`
    the rulings dated that day or later; `more` says how many each list left out."""
    if only is not None and only not in KINDS:
        raise UsageError(f"only: one of {', '.join(KINDS)}")
    recorded = [(name, changes) for name, changes in recorded_changes(kb) if source in (None, name)]
    if not recorded:
        raise NotFound(
            "no update of an added documentation is recorded" + (f" for {source!r}" if source else "")
        )
    name, changes = recorded[0]
    if since:
        changes = dated_since(changes, since)
    most = MOST_ONE if only else MOST_EACH
    view = {"source": name, **changes, "since": since, "more": {}}
    for kind in KINDS:
        rulings = changes[kind] if only in (None, kind) else []
        view[kind] = rulings[:most]
        view["more"][kind] = len(rulings) - len(view[kind])
    return view
