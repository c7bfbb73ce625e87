"""Signs that a passage's text is damaged; the build report lists every one."""

from __future__ import annotations

_PAIRS = ("「」", "『』", "【】", "“”", "（）")


def damage_flags(text: str) -> list[str]:
    flags = []
    for opening, closing in _PAIRS:
        if text.count(opening) != text.count(closing):
            flags.append(f"unbalanced {opening}{closing}")
    if "\ufffd" in text:
        flags.append("replacement character")
    if _bullet_mid_line(text):
        flags.append("● mid-line")
    return flags


def _bullet_mid_line(text: str) -> bool:
    # 『●~~』 quotes a card's bullet; only a bare ● inside a line is damage.
    depth = 0
    for i, ch in enumerate(text):
        if ch in "『「【":
            depth += 1
        elif ch in "』」】":
            depth = max(0, depth - 1)
        elif ch == "●" and i > 0 and depth == 0 and text[i - 1] != "\n":
            return True
    return False
