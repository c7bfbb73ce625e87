"""`ocgkb sources add|list|remove` and `ocgkb changes` on the two small editions
written for the tests (tests/fixtures/rst/README.md), built with the small corpus:
the copy kept as the user's, the knowledge base answering from it, what changed
between editions, and bad input leaving everything as it was."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3

import pytest
from click.testing import CliRunner

from ocgkb.cli.main import main
from ocgkb.sources.changes import compare
from ocgkb.sources.rst_docs import read_docs

from conftest import EDITIONS, KB, SMALL

OLD, NEW = EDITIONS / "edition_2025", EDITIONS / "edition_2026"


@pytest.fixture
def sources(tmp_path, monkeypatch):
    """This test's own folder of added documentations."""
    folder = tmp_path / "sources"
    monkeypatch.setenv("OCGKB_SOURCES", str(folder))
    return folder


@pytest.fixture
def run(tmp_path, sources, small_kb):
    """`ocgkb …` on a knowledge base of the small corpus in this test's folder: a copy
    of the session's, built with no documentation added, so only an addition rebuilds."""
    runner = CliRunner(env={"COLUMNS": None})
    db = tmp_path / "kb.sqlite"
    shutil.copy(small_kb, db)

    def invoke(*args: str, expect: int | None = 0):
        result = runner.invoke(main, ["--db", str(db), "--data-dir", str(SMALL), "--kb-dir", str(KB), *args])
        if expect is not None:
            assert result.exit_code == expect, result.output
        return result

    invoke.db = db
    return invoke


@pytest.fixture(scope="module")
def added(small_kb, tmp_path_factory):
    """`ocgkb …` on one knowledge base of the small corpus with the 2026 edition added,
    shared by the tests that only read it (each addition is a rebuild)."""
    folder = tmp_path_factory.mktemp("added")
    db, sources = folder / "kb.sqlite", folder / "sources"
    shutil.copy(small_kb, db)
    runner = CliRunner(env={"COLUMNS": None, "OCGKB_SOURCES": str(sources)})
    where = ["--db", str(db), "--data-dir", str(SMALL), "--kb-dir", str(KB)]

    def invoke(*args: str):
        result = runner.invoke(main, [*where, *args])
        assert result.exit_code == 0, result.output
        return result

    invoke("sources", "add", str(copy_of(NEW, folder)))
    return invoke


def copy_of(edition, tmp_path, name="docs-copy"):
    target = tmp_path / name
    shutil.copytree(edition, target)
    return target


def test_changes_between_the_editions_by_faq_id_and_by_text():
    changed = compare(read_docs(OLD), read_docs(NEW))
    assert changed["totals"] == {
        "added": 3, "removed": 2, "changed": 2, "faq_ids": {"added": 2, "removed": 1, "changed": 1},
    }  # fmt: skip
    assert [r["fid"] for r in changed["added"]] == [104, 105, None]
    assert [r["fid"] for r in changed["removed"]] == [102, None]
    fid_change, text_change = changed["changed"]
    assert (
        fid_change["fid"] == 101
        and "也不是被破坏" in fid_change["text"]
        and "也不是" not in fid_change["old_text"]
    )
    assert text_change["fid"] is None and text_change["old_text"].endswith("不需要支付cost。")
    for ruling in changed["added"] + changed["removed"] + changed["changed"]:
        assert {"fid", "date", "topic", "text", "url"} <= ruling.keys()
    assert changed["added"][0]["url"].endswith("fid=104&request_locale=ja")
    assert changed["added"][2]["topic"] == "基本用语 › 特殊召唤"


def test_changes_since_a_day_keep_the_rulings_dated_then_or_later():
    changed = compare(read_docs(OLD), read_docs(NEW), since="2026-01-01")
    assert [r["fid"] for r in changed["added"]] == [104]
    assert changed["removed"] == changed["changed"] == []


def test_adding_keeps_a_copy_and_the_knowledge_base_answers_from_it(run, sources, tmp_path):
    origin = copy_of(NEW, tmp_path)
    added = run("sources", "add", str(origin))
    assert added.stdout.splitlines()[0] == (
        "added mini-rules (Mini Rules): 6 files, 39 rulings, 6 FAQ ids, newest ruling 2026-05-01"
    )
    kept = sources / "mini-rules"
    assert (kept / "source.json").is_file() and (kept / "docs" / "c01" / "基本用语.rst").is_file()
    assert json.loads((kept / "source.json").read_text(encoding="utf-8"))["origin"] == str(origin)
    hits = json.loads(run("search", "攻击宣言后对方发动死者苏生 卷回", "--json").stdout)["hits"]
    top = hits[0]
    assert top["id"] == "mini-rules/卷回/6" and top["source"]["file"] == "c01/基本用语.rst"
    (place,) = top["citations"]
    assert (place["document"], place["added"], place["topic"]) == ("Mini Rules", True, "基本用语 › 卷回")
    assert place["faq"][0]["fid"] == 104 and place["faq"][0]["date"] == "2026-05-01"
    text = run("search", "攻击宣言后对方发动死者苏生 卷回", "-n", "1").stdout
    assert text.splitlines()[0].startswith(
        "1. Mini Rules › 基本用语 › 卷回 · 2026-05-01  [mini-rules/卷回/6 ·"
    )
    assert "FAQ 104 · 2026-05-01 · https://www.db.yugioh-card.com/" in text


def test_a_ruling_in_002_and_in_the_edition_is_one_hit_citing_both(added):
    run = added
    hits = json.loads(run("search", "支付cost后发动被无效也不会返还", "--json").stdout)["hits"]
    same = [h for h in hits if "支付cost后发动被无效也不会返还" in h["text"]]
    assert len(same) == 1
    seed, copy = same[0]["citations"]
    assert (seed["doc"], seed["added"]) == ("rulings", False)
    assert (copy["doc"], copy["id"], copy["faq"][0]["fid"]) == ("mini-rules", "mini-rules/cost/1", 100)
    assert "also in Mini Rules › 基本用语 › cost" in run("search", "支付cost后发动被无效也不会返还").stdout


# Questions the small corpus's seeds and the test edition both answer in part.
SHARED_QUESTIONS = (
    "支付cost后发动被无效也不会返还",
    "发动被无效的卡 cost 返还吗",
    "卷回 攻击宣言 死者苏生",
    "对象 破坏 连锁",
)


def test_an_added_documentation_never_reorders_the_seeds_passages(run, added):
    """The seeds rank by their own statistics: with an edition added, the seeds'
    hits keep the order they had without it, while the edition's come in between
    (a seed's passage the edition repeats may come earlier: it is the edition's too)."""

    def hits(question: str, invoke=run) -> list[dict]:
        return json.loads(invoke("search", question, "--json", "-n", "15").stdout)["hits"]

    before = {q: [h["id"] for h in hits(q)] for q in SHARED_QUESTIONS}
    added_shown = 0
    for question in SHARED_QUESTIONS:
        after = hits(question, added)
        seeds = [h["id"] for h in after if h["source"]["doc"] != "mini-rules" and not _repeated(h)]
        added_shown += sum(h["source"]["doc"] == "mini-rules" for h in after)
        assert seeds == [pid for pid in before[question] if pid in seeds], question
        assert seeds == before[question][: len(seeds)] or any(map(_repeated, after)), question
    assert added_shown


def _repeated(hit: dict) -> bool:
    """Whether a hit is a seed's passage the added edition repeats."""
    return any(place["doc"] == "mini-rules" for place in hit.get("citations", []))


def test_the_families_rankings_fill_the_places_a_ranking_of_all_gives_them():
    from ocgkb.query.ranking import _filled

    whole = [("s3", 0.9), ("a1", 0.8), ("s1", 0.7), ("a2", 0.6), ("s2", 0.5)]
    own = {"seed": [("s1", 1.0), ("s2", 0.9), ("s3", 0.2)], "added": [("s1", 1.0), ("a2", 0.7)]}
    family_of = {"s1": "seed", "s2": "seed", "s3": "seed", "a1": "added", "a2": "added"}
    # Each place keeps its score; a passage two families show (a twin) is shown once.
    assert _filled(whole, own, family_of) == [("s1", 0.9), ("a2", 0.8), ("s2", 0.7), ("s3", 0.5)]


def test_a_card_page_lists_the_added_rulings_naming_it_newest_first(run, added):
    before = json.loads(run("card", "效果遮蒙者", "--json").stdout)["rulings"]
    after = json.loads(added("card", "效果遮蒙者", "--json").stdout)["rulings"]
    assert len(after) > len(before)
    dated = [h["dates"][0] for h in after if h["dates"]]
    assert dated == sorted(dated, reverse=True) and dated[0] == "2020-04-01"


def test_a_card_only_an_added_ruling_names_is_no_longer_unmentioned(run, added):
    def notes(invoke) -> str:
        return " ".join(
            json.loads(invoke("ask", "效果遮蒙者能连锁增殖的G吗", "--json").stdout).get("notes", [])
        )

    assert "No ruling in the texts mentions 「效果遮蒙者」" in notes(run)
    assert "效果遮蒙者" not in notes(added)


def test_the_build_report_names_the_card_links_no_card_data_knows(run, tmp_path):
    run("sources", "add", str(copy_of(NEW, tmp_path)))
    report = json.loads(run("build", "--json").stdout)
    assert (
        "测试用幻想龙: mini-rules links it as a card; the card data knows no card so named"
        in report["unlinked_cards"]
    )
    # Kept as a card of its ruling, with no password: not dropped.
    card = json.loads(run("card", "测试用幻想龙", "--json").stdout)
    assert card["matches"][0]["password"] is None and card["rulings"][0]["id"] == "mini-rules/『包含○○』/4"


def test_an_update_says_what_it_changed_in_one_line_and_changes_lists_it(run, tmp_path):
    run("sources", "add", str(copy_of(OLD, tmp_path, "ed")))
    shutil.rmtree(tmp_path / "ed")
    shutil.copytree(NEW, tmp_path / "ed")
    update = run("sources", "add", str(tmp_path / "ed")).stdout
    assert (
        "since ed: 3 rulings added, 2 removed, 2 changed (FAQ ids: 2 added, 1 removed, 1 changed);"
        " `ocgkb changes` lists them"
    ) in update
    last = json.loads(run("changes", "--json").stdout)
    assert set(last) >= {"old", "new", "totals", "added", "removed", "changed"}
    assert last["totals"]["faq_ids"] == {"added": 2, "removed": 1, "changed": 1}
    text = run("changes").stdout
    assert text.splitlines()[2].startswith("3 rulings added, 2 removed, 2 changed")
    assert (
        "  基本用语 › 卷回\n    + 攻击宣言后对方发动「死者苏生」特殊召唤怪兽的场合，发生卷回。26/5/1" in text
    )
    assert "      was: 以「黑洞」为例，发动时不需要支付cost。" in text


def test_changes_between_two_folders_and_against_the_added_source(run, tmp_path):
    both = json.loads(run("changes", str(OLD), str(NEW), "--json", "--since", "2026-01-01").stdout)
    assert [r["fid"] for r in both["added"]] == [104] and both["since"] == "2026-01-01"
    run("sources", "add", str(copy_of(OLD, tmp_path)))
    against = json.loads(run("changes", str(NEW), "--json").stdout)
    assert against["totals"]["added"] == 3
    only = json.loads(run("changes", str(OLD), str(NEW), "--only", "removed", "--json").stdout)
    assert only["added"] == [] and len(only["removed"]) == 2 and only["totals"]["added"] == 3


def test_sources_list_and_build_check_say_when_the_origin_is_gone(run, tmp_path):
    origin = copy_of(NEW, tmp_path)
    run("sources", "add", str(origin))
    assert "its folder is gone" not in run("sources", "list").stdout
    shutil.move(origin, tmp_path / "moved")
    listed = run("sources", "list").stdout
    assert f"added {listed.split('added ')[1][:10]} from {origin}" in listed
    assert "its folder is gone (removed or moved): the copy kept on " in listed
    check = run("build", "--check").stdout
    assert "source mini-rules: added" in check and "warning: its folder is gone" in check
    state = json.loads(run("sources", "list", "--json").stdout)["sources"][0]["origin_state"]
    assert state == "missing"
    # The knowledge base still answers from the kept copy.
    assert json.loads(run("search", "死者苏生 卷回", "--json").stdout)["hits"][0]["id"].startswith(
        "mini-rules/"
    )


def test_remove_takes_it_out_of_the_knowledge_base(run, sources, tmp_path):
    run("sources", "add", str(copy_of(NEW, tmp_path)))
    assert run("sources", "remove", "mini-rules").stdout.startswith(
        "removed mini-rules (Mini Rules, added from "
    )
    assert not (sources / "mini-rules").exists()
    hits = json.loads(run("search", "死者苏生 卷回", "--json").stdout)["hits"]
    assert not any(h["id"].startswith("mini-rules/") for h in hits)
    gone = run("sources", "remove", "mini-rules", expect=1)
    assert gone.output == "Error: no added source named 'mini-rules'; none is added\n"


def _state(run, sources) -> tuple:
    kb = run.db.stat()
    kept = sorted(str(p) for p in sources.rglob("*")) if sources.exists() else []
    return kb.st_mtime_ns, kb.st_size, kept


@pytest.mark.parametrize(
    "damage, says",
    [
        (lambda d: (d / "c01" / "基本用语.rst").write_bytes("标题\n====\n".encode("utf-16")), "not UTF-8"),
        (lambda d: (d / "c02" / "卡片.rst").write_text("x\n=\n\n.. nosuch::\n", "utf-8"), "a reST error"),
        (lambda d: open(d / "c02" / "big.rst", "wb").truncate(50 * 2**20), "over the 8 MB"),
    ],
)
def test_bad_input_is_one_line_and_changes_nothing(run, sources, tmp_path, damage, says):
    run("sources", "add", str(copy_of(OLD, tmp_path)))
    before = _state(run, sources)
    bad = copy_of(NEW, tmp_path, "bad")
    damage(bad / "docs")
    result = run("sources", "add", str(bad), expect=1)
    assert result.output.count("\n") == 1 and says in result.output and "Traceback" not in result.output
    assert _state(run, sources) == before


def test_an_empty_folder_or_one_without_rst_is_one_line(run, tmp_path):
    (tmp_path / "empty").mkdir()
    assert run("sources", "add", str(tmp_path / "empty"), expect=1).output.endswith("the folder is empty\n")
    (tmp_path / "text").mkdir()
    (tmp_path / "text" / "a.txt").write_text("x", encoding="utf-8")
    assert run("sources", "add", str(tmp_path / "text"), expect=1).output.endswith("no .rst file in it\n")
    assert run("sources", "add", "", expect=2).output == "Error: sources add: an empty path\n"


def test_a_seed_name_cannot_be_taken(run, tmp_path):
    result = run("sources", "add", str(copy_of(NEW, tmp_path)), "--name", "rulings", expect=2)
    assert "not a seed's name" in result.output


def test_the_copy_is_kept_outside_the_package_and_read_when_the_origin_changes(run, sources, tmp_path):
    origin = copy_of(NEW, tmp_path)
    run("sources", "add", str(origin))
    (origin / "docs" / "c01" / "基本用语.rst").write_text("改\n==\n\n| 改了。\n", encoding="utf-8")
    assert "its folder has changed since" in run("sources", "list").stdout
    with sqlite3.connect(run.db) as conn:
        (count,) = conn.execute("SELECT count(*) FROM passages WHERE doc = 'mini-rules'").fetchone()
    assert count == 39  # built from the copy, not from the changed folder
    assert not str(sources).startswith(os.path.dirname(os.path.dirname(__file__)) + "/ocgkb")
