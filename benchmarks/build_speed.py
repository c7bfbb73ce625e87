"""CPU time and database size of a full build of rulings_data/.

    python benchmarks/build_speed.py [--runs 3]

Runs `ocgkb build` in a child process several times, each time twice into a
fresh parts folder: cold (nothing remembered, as a first build on a new machine)
and warm (the segmentation and card-name forms the cold build saved, as a
rebuild after an edit). Measures CPU seconds, user and system, of the build and
any process it starts: on a machine shared with others, wall time measures the
neighbours. Prints each run, the medians and the size of the database.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

TARGET = 5.0  # CPU seconds of a build (issue 21)


def cpu_seconds_of_build(db: Path, parts: Path) -> float:
    """User and system CPU seconds of one `ocgkb build` and its children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-m", "ocgkb", "--db", str(db), "build", "--json"],
        env={**os.environ, "OCGKB_PARTS": str(parts)},
        check=True,
        stdout=subprocess.DEVNULL,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    cold, warm = [], []
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "ocgkb.sqlite"
        for run in range(args.runs):
            parts = Path(folder) / f"parts-{run}"  # empty: a cold build
            for times in (cold, warm):
                times.append(cpu_seconds_of_build(db, parts))
            print(f"run {run + 1}: cold {cold[-1]:.2f} CPU-s, warm {warm[-1]:.2f} CPU-s")
        size = db.stat().st_size
        with sqlite3.connect(db) as conn:
            (report,) = conn.execute("SELECT value FROM meta WHERE key = 'report'").fetchone()
    print(f"median cold build: {statistics.median(cold):.2f} CPU-s over {args.runs} runs")
    print(f"median warm build: {statistics.median(warm):.2f} CPU-s (target ≤ {TARGET:.0f}: parts remembered)")
    print(f"database size: {size / 1024 / 1024:.2f} MiB, {json.loads(report)['counts']['passages']} passages")


if __name__ == "__main__":
    main()
