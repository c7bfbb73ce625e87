"""Abstention in one process: how often `ask` says "the texts do not answer" on
questions they do not answer, and how often it says so, or marks the settling
passage weak, on questions they do answer (over the real knowledge base, like
retrieval.py for ranking).

    python benchmarks/abstention.py [FILE.jsonl …] [--list]

A line is `{"id", "q", "negative": true}` or `{"id", "q", "negative": false,
"expect": [substrings]}`. A negative is caught when `ask` says nothing fits. An
answerable is a false alarm when `ask` says nothing fits, or when the first of
`search`'s hits holding an `expect` substring is marked weak.

abstain_calibrate.jsonl and abstain_calibrate2.jsonl are what the thresholds of
ocgkb/query/abstain.py were set on (abstain_calibrate3.jsonl, written later with
more rules-gap questions, was only measured); abstain_heldout*.jsonl are held out:
print their totals only (no --list).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ocgkb.query.ranking import search
from ocgkb.store.door import open_kb
from ocgkb.views.answer import answer

from retrieval import norm

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FILES = sorted((ROOT / "benchmarks/questions").glob("abstain_*.jsonl"))


def judge_row(kb, row: dict) -> tuple[bool, str]:
    """(whether the output is right, why) for one question."""
    view = answer(kb, row["q"])
    if row.get("negative"):
        return view["nothing_fits"], "caught" if view["nothing_fits"] else "missed"
    if view["nothing_fits"]:
        return False, "said nothing fits"
    wanted = [norm(e) for e in row.get("expect", [])]
    for hit in search(kb, row["q"], limit=10):
        if any(w in norm(hit.text) for w in wanted):
            return not hit.weak, "settling passage weak" if hit.weak else "ok"
    return True, "settling passage not in the first 10"


def score(kb, rows: list[dict]) -> tuple[dict, list[str]]:
    caught = negatives = alarms = answerables = unfound = 0
    lines = []
    for row in rows:
        right, why = judge_row(kb, row)
        if row.get("negative"):
            negatives += 1
            caught += right
        else:
            answerables += 1
            alarms += not right
            unfound += why.startswith("settling passage not")
        if not right:
            lines.append(f"{row['id']}: {why}  {row['q']}")
    return {
        "negatives caught": f"{caught}/{negatives} ({caught / max(negatives, 1):.0%})",
        "false alarms": f"{alarms}/{answerables} ({alarms / max(answerables, 1):.1%})",
        "answerables not retrieved": unfound,
    }, lines


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--list", action="store_true", help="list the misses and false alarms")
    args = parser.parse_args()
    kb = open_kb()
    for path in args.files or DEFAULT_FILES:
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        summary, lines = score(kb, rows)
        print(f"{path.name:28} {json.dumps(summary, ensure_ascii=False)}")
        if args.list:
            if "heldout" in path.name:
                print("  (held out: totals only)", file=sys.stderr)
            else:
                print("\n".join("  " + line for line in lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
