"""The Forbidden & Limited lists (rulings_data/limit_regulation.jsonl.xz, described
in manifest.yaml): for each region and date a list took effect, the cards it
forbids, limits to one or semi-limits to two. A card a list does not name is
unlimited under it (three copies).

Facts only, and dated: anything shown from a list names its region and date,
since a list announced after the snapshot is not in it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ocgkb import SourceError
from ocgkb.sources.manifest import read_json_lines

STATUSES = ("forbidden", "limited", "semi-limited")
REGIONS = {"ocg": "OCG", "ocg-cn": "OCG China"}
# A list holding less than this share of the median of its neighbours (the lists
# just before and after it in its region) is taken as partial upstream: shown,
# with a warning, never read as "every other card is unlimited".
PARTIAL_SHARE = 0.5
NEIGHBOURS = 2


@dataclass(frozen=True)
class LimitList:
    region: str  # ocg, ocg-cn
    effective: str  # ISO day
    limits: dict[int, str] = field(default_factory=dict)  # password → status
    partial: bool = False


def read_limit_lists(path: Path) -> list[LimitList]:
    """Every list of the file (`.jsonl` or `.jsonl.xz`), oldest first within each
    region, each marked `partial` when it is far shorter than the lists around it."""
    records = read_json_lines(path, "limit lists")
    lists = []
    for record in records:
        limits = record.get("limits") if isinstance(record, dict) else None
        if not isinstance(limits, dict) or not record.get("region") or not record.get("effective"):
            raise SourceError(f"limit lists malformed: {path} (every line needs region, effective, limits)")
        bad = [s for s in limits.values() if s not in STATUSES]
        if bad:
            raise SourceError(f"limit lists malformed: {path}: unknown status {bad[0]!r}")
        lists.append(
            LimitList(
                str(record["region"]), str(record["effective"]), {int(pw): s for pw, s in limits.items()}
            )
        )
    lists.sort(key=lambda lst: (lst.region, lst.effective))
    return _mark_partial(lists)


def _mark_partial(lists: list[LimitList]) -> list[LimitList]:
    import statistics  # only a build reads the lists; statistics costs a query 4 ms to import

    marked = []
    for region in dict.fromkeys(lst.region for lst in lists):
        own = [lst for lst in lists if lst.region == region]
        for i, lst in enumerate(own):
            around = [
                len(o.limits) for o in own[max(0, i - NEIGHBOURS) : i] + own[i + 1 : i + 1 + NEIGHBOURS]
            ]
            partial = bool(around) and len(lst.limits) < PARTIAL_SHARE * statistics.median(around)
            marked.append(LimitList(lst.region, lst.effective, lst.limits, partial))
    return marked
