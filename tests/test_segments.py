"""Segmentation remembered between builds: the same words, read back instead of
cut again, and never trusted when the file is foreign or damaged."""

import sqlite3

from ocgkb.build.segments import RememberedSegmenter
from ocgkb.text.tokenize import Segmenter

TEXTS = ["怪兽的效果发动时，连锁发动陷阱卡", "cost不视为卡片效果", "伤害步骤中不能发动"]


def test_a_second_build_reads_back_the_same_words(tmp_path):
    first = RememberedSegmenter(Segmenter(["伤害步骤"]), tmp_path)
    cut = [first.words(t) for t in TEXTS]
    first.save()
    second = RememberedSegmenter(Segmenter(["伤害步骤"]), tmp_path)
    assert [second.words(t) for t in TEXTS] == cut and second.reused == len(TEXTS)
    assert "伤害步骤" in cut[2]


def test_other_dictionary_words_mean_another_file(tmp_path):
    RememberedSegmenter(Segmenter(["伤害步骤"]), tmp_path).save()
    one, other = (
        RememberedSegmenter(Segmenter(["伤害步骤"]), tmp_path),
        RememberedSegmenter(Segmenter(["连锁发动"]), tmp_path),
    )
    assert one.path != other.path


def test_a_damaged_file_is_ignored(tmp_path):
    remembered = RememberedSegmenter(Segmenter(), tmp_path)
    remembered.path.write_text('{"怪兽的效果发动时": "not a list"', encoding="utf-8")
    again = RememberedSegmenter(Segmenter(), tmp_path)
    assert again.words(TEXTS[0]) == Segmenter().words(TEXTS[0]) and again.reused == 0


def test_the_file_keeps_only_the_latest_build(tmp_path):
    first = RememberedSegmenter(Segmenter(), tmp_path)
    first.words("旧的文字内容")
    first.save()
    second = RememberedSegmenter(Segmenter(), tmp_path)
    second.words(TEXTS[1])
    second.save()
    assert "旧的文字内容" not in second.path.read_text(encoding="utf-8")


def test_a_rebuild_from_remembered_parts_is_the_same_knowledge_base(small_kb, tmp_path):
    """The session's build of the small corpus saved its segmentation; a second build
    reads it back and writes the same index."""
    import os
    from pathlib import Path

    from ocgkb.build.pipeline import build

    from conftest import KB, SMALL

    assert list(Path(os.environ["OCGKB_PARTS"]).glob("segments-*.json"))  # the session build saved its words
    again = tmp_path / "again.sqlite"
    build(again, SMALL, KB)
    a, b = sqlite3.connect(small_kb), sqlite3.connect(again)
    for table in ("seed_fts", "vocabulary"):
        query = f"SELECT * FROM {table} ORDER BY 1"
        rows = a.execute(query).fetchall()
        assert rows and rows == b.execute(query).fetchall()


def test_jieba_keeps_its_dictionary_cache_in_ours_not_the_system_temporary_folder(tmp_path, monkeypatch):
    import tempfile

    from ocgkb.text.tokenize import Segmenter

    system_tmp, parts = tmp_path / "system-tmp", tmp_path / "parts"
    system_tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(system_tmp))
    monkeypatch.setenv("OCGKB_PARTS", str(parts))
    assert Segmenter().words("发动效果的时候支付代价")
    assert (parts / "jieba.cache").is_file()
    assert not list(system_tmp.iterdir())


def test_a_dictionary_is_read_with_or_without_tags():
    from ocgkb.text.tokenize import dictionary_frequencies

    assert dictionary_frequencies("连锁 30 n\n天气 2657 n\n") == {"连锁": 30, "天气": 2657}
    assert dictionary_frequencies("连锁 30\n天气 2657 n\n卡片 5 n\n") == {"连锁": 30, "天气": 2657, "卡片": 5}


def test_questions_cut_line_by_line_give_the_words_of_cutting_them_joined():
    """The build cuts each curated question once and reads the joined text's words
    from those cuts: the same words, in the same order, as cutting the joined text."""
    from ocgkb.build.pipeline import _as_one_text
    from ocgkb.text.tokenize import Segmenter

    segmenter = Segmenter()
    lines = ["灰流丽的效果能无效cost吗", "ash blossom对应发动的场合", "连锁2的MST破坏了盖卡", "卷回"]
    each = [segmenter.words(line) for line in lines]
    assert _as_one_text(each, lines) == segmenter.words("\n".join(lines))
