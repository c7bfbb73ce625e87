"""Memory of a server worker under a stream of questions it has never seen: a real
`ocgkb serve` (one worker) answers `--queries` unique 290-character searches over
/api/search, one at a time, and its resident size (VmRSS, Linux /proc) is read
before and after.

    python benchmarks/memory.py [--queries 5000] [--db PATH]

Target: the worker ends within 50 MB of where it stood after a warm-up of 200
ordinary questions (every per-process cache is bounded). Exit status 1 when missed.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

from serve_load import Client, start_server, wait_ready

from ocgkb.store.door import open_kb

TARGET_MB = 50
WARM_UP = 200
QUESTION_LENGTH = 290  # under the 300-character limit of a query


def resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS: this benchmark needs Linux /proc")


def unique_questions(count: int, seed: int = 7) -> list[str]:
    """Questions made of rule words and random CJK characters: every one is new,
    and each cuts into a few thousand pieces the vocabulary has never seen."""
    rng = random.Random(seed)
    words = ["连锁", "发动", "对象", "cost", "伤害步骤", "卡时点", "特殊召唤", "墓地", "除外", "效果"]
    questions = []
    for i in range(count):
        parts = [f"{i}"]
        while sum(map(len, parts)) < QUESTION_LENGTH:
            parts.append(rng.choice(words) if rng.random() < 0.3 else chr(0x4E00 + rng.randrange(20_000)))
        questions.append("".join(parts)[:QUESTION_LENGTH])
    return questions


def ask_all(port: int, questions: list[str]) -> int:
    client, errors = Client(port, timeout=30), 0
    for question in questions:
        status, _ = client.get("/api/search?q=" + urllib.parse.quote(question))
        errors += status != 200
    client.close()
    return errors


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--queries", type=int, default=5000)
    parser.add_argument(
        "--db", type=Path, help="a built knowledge base (default: build or reuse the usual one)"
    )
    args = parser.parse_args()
    db = args.db or open_kb().path
    with tempfile.TemporaryFile() as log:
        server, port = start_server(Path(db), 1, log)
        try:
            wait_ready(server, port)
            ask_all(port, [f"{w}怎么处理" for w in ("连锁", "cost", "卡时点", "伤害步骤")] * (WARM_UP // 4))
            before = resident_mb(server.pid)
            started = time.perf_counter()
            errors = ask_all(port, unique_questions(args.queries))
            seconds = time.perf_counter() - started
            after = resident_mb(server.pid)
        finally:
            server.terminate()
            server.wait(30)
    growth = after - before
    print(f"{args.queries} unique {QUESTION_LENGTH}-character searches in {seconds:.0f} s, {errors} errors")
    print(f"worker resident size {before:.0f} MB → {after:.0f} MB: +{growth:.1f} MB (target ≤ {TARGET_MB})")
    return 0 if growth <= TARGET_MB and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
