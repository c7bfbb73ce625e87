"""Bring the shared card data into the corpus, byte for byte and xz-compressed:
`rulings_data/card_facts.jsonl.xz` (every card's facts, no effect text) and
`rulings_data/limit_regulation.jsonl.xz` (the Forbidden & Limited lists).

xz writes no time stamp, so the same input gives the same bytes. The manifest
records the sha256 of the uncompressed bytes, the hash of the file each was made
from. Run it again when the shared data is updated, and copy the printed hashes
and counts into rulings_data/manifest.yaml:

    python scripts/import_shared_data.py [../shared/data/cards]
"""

from __future__ import annotations

import hashlib
import lzma
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = {"card_facts.jsonl": "cards", "limit_regulation.jsonl": "lists"}


def import_file(source: Path, what: str) -> None:
    data = source.read_bytes()
    target = ROOT / "rulings_data" / f"{source.name}.xz"
    target.write_bytes(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
    lines = data.count(b"\n")
    print(f"wrote {target} ({lines} {what}, {target.stat().st_size} bytes)")
    print(f"  sha256 of the uncompressed bytes (for manifest.yaml): {hashlib.sha256(data).hexdigest()}")


def main(folder: Path) -> None:
    for name, what in FILES.items():
        import_file(folder / name, what)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared/data/cards")
