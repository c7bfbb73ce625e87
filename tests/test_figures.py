"""The study notebook's figures: a CJK font when the machine has one, the labels
in Chinese then, and a note on the figure when there is none."""

from __future__ import annotations

import os

import pytest

from ocgkb.study import figures

matplotlib = pytest.importorskip("matplotlib", reason="pip install '.[notebooks]' for the figures")
matplotlib.use("Agg")


def test_the_first_cjk_font_present_is_chosen():
    assert (
        figures.pick_cjk_font(["DejaVu Sans", "Noto Serif CJK SC", "Noto Sans CJK SC"]) == "Noto Sans CJK SC"
    )
    assert figures.pick_cjk_font(["DejaVu Sans", "Noto Serif CJK SC"]) == "Noto Serif CJK SC"
    assert figures.pick_cjk_font(["DejaVu Sans", "Liberation Serif"]) is None


def test_an_installed_cjk_font_is_used():
    from matplotlib import font_manager

    if not any("CJK" in os.path.basename(path) for path in font_manager.findSystemFonts()):
        pytest.skip("no CJK font installed (Debian: fonts-noto-cjk)")
    with matplotlib.rc_context():
        font = figures.use_cjk_font()
        assert font in figures.CJK_FONTS
        assert matplotlib.rcParams["font.sans-serif"][0] == font
        assert font_manager.findfont(font, fallback_to_default=False)


def _texts(fig) -> list[str]:
    return [text.get_text() for text in fig.texts]


def test_without_a_cjk_font_the_figure_says_so(monkeypatch):
    import matplotlib.pyplot as plt

    monkeypatch.setattr(figures, "_known_fonts", lambda: {"DejaVu Sans"})
    with matplotlib.rc_context():
        before = list(matplotlib.rcParams["font.sans-serif"])
        font = figures.use_cjk_font()
        assert font is None and matplotlib.rcParams["font.sans-serif"] == before
    bare, noted = plt.figure(), plt.figure()
    figures.note_without_font(bare, "Noto Sans CJK SC")
    figures.note_without_font(noted, font)
    assert _texts(bare) == [] and _texts(noted) == [figures.NO_CJK_NOTE]
    plt.close("all")


@pytest.mark.parametrize(
    "data, chinese, label",
    [
        ({"kind": "concept", "name_zh": "卡时点", "name_en": "missing the timing"}, True, "卡时点"),
        (
            {"kind": "concept", "name_zh": "卡时点", "name_en": "missing the timing"},
            False,
            "missing the timing",
        ),
        ({"kind": "clause", "section": "4.2.2", "topic": "发动 › cost"}, False, "§4.2.2"),
        ({"kind": "ruling", "section": "rulings/cost", "topic": "基本用语 › cost"}, True, "cost"),
        ({"kind": "ruling", "section": "rulings/cost", "topic": "基本用语 › cost"}, False, ""),
        (
            {"kind": "paragraph", "section": "", "topic": "大师规则", "label": "所谓代价是发动时支付的东西"},
            True,
            "所谓代价是发动…",
        ),
    ],
)
def test_nodes_are_labelled_in_chinese_when_they_can_be(data, chinese, label):
    assert figures.node_label(data, chinese) == label
