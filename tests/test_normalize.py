"""The search form: corrupted characters repaired, traditional folded, dots unified."""

from ocgkb.sources.curated import repairs
from ocgkb.text.normalize import Normalizer

from conftest import KB, passage_at


def test_corrupted_characters_of_the_tournament_text_are_repaired_in_search_form(db):
    for line, corrupt, repaired in [(9, "凊况", "情况"), (17, "苼命点", "生命点"), (29, "鉲片", "卡片")]:
        passage = passage_at(db, "tournament", line)
        assert corrupt in passage["text"]  # shown as written
        assert repaired in passage["search_text"]
        assert corrupt[0] not in passage["search_text"]


def test_repairs_come_before_traditional_folding():
    normalize = Normalizer(repairs(KB))
    assert normalize("基本鈳以，都鈈受") == "基本可以,都不受"  # OpenCC alone gives 钶 and 钚
    assert normalize("青眼白龍的攻擊") == "青眼白龙的攻击"
    assert normalize("ＡＴＫ•ｘ・y·z") == "atk·x·y·z"


def test_every_repair_is_a_single_character():
    for bad, good in repairs(KB).items():
        assert len(bad) == 1 and len(good) == 1


def test_the_stored_traditional_characters_gate_opencc_without_changing_the_search_form(kb, monkeypatch):
    from ocgkb.text import normalize as module

    gated, full = kb.normalize, Normalizer(kb.normalize.repairs)
    for text in [
        "對方發動「頡頏勝負」時衍生物會被除外嗎",
        "乾燥的著火",
        "对方发动颉颃胜负",
        "ＡＴＫ・守備力",
    ]:
        assert gated(text) == full(text)
    assert "們" in kb.meta("traditional") and "们" not in kb.meta("traditional")

    def no_opencc():
        raise AssertionError("OpenCC started for a simplified question")

    monkeypatch.setattr(module, "_t2s", no_opencc)
    assert gated("对方场上没有卡时发动颉颃胜负") == "对方场上没有卡时发动颉颃胜负"
