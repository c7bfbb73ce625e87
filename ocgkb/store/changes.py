"""What the last update of each added documentation changed, as the build stored it
(ocgkb.sources.changes made it when `ocgkb sources add` replaced an edition)."""

from __future__ import annotations

import json

from ocgkb.store.database import KnowledgeBase


def recorded_changes(kb: KnowledgeBase) -> list[tuple[str, dict]]:
    """(source, changes) of each added documentation an update changed, the last added first."""
    rows = kb.query(
        "SELECT c.source, c.changes FROM source_changes c JOIN documents d ON d.name = c.source"
        " ORDER BY d.added DESC, c.source"
    )
    return [(row[0], json.loads(row[1])) for row in rows]
