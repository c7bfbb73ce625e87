"""Does a slow question hold up everything else? A real `ocgkb serve` with one
worker, 16 clients asking questions in a closed loop, and one more client looking
cards up and fetching a static file meanwhile.

    python benchmarks/serve_contention.py [--clients 16] [--seconds 20] [--baseline CHECKOUT]
        [--rounds 3] [--db PATH] [--json]

The server is started as `python -m ocgkb --db DB serve --workers 1 --quiet` from
this checkout, and, with `--baseline`, from another checkout too (a `git worktree`
of an older commit), one after the other in the same run over the same knowledge
base, so the two are compared on the same machine at the same time of day; with
`--rounds N` the two take turns N times and the verdict is on the medians.

For each server: every URL is asked once to warm it; then `--clients` threads,
each on its own keep-alive connection, ask `/api/ask?q=…&limit=10` over the
questions without pause for `--seconds`, while a probe thread, on its own
connection, alternates `/api/card?q=…` (card names in many forms) and a static
file, one every 150 ms (or as soon as the last is answered, when later). Printed: the questions' throughput and
latency, the card lookups' and the static file's latency, and the ratio of each
p95 to the questions' p95.

Targets (issue 33): a card lookup's p95 at most a quarter of a question's; a static
file's too; no answer other than 200; and, with `--baseline`, questions answered
per second not lower than the baseline's (within 5 %, the machine's noise). The
exit status is 1 when one is missed.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from serve_load import (
    CARD_NAMES,
    HOST,
    QUESTIONS,
    Client,
    free_port,
    json_safe,
    latency,
    quoted,
    stop_server,
    wait_ready,
)

from ocgkb.store.door import open_kb

ROOT = Path(__file__).resolve().parent.parent
CARD_SHARE = 0.25  # a lookup's p95 at most this share of a question's
THROUGHPUT_NOISE = 0.95  # questions per second at least this share of the baseline's
PROBE_EVERY = 0.15  # seconds between two lookups: longer than a question's p95 today


def start(checkout: Path, db: Path) -> tuple[subprocess.Popen[bytes], int]:
    """`ocgkb serve` of `checkout` (its own package first on the path) on a free port."""
    port = free_port()
    command = [sys.executable, "-m", "ocgkb", "--db", str(db), "serve"]
    command += ["--host", HOST, "--port", str(port), "--workers", "1", "--quiet"]
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    server = subprocess.Popen(
        command,
        cwd=checkout,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    return server, port


def static_path(port: int) -> str:
    """A static file the home page links (its stylesheet)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    conn.request("GET", "/")
    page = conn.getresponse().read().decode()
    conn.close()
    found = re.search(r'"(/static/[^"]+)"', page)
    if not found:
        raise RuntimeError("the home page links no static file")
    return found.group(1)


def load(port: int, clients: int, seconds: float, static: str) -> dict:
    """Questions from `clients` threads and lookups from one probe, for `seconds`."""
    questions = [f"/api/ask?q={quoted(q)}&limit=10" for q in QUESTIONS]
    cards = [f"/api/card?q={quoted(name)}" for name in CARD_NAMES]
    warm = Client(port)
    for path in [*questions, *cards, static]:
        warm.get(path)
    warm.close()

    samples: dict[str, list[float]] = {"ask": [], "card": [], "static": []}
    wrong: list[str] = []
    started = time.perf_counter()
    stop = started + seconds

    def asking(number: int) -> None:
        client, turn = Client(port, timeout=60), number
        while time.perf_counter() < stop:
            path = questions[turn % len(questions)]
            status, took = client.get(path)
            samples["ask"].append(took) if status == 200 else wrong.append(f"{status} {path}")
            turn += 1
        client.close()

    def probing() -> None:
        # On a fixed schedule, not a closed loop: both servers then answer as many
        # lookups, and a server that answers them fast is not charged more work.
        client, turn, due = Client(port, timeout=60), 0, started + 0.5  # the questions' queue first
        while due < stop:
            for group, path in (("card", cards[turn % len(cards)]), ("static", static)):
                time.sleep(max(0.0, due - time.perf_counter()))
                status, took = client.get(path)
                samples[group].append(took) if status == 200 else wrong.append(f"{status} {path}")
                due += PROBE_EVERY
            turn += 1
        client.close()

    threads = [threading.Thread(target=asking, args=(n,)) for n in range(clients)]
    threads.append(threading.Thread(target=probing))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    figures = {group: latency(times) for group, times in samples.items()}
    ask_p95 = figures["ask"]["p95"]
    return {
        "questions_per_second": round(len(samples["ask"]) / elapsed, 1),
        "latency_ms": figures,
        "share_of_question_p95": {
            group: round(figures[group]["p95"] / ask_p95, 3) for group in ("card", "static")
        },
        "wrong": wrong[:10],
        "wrong_count": len(wrong),
    }


def run(name: str, checkout: Path, db: Path, args: argparse.Namespace) -> dict:
    server, port = start(checkout, db)
    try:
        wait_ready(server, port)
        result = load(port, args.clients, args.seconds, static_path(port))
    finally:
        stopped = stop_server(server, [server.pid])
    return {"server": name, "checkout": str(checkout), **result, "stopped": stopped["exited"]}


def show(result: dict) -> None:
    print(f"\n{result['server']} ({result['checkout']})")
    print(f"  questions answered: {result['questions_per_second']} per second")
    for group, figures in result["latency_ms"].items():
        share = result["share_of_question_p95"].get(group)
        tail = f"   p95 = {share:.3f} × the questions'" if share is not None else ""
        print(
            f"  {group:<7} n={figures['count']:<5} p50 {figures['p50']:>7.1f} ms"
            f"  p95 {figures['p95']:>7.1f} ms  p99 {figures['p99']:>7.1f} ms{tail}"
        )
    if result["wrong_count"]:
        print(f"  {result['wrong_count']} answers not 200, e.g. {result['wrong'][:3]}")


def median_of(results: list[dict]) -> dict:
    """The rounds of one server as one result: the median of every figure."""
    if len(results) == 1:
        return results[0]
    middle = {**results[0], "server": f"{results[0]['server']}, median of {len(results)} rounds"}
    middle["questions_per_second"] = statistics.median(r["questions_per_second"] for r in results)
    middle["latency_ms"] = {
        group: {k: statistics.median(r["latency_ms"][group][k] for r in results) for k in figures}
        for group, figures in results[0]["latency_ms"].items()
    }
    middle["share_of_question_p95"] = {
        group: round(statistics.median(r["share_of_question_p95"][group] for r in results), 3)
        for group in results[0]["share_of_question_p95"]
    }
    middle["wrong_count"] = sum(r["wrong_count"] for r in results)
    middle["wrong"] = [w for r in results for w in r["wrong"]][:10]
    return middle


def verdict(result: dict, baseline: dict | None) -> list[str]:
    missed = [
        f"{group} p95 is {share:.2f} × the questions' (target ≤ {CARD_SHARE})"
        for group, share in result["share_of_question_p95"].items()
        if share > CARD_SHARE
    ]
    if result["wrong_count"]:
        missed.append(f"{result['wrong_count']} answers not 200")
    if baseline:
        ratio = result["questions_per_second"] / baseline["questions_per_second"]
        print(f"\nquestions per second: × {ratio:.2f} the baseline's")
        if ratio < THROUGHPUT_NOISE:
            missed.append(f"questions per second × {ratio:.2f} the baseline's")
    return missed


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", type=Path, help="the knowledge base (default: the per-user cache)")
    parser.add_argument("--clients", type=int, default=16, help="clients asking questions at once")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long the load lasts")
    parser.add_argument("--baseline", type=Path, help="another checkout to serve and compare with")
    parser.add_argument("--rounds", type=int, default=1, help="turns each server takes (medians)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON as well")
    args = parser.parse_args()
    kb = open_kb(args.db)
    db = Path(kb.path)
    print(f"knowledge base: {db}; {args.clients} clients asking for {args.seconds:g} s, one worker")
    kb.close()
    rounds: dict[str, list[dict]] = {"baseline": [], "this checkout": []}
    for _ in range(max(1, args.rounds)):
        if args.baseline:
            rounds["baseline"].append(run("baseline", args.baseline.resolve(), db, args))
            show(rounds["baseline"][-1])
        rounds["this checkout"].append(run("this checkout", ROOT, db, args))
        show(rounds["this checkout"][-1])
    results = {name: median_of(results) for name, results in rounds.items() if results}
    if args.rounds > 1:
        for result in results.values():
            show(result)
    missed = verdict(results["this checkout"], results.get("baseline"))
    print("\n" + ("FAIL: " + "; ".join(missed) if missed else "PASS"))
    if args.json:
        print(json.dumps(json_safe(rounds), ensure_ascii=False, indent=2, allow_nan=False))
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
