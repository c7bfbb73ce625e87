"""Relevance judged by a reader, not by a located line: a rule question is often
answered by another passage than the one its writer located (a seed clause the
edition repeats in its own words), which `retrieval.py` cannot count.

    python benchmarks/relevance_sheet.py sheet QUESTIONS.jsonl OUT.jsonl [--docs PATH]
    python benchmarks/relevance_sheet.py score JUDGED.jsonl

`sheet` writes, for each question, its first five hits' text and place, for a judge
who sees nothing else to mark: `{"id", "answering_ranks": [...]}` a line.
`score` prints R@1 and R@5 of such a judgement. With `--docs`, the documentation is
added to a temporary knowledge base first. The sheet holds the texts' sentences (and
an added documentation's, which is the user's): write it outside the project.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def sheet(questions: Path, out: Path, docs: Path | None) -> int:
    from ocgkb.query.ranking import search
    from ocgkb.store.door import build, open_kb

    if out.resolve().is_relative_to(ROOT):
        print(f"{out}: the sheet holds the texts' sentences; write it outside the project", file=sys.stderr)
        return 2
    rows = [json.loads(line) for line in questions.read_text(encoding="utf-8").splitlines() if line.strip()]
    with tempfile.TemporaryDirectory() as folder:
        if docs:
            from ocgkb.views.sources import add_source

            os.environ["OCGKB_SOURCES"] = str(Path(folder) / "sources")
            add_source(str(docs))
            build(Path(folder) / "kb.sqlite")
            kb = open_kb(Path(folder) / "kb.sqlite")
        else:
            kb = open_kb()
        with out.open("w", encoding="utf-8") as sink:
            for row in rows:
                hits = search(kb, row["q"], limit=5)
                places = [
                    {
                        "rank": rank,
                        "text": hit.text,
                        "where": f"{hit.source['doc']} › {hit.topic or hit.section or ''}",
                    }
                    for rank, hit in enumerate(hits, 1)
                ]
                sink.write(
                    json.dumps({"id": row["id"], "q": row["q"], "hits": places}, ensure_ascii=False) + "\n"
                )
    print(f"{len(rows)} questions → {out}")
    return 0


def score(judged: Path) -> int:
    rows = [json.loads(line) for line in judged.read_text(encoding="utf-8").splitlines() if line.strip()]
    n = len(rows) or 1
    first = sum(1 in row["answering_ranks"] for row in rows)
    five = sum(any(rank <= 5 for rank in row["answering_ranks"]) for row in rows)
    print(json.dumps({"n": len(rows), "recall@1": round(first / n, 3), "recall@5": round(five / n, 3)}))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("sheet", help="the first five hits of each question, for a judge")
    make.add_argument("questions", type=Path)
    make.add_argument("out", type=Path)
    make.add_argument("--docs", type=Path, help="a rulings documentation to add first")
    judged = commands.add_parser("score", help="R@1 and R@5 of a judgement")
    judged.add_argument("judged", type=Path)
    args = parser.parse_args()
    if args.command == "sheet":
        return sheet(args.questions, args.out, args.docs)
    return score(args.judged)


if __name__ == "__main__":
    sys.exit(main())
