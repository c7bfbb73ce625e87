"""Build time and database size of a full build of rulings_data/.

    python benchmarks/build_speed.py [--runs 5]

Builds into a temporary folder several times in one run, each time twice: cold
(no remembered segmentation, as a first build on a new machine) and warm (the
segmentation the cold build saved, as a rebuild after an edit). Prints each time,
the medians and the size of the database.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from ocgkb.build.pipeline import build


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    cold, warm = [], []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ocgkb.sqlite"
        for run in range(args.runs):
            os.environ["OCGKB_PARTS"] = str(Path(folder) / f"parts-{run}")  # empty: a cold build
            for times in (cold, warm):
                started = time.perf_counter()
                report = build(path)
                times.append(time.perf_counter() - started)
            print(f"run {run + 1}: cold {cold[-1]:.2f} s, warm {warm[-1]:.2f} s")
        size = path.stat().st_size
    print(f"median cold build: {statistics.median(cold):.2f} s over {args.runs} runs (target < 10 s)")
    print(f"median warm build: {statistics.median(warm):.2f} s (segmentation remembered)")
    print(f"database size: {size / 1024 / 1024:.2f} MiB, {report.counts['passages']} passages")


if __name__ == "__main__":
    main()
