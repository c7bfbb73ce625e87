"""Retrieval quality in one process: recall@1, recall@5 and MRR of `search` on
question files (the same scoring as ../shared/eval/score.py, without a process
per question, so ranking changes can be compared quickly).

    python benchmarks/retrieval.py [FILE.jsonl …] [--misses]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from ocgkb.query.ranking import search
from ocgkb.store.door import open_kb

ROOT = Path(__file__).resolve().parent.parent
# (file, language, tuned or blind). Tuned: the ranking and kb/ were adjusted while
# looking at them. Blind: written by someone who read only the source texts; only
# their totals are ever looked at, never their misses.
SETS = [
    (ROOT / "benchmarks/questions/blind5_zh.jsonl", "zh", "blind"),
    (ROOT / "benchmarks/questions/blind5_en.jsonl", "en", "blind"),
    (ROOT / "benchmarks/questions/blind4_zh.jsonl", "zh", "blind"),
    (ROOT / "benchmarks/questions/blind4_en.jsonl", "en", "blind"),
    (ROOT / "benchmarks/questions/blind3_zh.jsonl", "zh", "blind"),
    (ROOT / "benchmarks/questions/blind3_en.jsonl", "en", "blind"),
    (ROOT / "benchmarks/questions/blind2_zh.jsonl", "zh", "blind"),
    (ROOT / "benchmarks/questions/blind2_en.jsonl", "en", "blind"),
    (ROOT / "benchmarks/questions/blind_questions.jsonl", "zh", "blind"),
    (ROOT.parent / "shared/eval/dev_questions.jsonl", "zh", "tuned"),
    (ROOT / "benchmarks/questions/tune3_zh.jsonl", "zh", "tuned"),
    (ROOT / "benchmarks/questions/tune3_en.jsonl", "en", "tuned"),
    # Written by someone who read only the seeds, for tuning against an added documentation's drift.
    (ROOT / "benchmarks/questions/tune4_zh.jsonl", "zh", "tuned"),
    (ROOT / "benchmarks/questions/tune4_en.jsonl", "en", "tuned"),
    (ROOT / "benchmarks/questions/judge_questions.jsonl", "zh", "tuned"),
]
DEFAULT_FILES = [path for path, _, _ in SETS]


def norm(text: str) -> str:
    return re.sub(r"\s+", "", text or "").replace("•", "·").replace("・", "·")


def answers(hit, row: dict) -> bool:
    """Whether a hit answers a question: its text holds one of `expect`, or (a
    question on an added documentation, located without copying its words) one of
    its places, or a copy's, holds one of the `answers` lines (file and line)."""
    if "answers" in row:
        return any(
            place["file"] == answer["file"] and place["line"] <= answer["line"] <= place["line_end"]
            for place in hit.citations
            for answer in row["answers"]
        )
    return any(norm(e) in norm(hit.text) for e in row["expect"])


def score(kb, rows: list[dict], limit: int = 10) -> tuple[dict, list[str]]:
    ranks, misses = [], []
    for row in rows:
        rank = None
        for i, hit in enumerate(search(kb, row["q"], limit=limit), 1):
            if answers(hit, row):
                rank = i
                break
        ranks.append(rank)
        if rank != 1:
            misses.append(f"{row['id']}: rank={rank} q={row['q']}")
    n = len(rows)
    return {
        "n": n,
        "recall@1": round(sum(r == 1 for r in ranks) / n, 3),
        "recall@5": round(sum(r is not None and r <= 5 for r in ranks) / n, 3),
        "mrr": round(sum(1 / r for r in ranks if r) / n, 3),
    }, misses


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--misses", action="store_true", help="list the questions not answered first")
    args = parser.parse_args()
    kb = open_kb()
    for path in args.files or [f for f in DEFAULT_FILES if f.is_file()]:
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        summary, misses = score(kb, rows)
        label = next((f"{lang} {kind}" for p, lang, kind in SETS if p == path), "")
        print(f"{path.name:28} {label:9} {json.dumps(summary)}")
        if args.misses:
            print("\n".join("  " + m for m in misses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
