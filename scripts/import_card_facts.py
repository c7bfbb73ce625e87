"""Bring the card facts into the corpus: `rulings_data/card_facts.jsonl.xz`.

The file is the shared card data byte for byte, xz-compressed (1/7 of the size,
and xz writes no time stamp, so the same input gives the same bytes). The
manifest records the sha256 of the uncompressed bytes, which is the hash of the
file this was made from. Run it again when the card data is updated:

    python scripts/import_card_facts.py ../shared/data/cards/card_facts.jsonl
"""

from __future__ import annotations

import hashlib
import lzma
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(source: str) -> None:
    data = Path(source).read_bytes()
    target = ROOT / "rulings_data" / "card_facts.jsonl.xz"
    target.write_bytes(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
    lines = data.count(b"\n")
    print(f"wrote {target} ({lines} cards, {target.stat().st_size} bytes)")
    print(f"sha256 of the uncompressed facts (for manifest.yaml): {hashlib.sha256(data).hexdigest()}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(ROOT.parent / "shared/data/cards/card_facts.jsonl"))
