"""Card lookup over the 14k cards of the card facts: how fast, and how often right.

    python benchmarks/card_lookup.py [--runs 15] [FILE.jsonl …]

Prints, measured in one run so the figures compare on this noisy machine:
- the latency of `find_cards` in process (every name form is precomputed at
  build time; whole names are one indexed lookup, typos read only the name
  forms that share enough characters), by kind of query, as medians;
- the latency of `ocgkb card NAME --json` as a shell command, beside the bare
  start-up of `python -c "import click, sqlite3"`;
- top-1 on card-lookup sets: lines `{"q", "password"}` (password null for a
  query that is no card: right when nothing matches) or `{"q", "name"}`.
Targets (issue "Every card known by every name"): ≤ 10 ms in process, ≤ 0.3 s
as a shell command.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from ocgkb.query.lookup import find_cards
from ocgkb.store.door import KnowledgeBase, open_kb

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FILES = [
    ROOT / "benchmarks/questions/blind_card_names.jsonl",
    ROOT / "benchmarks/questions/card_queries.jsonl",
    ROOT.parent / "shared/eval/dev_cards.jsonl",
    ROOT.parent / "shared/eval/dev_cards_names.jsonl",
]


def read_rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def is_right(kb: KnowledgeBase, row: dict) -> bool:
    matches = find_cards(kb, row["q"], limit=1)
    if "password" in row:
        if row["password"] is None:
            return not matches
        if not matches:
            return False
        found = kb.query("SELECT password, alt_passwords FROM cards WHERE name = ?", (matches[0].name,))[0]
        alternates = {int(p) for p in (found["alt_passwords"] or "").split(",") if p}
        return row["password"] == found["password"] or row["password"] in alternates
    return bool(matches) and matches[0].name == row["name"]


def in_process(kb: KnowledgeBase, rows: list[dict], runs: int) -> dict[str, list[float]]:
    for row in rows:  # warm what a process keeps
        find_cards(kb, row["q"])
    times: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        samples = []
        for _ in range(runs):
            started = time.perf_counter()
            find_cards(kb, row["q"])
            samples.append(time.perf_counter() - started)
        times[row.get("form", "text")].append(statistics.median(samples))
        times["all"].append(statistics.median(samples))
    return times


def shell(args: list[str], runs: int) -> float:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(args, capture_output=True)
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    kb = open_kb()
    cards = kb.query("SELECT count(*) FROM cards")[0][0]
    files = args.files or [f for f in DEFAULT_FILES if f.is_file()]
    print(f"cards in the knowledge base: {cards}")

    print("\ntop-1 by file:")
    for path in files:
        rows = read_rows(path)
        right = sum(is_right(kb, row) for row in rows)
        print(f"  {path.name:28} {right}/{len(rows)} = {right / len(rows):.3f}")
        by_form: dict[str, list[bool]] = defaultdict(list)
        for row in rows:
            if "form" in row:
                by_form[row["form"]].append(is_right(kb, row))
        for form, results in sorted(by_form.items()):
            print(f"      {form:14} {sum(results)}/{len(results)}")

    blind = read_rows(files[0])
    times = in_process(kb, blind, args.runs)
    print(f"\nin process, median of medians over {files[0].name} ({args.runs} runs each):")
    for form, samples in sorted(times.items()):
        print(
            f"  {form:14} {statistics.median(samples) * 1000:6.2f} ms   (max {max(samples) * 1000:6.2f} ms)"
        )

    ocgkb = str(Path(sys.executable).with_name("ocgkb"))
    bare = shell([sys.executable, "-c", "import click, sqlite3"], args.runs)
    print(f"\nas a shell command, median of {args.runs}:")
    print(f"  python -c 'import click, sqlite3'   {bare * 1000:6.1f} ms")
    for query in ("增殖的G", "Maxx C", "増殖するG", "强脱", "突近", "dark magican", "xyzzyq"):
        seconds = shell([ocgkb, "card", query, "--json"], args.runs)
        print(f"  ocgkb card {query!r:16}  {seconds * 1000:6.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
