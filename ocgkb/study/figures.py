"""What the study notebook's figures need to speak Chinese: a CJK font when the
machine has one (Debian's fonts-noto-cjk), the labels in the texts' own names,
and a visible note when no such font is found and the labels fall back to English.

Needs matplotlib (the `notebooks` extra); imported only by the notebook and its tests.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

# Simplified Chinese first, then families with the same glyphs under other names.
CJK_FONTS = (
    "Noto Sans CJK SC",
    "Noto Serif CJK SC",
    "Source Han Sans SC",
    "Source Han Serif SC",
    "WenQuanYi Zen Hei",
    "Noto Sans CJK JP",
    "Noto Serif CJK JP",
)
NO_CJK_NOTE = "No CJK font found: labels are in English (install fonts-noto-cjk for Chinese)."


def pick_cjk_font(available: Iterable[str]) -> str | None:
    """The first of CJK_FONTS among the font names `available`, or None."""
    names = set(available)
    return next((font for font in CJK_FONTS if font in names), None)


def _known_fonts() -> set[str]:
    """The fonts matplotlib knows, the system's CJK files added when its cache
    predates them (a font installed after matplotlib first ran is not in its cache)."""
    from matplotlib import font_manager

    known = {font.name for font in font_manager.fontManager.ttflist}
    if pick_cjk_font(known) is None:
        for path in font_manager.findSystemFonts():
            if "CJK" in os.path.basename(path):
                font_manager.fontManager.addfont(path)
        known = {font.name for font in font_manager.fontManager.ttflist}
    return known


def use_cjk_font() -> str | None:
    """Draw text with a CJK font when one is present; its name, or None when there is none."""
    import matplotlib

    font = pick_cjk_font(_known_fonts())
    if font is not None:
        matplotlib.rcParams["font.family"] = "sans-serif"
        matplotlib.rcParams["font.sans-serif"] = [font, *matplotlib.rcParams["font.sans-serif"]]
    return font


def node_label(data: dict, chinese: bool) -> str:
    """A node's label in a figure: a concept by its Chinese name (its English one
    without a CJK font), a rulebook passage by its section (§4.2.2), a ruling by
    its topic, any other passage by the start of its text; "" (no label) for what
    only Chinese can name when there is no CJK font."""
    if data.get("kind") == "concept":
        return data["name_zh"] if chinese else data["name_en"]
    section = data.get("section") or ""
    if section[:1].isdigit():
        return f"§{section}"
    if not chinese:
        return ""
    topic = data.get("topic") or ""
    label = topic.rpartition("›")[2].strip() if "›" in topic else data.get("label", "")
    return label if len(label) <= 8 else label[:7] + "…"


def note_without_font(fig, font: str | None) -> None:
    """Say on the figure itself that its labels fell back to English, when they did."""
    if font is None:
        fig.text(0.01, 0.005, NO_CJK_NOTE, fontsize=8, color="firebrick", ha="left", va="bottom")
