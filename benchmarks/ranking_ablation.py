"""What each part of the ranking (ocgkb/query/ranking.py) is worth: recall@1 and
recall@5 on every question set with all parts on, then with each part switched
off in turn (its weight or bonus set to nothing, its step skipped), in one run.

    python benchmarks/ranking_ablation.py [--parts NAME …]

A part whose removal costs nothing on the blind sets does not pay for itself.
Blind sets are shown as totals only, as everywhere.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from contextlib import contextmanager

from ocgkb.query import ranking, scoring
from ocgkb.query.candidates import warm
from ocgkb.store.door import open_kb

from retrieval import SETS, score

# Each part, and what switching it off sets in ocgkb.query.ranking or ocgkb.query.scoring.
PARTS: dict[str, dict[str, object]] = {
    "fusion with pairs": {"FUSE": False},
    "nearest curated question (English)": {"QUESTION_SHARE": 0.0},
    "pairs: asked column": {"PAIR_COLUMNS": ("grams",)},
    "pairs: common ones left out": {"PAIR_SHARE_MAX": 1.0},
    "pairs: card names": {"PAIR_CARDS": False},
    "rule after example": {"EXAMPLE_TOP": 0},
    "kind prior": {"KIND_PRIOR": {}},
    "heading prior": {"HEADING_PRIOR": 1.0},
    "coverage": {"COVERAGE_WEIGHT": 0.0},
    "concept bonus": {"CONCEPT_BONUS": 0.0},
    "count bonus": {"COUNT_BONUS": 0.0},
    "answer types": {"ANSWER_TYPE_BONUS": 0.0},
    "rules before repeats": {"_rules_before_repeats": lambda *args: None},
    "twins": {"_passing": lambda *args: set()},
    "expansions": {"EXPANSION_WEIGHT": 0.0},
    "inner words": {"INNER_WEIGHT": 0.0},
    "gram field": {"GRAM_WEIGHT": 0.0},
    "title field": {"TITLE_WEIGHT": 0.0},
    "asked words": {"ASKED_WEIGHT": 0.0},
    "asked pairs": {"ASKED_GRAM_WEIGHT": 0.0},
}


@contextmanager
def switched_off(changes: dict[str, object]):
    """The ranking with some names replaced where they are defined, restored afterwards."""
    saved = {name: getattr(_home(name), name) for name in changes}
    for name, value in changes.items():
        setattr(_home(name), name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(_home(name), name, value)


def _home(name: str):
    """The module of the ranking that defines a name (ranking first), or None."""
    return next((module for module in (ranking, scoring) if hasattr(module, name)), None)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--parts", nargs="*", choices=list(PARTS), help="only these parts (default: all)")
    args = parser.parse_args()
    for name, _ in PARTS.items():  # a part that no longer exists is a stale table, not a silent zero
        missing = [n for n in PARTS[name] if _home(n) is None]
        if missing:
            raise SystemExit(f"{name}: neither ocgkb.query.ranking nor scoring has {', '.join(missing)}")
    kb = open_kb()
    sets = [
        (
            path.stem,
            kind,
            [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()],
        )
        for path, _, kind in SETS
        if path.is_file()
    ]
    warm(kb)
    header = f"{'switched off':26}" + "".join(f"{name[:13]:>14}" for name, _, _ in sets)
    print("recall@1/recall@5 per set; then, against all parts on, the questions won (+) or lost (-)")
    print("at rank 1 and in the first 5, summed over the blind sets and over the tuned sets")
    print(header + f"{'blind @1 @5':>14}{'tuned @1 @5':>14}")
    baseline: dict[str, tuple[int, int]] = {}
    started = time.perf_counter()
    for part in ["(nothing)", *(args.parts or PARTS)]:
        with switched_off(PARTS.get(part, {})):
            cells, gained = [], {"blind": [0, 0], "tuned": [0, 0]}
            for name, kind, rows in sets:
                summary, _ = score(kb, rows)
                found = (round(summary["recall@1"] * summary["n"]), round(summary["recall@5"] * summary["n"]))
                base = baseline.setdefault(name, found)
                gained[kind][0] += found[0] - base[0]
                gained[kind][1] += found[1] - base[1]
                cells.append(f"{summary['recall@1']:.3f}/{summary['recall@5']:.3f}")
        totals = "".join(f"{gained[k][0]:>+7d}{gained[k][1]:>+4d}   " for k in ("blind", "tuned"))
        print(f"{part:26}" + "".join(f"{c:>14}" for c in cells) + totals, flush=True)
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
