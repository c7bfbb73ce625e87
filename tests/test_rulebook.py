"""The rulebook (000): every numbered section once, clauses in order, §6 once."""

import re

import pytest

from ocgkb.sources.rulebook import read_rulebook

from conftest import DATA, passage_at

RULEBOOK = next(DATA.glob("000_*.txt"))


def headings():
    pattern = re.compile(r"^(\d+(?:\.\d+)*)[ \u3000]+\S")
    return [
        m.group(1) for line in RULEBOOK.read_text(encoding="utf-8").splitlines() if (m := pattern.match(line))
    ]


def test_every_numbered_section_is_present_exactly_once(db):
    numbers = [r[0] for r in db.execute("SELECT number FROM sections WHERE doc = 'rulebook' ORDER BY ord")]
    assert len(numbers) == len(set(numbers))
    assert set(numbers) == set(headings())
    assert numbers[0] == "1" and numbers[-1] == "6.3.4.4"


def test_section_6_is_kept_once_from_its_full_copy(db, kb):
    rows = db.execute("SELECT number, line FROM sections WHERE number IN ('6', '6.1', '6.3.3')").fetchall()
    assert {r["number"]: r["line"] for r in rows} == {"6": 553, "6.1": 554, "6.3.3": 592}
    assert (
        db.execute(
            "SELECT count(*) FROM passages WHERE doc = 'rulebook' AND line BETWEEN 508 AND 552"
        ).fetchone()[0]
        == 0
    )
    assert any("section 6" in d and "duplicate dropped" in d for d in kb.report()["duplicates"])


def test_missing_sections_are_not_invented(db):
    numbers = {r[0] for r in db.execute("SELECT number FROM sections")}
    assert not {"2", "4", "4.1"} & numbers
    parents = dict(db.execute("SELECT number, parent FROM sections WHERE doc = 'rulebook'"))
    assert parents["4.2"] is None  # there is no 4 to hang it on
    assert parents["4.2.2.1"] == "4.2.2"
    assert parents["3.2.2.1.1.1"] == "3.2.2.1.1"


def clauses(db, number):
    rows = db.execute(
        "SELECT id, text FROM passages WHERE section = ? AND kind = 'clause' ORDER BY rowid", (number,)
    )
    return [(r["id"], r["text"]) for r in rows]


def test_cost_section_has_its_five_clauses_in_order(db):
    assert clauses(db, "4.2.2") == [
        ("4.2.2/1", "●cost指卡片•效果发动时所必需的条件。"),
        ("4.2.2/2", "●支付cost必须在发动的时候进行，即使该卡、该效果的发动被无效，支付的cost也不能取回。"),
        ("4.2.2/3", "●玩家无法支付必要的cost的场合不能发动该卡片。"),
        ("4.2.2/4", "●cost不视为卡片效果。"),
        ("4.2.2/5", "●没有特别的卡片文本指定，cost只能从自己控制的卡片中支付。"),
    ]


@pytest.mark.parametrize(
    "number, count, first, last",
    [
        ("1.4.1", 6, "●决斗开始时双方都持有8000基本分。", "●玩家因效果或在连锁处理当中基本分变成0"),
        ("1.2.3", 4, "●副卡组是在两场决斗之间", "●在一场三局两胜比赛的情况下"),
        (
            "6.3.4.2",
            6,
            "●自己的1只怪兽进行攻击宣言的步骤。",
            "●攻击宣言进行后，双方玩家互相放弃发动卡的优先权",
        ),
        ("4.3.3.9", 11, "●『可以作当成通常召唤使用的再度召唤』", "●墓地的效果无效的二重怪兽视为效果怪兽。"),
    ],
)
def test_sections_spot_checked(db, number, count, first, last):
    found = clauses(db, number)
    assert len(found) == count
    assert found[0][1].startswith(first)
    assert found[-1][1].startswith(last)


def test_examples_illustrate_their_clause_and_keep_their_arithmetic(db):
    example = db.execute("SELECT * FROM passages WHERE id = '4.3.3.6.1.1/3/ex1'").fetchone()
    assert example["kind"] == "example" and example["parent"] == "4.3.3.6.1.1/3"
    assert example["text"].endswith("原本数值的一半1250+700=1950")
    assert (example["line"], example["line_end"]) == (362, 363)
    link = db.execute(
        "SELECT relation FROM links WHERE src = 'passage:4.3.3.6.1.1/3/ex1' AND dst = 'passage:4.3.3.6.1.1/3'"
    ).fetchone()
    assert link["relation"] == "illustrates"


def test_damaged_text_is_kept_and_flagged(db, kb):
    cut = passage_at(db, "rulebook", 426)
    assert cut["kind"] == "example" and cut["text"].endswith("战斗破坏的。")
    assert "unbalanced 『』" in cut["flags"]
    stray = passage_at(db, "rulebook", 199)
    assert "●通常召唤" in stray["text"] and "● mid-line" in stray["flags"]
    damaged = "\n".join(kb.report()["damaged"])
    assert "4.3.3.9/11/ex1" in damaged and "(rulebook:199)" in damaged


def test_a_quoted_bullet_is_not_damage(db):
    clause = passage_at(db, "rulebook", 424)
    assert "『●~~』" in clause["text"] and clause["flags"] is None


# Small hand-made inputs for the reader's edge cases.


def test_reader_keeps_the_fuller_copy_of_a_repeated_chapter():
    text = "6 进行\n6.1 准备\n●甲。\n6 进行\n6.1 准备\n●甲。\n6.2 优先权\n●乙。\n"
    doc = read_rulebook(text, "rb", "x.txt", "t")
    assert [s.number for s in doc.sections] == ["6", "6.1", "6.2"]
    assert [p.line for p in doc.passages] == [6, 8]
    assert any(n.startswith("duplicate dropped: section 6 at lines 1-3") for n in doc.notes)


def test_reader_assigns_bare_lines_by_what_precedes_them():
    text = "3 卡\n序言。\n●条款。\n1.步骤一\n例：例子\n1+1=2\n•细项\n续行\n"
    doc = read_rulebook(text, "rb", "x.txt", "t")
    kinds = [(p.id, p.kind, p.text) for p in doc.passages]
    assert kinds == [
        ("3/p1", "paragraph", "序言。"),
        ("3/1", "clause", "●条款。"),
        ("3/1/sub1", "subitem", "1.步骤一"),
        ("3/1/ex1", "example", "例：例子\n1+1=2"),
        ("3/1/sub2", "subitem", "•细项\n续行"),
    ]


def test_numbered_steps_of_a_clause_are_one_passage_each(db):
    steps = db.execute(
        "SELECT id, line, line_end FROM passages WHERE parent = '6.3.4.2/3' ORDER BY line"
    ).fetchall()
    assert [(s["id"], s["line"], s["line_end"]) for s in steps] == [
        ("6.3.4.2/3/sub1", 610, 610),
        ("6.3.4.2/3/sub2", 611, 611),
    ]
