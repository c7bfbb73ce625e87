"""The cost of a rulings documentation added (issue 30), measured in one run:

- adding it: `ocgkb sources add DOCS`, CPU seconds of the command and what it
  starts, for a user whose knowledge base was built before (its parts remembered),
  and from nothing (a new machine: no parts at all);
- a rebuild with it: `ocgkb build` again, the edition's parse and cut remembered;
- `ask` start-up with it beside the bare interpreter (`python -c "import click,
  sqlite3"`), each run paired with the interpreter's run beside it;
- search in-process, a session that has read every passage;
- the database's size with and without it.

    python benchmarks/sources_speed.py [--docs PATH] [--runs 3] [--shell-runs 21]

The documentation is the user's material, read from where it lies (by default
../shared/data/rulings-docs/2026-08-14), kept in a temporary sources folder: nothing
goes into the project. CPU seconds, not wall time: on a shared machine wall time
measures the neighbours. Targets: adding ≤ 15 CPU-s, a rebuild ≤ 10 CPU-s, ask
≤ 1.5 × the bare interpreter, search ≤ 10 ms, the database ≤ 3 × its size without.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT.parent / "shared" / "data" / "rulings-docs" / "2026-08-14"
QUESTIONS = ROOT / "benchmarks" / "questions"


def cpu_seconds(args: list[str], env: dict) -> float:
    """User and system CPU seconds of `ocgkb ARGS` and every process it starts."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "ocgkb", *args], env=env, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def paired_ask(env: dict, question: str, runs: int) -> list[float]:
    """`ocgkb ask` over the bare interpreter's start-up, run by run (the pair shares the machine's moment)."""
    ocgkb = Path(sys.executable).with_name("ocgkb")
    ratios = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([str(ocgkb), "ask", question], env=env, capture_output=True, check=True)
        ask = time.perf_counter() - started
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import click, sqlite3"], check=True)
        ratios.append(ask / (time.perf_counter() - started))
    return ratios


def search_ms(db: Path, env: dict) -> float:
    """The median of each question's best of five in-process searches, in ms."""
    code = (
        "import json, statistics, sys, time\n"
        "from ocgkb.query.candidates import warm\n"
        "from ocgkb.query.ranking import search\n"
        "from ocgkb.store.door import open_kb\n"
        "kb = open_kb(sys.argv[1]); warm(kb)\n"
        "qs = [json.loads(l)['q'] for f in sys.argv[2:] for l in open(f, encoding='utf-8') if l.strip()]\n"
        "best = []\n"
        "for q in qs:\n"
        "    runs = []\n"
        "    for _ in range(5):\n"
        "        t = time.perf_counter(); search(kb, q); runs.append(time.perf_counter() - t)\n"
        "    best.append(min(runs))\n"
        "print(statistics.median(best) * 1000)\n"
    )
    files = [str(QUESTIONS / name) for name in ("edition_tune_zh.jsonl", "judge_questions.jsonl")]
    out = subprocess.run(
        [sys.executable, "-c", code, str(db), *files], env=env, capture_output=True, text=True
    )
    return float(out.stdout.strip())


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--docs", type=Path, default=DOCS, help="the documentation's folder (holding docs/)")
    parser.add_argument("--runs", type=int, default=3, help="adds and rebuilds timed")
    parser.add_argument("--shell-runs", type=int, default=21, help="paired ask start-ups timed")
    args = parser.parse_args()
    if not args.docs.is_dir():
        print(f"no rulings documentation at {args.docs}: nothing to measure", file=sys.stderr)
        return 1
    # An installed wheel has its bytecode; a checkout run with PYTHONDONTWRITEBYTECODE has not.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "ocgkb")], check=True)
    question = json.loads((QUESTIONS / "edition_tune_zh.jsonl").read_text(encoding="utf-8").splitlines()[0])[
        "q"
    ]
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        bare_db, db = base / "bare.sqlite", base / "with.sqlite"
        warm_parts = base / "parts-warm"
        env = {**os.environ, "OCGKB_PARTS": str(warm_parts), "OCGKB_SOURCES": str(base / "none")}
        cpu_seconds(["--db", str(bare_db), "build"], env)  # the user's knowledge base before, not counted
        adds, cold_adds, rebuilds = [], [], []
        for run in range(args.runs):
            parts = base / f"parts-{run}"  # the seeds remembered, the documentation not yet
            shutil.copytree(warm_parts, parts)
            run_env = {**env, "OCGKB_PARTS": str(parts), "OCGKB_SOURCES": str(base / f"sources-{run}")}
            adds.append(cpu_seconds(["--db", str(db), "sources", "add", str(args.docs)], run_env))
            rebuilds.append(cpu_seconds(["--db", str(db), "build"], run_env))
            cold_env = {
                **run_env,
                "OCGKB_PARTS": str(base / f"cold-{run}"),
                "OCGKB_SOURCES": str(base / f"c-{run}"),
            }
            cold_adds.append(
                cpu_seconds(
                    ["--db", str(base / f"cold-{run}.sqlite"), "sources", "add", str(args.docs)], cold_env
                )
            )
            print(
                f"run {run + 1}: add {adds[-1]:.2f}, rebuild {rebuilds[-1]:.2f}, add on a new machine {cold_adds[-1]:.2f} CPU-s"
            )
        print(f"median add:             {statistics.median(adds):6.2f} CPU-s (target ≤ 15)")
        print(f"median rebuild with it: {statistics.median(rebuilds):6.2f} CPU-s (target ≤ 10)")
        print(
            f"median add, new machine:{statistics.median(cold_adds):6.2f} CPU-s (no parts remembered, the seeds cut too)"
        )
        ask_env = {**env, "OCGKB_SOURCES": str(base / "sources-0")}
        bare_env = {**env}
        for label, kb, environment in (("without", bare_db, bare_env), ("with", db, ask_env)):
            ratios = paired_ask({**environment, "OCGKB_DB": str(kb)}, question, args.shell_runs)
            print(
                f"ask {label:7} it: {statistics.median(ratios):.2f} × the bare interpreter (median of {len(ratios)} pairs; target ≤ 1.5)"
            )
        for label, kb, environment in (("without", bare_db, bare_env), ("with", db, ask_env)):
            print(
                f"search {label:7} it: {search_ms(kb, environment):5.1f} ms in-process, median (target ≤ 10)"
            )
        size, bare_size = db.stat().st_size, bare_db.stat().st_size
        print(
            f"database: {size / 2**20:.1f} MB with it, {bare_size / 2**20:.1f} MB without: {size / bare_size:.2f} × (target ≤ 3)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
