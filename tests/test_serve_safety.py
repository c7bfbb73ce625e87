"""`ocgkb serve` against attack and faults (issue 19), each over a real server
process and real sockets: idle connections under a low open-files limit, request
heads that never finish, kept-alive idle connections, Content-Length with
Transfer-Encoding, the Host allow-list, a killed supervisor, a damaged knowledge
base under two workers, and a knowledge base replaced or truncated under a running
server. Timeouts are set short through serve's options so that each test takes
seconds; a rebuild takes a build's time: the small corpus's (tests/fixtures/small/)."""

from __future__ import annotations

import contextlib
import logging
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from conftest import DATA, KB, SMALL, free_port

pytest.importorskip("uvicorn")
pytest.importorskip("httptools")

PROBE = "/api/section/4.2.2"


class Server:
    """A running `ocgkb serve`; its stderr is read from a file (a pipe could fill)."""

    def __init__(self, proc: subprocess.Popen, port: int, log: Path) -> None:
        self.proc, self.port, self.log = proc, port, log
        self.base = f"http://127.0.0.1:{port}"

    def stderr(self) -> str:
        return self.log.read_text(errors="replace")

    def get(self, path: str = PROBE, timeout: float = 5, host: str | None = None) -> tuple[int, bytes]:
        request = urllib.request.Request(self.base + path, headers={"Host": host} if host else {})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def wait_until(self, status: int, within: float) -> float:
        """Seconds until PROBE answers `status`; fails after `within`."""
        started = time.monotonic()
        while True:
            with contextlib.suppress(OSError):
                if self.get(timeout=2)[0] == status:
                    return time.monotonic() - started
            assert self.proc.poll() is None, self.stderr()[-3000:]
            assert time.monotonic() - started < within, (
                f"no {status} within {within} s: {self.stderr()[-3000:]}"
            )
            time.sleep(0.2)


@contextlib.contextmanager
def serving(
    db: Path,
    tmp_path: Path,
    *args: str,
    open_files: int | None = None,
    port: int | None = None,
    data: Path = DATA,
):
    port = port or free_port()
    log = tmp_path / f"serve-{port}.log"

    def limit() -> None:
        if open_files:
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

    command = [sys.executable, "-m", "ocgkb", "--db", str(db), "--data-dir", str(data), "--kb-dir", str(KB)]
    with open(log, "w") as err:
        proc = subprocess.Popen(
            [*command, "serve", "--port", str(port), "--quiet", *args],
            stdout=subprocess.DEVNULL,
            stderr=err,
            preexec_fn=limit,
            start_new_session=True,
        )
    server = Server(proc, port, log)
    try:
        server.wait_until(200, 90)
        yield server
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # the workers too
        proc.wait(timeout=20)


@pytest.fixture
def kb_copy(kb_path, tmp_path) -> Path:
    """A copy of the session's knowledge base that a test may damage or replace."""
    target = tmp_path / "kb" / "ocgkb.sqlite"
    target.parent.mkdir()
    shutil.copyfile(kb_path, target)
    return target


def closed_by_server(sock: socket.socket, within: float) -> bool:
    """Whether the server closes `sock` within `within` seconds (what it still
    sends before, the rest of a response, is read and ignored)."""
    deadline = time.monotonic() + within
    try:
        while (left := deadline - time.monotonic()) > 0:
            sock.settimeout(left)
            if sock.recv(65536) == b"":
                return True
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    return False


def idle_sockets(port: int, count: int) -> list[socket.socket]:
    """`count` connections that never send a byte."""
    sockets = []
    for _ in range(count):
        sock = socket.socket()
        sock.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            sock.connect(("127.0.0.1", port))
        sockets.append(sock)
    return sockets


# --- 1. connections: head timeout, keep-alive timeout, the cap, the descriptor limit ------------


def test_a_thousand_idle_connections_under_ulimit_1024_do_not_stop_service(kb_path, tmp_path):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 2200:
        pytest.skip("this test needs 2,200 descriptors of its own")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 2200), hard))
    with serving(kb_path, tmp_path, "--head-timeout", "60", open_files=1024) as server:
        held = idle_sockets(server.port, 1000)
        try:
            time.sleep(1.0)
            slowest = 0.0
            for _ in range(10):
                started = time.monotonic()
                assert server.get(timeout=5)[0] == 200
                slowest = max(slowest, time.monotonic() - started)
            assert slowest < 1.0, slowest
            assert "Too many open files" not in server.stderr()
        finally:
            for sock in held:
                sock.close()
        assert server.get()[0] == 200  # and after the flood


def test_a_request_head_never_finished_is_closed(kb_path, tmp_path):
    with serving(kb_path, tmp_path, "--head-timeout", "0.5") as server:
        silent = socket.create_connection(("127.0.0.1", server.port))
        partial = socket.create_connection(("127.0.0.1", server.port))
        partial.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n")  # no blank line: never ends
        assert closed_by_server(silent, 3) and closed_by_server(partial, 3)
        drip = socket.create_connection(("127.0.0.1", server.port))  # slowloris: a byte at a time
        started, closed = time.monotonic(), False
        for byte in b"GET / HTTP/1.1\r\nHost: localhost\r\nX-A: " + b"a" * 100:
            try:
                drip.send(bytes([byte]))
            except OSError:
                closed = True
                break
            time.sleep(0.05)
        assert closed or closed_by_server(drip, 1)
        assert time.monotonic() - started < 3
        assert server.get()[0] == 200


def test_an_idle_kept_alive_connection_is_closed(kb_path, tmp_path):
    with serving(kb_path, tmp_path, "--keep-alive", "0.5") as server:
        sock = socket.create_connection(("127.0.0.1", server.port))
        sock.sendall(f"GET {PROBE} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
        sock.settimeout(5)
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        started = time.monotonic()
        assert closed_by_server(sock, 3)
        assert time.monotonic() - started < 2


def test_at_the_cap_the_oldest_idle_connections_make_room(kb_path, tmp_path):
    with serving(kb_path, tmp_path, "--max-connections", "20", "--head-timeout", "60") as server:
        held = idle_sockets(server.port, 40)
        time.sleep(0.5)
        assert server.get(timeout=2)[0] == 200
        for sock in held[:10]:
            sock.setblocking(True)
            assert closed_by_server(sock, 2)  # the oldest went first
        for sock in held:
            sock.close()


def test_repeated_errors_are_logged_once_a_minute():
    from ocgkb.web.quiet_log import OnceAMinute

    quiet = OnceAMinute()
    records = [
        logging.LogRecord("asyncio", logging.ERROR, "", 0, "accept failed", None, None) for _ in range(5)
    ]
    assert [quiet.filter(r) for r in records] == [True, False, False, False, False]
    other = logging.LogRecord("asyncio", logging.ERROR, "", 0, "something else", None, None)
    assert quiet.filter(other)
    quiet.last = {k: v - 61 for k, v in quiet.last.items()}
    assert quiet.filter(records[0]) and "4 more like this" in records[0].getMessage()


# --- 2. Content-Length with Transfer-Encoding, Host names, the address shown --------------------


def test_content_length_with_transfer_encoding_closes_the_connection(live_server):
    port = int(live_server.rsplit(":", 1)[1])
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(
        b"POST /api/search HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    )
    answer = b""
    while chunk := sock.recv(65536):  # ends only when the server closes
        answer += chunk
    assert answer.startswith(b"HTTP/1.1 400")
    assert b"connection: close" in answer.lower()


@pytest.mark.parametrize(
    "host", ["localhost", "localhost:{port}", "127.0.0.1:{port}", "[::1]:{port}", "LOCALHOST."]
)
def test_loopback_names_are_answered(live_server, host):
    port = live_server.rsplit(":", 1)[1]
    status, _ = Server(None, int(port), Path()).get(host=host.format(port=port))  # type: ignore[arg-type]
    assert status == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.1.evil.example", "[::2]"])
def test_other_host_names_get_a_one_line_400(live_server, host):
    status, body = Server(None, int(live_server.rsplit(":", 1)[1]), Path()).get(host=host)  # type: ignore[arg-type]
    assert status == 400
    assert body.decode().count("\n") == 1 and "host name" in body.decode()


def test_an_allowed_host_option_replaces_the_default(kb_path, tmp_path):
    with serving(
        kb_path, tmp_path, "--allowed-host", "127.0.0.1", "--allowed-host", "*.example.org"
    ) as server:
        assert server.get(host="rules.example.org")[0] == 200
        assert server.get(host="localhost")[0] == 400


def test_a_public_address_warns_and_urls_bracket_ipv6(cli, monkeypatch):
    from ocgkb.web import server

    for name in ("OCGKB_DB", "OCGKB_DATA", "OCGKB_KB", "OCGKB_ALLOWED_HOSTS"):
        monkeypatch.setenv(name, "")  # serve sets them for its workers: restored after
    monkeypatch.setattr(server, "check_port", lambda host, port: None)
    monkeypatch.setattr(server, "run", lambda *args, **kwargs: None)
    for host, url in (("::", "http://[::]:8768/"), ("0.0.0.0", "http://0.0.0.0:8768/")):
        result = cli("serve", "--host", host, "--port", "8768")
        warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
        assert len(warnings) == 1 and "open to other machines" in warnings[0], result.stderr
        assert url in result.stderr
        assert os.environ["OCGKB_ALLOWED_HOSTS"] == "*"
    result = cli("serve", "--host", "::1", "--port", "8768")
    assert "warning" not in result.stderr and "http://localhost:8768/" in result.stderr
    assert os.environ["OCGKB_ALLOWED_HOSTS"] == "localhost,127.0.0.1,[::1]"


# --- 3. the supervisor and the knowledge base under a running server ----------------------------


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    with contextlib.suppress(OSError):
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    return False


def test_killing_the_supervisor_kills_its_workers_and_frees_the_port(kb_path, tmp_path):
    port = free_port()
    with serving(kb_path, tmp_path, "--workers", "2", port=port) as server:
        workers = children_of(server.proc.pid)
        assert len(workers) >= 2
        server.proc.send_signal(signal.SIGKILL)
        server.proc.wait(timeout=10)
        deadline = time.monotonic() + 5
        while any(alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(alive(w) for w in workers)
    with serving(kb_path, tmp_path, port=port) as again:  # the port is free again
        assert again.get()[0] == 200


def damage_passages(db: Path) -> None:
    """Garbage over the later half of the passages table's pages: the header, the
    build's record and the first passages still read, so the knowledge base looks
    current until a worker loads it."""
    import random
    import sqlite3

    with contextlib.closing(sqlite3.connect(db)) as conn:
        pages = sorted(n for (n,) in conn.execute("SELECT pageno FROM dbstat WHERE name = 'passages'"))
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    garbage = random.Random(0)
    with open(db, "r+b") as out:
        for page in pages[len(pages) // 2 :]:
            out.seek((page - 1) * size)  # pages count from 1
            out.write(garbage.randbytes(size))


def test_two_workers_over_a_damaged_knowledge_base_rebuild_it_once(small_kb_copy, tmp_path):
    damage_passages(small_kb_copy)
    started = time.monotonic()
    with serving(small_kb_copy, tmp_path, "--workers", "2", data=SMALL) as server:
        took = time.monotonic() - started
        assert server.get("/api/search?q=cost")[0] == 200
        log = server.stderr()
        assert log.count("rebuilding it once") == 1, log
        assert "Traceback" not in log
    print(f"healed and serving in {took:.1f} s")


def test_a_new_build_renamed_in_is_picked_up_and_a_bad_one_is_not(kb_copy, tmp_path):
    with serving(kb_copy, tmp_path) as server:
        fresh = kb_copy.with_name("new.sqlite")
        shutil.copyfile(kb_copy, fresh)
        os.replace(fresh, kb_copy)
        server.wait_until(200, 5)
        time.sleep(1.2)
        assert server.get()[0] == 200
        assert "changed; reopened it" in server.stderr()
        garbage = kb_copy.with_name("garbage.sqlite")
        garbage.write_bytes(os.urandom(100_000))
        os.replace(garbage, kb_copy)
        time.sleep(1.2)
        assert (
            server.get()[0] == 200 and server.get("/api/search?q=cost")[0] == 200
        )  # the old file, still open
        assert "will not load" in server.stderr()


def test_a_truncated_knowledge_base_answers_503_then_is_rebuilt(small_kb_copy, tmp_path):
    """The server's own rebuild, on the small corpus (the CLI's rebuild of the real texts
    is test_reliability's; this one is the mechanism: a file truncated under the server)."""
    with serving(small_kb_copy, tmp_path, data=SMALL) as server:
        with open(small_kb_copy, "r+b") as out:
            out.truncate(small_kb_copy.stat().st_size // 3)
        time.sleep(1.2)
        status, body = server.get("/api/search?q=cost")
        assert status == 503 and body.decode().count("\n") == 1, (status, body[:300])
        healed = server.wait_until(200, 60)
        assert server.get("/api/search?q=cost")[0] == 200
        assert " 500" not in server.stderr() and "Traceback" not in server.stderr()
    print(f"503 for {healed:.1f} s, then served again")
