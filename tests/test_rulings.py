"""The rulings (002): topics, dates as ISO, the card a mid-line date follows, `wiki`."""

import pytest

from ocgkb.dates import find_dates, to_iso

from conftest import passage_at


def dates_at(db, line):
    passage = passage_at(db, "rulings", line)
    rows = db.execute("SELECT date, card FROM dates WHERE passage_id = ? ORDER BY position", (passage["id"],))
    return [(r["date"], r["card"]) for r in rows]


@pytest.mark.parametrize(
    "line, expected",
    [
        (8, [("2017-03-24", None)]),
        (64, [("2017-07-28", None)]),
        (109, [("2025-04-11", None), ("2017-03-24", None)]),  # two dates on a line
        (148, [("2017-10-14", None), ("2022-09-10", None)]),
        (186, [("2020-01-10", None)]),
        (251, [("2017-03-24", "旧神 诺登"), ("2017-03-24", "光之引导")]),  # right after card names
        (643, [("2015-12-10", None), ("2008-07-19", None)]),  # 08 is 2008
        (854, [("2017-03-24", "沼地的魔神王"), ("2017-03-24", "心眼的女神")]),
        (885, [("2017-07-08", None), ("2017-04-13", None)]),
        (974, [("2017-03-24", "机壳的冻结"), ("2017-03-24", "钻尘妖")]),
        (1065, [("2018-02-24", None), ("2018-03-01", None)]),
        (1141, [("2017-03-24", None), ("2017-03-24", "玄化荷鲁斯龙")]),
    ],
)
def test_rulings_carry_their_iso_dates(db, line, expected):
    assert dates_at(db, line) == expected


def test_wiki_is_a_source_not_a_date(db):
    for line in (838, 1118):
        passage = passage_at(db, "rulings", line)
        assert passage["source_note"] == "wiki"
        assert dates_at(db, line) == []


def test_rulings_sit_under_their_topic(db):
    passage = passage_at(db, "rulings", 64)
    assert passage["kind"] == "example"
    assert passage["topic"] == "基本用语 › cost"
    assert passage["section"] == "rulings/cost"
    link = db.execute(
        "SELECT dst FROM links WHERE src = ? AND relation = 'in_section'", ("passage:" + passage["id"],)
    ).fetchone()
    assert link["dst"] == "section:rulings/cost"


def test_see_references_are_resolved_to_their_topic(db):
    for line, target in ((292, "rulings/持续取对象"), (1114, "rulings/X素材"), (496, "rulings/cost")):
        passage = passage_at(db, "rulings", line)
        row = db.execute(
            "SELECT dst FROM links WHERE src = ? AND relation = 'refers_to'", ("passage:" + passage["id"],)
        ).fetchone()
        assert row is not None and row["dst"] == f"section:{target}", line


def test_unresolved_references_are_reported(kb):
    unresolved = "\n".join(kb.report()["unresolved"])
    assert "见连锁基础" in unresolved


def test_dates_in_hand_made_lines():
    assert [d.iso for d in find_dates("「A」17/3/24 「B」 08/7/19 等。")] == ["2017-03-24", "2008-07-19"]
    assert [d.card for d in find_dates("「A」17/3/24 「B」 08/7/19 等。")] == ["A", "B"]
    assert find_dates("2500/2/3 与 17/13/40 与 1/2/3") == []  # not YY/M/D days
    assert to_iso("99", "1", "2") == "1999-01-02"
