"""Search speed: a command typed at a shell, a search in-process, and a search on a
knowledge base scaled to 100,000 passages, each beside a naive substring scan.

    python benchmarks/search_speed.py [--runs 15] [--scale 100000]

All figures are medians over the sample questions, measured in one run so they
compare on this noisy machine. Targets: `ocgkb ask` within 2.5 × the start-up of
`python -c "import click, sqlite3"` (timed in pairs), in-process < 5 ms, scaled < 50 ms.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ocgkb.build import refresh_term_counts
from ocgkb.query import plan_query
from ocgkb.search import search
from ocgkb.store import KnowledgeBase, open_kb
from ocgkb.tokenize import bigrams

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = ROOT / "benchmarks" / "questions" / "judge_questions.jsonl"
CARDS = ROOT / "benchmarks" / "questions" / "card_queries.jsonl"


def median_ms(times: list[float]) -> str:
    return f"{statistics.median(times) * 1000:7.1f} ms"


def time_cli(args: list[str], runs: int) -> list[float]:
    ocgkb = Path(sys.executable).with_name("ocgkb")
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([str(ocgkb), *args], capture_output=True, check=True)
        times.append(time.perf_counter() - started)
    return times


def paired(args: list[str], runs: int) -> tuple[list[float], list[float]]:
    """The command and the bare interpreter+click start-up, alternated run by run,
    so both see the same machine."""
    command, bare = [], []
    for _ in range(runs):
        command += time_cli(args, 1)
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import click, sqlite3"], check=True)
        bare.append(time.perf_counter() - started)
    return command, bare


def time_search(kb: KnowledgeBase, questions: list[str]) -> list[float]:
    search(kb, questions[0])  # warm the caches a session keeps
    times = []
    for question in questions:
        started = time.perf_counter()
        search(kb, question, limit=10)
        times.append(time.perf_counter() - started)
    return times


def time_naive(kb: KnowledgeBase, questions: list[str]) -> list[float]:
    """Load every passage and rank by how many query words each contains."""
    texts = [(r[0], r[1]) for r in kb.query("SELECT id, search_text FROM passages")]
    times = []
    for question in questions:
        started = time.perf_counter()
        words = plan_query(kb, question).words
        scored = sorted(((sum(w in text for w in words), pid) for pid, text in texts), reverse=True)[:10]
        del scored
        times.append(time.perf_counter() - started)
    return times


def scaled_copy(kb: KnowledgeBase, target: Path, size: int, seed: int = 7) -> Path:
    """The knowledge base plus synthetic passages up to `size`: each joins the first
    half of one real passage to the second half of another, with their tokens."""
    shutil.copy(kb.path, target)
    conn = sqlite3.connect(target)
    rows = conn.execute(
        "SELECT p.rowid, p.kind, p.doc, p.file, p.topic, p.search_text, p.words, p.context FROM passages p"
    ).fetchall()
    tags = {}
    for pid, concept in conn.execute(
        "SELECT p.rowid, pc.concept FROM passage_concepts pc JOIN passages p ON p.id = pc.passage_id"
    ):
        tags.setdefault(pid, []).append(concept)
    rng = random.Random(seed)
    next_rowid = conn.execute("SELECT max(rowid) FROM passages").fetchone()[0] + 1
    passages, fts, concepts = [], [], []
    for i in range(size - len(rows)):
        a, b = rng.choice(rows), rng.choice(rows)
        text = a[5][: len(a[5]) // 2] + b[5][len(b[5]) // 2 :]
        words_a, words_b = a[6].split(), b[6].split()
        words = words_a[: len(words_a) // 2] + words_b[len(words_b) // 2 :]
        rowid, pid = next_rowid + i, f"synthetic/{i}"
        fields = (" ".join(words), " ".join(bigrams(text)), a[7])
        passages.append((rowid, pid, a[1], a[2], a[3], 0, 0, a[4], text, text, *fields))
        fts.append((rowid, *fields))
        concepts += [(pid, c, "text") for c in tags.get(a[0], [])[:3]]
    conn.executemany(
        "INSERT INTO passages(rowid, id, kind, doc, file, line, line_end, topic, text, search_text,"
        " words, grams, context) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        passages,
    )
    conn.executemany("INSERT INTO passage_fts(rowid, words, grams, context) VALUES (?, ?, ?, ?)", fts)
    conn.executemany("INSERT INTO passage_concepts(passage_id, concept, how) VALUES (?, ?, ?)", concepts)
    refresh_term_counts(conn)
    conn.commit()
    conn.close()
    return target


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=15, help="shell commands timed per kind")
    parser.add_argument("--scale", type=int, default=100_000, help="passages in the scaled knowledge base")
    args = parser.parse_args()
    questions = [json.loads(line)["q"] for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line]
    cards = [json.loads(line)["q"] for line in CARDS.read_text(encoding="utf-8").splitlines() if line]
    kb = open_kb()
    print(f"knowledge base: {kb.path} ({kb.passage_count} passages)")

    ask, bare = paired(["ask", questions[0]], args.runs)
    card, bare_card = paired(["card", cards[0]], args.runs)
    ratio = statistics.median(ask) / statistics.median(bare)
    print(f"python -c 'import click, sqlite3'  median {median_ms(bare)}   (paired with ask)")
    print(f"shell `ocgkb ask`     median {median_ms(ask)}   ratio {ratio:.2f} × start-up (target ≤ 2.5)")
    ratio = statistics.median(card) / statistics.median(bare_card)
    print(f"shell `ocgkb card`    median {median_ms(card)}   ratio {ratio:.2f} × start-up (target < 300 ms)")

    print(f"in-process search     median {median_ms(time_search(kb, questions))}   (target < 5 ms)")
    print(f"naive substring scan  median {median_ms(time_naive(kb, questions))}")

    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        big = KnowledgeBase(scaled_copy(kb, Path(folder) / "scaled.sqlite", args.scale))
        print(f"scaled to {big.passage_count} passages in {time.perf_counter() - started:.1f} s")
        print(f"scaled search         median {median_ms(time_search(big, questions))}   (target < 50 ms)")
        print(f"scaled naive scan     median {median_ms(time_naive(big, questions))}")
        big.close()


if __name__ == "__main__":
    main()
