"""The search form: corrupted characters repaired, traditional folded, dots unified."""

from ocgkb.text.normalize import Normalizer, load_repairs

from conftest import KB, passage_at


def test_corrupted_characters_of_the_tournament_text_are_repaired_in_search_form(db):
    for line, corrupt, repaired in [(9, "凊况", "情况"), (17, "苼命点", "生命点"), (29, "鉲片", "卡片")]:
        passage = passage_at(db, "tournament", line)
        assert corrupt in passage["text"]  # shown as written
        assert repaired in passage["search_text"]
        assert corrupt[0] not in passage["search_text"]


def test_repairs_come_before_traditional_folding():
    normalize = Normalizer(load_repairs(KB))
    assert normalize("基本鈳以，都鈈受") == "基本可以,都不受"  # OpenCC alone gives 钶 and 钚
    assert normalize("青眼白龍的攻擊") == "青眼白龙的攻击"
    assert normalize("ＡＴＫ•ｘ・y·z") == "atk·x·y·z"


def test_every_repair_is_a_single_character():
    for bad, good in load_repairs(KB).items():
        assert len(bad) == 1 and len(good) == 1
