"""Build time and database size of a full build of rulings_data/.

    python benchmarks/build_speed.py [--runs 5]

Builds into a temporary folder several times in one run and prints each time,
the median, and the size of the database.
"""

from __future__ import annotations

import argparse
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
    times = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ocgkb.sqlite"
        for run in range(args.runs):
            started = time.perf_counter()
            report = build(path)
            times.append(time.perf_counter() - started)
            print(f"run {run + 1}: {times[-1]:.2f} s")
        size = path.stat().st_size
    print(f"median build time: {statistics.median(times):.2f} s over {args.runs} runs (target < 10 s)")
    print(f"database size: {size / 1024 / 1024:.2f} MiB, {report.counts['passages']} passages")


if __name__ == "__main__":
    main()
