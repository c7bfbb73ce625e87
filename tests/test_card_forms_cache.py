"""Card-name pinyin remembered between builds: read back instead of formed again,
formed again for new names or new forming code, and never trusted when the file
is foreign or damaged."""

import json
import sqlite3

import pytest

from ocgkb.build import card_forms
from ocgkb.build.card_forms import RememberedCardForms

NAMES = ["重骑士", "青眼白龙", "增殖的g"]


@pytest.fixture
def formed(monkeypatch) -> dict[str, int]:
    """How often each forming function runs."""
    calls = {"readings": 0, "syllables": 0}
    readings, syllables = card_forms.char_readings, card_forms.phrase_syllables

    def count_readings():
        calls["readings"] += 1
        return readings()

    def count_syllables(text):
        calls["syllables"] += 1
        return syllables(text)

    monkeypatch.setattr(card_forms, "char_readings", count_readings)
    monkeypatch.setattr(card_forms, "phrase_syllables", count_syllables)
    return calls


def _read_all(folder) -> tuple[dict, list[list[str]]]:
    forms = RememberedCardForms(folder)
    read = (forms.readings(), [forms.syllables(n) for n in NAMES])
    forms.save()
    return read


def test_a_second_build_reads_back_the_same_forms_without_forming_them(tmp_path, formed):
    first = _read_all(tmp_path)
    assert formed == {"readings": 1, "syllables": len(NAMES)}
    assert first[1][0] == ["zhong", "qi", "shi"]  # phrase-aware: 重 of 重骑士 is zhong
    assert _read_all(tmp_path) == first
    assert formed == {"readings": 1, "syllables": len(NAMES)}  # nothing formed the second time


def test_a_new_name_is_formed_and_the_others_read_back(tmp_path, formed):
    _read_all(tmp_path)
    forms = RememberedCardForms(tmp_path)
    assert forms.syllables("黑洞") == ["hei", "dong"] and forms.syllables(NAMES[0]) == ["zhong", "qi", "shi"]
    assert formed["syllables"] == len(NAMES) + 1 and forms.reused == 1


def test_builds_of_two_corpora_keep_each_others_forms(tmp_path, formed):
    """A build of another corpus (the tests' small one, a --data-dir) adds its names
    to the file and leaves the first corpus's there."""
    _read_all(tmp_path)
    other = RememberedCardForms(tmp_path)
    other.syllables("黑洞")
    other.save()
    formed["syllables"] = 0
    again = RememberedCardForms(tmp_path)
    assert [again.syllables(n) for n in [*NAMES, "黑洞"]][-1] == ["hei", "dong"]
    assert formed["syllables"] == 0 and again.reused == len(NAMES) + 1


def test_other_forming_code_means_another_file(tmp_path, formed, monkeypatch):
    _read_all(tmp_path)
    path = RememberedCardForms(tmp_path).path
    monkeypatch.setattr(card_forms, "FORMAT", card_forms.FORMAT + 1)
    again = RememberedCardForms(tmp_path)
    assert again.path != path
    again.readings(), again.syllables(NAMES[0])
    assert formed == {"readings": 2, "syllables": len(NAMES) + 1}


@pytest.mark.parametrize(
    "damage",
    [
        '{"format": 1, "readings": {"重": "zhong"}, "phrases": {"重骑士": ["zh'.encode(),  # cut short
        b'{"format": 1, "readings": {"a": 7}, "phrases": {}}',
        b'{"format": 1, "readings": {}, "phrases": {"a": "zhongqishi"}}',
        b'{"format": 99, "readings": {}, "phrases": {}}',  # another version's
        b'["zhong", "qi", "shi"]',
        b"\xff\xfe not UTF-8",
    ],
)
def test_a_damaged_or_foreign_file_is_formed_again(tmp_path, formed, damage):
    expected = _read_all(tmp_path)
    path = RememberedCardForms(tmp_path).path
    path.write_bytes(damage)
    assert _read_all(tmp_path) == expected
    assert formed == {"readings": 2, "syllables": 2 * len(NAMES)}
    assert json.loads(path.read_text(encoding="utf-8"))["phrases"][NAMES[0]] == ["zhong", "qi", "shi"]


def test_one_file_and_no_partial_file(tmp_path):
    first = RememberedCardForms(tmp_path)
    first.syllables("旧的卡名")
    first.save()
    _read_all(tmp_path)
    assert "旧的卡名" in first.path.read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir()] == [first.path.name]


def test_an_unwritable_folder_only_costs_speed(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    forms = RememberedCardForms(blocked)
    assert forms.syllables(NAMES[1]) == ["qing", "yan", "bai", "long"]
    forms.save()  # no error: the next build forms them again


def test_a_rebuild_from_remembered_forms_is_the_same_knowledge_base(small_kb, tmp_path, monkeypatch):
    """The session's build of the small corpus saved its card forms; a second build
    reads them back, forms none, and writes the same card tables."""
    from ocgkb.build.pipeline import build

    from conftest import KB, SMALL

    def never(*args):
        raise AssertionError("formed again")

    monkeypatch.setattr(card_forms, "char_readings", never)
    monkeypatch.setattr(card_forms, "phrase_syllables", never)
    again = tmp_path / "again.sqlite"
    build(again, SMALL, KB)
    a, b = sqlite3.connect(small_kb), sqlite3.connect(again)
    for table in ("cards", "card_names", "card_grams", "char_pinyin", "question_names"):
        query = f"SELECT * FROM {table} ORDER BY 1, 2"
        assert a.execute(query).fetchall() == b.execute(query).fetchall(), table
