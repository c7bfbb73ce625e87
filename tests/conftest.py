"""One knowledge base built from the real rulings_data/ per test session, and a
CLI runner pointed at it; and a small corpus (tests/fixtures/small/) for the tests
of building, rebuilding and faults, which need a build of their own but not the
real texts: it builds in about 1.5 CPU-seconds, the real corpus in about 10."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from ocgkb.build.pipeline import build
from ocgkb.cli.main import main
from ocgkb.store.database import KnowledgeBase

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "rulings_data"
KB = ROOT / "kb"
# The site is Chinese unless a request asks for English: tests of English labels ask.
EN = {"accept-language": "en"}
# A few lines written for the tests in each document's format, ten cards (an archetype
# among them) and two lists; built with the real kb/.
SMALL = ROOT / "tests" / "fixtures" / "small" / "rulings_data"
# Two editions of a small rulings documentation in reST, written for the tests in
# the layout of a Sphinx site (tests/fixtures/rst/README.md says what changed).
EDITIONS = ROOT / "tests" / "fixtures" / "rst"


@contextlib.contextmanager
def _environment(name: str, value: str):
    """`name` set to `value` while the context lasts, then as it was."""
    before = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before


@pytest.fixture(scope="session", autouse=True)
def _session_folders(tmp_path_factory):
    """Builds in tests (subprocesses included) remember their segmentation in the
    session's own folder, shared by every build of the run, never in the user's
    cache; and read the rulings documentations added in an empty folder of the
    session's own, never the user's (`ocgkb sources add` keeps them there)."""
    parts, sources = tmp_path_factory.mktemp("parts"), tmp_path_factory.mktemp("no-sources")
    with _environment("OCGKB_PARTS", str(parts)), _environment("OCGKB_SOURCES", str(sources)):
        yield


@pytest.fixture(autouse=True)
def _card_texts_in_the_test(tmp_path, monkeypatch):
    """Every test (and its subprocesses) imports card texts into its own folder,
    never the user's data folder: so no test ever reads or writes a user's texts."""
    monkeypatch.setenv("OCGKB_TEXTS", str(tmp_path / "card_texts.sqlite"))


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> tuple[Path, dict]:
    """The session's knowledge base and its build report."""
    path = tmp_path_factory.mktemp("kb") / "ocgkb.sqlite"
    return path, build(path, DATA, KB).as_dict()


@pytest.fixture(scope="session")
def kb_path(built) -> Path:
    return built[0]


@pytest.fixture(scope="session")
def build_report(built) -> dict:
    return built[1]


@pytest.fixture(scope="session")
def kb(kb_path) -> KnowledgeBase:
    return KnowledgeBase(kb_path)


@pytest.fixture(scope="session")
def db(kb_path) -> sqlite3.Connection:
    conn = sqlite3.connect(kb_path)
    conn.row_factory = sqlite3.Row
    return conn


@pytest.fixture
def cli(kb_path):
    """Run `ocgkb ARGS…` against the session's knowledge base; returns the result
    (piped text: a COLUMNS in the environment would wrap it)."""
    runner = CliRunner(env={"COLUMNS": None})

    def run(*args: str, expect: int | None = 0):
        result = runner.invoke(main, ["--db", str(kb_path), *args], catch_exceptions=False)
        if expect is not None:
            assert result.exit_code == expect, result.output
        return result

    return run


@pytest.fixture
def cli_json(cli):
    def run(*args: str):
        return json.loads(cli(*args, "--json").stdout)

    return run


def writable_copy(corpus: Path, tmp_path: Path) -> Path:
    target = tmp_path / "rulings_data"
    shutil.copytree(corpus, target)
    return target


@pytest.fixture(scope="session")
def small_kb(tmp_path_factory) -> Path:
    """The small corpus built once per session (with the real kb/): copy it before damaging it."""
    path = tmp_path_factory.mktemp("small-kb") / "ocgkb.sqlite"
    build(path, SMALL, KB)
    return path


@pytest.fixture
def small_kb_copy(small_kb, tmp_path) -> Path:
    """A copy of the small knowledge base that a test may damage or replace."""
    target = tmp_path / "kb.sqlite"
    shutil.copyfile(small_kb, target)
    return target


@pytest.fixture
def small_corpus_copy(tmp_path) -> Path:
    """A writable copy of the small corpus for tests that damage or change a source."""
    return writable_copy(SMALL, tmp_path)


def passage_at(db: sqlite3.Connection, doc: str, line: int) -> sqlite3.Row:
    return db.execute(
        "SELECT * FROM passages WHERE doc = ? AND line <= ? AND line_end >= ?", (doc, line, line)
    ).fetchone()


@pytest.fixture(scope="session")
def web_client(kb_path):
    """The web app over the session's knowledge base, in process (no sockets)."""
    pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
    from starlette.testclient import TestClient

    from ocgkb.web.app import create_app

    with TestClient(create_app(kb_path, DATA, KB), raise_server_exceptions=False) as client:
        yield client


def ocgkb_command(kb_path: Path, data: Path = DATA) -> list[str]:
    """`python -m ocgkb` over this knowledge base, built from these sources and the real kb/."""
    import sys

    return [sys.executable, "-m", "ocgkb", "--db", str(kb_path), "--data-dir", str(data), "--kb-dir", str(KB)]


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def live_server(kb_path):
    """A real `ocgkb serve` process over the session's knowledge base; its base URL.
    Stopped with Ctrl-C (SIGINT) at the end, as a person would."""
    import signal
    import subprocess
    import time
    import urllib.request

    pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web]'")
    port = free_port()
    command = ocgkb_command(kb_path)
    server = subprocess.Popen(
        [*command, "serve", "--port", str(port), "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            with urllib.request.urlopen(base + "/", timeout=5):
                break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                raise RuntimeError(f"ocgkb serve did not start: {server.communicate()[1][-2000:]}") from None
            time.sleep(0.2)
    yield base
    server.send_signal(signal.SIGINT)
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
