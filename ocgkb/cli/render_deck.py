"""A deck check in the terminal: the verdict, the counts, then each problem with
its citation and the names of its cards."""

from __future__ import annotations

import click


def render_deck(view: dict) -> str:
    """The verdict line, the counts, the problems and any warning about the list."""
    verdict = "LEGAL" if view["legal"] else "NOT LEGAL"
    under = f"under the {view['region_name']} Forbidden & Limited list of {view['list_date']}"
    counts = view["counts"]
    out = [
        click.style(verdict, bold=True, fg="green" if view["legal"] else "red") + f" {under}",
        f"main {counts['main']} · extra {counts['extra']} · side {counts['side']}",
    ]
    for warning in view["warnings"]:
        out.append(click.style(f"warning: {warning}", fg="yellow"))
    for number, problem in enumerate(view["problems"], start=1):
        cites = ", ".join(problem["cites"]) or "no rule text: the card is not in the knowledge base"
        out += ["", f"{number}. [{problem['rule']}] {problem['message']}", f"   cites: {cites}"]
        out += [f"   {_card_line(password, view['cards'][password])}" for password in problem["cards"]]
    return "\n".join(out)


def _card_line(password: str, names: dict) -> str:
    if names["name"] is None:
        return f"{password}: unknown password"
    other = " / ".join(n for n in (names["name_en"], names["name_ja"]) if n)
    return f"{password}: 「{names['name']}」" + (f" ({other})" if other else "")
