"""Bring the Forbidden & Limited lists into the corpus: `rulings_data/limit_regulation.jsonl.xz`.

The file is the shared list data byte for byte, xz-compressed (xz writes no time
stamp, so the same input gives the same bytes), as scripts/import_card_facts.py
does for the card facts. The manifest records the sha256 of the uncompressed
bytes, which is the hash of the file this was made from. Run it again when the
lists are updated, and copy the printed hash and count into manifest.yaml:

    python scripts/import_limit_regulation.py ../shared/data/cards/limit_regulation.jsonl
"""

from __future__ import annotations

import hashlib
import lzma
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(source: str) -> None:
    data = Path(source).read_bytes()
    target = ROOT / "rulings_data" / "limit_regulation.jsonl.xz"
    target.write_bytes(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
    lines = data.count(b"\n")
    print(f"wrote {target} ({lines} lists, {target.stat().st_size} bytes)")
    print(f"sha256 of the uncompressed lists (for manifest.yaml): {hashlib.sha256(data).hexdigest()}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(ROOT.parent / "shared/data/cards/limit_regulation.jsonl"))
