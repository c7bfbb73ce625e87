"""Retrieval with a rulings documentation added: the held-out questions answered
only by the 2026-08-14 edition (benchmarks/questions/edition_blind_*.jsonl, written
by someone who never saw the ranking; edition_tune_* were looked at while tuning;
edition_blind_en's misses were read at stop 35, after which nothing of the ranking
changed, and edition_blind2_en (40 more) and edition_rules_en|zh (30 each, naming
no card) were written then),
and the seeds' own question sets with and without the edition, side by side.

    python benchmarks/edition_retrieval.py [--docs PATH] [--misses]

The edition is the user's material, read from where it lies (by default
../shared/data/rulings-docs/2026-08-14): it is added into a temporary sources
folder and knowledge base, never into the project. A question on the edition is
answered at rank r when the r-th hit, or a copy of it, stands on one of the
question's answer lines (file and line: the questions copy no sentence).
Targets (issue 30): Chinese R@1 ≥ 0.80, R@5 ≥ 0.95; English R@1 ≥ 0.65,
R@5 ≥ 0.85; each seed set's R@1 within 0.02 of its figure without the edition.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from retrieval import SETS, score

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT.parent / "shared" / "data" / "rulings-docs" / "2026-08-14"
QUESTIONS = ROOT / "benchmarks" / "questions"
EDITION_SETS = [
    (QUESTIONS / "edition_blind_zh.jsonl", "zh blind"),
    (QUESTIONS / "edition_blind_en.jsonl", "en blind"),
    (QUESTIONS / "edition_blind2_en.jsonl", "en blind"),
    # Rule situations naming no card: the seeds often state the same rule in
    # another passage, which a located answer line does not count.
    (QUESTIONS / "edition_rules_en.jsonl", "en blind"),
    (QUESTIONS / "edition_rules_zh.jsonl", "zh blind"),
    (QUESTIONS / "edition_tune_zh.jsonl", "zh tuned"),
    (QUESTIONS / "edition_tune_en.jsonl", "en tuned"),
]


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--docs", type=Path, default=DOCS, help="the edition's folder (holding docs/)")
    parser.add_argument(
        "--misses", action="store_true", help="list the tuned sets' questions not answered first"
    )
    args = parser.parse_args()
    if not args.docs.is_dir():
        print(f"no rulings documentation at {args.docs}: nothing to measure", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as folder:
        os.environ["OCGKB_SOURCES"] = str(Path(folder) / "sources")
        from ocgkb.store.door import build, open_kb
        from ocgkb.views.sources import add_source

        bare = open_kb(Path(folder) / "bare.sqlite")
        add_source(str(args.docs))
        build(Path(folder) / "with.sqlite")
        kb = open_kb(Path(folder) / "with.sqlite")
        print(
            f"edition added: {args.docs} ({kb.passage_count:,} passages, {bare.passage_count:,} without it)"
        )
        for path, label in EDITION_SETS:
            summary, misses = score(kb, _rows(path))
            print(f"{path.name:28} {label:9} {json.dumps(summary)}")
            if args.misses and "tuned" in label:
                print("\n".join("  " + m for m in misses))
        print("the seeds' sets, without → with the edition:")
        for path, lang, kind in SETS:
            if not path.is_file():
                continue
            rows = _rows(path)
            before, _ = score(bare, rows)
            after, _ = score(kb, rows)
            drop = before["recall@1"] - after["recall@1"]
            print(
                f"  {path.name:26} {lang} {kind:5}  R@1 {before['recall@1']:.3f} → {after['recall@1']:.3f}"
                f"  R@5 {before['recall@5']:.3f} → {after['recall@5']:.3f}"
                + ("  (drop > 0.02)" if drop > 0.02 else "")
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
