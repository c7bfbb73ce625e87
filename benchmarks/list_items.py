"""Which passages that introduce a list carry it (issue 32, point 1): every passage
of the texts that says 以下 / 如下 / 下列 / 下面 about what follows, or ends with a colon,
and whether `items` (its sub-items in the structure) is not empty.

    python benchmarks/list_items.py [--db PATH] [--misses]
    python benchmarks/list_items.py --clauses benchmarks/structure/lists_heldout.jsonl
    python benchmarks/list_items.py --clauses benchmarks/structure/lists_heldout2.jsonl

With `--clauses`, a hand-annotated file of list clauses (`{"doc": "003", "line": N,
"items": [line numbers]}`) is scored instead: a clause carries its list when every
item line is held by one of the items of the passage holding line N.

A passage counted here without items is a structure problem (its items were read
as siblings, not sub-items: issue 32 point 5), not a display one: every view shows
`items` whenever the structure has them.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from ocgkb.store.door import open_kb
from ocgkb.store.passages import all_passages, items_of

# 以下 as "what follows", not as "N or lower" (4星以下, 1500以下) nor "hereafter" (以下略称).
INTRODUCES = re.compile(r"(?<![0-9０-９星个张级阶])(以下|如下|下列|下面)(?!略|的?简称)|[：:]\s*$")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", help="the knowledge base (default: the usual one)")
    parser.add_argument("--misses", action="store_true", help="list those without items")
    parser.add_argument("--clauses", type=Path, help="score these annotated list clauses instead")
    args = parser.parse_args()
    kb = open_kb(args.db)
    if args.clauses:
        return score_clauses(kb, args.clauses)
    intro = [r for r in all_passages(kb) if INTRODUCES.search(r["text"])]
    items = items_of(kb, [r["id"] for r in intro])
    carried = [r for r in intro if items.get(r["id"])]
    print(f"{len(carried)} of {len(intro)} passages that introduce a list carry items")
    by_doc: dict[str, list[int]] = {}
    for r in intro:
        by_doc.setdefault(r["doc"], [0, 0])[0] += bool(items.get(r["id"]))
        by_doc[r["doc"]][1] += 1
    for doc, (have, n) in sorted(by_doc.items()):
        print(f"  {doc:12} {have}/{n}")
    if args.misses:
        for r in intro:
            if not items.get(r["id"]):
                print(f"  - {r['id']}: {r['text'][:70]}")
    return 0


def score_clauses(kb, path: Path) -> int:
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    spans = kb.query("SELECT id, file, line, line_end FROM passages")

    def holder(doc: str, line: int) -> str | None:
        return next((r["id"] for r in spans if r["file"][:3] == doc and r["line"] <= line <= r["line_end"]), None)

    carried = 0
    for row in rows:
        clause = holder(row["doc"], row["line"])
        items = set(items_of(kb, [clause]).get(clause, [])) if clause else set()
        missing = [n for n in row["items"] if holder(row["doc"], n) not in items]
        carried += not missing
        print(f"  {row['doc']}:{row['line']} ({clause}): " + ("carried" if not missing else f"missing {missing}"))
    print(f"{carried} of {len(rows)} list clauses carry every item")
    return 0


if __name__ == "__main__":
    sys.exit(main())
