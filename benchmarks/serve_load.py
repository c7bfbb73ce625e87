"""Load on the web site: a real `ocgkb serve` in its own process, driven by many
clients at once over a mixed workload, with one and with two workers.

    python benchmarks/serve_load.py [--workers 1,2] [--clients 16] [--seconds 20]
        [--requests N] [--warmup-passes 3] [--new-connections] [--db PATH] [--per-url] [--json]

For each worker count it starts `python -m ocgkb --db DB serve --port P --workers N
--quiet` on a free port and waits until `GET /` answers 200 (at most 90 s) and every
worker has finished starting (the server's processes fall idle). One client then
asks for each URL of the mix twice, one at a time: the first pass warms the worker
it lands on, the second is the service time with no queue (the "idle" columns); a
keep-alive check compares the same request on a kept-alive and on a new connection.
Then `--clients` threads, each with its own HTTP/1.1 keep-alive connection
(http.client; `--new-connections`: a new one per request), warm every worker with a
few passes over the mix and go straight on into a closed loop: each sends its next
request as soon as the last is answered, for `--seconds` (or about `--requests` in
all). The mix: 40 % /api/search, 15 % /api/ask, 10 % /api/card and 35 % pages (/ask,
/card, /section, /concept, /p, /scenario, /, /api/section, /api/concept), over
Chinese and English rules questions and card names in many forms, all URL-quoted;
an unknown card name is asked for on purpose and must answer 404. Last, SIGINT
stops the server, which must exit with all its workers.

Printed per worker count: requests, errors (a status other than the one expected,
or no answer), requests per second, and p50/p95/p99 latency overall and per endpoint
group; where the CPU went and which server process holds how many connections (with
keep-alive a connection stays on the worker that accepted it); the stop; and, when
/api/search misses its target (or with --per-url), each URL's latency beside its
idle time. The load generator shares the two cores with the server: its CPU per
request, the server's and the machine's busy share (other processes included) are
measured and shown, so one can tell whether the client, or a neighbour, was the
limit. A closed loop with no pause measures the queue too: mean latency is about
clients / throughput (Little's law), whatever one request costs alone.

Targets: no errors, /api/search p95 ≤ 150 ms, and a clean stop on SIGINT; the exit
status is 1 when one is missed, else 0.
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, NamedTuple

from ocgkb.store.door import open_kb

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
SEARCH_P95_TARGET_MS = 150.0
READY_TIMEOUT = 90.0  # seconds until `GET /` must answer 200
STOP_TIMEOUT = 20.0  # seconds the server has to exit after SIGINT
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
WEIGHTS = {"/api/search": 40, "/api/ask": 15, "/api/card": 10, "pages": 35}
GROUPS = list(WEIGHTS)

QUESTIONS = [
    "卡时点",
    "cost算不算卡片的效果",
    "伤害步骤能发动什么",
    "连锁 同时 发动",
    "卷回 攻击对象",
    "can I chain to a cost",
    "damage step activation",
    "miss timing",
    "对象不存在时效果怎么处理",
    "墓地发动的效果 连锁2",
    "召唤无效 神宣",
    "场上离开时发动的效果",
    "特殊召唤成功时 诱发效果",
    "what happens when the target leaves the field",
    "速攻魔法 对方回合 盖放",
    "同时 强制效果 顺序",
]
FILTERED = ["&kind=ruling", "&section=4", "&limit=40", "&concept=cost"]
CARD_NAMES = [
    "增殖的G",
    "maxx c",
    "MAXX C",
    "增值G",
    "qybl",
    "強脫",
    "灰流丽",
    "灰流麗",
    "ash blossom",
    "无限泡影",
    "泡影",
    "infinite impermanence",
    "神宣",
    "羽毛扫",
    "死者苏生",
    "monster reborn",
]
MISSING_CARD = "绝对不存在的卡片名字xyz"  # no card is close: 404 is the right answer
SECTIONS = ["4.2.2", "6.3.4.3", "6.3", "rulings/cost"]
CONCEPTS = ["cost", "miss-timing", "卡时点", "chain", "damage-step"]
PASSAGES = ["4.2.2/4", "rulings/cost/1", "6.3.4.3/1"]
SCENARIOS = ["atk_rush_then_gale"]


@dataclass(frozen=True)
class Target:
    group: str
    path: str
    expect: int = 200


class Sample(NamedTuple):
    target: int  # index into the mix
    status: int  # 0: no answer (a connection error)
    seconds: float
    client: int = -1  # which load client sent it


def quoted(text: str) -> str:
    return urllib.parse.quote(text, safe="")


def the_mix() -> list[Target]:
    """Every URL the load draws from, each in its endpoint group."""
    search = [Target("/api/search", f"/api/search?q={quoted(q)}") for q in QUESTIONS]
    search += [
        Target("/api/search", f"/api/search?q={quoted(q)}{extra}")
        for q, extra in zip(QUESTIONS[::3], FILTERED * 2, strict=False)
    ]
    ask = [Target("/api/ask", f"/api/ask?q={quoted(q)}") for q in QUESTIONS]
    card = [Target("/api/card", f"/api/card?q={quoted(name)}") for name in CARD_NAMES]
    card.append(Target("/api/card", f"/api/card?q={quoted(MISSING_CARD)}", 404))
    pages = [Target("pages", "/")]
    pages += [Target("pages", f"/ask?q={quoted(q)}") for q in QUESTIONS[::2]]
    pages += [Target("pages", f"/card/{quoted(name)}") for name in CARD_NAMES[::2]]
    pages.append(Target("pages", f"/card/{quoted(MISSING_CARD)}", 404))
    for number in SECTIONS:
        pages += [
            Target("pages", f"/section/{quoted(number)}"),
            Target("pages", f"/api/section/{quoted(number)}"),
        ]
    for name in CONCEPTS:
        pages += [
            Target("pages", f"/concept/{quoted(name)}"),
            Target("pages", f"/api/concept/{quoted(name)}"),
        ]
    pages += [Target("pages", f"/p/{quoted(pid)}") for pid in PASSAGES]
    pages += [Target("pages", f"/scenario/{quoted(name)}") for name in SCENARIOS]
    return search + ask + card + pages


class Client:
    """One HTTP/1.1 keep-alive connection, opened again after a failure.

    As a browser does, a request that finds its kept-alive connection closed by the
    server (uvicorn closes one idle for 5 s) is sent once more on a new one, and
    counted in `reopened`, not as an error; a fresh connection that fails is an error."""

    def __init__(self, port: int, keepalive: bool = True, timeout: float = 30.0) -> None:
        self.port = port
        self.keepalive = keepalive  # False: a new connection for every request
        self.timeout = timeout
        self.conn: http.client.HTTPConnection | None = None
        self.reused = False  # the open connection has answered before
        self.reopened = 0
        self.failures: list[str] = []

    def get(self, path: str) -> tuple[int, float]:
        """The status of GET `path` (0: no answer) and the seconds it took."""
        started = time.perf_counter()
        try:
            try:
                status = self._send(path)
            except (ConnectionResetError, BrokenPipeError):  # RemoteDisconnected is one
                if not self.reused:
                    raise
                self.close()
                self.reopened += 1
                status = self._send(path)
        except (OSError, http.client.HTTPException) as exc:
            self.failures.append(f"{urllib.parse.unquote(path)}: {type(exc).__name__}: {exc}")
            self.close()
            status = 0
        return status, time.perf_counter() - started

    def _send(self, path: str) -> int:
        if self.conn is None:
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
            self.reused = False
        self.conn.request("GET", path)
        response = self.conn.getresponse()
        response.read()
        self.reused = True
        if response.will_close or not self.keepalive:
            self.close()
        return response.status

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


# --- driving the server ------------------------------------------------------------------------


def in_threads(clients: list[Client], work: Callable[[int, Client], list[Sample]]) -> list[Sample]:
    """`work(number, client)` for every client at once, one thread each; all their samples."""
    with ThreadPoolExecutor(len(clients)) as pool:
        return [sample for samples in pool.map(work, range(len(clients)), clients) for sample in samples]


def warm_up(clients: list[Client], mix: list[Target], passes: int) -> list[Sample]:
    """Every URL `passes` times, each pass through other connections, so that with
    keep-alive every worker sees every URL (compiled templates, filled caches)."""

    def work(number: int, client: Client) -> list[Sample]:
        samples = []
        for turn in range(passes):
            for index in range(len(mix)):
                if (index + turn) % len(clients) == number:
                    samples.append(Sample(index, *client.get(mix[index].path)))
        return samples

    return in_threads(clients, work)


def idle_pass(port: int, mix: list[Target], keepalive: bool) -> tuple[list[Sample], list[Sample]]:
    """Each URL twice, one at a time, through one client: the first pass warms the
    worker it lands on; the second is what a request costs with no queue in front."""
    client = Client(port, keepalive)
    warm = [Sample(index, *client.get(target.path)) for index, target in enumerate(mix)]
    idle = [Sample(index, *client.get(target.path)) for index, target in enumerate(mix)]
    client.close()
    return warm, idle


def keepalive_check(port: int, times: int = 20) -> dict:
    """One cheap request, `times` over one kept-alive connection and `times` on a new
    connection each: kept-alive should be the faster. When it is ~40 ms slower, the
    server sends headers and body in two segments with Nagle's algorithm on (no
    TCP_NODELAY) and the second waits for the client's delayed ACK."""
    path = f"/api/card?q={quoted('maxx c')}"
    kept, fresh = Client(port), Client(port)
    kept.get(path)
    kept_ms, fresh_ms = [], []
    for _ in range(times):
        kept_ms.append(kept.get(path)[1] * 1000)
        fresh.close()
        fresh_ms.append(fresh.get(path)[1] * 1000)
    kept.close()
    fresh.close()
    return {
        "path": urllib.parse.unquote(path),
        "kept_alive_ms": round(statistics.median(kept_ms), 1),
        "new_connection_ms": round(statistics.median(fresh_ms), 1),
    }


def closed_loop(
    clients: list[Client], mix: list[Target], seconds: float, requests: int, seed: int
) -> tuple[list[Sample], float]:
    """Every client sends its next request as soon as the last is answered, for
    `seconds` (or until `requests` are done in all); the samples and the wall time."""
    by_group = {group: [i for i, target in enumerate(mix) if target.group == group] for group in GROUPS}
    weights = [WEIGHTS[group] for group in GROUPS]
    quota = -(-requests // len(clients)) if requests else 0
    start = threading.Barrier(len(clients) + 1)
    deadline = [0.0]

    def work(number: int, client: Client) -> list[Sample]:
        rng = random.Random(seed * 1009 + number)
        samples = []
        start.wait()
        while len(samples) < quota if quota else time.perf_counter() < deadline[0]:
            index = rng.choice(by_group[rng.choices(GROUPS, weights)[0]])
            samples.append(Sample(index, *client.get(mix[index].path), number))
        return samples

    with ThreadPoolExecutor(len(clients)) as pool:
        futures = [pool.submit(work, number, client) for number, client in enumerate(clients)]
        started = time.perf_counter()
        deadline[0] = started + seconds
        start.wait()
        samples = [sample for future in futures for sample in future.result()]
    return samples, time.perf_counter() - started


# --- the server's processes --------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def start_server(db: Path, workers: int, log: IO[bytes]) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    command = [sys.executable, "-m", "ocgkb", "--db", str(db), "serve"]
    command += ["--host", HOST, "--port", str(port), "--workers", str(workers), "--quiet"]
    # Its own session: a Ctrl-C typed here reaches the benchmark, which stops the server itself.
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=True)
    return server, port


def wait_ready(server: subprocess.Popen[bytes], port: int) -> float:
    """Seconds until `GET /` answers 200; an error when the server dies or is too slow."""
    started = time.perf_counter()
    while time.perf_counter() - started < READY_TIMEOUT:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited with {server.returncode} before answering")
        probe = Client(port, timeout=5)
        status, _ = probe.get("/")
        probe.close()
        if status == 200:
            return time.perf_counter() - started
        time.sleep(0.2)
    raise RuntimeError(f"the server did not answer GET / with 200 within {READY_TIMEOUT:.0f} s")


def tree_cpu(root: int) -> dict[int, float]:
    """CPU seconds used so far by `root` and every process below it (Linux /proc; else empty)."""
    parents, cpu = {}, {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        pid = int(stat.parent.name)
        parents[pid] = int(fields[1])
        cpu[pid] = (int(fields[11]) + int(fields[12])) / TICKS
    tree, todo = {}, [root]
    while todo:
        pid = todo.pop()
        if pid in cpu:
            tree[pid] = cpu[pid]
            todo += [child for child, parent in parents.items() if parent == pid]
    return tree


def connections_by_pid(pids: list[int], port: int) -> dict[int, int]:
    """How many established connections to `port` each server process holds: with
    keep-alive a connection stays with the worker that accepted it (Linux /proc)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = [line.split() for line in Path(table).read_text().splitlines()[1:]]
        except OSError:
            continue
        inodes |= {row[9] for row in rows if int(row[1].rsplit(":", 1)[1], 16) == port and row[3] == "01"}
    counts = {}
    for pid in pids:
        try:
            fds = list(Path(f"/proc/{pid}/fd").iterdir())
        except OSError:
            continue
        counts[pid] = sum(socket_inode(fd) in inodes for fd in fds)
    return counts


def socket_inode(fd: Path) -> str:
    try:
        link = os.readlink(fd)
    except OSError:
        return ""
    return link[8:-1] if link.startswith("socket:[") else ""


def machine_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine so far (Linux /proc/stat; else zeros)."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0, 0
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    return sum(values[:8]) - idle, sum(values[:8])


def wait_quiet(root: int, timeout: float = 60.0, window: float = 1.0) -> None:
    """Until the server's processes use under 5 % of a core for `window` seconds: every
    worker has opened and read the knowledge base, not only the first to answer."""
    deadline = time.perf_counter() + timeout
    last = sum(tree_cpu(root).values())
    while time.perf_counter() < deadline:
        time.sleep(window)
        now = sum(tree_cpu(root).values())
        if now - last < 0.05 * window:
            return
        last = now


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def stop_server(server: subprocess.Popen[bytes], pids: list[int]) -> dict:
    """SIGINT, then wait: did it exit in time, with what code, leaving no worker behind?"""
    started = time.perf_counter()
    server.send_signal(signal.SIGINT)
    try:
        code: int | None = server.wait(STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        code = None
    took = time.perf_counter() - started
    time.sleep(0.3)
    leftover = [pid for pid in pids if pid != server.pid and alive(pid)]
    if code is None or leftover:
        try:
            os.killpg(server.pid, signal.SIGKILL)  # its own session: only what this run started
        except ProcessLookupError:
            pass
        server.wait()
    return {"exited": code is not None and not leftover, "code": code, "seconds": took, "leftover": leftover}


# --- one run -----------------------------------------------------------------------------------


@dataclass
class Run:
    workers: int
    mix: list[Target]
    samples: list[Sample] = field(default_factory=list)
    idle: list[Sample] = field(default_factory=list)
    warm: list[Sample] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    reopened: int = 0  # kept-alive connections found closed by the server, and opened again
    reopened_under_load: int = 0
    wall: float = 0.0
    ready: float = 0.0
    client_cpu: float = 0.0
    server_cpu: dict[int, float] = field(default_factory=dict)
    machine_busy: float = math.nan
    stop: dict = field(default_factory=dict)
    keepalive: dict = field(default_factory=dict)
    connections: dict[int, int] = field(default_factory=dict)  # at the end of the load, by pid
    pids: list[int] = field(default_factory=list)  # the server's processes once started
    log: str = ""


def measure(run: Run, clients: list[Client], args: argparse.Namespace, root: int, port: int) -> None:
    """The closed loop, with the CPU the client, the server and the machine spent on it."""
    reopened = sum(client.reopened for client in clients)
    cpu_before, busy_before, client_before = tree_cpu(root), machine_ticks(), time.process_time()
    run.samples, run.wall = closed_loop(clients, run.mix, args.seconds, args.requests, args.seed)
    cpu_after, busy_after = tree_cpu(root), machine_ticks()
    run.connections = connections_by_pid(list(cpu_after), port)
    run.client_cpu = time.process_time() - client_before
    run.reopened_under_load = sum(client.reopened for client in clients) - reopened
    run.server_cpu = {pid: cpu_after[pid] - cpu_before.get(pid, 0.0) for pid in cpu_after}
    total = busy_after[1] - busy_before[1]
    run.machine_busy = (busy_after[0] - busy_before[0]) / total if total else math.nan


def drive(run: Run, server: subprocess.Popen[bytes], port: int, args: argparse.Namespace) -> None:
    """Wait for the server, time it idle, warm it up, load it."""
    keepalive = not args.new_connections
    run.ready = wait_ready(server, port)
    wait_quiet(server.pid)
    run.pids = list(tree_cpu(server.pid))
    run.warm, run.idle = idle_pass(port, run.mix, keepalive)
    run.keepalive = keepalive_check(port)
    # The load's connections go straight from warm-up to load: none idles past the
    # server's keep-alive timeout (5 s) in between.
    clients = [Client(port, keepalive) for _ in range(args.clients)]
    try:
        run.warm += warm_up(clients, run.mix, args.warmup_passes * run.workers)
        measure(run, clients, args, server.pid, port)
    finally:
        for client in clients:
            run.failures += client.failures
            run.reopened += client.reopened
            client.close()


def serve_and_load(db: Path, workers: int, args: argparse.Namespace) -> Run:
    """One server with `workers` workers, started, loaded and stopped."""
    run = Run(workers, the_mix())
    try:
        with tempfile.TemporaryFile() as log:
            server, port = start_server(db, workers, log)
            try:
                drive(run, server, port, args)
            finally:
                run.stop = stop_server(server, run.pids or [server.pid])
                log.seek(0)
                run.log = log.read().decode("utf-8", "replace")
    except RuntimeError as exc:
        raise RuntimeError(f"{exc}; the server's log ends:\n{run.log[-1500:]}") from None
    return run


# --- figures -----------------------------------------------------------------------------------


def percentile(ordered: list[float], p: float) -> float:
    """The p-th percentile (0–100) of sorted values, interpolated between the nearest ranks."""
    if not ordered:
        return math.nan
    rank = (len(ordered) - 1) * p / 100
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def latency(seconds: list[float]) -> dict:
    ordered = sorted(s * 1000 for s in seconds)
    figures = {f"p{p}": round(percentile(ordered, p), 1) for p in (50, 95, 99)}
    mean = round(sum(ordered) / len(ordered), 1) if ordered else math.nan
    return {
        "count": len(ordered),
        **figures,
        "max": round(ordered[-1], 1) if ordered else math.nan,
        "mean": mean,
    }


def wrong(run: Run, samples: list[Sample]) -> list[str]:
    """The samples that missed: a status other than the one expected, or no answer."""
    return [
        f"{urllib.parse.unquote(run.mix[s.target].path)} → {s.status or 'no answer'}"
        for s in samples
        if s.status != run.mix[s.target].expect
    ]


def per_url(run: Run, samples: list[Sample]) -> list[dict]:
    """Latency of each URL under load beside its idle time, slowest p95 first."""
    idle = {s.target: round(s.seconds * 1000, 1) for s in run.idle}
    rows = []
    for index, target in enumerate(run.mix):
        figures = latency([s.seconds for s in samples if s.target == index])
        if figures["count"]:
            rows.append({"group": target.group, "url": urllib.parse.unquote(target.path), **figures})
            rows[-1]["idle"] = idle.get(index, math.nan)
    return sorted(rows, key=lambda row: -row["p95"])


def other_cores(run: Run) -> float:
    """Cores busy with neither the server nor the load client: other work on the machine."""
    if not run.wall or math.isnan(run.machine_busy):
        return math.nan
    return (
        run.machine_busy * (os.cpu_count() or 1) - (sum(run.server_cpu.values()) + run.client_cpu) / run.wall
    )


def by_client(run: Run) -> dict:
    """How evenly the clients were served: with keep-alive each connection stays on one
    worker, and a worker with few connections answers them far sooner."""
    counts: dict[int, list[float]] = {}
    for sample in run.samples:
        counts.setdefault(sample.client, []).append(sample.seconds)
    means = sorted(1000 * sum(times) / len(times) for times in counts.values())
    sizes = sorted(len(times) for times in counts.values())
    if not sizes:
        return {}
    return {
        "requests": {"min": sizes[0], "median": sizes[len(sizes) // 2], "max": sizes[-1]},
        "mean_latency_ms": {"min": round(means[0], 1), "max": round(means[-1], 1)},
    }


def summary(run: Run) -> dict:
    groups = {"all": latency([s.seconds for s in run.samples])}
    idle = {"all": latency([s.seconds for s in run.idle])}
    for group in GROUPS:
        groups[group] = latency([s.seconds for s in run.samples if run.mix[s.target].group == group])
        idle[group] = latency([s.seconds for s in run.idle if run.mix[s.target].group == group])
    errors = wrong(run, run.samples)
    server_total = sum(run.server_cpu.values())
    return {
        "workers": run.workers,
        "requests": len(run.samples),
        "seconds": round(run.wall, 2),
        "requests_per_second": round(len(run.samples) / run.wall, 1) if run.wall else 0.0,
        "errors": len(errors),
        "error_examples": sorted(set(errors))[:10],
        "warmup_errors": sorted(set(wrong(run, run.warm) + wrong(run, run.idle))),
        "connection_failures": run.failures[:10],
        "reopened_connections": {"all": run.reopened, "under_load": run.reopened_under_load},
        "latency_ms": groups,
        "per_client": by_client(run),
        "idle_latency_ms": idle,
        "cpu": {
            "server_cores": round(server_total / run.wall, 2) if run.wall else math.nan,
            "server_by_pid": {
                pid: {"cores": round(cpu / run.wall, 2), "connections": run.connections.get(pid, 0)}
                for pid, cpu in run.server_cpu.items()
            },
            "client_cores": round(run.client_cpu / run.wall, 2) if run.wall else math.nan,
            "client_ms_per_request": round(1000 * run.client_cpu / max(len(run.samples), 1), 2),
            "machine_busy": round(run.machine_busy, 3),
            "other_cores": round(other_cores(run), 2),
            "cores": os.cpu_count(),
        },
        "ready_seconds": round(run.ready, 1),
        "stop": run.stop,
        "keepalive_check": run.keepalive,
        "server_log_tracebacks": run.log.count("Traceback"),
        "server_log_tail": run.log.strip().splitlines()[-5:],
        "slowest_urls": per_url(run, run.samples),
    }


# --- printing ----------------------------------------------------------------------------------


def print_run(result: dict, clients: int) -> None:
    print(
        f"\nworkers {result['workers']}: {result['requests']} requests in {result['seconds']:.1f} s"
        f" = {result['requests_per_second']:.1f} req/s, {result['errors']} errors"
        f" (server answered GET / after {result['ready_seconds']:.1f} s)"
    )
    print(f"  {'group':<12} {'requests':>8} {'share':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}", end="")
    print(f" {'max ms':>8} │ {'idle p50':>8} {'idle max':>8}")
    for group, figures in result["latency_ms"].items():
        idle = result["idle_latency_ms"][group]
        share = figures["count"] / max(result["requests"], 1)
        print(f"  {group:<12} {figures['count']:>8} {share:>6.0%}", end="")
        print("".join(f" {figures[key]:>8.1f}" for key in ("p50", "p95", "p99", "max")), end="")
        print(f" │ {idle['p50']:>8.1f} {idle['max']:>8.1f}")
    mean = result["latency_ms"]["all"]["mean"]
    little = 1000 * clients / result["requests_per_second"] if result["requests_per_second"] else math.nan
    print(f"  closed loop: mean latency {mean:.1f} ms ≈ clients / throughput = {little:.1f} ms (the queue)")
    if spread := result["per_client"]:
        sizes, means = spread["requests"], spread["mean_latency_ms"]
        print(
            f"  per client: requests min {sizes['min']} / median {sizes['median']} / max {sizes['max']};"
            f" mean latency from {means['min']:.1f} to {means['max']:.1f} ms"
        )
    print_cpu(result["cpu"])
    print_health(result)


def print_cpu(cpu: dict) -> None:
    print(
        f"  cpu: server {cpu['server_cores']:.2f} cores, load client {cpu['client_cores']:.2f} cores"
        f" = {cpu['client_ms_per_request']:.2f} ms CPU per request; machine {cpu['machine_busy']:.0%}"
        f" busy of {cpu['cores']} cores ({cpu['other_cores']:.2f} cores on other processes)"
    )
    shown = [
        f"pid {pid}: {each['cores']:.2f} cores, {each['connections']} connection(s)"
        for pid, each in cpu["server_by_pid"].items()
        if each["cores"] >= 0.01 or each["connections"]
    ]
    print(f"  server processes at work: {'; '.join(shown) or 'none'}")
    if cpu["other_cores"] > 0.25:
        print("  warning: other processes shared the cores during the run: the figures are pessimistic")


def print_health(result: dict) -> None:
    stop, check, reopened = result["stop"], result["keepalive_check"], result["reopened_connections"]
    print(
        f"  stop: SIGINT → {'exited' if stop['exited'] else 'DID NOT EXIT'} in {stop['seconds']:.1f} s,"
        f" code {stop['code']}, leftover processes {stop['leftover'] or 'none'};"
        f" tracebacks in the server log: {result['server_log_tracebacks']}"
    )
    if check:
        slower = check["kept_alive_ms"] - check["new_connection_ms"] > 20
        note = "  ← kept-alive SLOWER: Nagle + delayed ACK (TCP_NODELAY off on the server's sockets)"
        print(
            f"  keep-alive check (GET {check['path']}, medians of 20, one at a time): kept-alive"
            f" {check['kept_alive_ms']:.1f} ms, new connection {check['new_connection_ms']:.1f} ms"
            + (note if slower else "")
        )
    print(
        f"  keep-alive: {reopened['all']} connections found closed by the server and opened again"
        f" ({reopened['under_load']} under load)"
    )
    for line in result["error_examples"] + result["warmup_errors"] + result["connection_failures"]:
        print(f"  error: {line}")


def print_urls(result: dict, groups: set[str] | None, top: int) -> None:
    rows = [row for row in result["slowest_urls"] if groups is None or row["group"] in groups][:top]
    print(f"  per URL (workers {result['workers']}), slowest p95 first:")
    print(f"    {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'idle ms':>8}  url")
    for row in rows:
        print(f"    {row['count']:>6} {row['p50']:>8.1f} {row['p95']:>8.1f} {row['max']:>8.1f}", end="")
        print(f" {row['idle']:>8.1f}  {row['url']}")


def verdict(result: dict) -> list[str]:
    """What missed a target; empty when none did."""
    if "failed" in result:
        return [result["failed"]]
    missed = []
    errors = result["errors"] + len(result["warmup_errors"])
    if errors:
        missed.append(f"{errors} errors")
    p95 = result["latency_ms"]["/api/search"]["p95"]
    if not p95 <= SEARCH_P95_TARGET_MS:
        missed.append(f"/api/search p95 {p95:.1f} ms > {SEARCH_P95_TARGET_MS:.0f} ms")
    if not result["stop"]["exited"]:
        missed.append("the server did not exit cleanly on SIGINT")
    return missed


# --- main --------------------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", type=Path, help="the knowledge base (default: the per-user cache)")
    parser.add_argument("--workers", default="1,2", help="worker counts to run, comma-separated")
    parser.add_argument("--clients", type=int, default=16, help="concurrent keep-alive clients")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long each load lasts")
    parser.add_argument("--requests", type=int, default=0, help="a fixed number of requests instead")
    parser.add_argument("--warmup-passes", type=int, default=3, help="passes over the mix per worker")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the request order")
    parser.add_argument(
        "--new-connections", action="store_true", help="a new connection per request, not keep-alive"
    )
    parser.add_argument("--per-url", action="store_true", help="print every URL's latency")
    parser.add_argument("--json", action="store_true", help="print the results as JSON as well")
    args = parser.parse_args()
    args.workers = [int(n) for n in args.workers.split(",") if n.strip()]
    if args.clients < 1 or not args.workers or min(args.workers) < 1:
        parser.error("--clients and every --workers count must be at least 1")
    return args


def main() -> None:
    args = parse_args()
    kb = open_kb(args.db)
    db = kb.path
    print(f"knowledge base: {db} ({kb.passage_count} passages)")
    kb.close()
    mix = the_mix()
    print(
        f"mix: {len(mix)} URLs, drawn {', '.join(f'{g} {w} %' for g, w in WEIGHTS.items())};"
        f" {args.clients} {'new-connection' if args.new_connections else 'keep-alive'} clients"
        " (threads, http.client), closed loop,"
        f" {f'{args.requests} requests' if args.requests else f'{args.seconds:g} s'} per worker count;"
        f" {os.cpu_count()} cores shared by the server and the client"
    )
    results = []
    for workers in args.workers:
        try:
            result = summary(serve_and_load(db, workers, args))
        except RuntimeError as exc:
            print(f"\nworkers {workers}: the server could not be loaded: {exc}")
            results.append({"workers": workers, "failed": str(exc).splitlines()[0]})
            continue
        results.append(result)
        print_run(result, args.clients)
        if args.per_url:
            print_urls(result, None, len(result["slowest_urls"]))
        elif result["latency_ms"]["/api/search"]["p95"] > SEARCH_P95_TARGET_MS:
            print_urls(result, {"/api/search"}, 12)
    failed = print_verdicts(results)
    if args.json:
        print(json.dumps(json_safe(results), ensure_ascii=False, indent=2, allow_nan=False))
    sys.exit(1 if failed else 0)


def json_safe(value: object) -> object:
    """The results with every NaN (a figure that could not be measured) as null."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {key: json_safe(item) for key, item in value.items()}
    if isinstance(value, list):
        return [json_safe(item) for item in value]
    return value


def print_verdicts(results: list[dict]) -> bool:
    """One line per worker count against the targets; whether any missed."""
    if len(results) > 1:
        first, last = results[0], results[-1]
        before, after = first.get("requests_per_second", 0), last.get("requests_per_second", 0)
        ratio = after / before if before else math.nan
        print(f"\n{last['workers']} workers vs {first['workers']}: throughput × {ratio:.2f}")
    failed = False
    print()
    for result in results:
        missed = verdict(result)
        failed = failed or bool(missed)
        state = "FAIL: " + "; ".join(missed) if missed else "PASS"
        search = result["latency_ms"]["/api/search"]["p95"] if "latency_ms" in result else math.nan
        print(
            f"verdict workers {result['workers']}: {state}  (targets: 0 errors, /api/search p95 ≤"
            f" {SEARCH_P95_TARGET_MS:.0f} ms [{search:.1f}], clean stop on SIGINT)"
        )
    return failed


if __name__ == "__main__":
    main()
