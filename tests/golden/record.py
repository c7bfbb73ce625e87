"""Record the golden outputs (tests/golden/outputs.json) from a fresh build of the
repository's sources: run only when a change of output is deliberate.

    python -m tests.golden.record
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from ocgkb.build.pipeline import build

from .cases import OUTPUTS, ROOT, record

if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as folder:
        # No card texts imported, as in the tests: never the user's own.
        os.environ["OCGKB_TEXTS"] = os.path.join(folder, "card_texts.sqlite")
        # Nor a rulings documentation the user added.
        os.environ["OCGKB_SOURCES"] = os.path.join(folder, "sources")
        db = Path(folder) / "ocgkb.sqlite"
        build(db, ROOT / "rulings_data", ROOT / "kb")
        outputs = record(db, Path(folder))
    OUTPUTS.write_text(json.dumps(outputs, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(outputs)} outputs recorded in {OUTPUTS}")
