"""`ocgkb read` in the terminal: each effect's text with its parts marked, then
one line per conclusion with the passage it rests on."""

from __future__ import annotations

import click

# How each part of an effect is marked: a bracket label and a colour.
PART_STYLE = {
    "limit": ("limit", "green"),
    "condition": ("condition", "cyan"),
    "cost": ("cost", "magenta"),
    "target": ("target", "yellow"),
}


def render_read(view: dict) -> str:
    """The reading as terminal text."""
    out = []
    card = view.get("card")
    if card:
        out.append(click.style(f"「{card['name']}」 {card['password'] or ''} · {card['type']}", bold=True))
    for effect in view["effects"]:
        out.append(
            click.style(f"{effect['label']} {effect['kind']}", bold=True) + "  " + _marked(effect["parts"])
        )
        out += conclusion_lines(effect)
    out += [click.style(note, fg="yellow") for note in view["notes"]]
    return "\n".join(out)


def conclusion_lines(effect: dict, indent: str = "   ") -> list[str]:
    """A line per conclusion of an effect, with the passage it rests on (`read`, and `ask` beside its passages)."""
    return [f"{indent}{effect['label']} {c['says']} ({_where(c['cite'])})" for c in effect["conclusions"]]


def _marked(parts: list[list[str]]) -> str:
    """The effect's text with its limit, condition, cost and target in labelled brackets."""
    pieces = []
    for role, text in parts:
        if role in PART_STYLE:
            name, colour = PART_STYLE[role]
            pieces.append(click.style(f"[{name}: {text}]", fg=colour))
        else:
            pieces.append(text)
    return "".join(pieces)


def _where(pid: str) -> str:
    """A cited passage as §4.2.1/3 for the rulebook, its id elsewhere."""
    return f"§{pid}" if pid[:1].isdigit() else pid
