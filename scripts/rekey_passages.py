"""Re-key curated files after a parser change moved passage ids.

A passage id counts the passages of its topic (`rulings/cost/5`), so a parser that
reads a line differently (a note's lines joined, a wrapped item carried on) moves the
ids after it. This maps every id of an old build to the id of the new passage that
holds the old one's first line, and rewrites the files given:

    python scripts/rekey_passages.py OLD.sqlite NEW.sqlite kb/questions/*.yaml kb/scenarios/*.yaml tests/*.py

Two old ids that land in one new passage (a note's two lines) become one key: YAML
mappings with a repeated key are reported, to be merged by hand.
"""

from __future__ import annotations

import re
import sqlite3
import sys
from pathlib import Path


def id_map(old_db: str, new_db: str) -> dict[str, str]:
    new = sqlite3.connect(new_db)
    spans = new.execute("SELECT id, file, line, line_end FROM passages").fetchall()
    holder = {(file, n): pid for pid, file, start, end in spans for n in range(start, end + 1)}
    old = sqlite3.connect(old_db)
    moved = {}
    for pid, file, line in old.execute("SELECT id, file, line FROM passages"):
        # A line that became a heading (·洗牌) hands its id to the passage it heads.
        target = next((holder[(file, n)] for n in range(line, line + 3) if (file, n) in holder), None)
        if target and target != pid:
            moved[pid] = target
    return moved


def main() -> int:
    old_db, new_db, *files = sys.argv[1:]
    moved = id_map(old_db, new_db)
    if not moved:
        print("no id moved")
        return 0
    # Longest first, and never followed by a digit: rulings/cost/1 is not rulings/cost/12.
    pattern = re.compile("|".join(re.escape(k) for k in sorted(moved, key=len, reverse=True)) + r"(?!\d)")
    for name in dict.fromkeys(files):  # a file named twice is re-keyed once
        path = Path(name)
        text = path.read_text(encoding="utf-8")
        changed = pattern.sub(lambda m: moved[m.group(0)], text)
        if changed != text:
            path.write_text(changed, encoding="utf-8")
            keys = re.findall(r'^"([^"]+)":', changed, flags=re.M)
            repeated = sorted({k for k in keys if keys.count(k) > 1})
            print(f"{name}: re-keyed" + (f"; repeated keys to merge: {repeated}" if repeated else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
