"""The one door to a knowledge base (store/door.py) and errors that carry their
meaning once: each front end answers an ocgkb error by the class's exit code or
HTTP status, and a damaged knowledge base is repaired through the door, from the
command line and from the web."""

from __future__ import annotations

import logging
import shutil
import sqlite3
import time

import pytest
from click.testing import CliRunner

from ocgkb import NotFound, OcgkbError, OntologyError, SourceError, UsageError
from ocgkb.build import pipeline
from ocgkb.cli.main import main
from ocgkb.engine.scenario import ScenarioError
from ocgkb.store import door
from ocgkb.store.door import KnowledgeBase

from conftest import DATA, KB, SMALL

SMALL_SECTION = "1.1"  # a section of the small corpus's rulebook


@pytest.mark.parametrize(
    "error, exit_code, http_status",
    [
        (OcgkbError, 1, 400),
        (UsageError, 2, 400),
        (NotFound, 1, 404),
        (SourceError, 1, 500),
        (OntologyError, 1, 500),
        (ScenarioError, 2, 500),
    ],
)
def test_each_error_carries_its_exit_code_and_status(error, exit_code, http_status):
    assert (error.exit_code, error.http_status) == (exit_code, http_status)


def test_not_found_is_still_importable_where_it_was():
    from ocgkb.query.lookup import NotFound as old_place

    assert old_place is NotFound


# --- the command line: the class's exit code ------------------------------------------


@pytest.mark.parametrize("error", [NotFound, UsageError, OntologyError])
def test_the_cli_exits_by_the_class_exit_code_in_one_line(kb_path, monkeypatch, error):
    def broken(*args, **kwargs):
        raise error("what went wrong\nand a second line never shown")

    monkeypatch.setattr("ocgkb.views.section.section_view", broken)
    result = CliRunner().invoke(main, ["--db", str(kb_path), "section", "4.2"])
    assert result.exit_code == error.exit_code
    assert result.stderr == "Error: what went wrong\n"


def test_an_unknown_card_is_the_views_not_found_with_the_nearest_names(kb):
    from ocgkb.views.card import card_view

    with pytest.raises(NotFound) as caught:
        card_view(kb, "qqq白龙")
    assert caught.value.detail["suggestions"] and caught.value.detail["matches"] == []
    assert caught.value.detail["message"] == str(caught.value)


# --- the web: the class's status -----------------------------------------------------------


@pytest.mark.parametrize(
    "error, status", [(NotFound, 404), (OcgkbError, 400), (UsageError, 400), (OntologyError, 500)]
)
@pytest.mark.parametrize("where", ["/section/4.2", "/api/section/4.2"])
def test_the_web_answers_by_the_class_status(web_client, monkeypatch, caplog, error, status, where):
    def broken(*args, **kwargs):
        raise error("what went wrong")

    monkeypatch.setattr("ocgkb.web.pages.section_view", broken)
    monkeypatch.setattr("ocgkb.web.api.section_view", broken)
    with caplog.at_level(logging.ERROR, logger="ocgkb.web"):
        response = web_client.get(where)
    assert response.status_code == status
    assert "Traceback" not in response.text
    if status == 500:  # our own data at fault: said so, logged in one line, the details kept back
        assert "what went wrong" not in response.text and "logged" in response.text
        (record,) = [r for r in caplog.records if r.name == "ocgkb.web"]
        assert "what went wrong" in record.getMessage() and record.exc_info is None
    else:
        assert "what went wrong" in response.text
    if where.startswith("/api/"):
        assert "error" in response.json()


# --- the build: a broken curated scenario never ships ------------------------------------


def test_a_broken_curated_scenario_fails_the_build_in_one_line_naming_it(tmp_path, monkeypatch):
    kb_dir = tmp_path / "kb"
    shutil.copytree(KB, kb_dir)
    (kb_dir / "scenarios" / "broken_one.yaml").write_text("title: t\ncards: {}\n", encoding="utf-8")
    monkeypatch.setattr(pipeline, "_read_inputs", lambda *a: pytest.fail("read the sources in vain"))
    db = tmp_path / "kb.sqlite"
    result = CliRunner().invoke(main, ["--db", str(db), "--kb-dir", str(kb_dir), "build"])
    assert result.exit_code == 1 and not db.exists()
    assert result.stderr.count("\n") == 1 and "broken_one.yaml" in result.stderr
    assert "missing actions, expect" in result.stderr


def test_the_build_reads_scenarios_with_the_replay_reader_and_its_limits(tmp_path):
    kb_dir = tmp_path / "kb"
    (kb_dir / "scenarios").mkdir(parents=True)
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcde", "bcdef", strict=True)
    )
    (kb_dir / "scenarios" / "bomb.yaml").write_text(bomb, encoding="utf-8")
    with pytest.raises(OntologyError, match="bomb.yaml: more than"):
        pipeline._read_scenarios(kb_dir)


# --- repair, through the door ---------------------------------------------------------------


def test_a_repair_that_finds_the_file_already_replaced_builds_nothing(kb_path, tmp_path, monkeypatch):
    db = tmp_path / "kb.sqlite"
    shutil.copy(kb_path, db)
    seen = door.signature(db)
    shutil.copy(kb_path, tmp_path / "new.sqlite")
    (tmp_path / "new.sqlite").replace(db)  # another process rebuilt it meanwhile
    monkeypatch.setattr(pipeline, "build", lambda *a, **k: pytest.fail("built twice"))
    assert door.repair(db, DATA, KB, seen=seen) is False
    assert door.check(db, DATA, KB)["sound"]


def test_the_web_repairs_a_damaged_knowledge_base_through_the_door(small_kb, tmp_path, monkeypatch):
    """A query that meets damage: 503 in one line, the door's repair in a process of
    its own, then the rebuilt file is served."""
    pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
    from starlette.testclient import TestClient

    from ocgkb.web.app import create_app

    db = tmp_path / "kb.sqlite"
    shutil.copy(small_kb, db)  # the mechanism, not the corpus: the small one rebuilds in a second
    app = create_app(db, SMALL, KB)
    real_query, calls = KnowledgeBase.query, []

    def query_once_damaged(self, sql, params=()):
        calls.append(sql)
        if len(calls) == 1:
            raise sqlite3.DatabaseError("database disk image is malformed")
        return real_query(self, sql, params)

    monkeypatch.setattr(KnowledgeBase, "query", query_once_damaged)
    before = door.signature(db)
    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get(f"/section/{SMALL_SECTION}")
        assert response.status_code == 503 and response.text.count("\n") == 1
        app.state.watch.rebuilding.join(timeout=300)
        assert door.signature(db) != before  # a new file, built by the door
        deadline = time.monotonic() + 30
        while client.get(f"/section/{SMALL_SECTION}").status_code != 200 and time.monotonic() < deadline:
            time.sleep(0.3)
        assert client.get(f"/section/{SMALL_SECTION}").status_code == 200


def test_an_sqlite_error_about_the_question_is_a_400_and_rebuilds_nothing(web_client, monkeypatch):
    from ocgkb.messages import not_damage

    too_complex = sqlite3.OperationalError("LIKE or GLOB pattern too complex")

    def broken(*args, **kwargs):
        raise too_complex

    monkeypatch.setattr("ocgkb.web.api.section_view", broken)
    response = web_client.get("/api/section/4.2")
    assert response.status_code == 400 and response.json() == {"error": not_damage(too_complex)}
    assert web_client.app.state.watch.damage is None and web_client.app.state.watch.rebuilding is None


def test_pages_cite_documents_by_their_manifest_titles(web_client, kb):
    from ocgkb.views.home import document_titles

    titles = document_titles(kb)
    assert titles["rulings"] == "裁定集" and set(titles) >= {"rulebook", "masterrule", "tournament"}
    home = web_client.get("/").text
    assert all(title in home for doc, title in titles.items() if doc != "masterrule")  # no sections listed
    assert f"{titles['rulings']} · " in web_client.get("/ask", params={"q": "卡时点"}).text
