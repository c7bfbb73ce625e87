"""Text for display."""

from __future__ import annotations


def shorten(text: str, width: int) -> str:
    """One line of at most `width` characters (textwrap.shorten needs spaces; Chinese has none)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"
