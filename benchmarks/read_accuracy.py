"""How often `ocgkb read` reads a card text's effects as an annotator did from
the rule texts alone, field by field, against issue 23's targets.

    python benchmarks/read_accuracy.py [FILE.jsonl …] [--lang zh|ja|en] [--list]

benchmarks/read/README.md says how each set was written and which was tuned on.

A line is `{"id", "lang", "card_kind", "text", "effects": [{"n", "kind",
"spell_speed", "optional", "trigger_wording", "can_miss_timing", "condition",
"cost", "targets", "once_per_turn"}]}`. The reader is given the text and the
card's kind (what `--card` takes from the card facts). Effects are matched by
`n`; an annotated effect the reader did not find counts wrong on every field.

`condition` and `cost` are right when both are absent, or when, with spaces and
punctuation removed, one holds the other and the shorter is at least 80 % of the
longer (a trailing 的 or a comma is not a misreading). These rules were fixed
before the held-out set was first read.

Exits 1 when a field is under its target, so the check can fail.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from ocgkb.views.read import read_in_its_language

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FILES = sorted((ROOT / "benchmarks/read").glob("heldout*.jsonl"))  # tuned2 was tuned on

# Issue 23's targets: the share of effects read right, by field.
TARGETS = {
    "can_miss_timing": 0.95,
    "targets": 0.95,
    "once_per_turn": 0.95,
    "optional": 0.90,
    "cost": 0.90,
    "spell_speed": 0.90,
    "kind": 0.85,
    "condition": 0.85,
}
REPORTED = ("trigger_wording",)  # measured, with no target
PUNCTUATION = re.compile(r"[\s，。、,.;；:：「」『』\"“”'()（）]")


def _stretch(text: str | None) -> str:
    return PUNCTUATION.sub("", text or "")


def same_stretch(read: str | None, annotated: str | None) -> bool:
    """Whether the reader's condition (or cost) is the annotator's."""
    a, b = _stretch(read), _stretch(annotated)
    if not a or not b:
        return a == b
    short, long = sorted((a, b), key=len)
    return short in long and len(short) >= 0.8 * len(long)


def right(field: str, read: dict | None, annotated: dict) -> bool:
    if read is None:
        return False
    if field in ("condition", "cost"):
        return same_stretch(read.get(field), annotated.get(field))
    return read.get(field) == annotated.get(field)


def reading_of(row: dict) -> dict:
    return read_in_its_language(row["text"], row.get("card_kind"))


def score(rows: list[dict]) -> tuple[dict[str, float], int, list[str]]:
    fields = (*TARGETS, *REPORTED)
    hits = dict.fromkeys(fields, 0)
    total, misses = 0, []
    for row in rows:
        effects = {e["n"]: e for e in reading_of(row)["effects"]}
        for gold in row["effects"]:
            total += 1
            read = effects.get(gold["n"])
            for field in fields:
                if right(field, read, gold):
                    hits[field] += 1
                else:
                    got = "(no such effect)" if read is None else read.get(field)
                    misses.append(
                        f"{row['id']} n={gold['n']} {field}: read {got!r}, annotated {gold.get(field)!r}"
                    )
    return {f: hits[f] / total if total else 0.0 for f in fields}, total, misses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, default=DEFAULT_FILES)
    parser.add_argument("--lang", choices=("zh", "ja", "en"), help="only the texts in this language")
    parser.add_argument("--list", action="store_true", help="print every miss")
    args = parser.parse_args(argv)
    rows = [
        json.loads(line)
        for path in args.files
        for line in path.read_text("utf-8").splitlines()
        if line.strip()
    ]
    rows = [row for row in rows if args.lang in (None, row.get("lang", "zh"))]
    shares, total, misses = score(rows)
    print(f"{len(rows)} texts, {total} effects")
    failed = False
    for field, share in shares.items():
        target = TARGETS.get(field)
        mark = "" if target is None else ("  ok" if share >= target else f"  UNDER {target:.0%}")
        failed |= target is not None and share < target
        print(f"  {field:16} {round(share * total):>4}/{total} {share:6.1%}{mark}")
    if args.list:
        print("\n".join(misses))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
