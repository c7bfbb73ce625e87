"""The web's views run off the event loop, in bounded pools, each request within its
deadline (web/offload.py): a slow question holds up no lookup, and a request past its
deadline is a one-line 503, logged, its SQLite reads stopped."""

from __future__ import annotations

import logging
import sqlite3
import threading
import time

import pytest

from conftest import KB, SMALL

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
from starlette.responses import JSONResponse  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from ocgkb.web.app import create_app  # noqa: E402

# A statement that never ends by itself: counting without end.
ENDLESS = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"


def test_a_slow_question_holds_up_no_lookup(small_kb, monkeypatch):
    asked = threading.Event()

    def slow_view(kb, number):
        asked.set()
        time.sleep(1.5)  # a request that takes its time, in its own thread
        return {"number": number}

    monkeypatch.setattr("ocgkb.web.pages.section_view", slow_view)
    monkeypatch.setattr("ocgkb.web.pages.page", lambda request, template, **context: JSONResponse({}))
    with TestClient(create_app(small_kb, SMALL, KB), raise_server_exceptions=False) as client:
        slow: list = []
        asking = threading.Thread(target=lambda: slow.append(client.get("/section/1")))
        asking.start()
        assert asked.wait(5)
        started = time.monotonic()
        card = client.get("/card/1")  # a lookup while the slow request runs
        took = time.monotonic() - started
        asking.join()
    assert slow[0].status_code == 200
    assert card.status_code in (200, 404) and took < 1.0, took


def test_a_request_past_its_deadline_is_a_logged_one_line_503_and_its_reads_stop(
    small_kb, monkeypatch, caplog
):
    stopped: list[float] = []

    def endless(kb, number):
        try:
            kb.query(ENDLESS)
        finally:
            stopped.append(time.monotonic())

    monkeypatch.setattr("ocgkb.web.api.section_view", endless)
    app = create_app(small_kb, SMALL, KB, deadline=0.3)
    with TestClient(app, raise_server_exceptions=False) as client, caplog.at_level(logging.WARNING):
        started = time.monotonic()
        response = client.get("/api/section/1")
        answered = time.monotonic() - started
        deadline = time.monotonic() + 5
        while not stopped and time.monotonic() < deadline:
            time.sleep(0.05)
    assert response.status_code == 503 and response.headers["retry-after"]
    assert "took more than 0.3 s" in response.json()["error"] and "\n" not in response.json()["error"]
    assert answered < 2
    assert stopped and stopped[0] - started < 2  # SQLite stopped the statement, not just the answer
    assert [r.getMessage() for r in caplog.records if "answered 503" in r.getMessage()] == [
        "GET /api/section/1 took more than 0.3 s: answered 503"
    ]


def test_a_view_busy_in_python_past_its_deadline_is_a_503_page(small_kb, monkeypatch):
    monkeypatch.setattr("ocgkb.web.pages.section_view", lambda kb, number: time.sleep(2))
    with TestClient(create_app(small_kb, SMALL, KB, deadline=0.3), raise_server_exceptions=False) as client:
        response = client.get("/section/1")
    assert response.status_code == 503 and "took more than 0.3 s" in response.text


def test_an_sqlite_error_of_the_question_within_the_deadline_is_not_a_503(small_kb, monkeypatch):
    def too_complex(kb, number):
        raise sqlite3.OperationalError("LIKE or GLOB pattern too complex")

    monkeypatch.setattr("ocgkb.web.api.section_view", too_complex)
    with TestClient(create_app(small_kb, SMALL, KB), raise_server_exceptions=False) as client:
        assert client.get("/api/section/1").status_code == 400
