"""Building: atomic, repeatable, rebuilt when a source changes, clean errors."""

import sqlite3

import pytest
from click.testing import CliRunner

from ocgkb import SourceError
from ocgkb.build import pipeline as build_module
from ocgkb.build.pipeline import build
from ocgkb.cli.main import main
from ocgkb.store.database import KnowledgeBase, is_current, open_kb

from conftest import DATA, KB


def content(path):
    """Every row of every table but the report (it holds the build time)."""
    with sqlite3.connect(path) as conn:
        return [line for line in conn.iterdump() if "'report'" not in line]


def test_two_builds_of_the_same_input_have_the_same_content(kb_path, tmp_path):
    again = tmp_path / "again.sqlite"
    build(again, DATA, KB)
    assert content(again) == content(kb_path)


def test_the_report_counts_what_was_built(kb):
    report = kb.report()
    counts = report["counts"]
    assert counts["sections"] == 123 and counts["clause"] >= 400 and counts["cards"] >= 300
    assert report["duplicates"] and report["damaged"] and report["unresolved"]


def test_an_interrupted_build_leaves_the_previous_knowledge_base_usable(tmp_path, monkeypatch):
    db = tmp_path / "kb.sqlite"
    build(db, DATA, KB)
    before = content(db)

    def interrupted(tmp, built):
        tmp.write_bytes(b"half a database")
        raise KeyboardInterrupt

    monkeypatch.setattr(build_module, "write", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build(db, DATA, KB)
    assert content(db) == before
    assert [p.name for p in tmp_path.iterdir()] == ["kb.sqlite"]  # no half-written file left
    assert KnowledgeBase(db).query("SELECT count(*) FROM passages")[0][0] > 1000


def test_a_changed_source_triggers_a_rebuild(tmp_path, corpus_copy):
    db = tmp_path / "kb.sqlite"
    open_kb(db, corpus_copy, KB)
    assert is_current(db, corpus_copy, KB)
    target = next(corpus_copy.glob("004_*.txt"))
    target.write_text(target.read_text(encoding="utf-8") + "\n新的一段文字。\n", encoding="utf-8")
    assert not is_current(db, corpus_copy, KB)
    kb = open_kb(db, corpus_copy, KB)
    assert kb.query("SELECT count(*) FROM passages WHERE text = '新的一段文字。'")[0][0] == 1
    assert "differs from the copy recorded in the manifest" in "\n".join(kb.report()["notes"])


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda p: p.unlink(), "source file missing"),
        (lambda p: p.write_bytes(b"\xff\xfe\x00bad"), "source file is not UTF-8"),
    ],
)
def test_a_bad_source_is_a_one_line_error_and_keeps_the_old_build(tmp_path, corpus_copy, damage, message):
    db = tmp_path / "kb.sqlite"
    build(db, corpus_copy, KB)
    before = content(db)
    bad = next(corpus_copy.glob("002_*.txt"))
    damage(bad)
    with pytest.raises(SourceError, match=message):
        build(db, corpus_copy, KB)
    result = CliRunner().invoke(main, ["--db", str(db), "--data-dir", str(corpus_copy), "build"])
    assert result.exit_code == 1
    error_lines = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert error_lines == [f"Error: {message}: {bad}" + (" (byte 0)" if "UTF-8" in message else "")]
    assert "Traceback" not in result.output
    assert content(db) == before
    # A query still answers from the build that was there, with a warning.
    asked = CliRunner().invoke(
        main, ["--db", str(db), "--data-dir", str(corpus_copy), "search", "卷回", "--json"]
    )
    assert asked.exit_code == 0 and "using the stale knowledge base built before" in asked.stderr


def test_no_build_and_a_bad_source_is_a_clean_error(tmp_path, corpus_copy):
    next(corpus_copy.glob("000_*.txt")).unlink()
    result = CliRunner().invoke(
        main, ["--db", str(tmp_path / "kb.sqlite"), "--data-dir", str(corpus_copy), "ask", "卷回"]
    )
    assert (
        result.exit_code == 1 and "source file missing" in result.output and "Traceback" not in result.output
    )


def test_a_missing_manifest_is_a_clean_error(tmp_path):
    with pytest.raises(SourceError, match="no corpus manifest"):
        build(tmp_path / "kb.sqlite", tmp_path, KB)


def test_an_unwritable_knowledge_base_path_is_a_clean_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = CliRunner().invoke(main, ["--db", str(blocker / "kb.sqlite"), "ask", "卷回"])
    assert result.exit_code == 1 and "cannot write the knowledge base" in result.output
    assert "Traceback" not in result.output
