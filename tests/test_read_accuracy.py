"""The reader against card texts it was not written on: the held-out sets of
benchmarks/read/ (written and annotated from the rule texts alone by people who
never saw the reader) meet issue 23's targets, field by field, on their Chinese
texts. A change to the reader that misreads more fails here."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT / "benchmarks" / "read"


def _scorer():
    spec = importlib.util.spec_from_file_location("read_accuracy", ROOT / "benchmarks" / "read_accuracy.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


scorer = _scorer()


def rows(pattern: str, lang: str) -> list[dict]:
    found = [
        json.loads(line)
        for path in sorted(SETS.glob(pattern))
        for line in path.read_text("utf-8").splitlines()
    ]
    return [row for row in found if row["lang"] == lang]


def test_the_held_out_chinese_texts_are_read_as_annotated():
    chinese = rows("heldout[13].jsonl", "zh")
    shares, total, misses = scorer.score(chinese)
    assert len(chinese) == 80 and total == 183
    under = {f: round(s, 3) for f, s in shares.items() if f in scorer.TARGETS and s < scorer.TARGETS[f]}
    assert not under, (under, misses)


# heldout6 and heldout7 (ygopro, other community and old wordings; issue 32) do not
# reach the targets yet, mostly where their annotators' conventions differ from the
# older sets' (a spell's lasting effect `other`, a bare activation's optional null, an
# old 选择 not a target): a floor at the figures measured, so a regression shows.
FLOORS = {
    "heldout6.jsonl": {"kind": 0.9, "spell_speed": 0.97, "once_per_turn": 0.97, "optional": 0.92,
                       "can_miss_timing": 0.97, "targets": 0.97, "cost": 0.98, "condition": 0.97},
    "heldout7.jsonl": {"kind": 0.93, "spell_speed": 0.93, "once_per_turn": 0.98, "optional": 0.89,
                       "can_miss_timing": 0.98, "targets": 0.92, "cost": 0.98, "condition": 0.98},
}  # fmt: skip


@pytest.mark.parametrize("name", list(FLOORS))
def test_the_other_translation_styles_are_read_at_least_as_well_as_measured(name):
    shares, total, misses = scorer.score(rows(name, "zh"))
    assert total == 78
    below = {f: round(shares[f], 3) for f, floor in FLOORS[name].items() if shares[f] < floor}
    assert not below, (below, misses)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_japanese_and_english_texts_are_read_on_most_fields(lang):
    """Read from their markers only, so held to a floor, not the targets."""
    shares, total, misses = scorer.score(rows("heldout*.jsonl", lang))
    assert total >= 20 and min(shares.values()) >= 0.6, (shares, misses)


@pytest.mark.parametrize(
    "read, annotated, same",
    [
        ("把手卡1只怪兽送去墓地", "把手卡1只怪兽送去墓地", True),
        ("把手卡1只怪兽送去墓地，", "把手卡1只怪兽送去墓地", True),  # punctuation is no misreading
        ("这张卡召唤成功时", "这张卡召唤成功", True),
        ("自己主要阶段", "自己主要阶段，把手卡1只怪兽送去墓地", False),  # far shorter: wrong
        (None, None, True),
        (None, "支付1000基本分", False),
    ],
)
def test_the_scorer_compares_stretches_leniently_but_not_loosely(read, annotated, same):
    assert scorer.same_stretch(read, annotated) is same
