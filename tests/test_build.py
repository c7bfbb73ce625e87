"""Building: atomic, repeatable, rebuilt when a source changes, clean errors."""

import shutil
import sqlite3

import pytest
from click.testing import CliRunner

from ocgkb import SourceError
from ocgkb.build import pipeline as build_module
from ocgkb.build.pipeline import build
from ocgkb.cli.main import main
from ocgkb.store.door import KnowledgeBase, is_current, open_kb

from conftest import DATA, KB, SMALL, passage_at


def content(path):
    """Every row of every table but the report (it holds the build time)."""
    with sqlite3.connect(path) as conn:
        return [line for line in conn.iterdump() if "'report'" not in line]


def test_two_builds_of_the_same_input_have_the_same_content(kb_path, tmp_path):
    """On the real corpus: a second full build of it gives the same bytes."""
    again = tmp_path / "again.sqlite"
    build(again, DATA, KB)
    assert content(again) == content(kb_path)


def test_the_store_has_the_schemas_shape(db):
    """Every table the schema declares, with its columns and types, and only the
    link relations it names."""
    from ocgkb.store import schema

    declared = sqlite3.connect(":memory:")
    for table in schema.TABLES:
        declared.execute(schema.create_table(table))

        def columns(conn, table=table):
            return [tuple(r)[1:3] for r in conn.execute(f"PRAGMA table_info({table})")]

        assert columns(db) == columns(declared), table
    relations = {r[0] for r in db.execute("SELECT DISTINCT relation FROM links")}
    assert relations <= set(schema.LINK_RELATIONS)
    assert (
        db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
        == schema.SCHEMA_VERSION
    )


def test_the_report_counts_what_was_built(kb):
    report = kb.report()
    counts = report["counts"]
    assert counts["sections"] == 123 and counts["clause"] >= 390 and counts["cards"] >= 300
    assert report["duplicates"] and report["damaged"] and report["unresolved"]


def test_an_interrupted_build_leaves_the_previous_knowledge_base_usable(small_kb_copy, tmp_path, monkeypatch):
    db = small_kb_copy
    before = content(db)
    passages = KnowledgeBase(db).query("SELECT count(*) FROM passages")[0][0]

    def interrupted(tmp, built):
        tmp.write_bytes(b"half a database")
        raise KeyboardInterrupt

    monkeypatch.setattr(build_module, "write", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build(db, SMALL, KB)
    assert content(db) == before
    assert [p.name for p in tmp_path.iterdir()] == ["kb.sqlite"]  # no half-written file left
    assert KnowledgeBase(db).query("SELECT count(*) FROM passages")[0][0] == passages > 40


def test_a_changed_source_triggers_a_rebuild(small_kb, tmp_path, small_corpus_copy):
    """The session's build is current for an unchanged copy of its texts (the fingerprint
    hashes the files' names and bytes, not where they are); a changed source rebuilds."""
    db, corpus_copy = tmp_path / "kb.sqlite", small_corpus_copy
    shutil.copyfile(small_kb, db)
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
def test_a_bad_source_is_a_one_line_error_and_keeps_the_old_build(
    small_kb_copy, small_corpus_copy, damage, message
):
    db, corpus_copy = small_kb_copy, small_corpus_copy
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


def test_no_build_and_a_bad_source_is_a_clean_error(tmp_path, small_corpus_copy):
    next(small_corpus_copy.glob("000_*.txt")).unlink()
    result = CliRunner().invoke(
        main, ["--db", str(tmp_path / "kb.sqlite"), "--data-dir", str(small_corpus_copy), "ask", "卷回"]
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
    # Nothing is built there yet: the small corpus, so that the build found out in vain is short.
    result = CliRunner().invoke(
        main, ["--db", str(blocker / "kb.sqlite"), "--data-dir", str(SMALL), "ask", "卷回"]
    )
    assert result.exit_code == 1 and "cannot write the knowledge base" in result.output
    assert "Traceback" not in result.output


def test_of_two_twins_the_clean_copy_is_kept(db):
    """The tournament text (003) repeats the guide (004), damaged: corruptions
    kb/repairs.yaml knows (鈳), variant characters only the search form folds
    (鬥 傷 壞), lost ，。. The clean copy is the one shown, whichever document."""

    def kept(guide_line, tournament_line):
        a, b = passage_at(db, "guide", guide_line)["id"], passage_at(db, "tournament", tournament_line)["id"]
        rows = dict(db.execute("SELECT id, dup_of FROM passages WHERE id IN (?, ?)", (a, b)).fetchall())
        assert {rows[a], rows[b]} - {None} in ({a}, {b}), (a, b)  # one is the other's twin
        return "guide" if rows[a] is None else "tournament"

    assert kept(31, 387) == "guide"  # 003: 战鬥, no ，
    assert kept(122, 491) == "guide"  # 003: 破壞, no 。，
    assert kept(3, 337) == "guide"  # 003 lost its 。
    assert kept(8, 347) == "guide"  # 003: 鈳 (a known corruption)
    # A copy flagged as damaged loses even with more punctuation (004's “” do not pair).
    assert kept(73, 441) == "tournament"
    shown = db.execute("SELECT k.text FROM passages d JOIN passages k ON k.id = d.dup_of").fetchall()
    assert not any(ch in text for (text,) in shown for ch in "鬥傷壞棄須發場裝內鈳鈈")


def test_the_twin_rule_on_hand_made_passages():
    from ocgkb.build.pipeline import _damage, _near_duplicates
    from ocgkb.sources.model import Passage
    from ocgkb.text.normalize import Normalizer

    normalize = Normalizer({"鈳": "可"})
    said = "攻击怪物的攻击力大于被攻击怪物的防御力的时候，被攻击怪物被战斗破坏送入墓地。"
    passages = [
        Passage("a/1", "a", "paragraph", said.replace("战斗", "战鬥"), 1, 1),  # a variant
        Passage("b/1", "b", "paragraph", said, 1, 1),  # clean
        Passage("a/2", "a", "paragraph", said.replace("，", "").replace("。", "") + "。", 2, 2),
        Passage("c/1", "c", "paragraph", said.replace("大于", "大鈳"), 1, 1),  # a known corruption
    ]
    search = {p.id: normalize(p.text) for p in passages}
    damage = _damage(passages, normalize)
    assert damage["b/1"] < damage["a/2"] and damage["b/1"] < damage["a/1"] and damage["b/1"] < damage["c/1"]
    assert damage["a/1"][1] == 1 and damage["c/1"][1] == 1 and damage["a/2"][2] > damage["b/1"][2]
    dup_of = _near_duplicates(passages, search, damage)
    assert dup_of.get("a/1") == "b/1" and "b/1" not in dup_of
    flagged = Passage("b/1", "b", "paragraph", said + "“", 1, 1, flags=["unbalanced “”"])
    damage = _damage([passages[2], flagged], normalize)
    assert damage["a/2"] < damage["b/1"]  # a damage flag counts before anything else


def test_a_knowledge_base_is_current_without_hashing_while_no_input_is_touched(
    tmp_path, small_corpus_copy, monkeypatch
):
    """Every command checks that the store is current: by the files' sizes and times
    while none is touched, by their bytes once one is, and a change is still seen."""
    import os

    from ocgkb.sources import inputs

    db, corpus_copy = tmp_path / "kb.sqlite", small_corpus_copy
    open_kb(db, corpus_copy, KB)
    real = inputs.fingerprint
    monkeypatch.setattr(inputs, "fingerprint", lambda *a: pytest.fail("hashed although nothing changed"))
    assert is_current(db, corpus_copy, KB)
    monkeypatch.setattr(inputs, "fingerprint", real)
    source = next(corpus_copy.glob("004_*.txt"))
    os.utime(source, ns=(source.stat().st_atime_ns, source.stat().st_mtime_ns + 10**9))  # touched only
    assert is_current(db, corpus_copy, KB)
    source.write_text(source.read_text(encoding="utf-8") + "\n新的一行。\n", encoding="utf-8")
    assert not is_current(db, corpus_copy, KB)


def test_the_small_corpus_has_what_the_fault_tests_rely_on(small_kb, kb_path):
    """tests/fixtures/small/ stands in for the real corpus in the tests of building and
    faults: every kind of passage, the sections and cards they query, an archetype,
    both lists, and the real one's tables."""
    from ocgkb.store.schema import PASSAGE_KINDS

    def tables(path):
        with sqlite3.connect(path) as conn:
            return {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

    small = KnowledgeBase(small_kb)
    kinds = {kind for (kind,) in small.query("SELECT DISTINCT kind FROM passages")}
    assert kinds == set(PASSAGE_KINDS)
    assert (
        small.query("SELECT count(*) FROM sections WHERE number IN ('4', '4.2', '4.2.2', '6.3')")[0][0] == 4
    )
    assert small.query("SELECT count(*) FROM archetypes")[0][0] == 1
    assert small.query("SELECT count(*) FROM limit_lists")[0][0] == 2
    cards = {name for (name,) in small.query("SELECT DISTINCT card FROM passage_cards")}
    assert {"增殖的G", "黑洞"} <= cards
    assert tables(small_kb) == tables(kb_path)
