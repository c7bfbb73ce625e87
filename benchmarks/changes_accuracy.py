"""How well `ocgkb changes` finds what changed between two editions of a rulings
documentation, against the truth read from the files themselves: every official FAQ
id (`fid=NNNN`) anywhere in each edition's .rst files, found by a plain pattern over
the raw text, independent of the reader (an id only the new edition has is added,
one only the old has is removed). Precision and recall of the FAQ ids `changes` lists
as added and as removed, its totals, and its CPU seconds.

    python benchmarks/changes_accuracy.py [OLD NEW]

By default the two editions of ../shared/data/rulings-docs (2025-05-16 → 2026-08-14),
the user's material, read where it lies. Target (issue 30): precision and recall ≥ 0.97.
"""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT.parent / "shared" / "data" / "rulings-docs"
FID = re.compile(r"fid=(\d+)")


def faq_ids(folder: Path) -> set[int]:
    """Every FAQ id the edition's .rst files link to, by a pattern over their bytes."""
    return {int(m) for path in folder.rglob("*.rst") for m in FID.findall(path.read_text(encoding="utf-8"))}


def scored(found: set[int], truth: set[int]) -> str:
    hit = len(found & truth)
    precision = hit / len(found) if found else 1.0
    recall = hit / len(truth) if truth else 1.0
    return f"precision {precision:.3f}, recall {recall:.3f} ({len(found)} listed, {len(truth)} true)"


def main() -> int:
    old, new = (
        (Path(a) for a in sys.argv[1:3]) if len(sys.argv) >= 3 else (DOCS / "2025-05-16", DOCS / "2026-08-14")
    )
    if not (old.is_dir() and new.is_dir()):
        print(f"no editions at {old} and {new}: nothing to measure", file=sys.stderr)
        return 1
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        [sys.executable, "-m", "ocgkb", "changes", str(old), str(new), "--json"],
        capture_output=True, text=True, check=True, env={**os.environ, "OCGKB_SOURCES": "/nonexistent-ocgkb-sources"},
    )  # fmt: skip
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    view = json.loads(out.stdout)
    old_ids, new_ids = faq_ids(old), faq_ids(new)
    listed = {kind: {r["fid"] for r in view[kind] if r["fid"]} for kind in ("added", "removed", "changed")}
    print(f"{old.name} → {new.name}: {json.dumps(view['totals'])}")
    print(f"FAQ ids added:   {scored(listed['added'], new_ids - old_ids)}")
    print(f"FAQ ids removed: {scored(listed['removed'], old_ids - new_ids)}")
    print(f"FAQ ids changed: {len(listed['changed'])} (each cited by both, its words or date not the same)")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"`ocgkb changes OLD NEW`: {cpu:.1f} CPU-s (both editions read and parsed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
