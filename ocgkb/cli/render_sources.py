"""Added rulings documentations in the terminal: what `sources add` kept (and, for
an update, what it changed, in one line), the list with each origin's state, and
`changes`: the totals first, then each list grouped by topic."""

from __future__ import annotations

import click

_STATE = {
    "present": "",
    "changed": "its folder has changed since: `ocgkb sources add {origin}` again to update",
    "missing": "its folder is gone (removed or moved): the copy kept on {added} is used",
}
_MARK = {"added": ("+", "green"), "removed": ("-", "red"), "changed": ("~", "yellow")}


def totals_line(totals: dict) -> str:
    """`378 rulings added, 11,536 removed, 119 changed (FAQ ids: 91 added, 1,305 removed, 34 changed)`."""
    faq = totals.get("faq_ids") or {}
    line = f"{totals['added']:,} rulings added, {totals['removed']:,} removed, {totals['changed']:,} changed"
    if faq:
        line += f" (FAQ ids: {faq['added']:,} added, {faq['removed']:,} removed, {faq['changed']:,} changed)"
    return line


def render_added(done: dict, report: dict) -> str:
    """The source kept, its update's one line, and the rebuilt knowledge base."""
    newest = f", newest ruling {done['newest']}" if done["newest"] else ""
    out = [
        f"{'updated' if done['update'] else 'added'} {done['name']} ({done['title']}): {done['files']} files, "
        f"{done['rulings']:,} rulings, {done['faq_ids']:,} FAQ ids{newest}",
        f"  from {done['origin']}",
        f"  kept in {done['kept_in']}",
    ]
    if done["update"]:
        update = done["update"]
        out.append(f"since {update['from']}: {totals_line(update['totals'])}; `ocgkb changes` lists them")
    out += [click.style(f"note: {note}", fg="yellow") for note in done["notes"][:5]]
    counts = report.get("counts", {})
    out.append(f"rebuilt the knowledge base: {counts.get('passages', 0):,} passages")
    return "\n".join(out)


def render_list(listed: list[dict]) -> str:
    if not listed:
        return "no rulings documentation added; add one with `ocgkb sources add PATH`"
    out = []
    for source in listed:
        newest = f", newest ruling {source['newest']}" if source["newest"] else ""
        out.append(
            f"{click.style(source['name'], bold=True)} ({source['title']}): {source['files']} files{newest}"
        )
        out.append(f"  added {source['added'][:10]} from {source['origin']}")
        out.append(f"  kept in {source['kept_in']}")
        if note := _STATE[source["origin_state"]]:
            out.append(
                click.style("  " + note.format(**{**source, "added": source["added"][:10]}), fg="yellow")
            )
    return "\n".join(out)


def origin_lines(sources: list[dict]) -> list[str]:
    """`build --check`: each added documentation, and a warning when its folder is gone or changed."""
    lines = []
    for source in sources:
        lines.append(f"source {source['name']}: added {source['added'][:10]} from {source['origin']}")
        if note := _STATE[source["state"]]:
            lines.append(
                click.style(
                    "  warning: " + note.format(**{**source, "added": source["added"][:10]}), fg="yellow"
                )
            )
    return lines


def render_changes(view: dict) -> str:
    """The editions, the totals, then the added, removed and changed rulings by topic."""
    old, new = view["old"], view["new"]
    out = [
        f"{old['name']}: {old['folder']} (newest ruling {old['newest'] or '—'})",
        f"  → {new['folder']} (newest ruling {new['newest'] or '—'})",
        click.style(totals_line(view["totals"]), bold=True)
        + (f", dated {view['since']} or later" if view.get("since") else ""),
    ]
    for kind in ("added", "removed", "changed"):
        if not view[kind]:
            continue
        out += ["", click.style(f"{kind.capitalize()} ({len(view[kind]):,})", bold=True)]
        topic = None
        mark, colour = _MARK[kind]
        for ruling in view[kind]:
            if ruling["topic"] != topic:
                topic = ruling["topic"]
                out.append(f"  {topic}")
            out.append("    " + click.style(mark, fg=colour) + f" {ruling['text']}")
            if kind == "changed":
                out.append("      was: " + ruling["old_text"])
            out.append("      " + _cited(ruling))
    return "\n".join(out)


def _cited(ruling: dict) -> str:
    parts = [ruling["date"] or "undated"]
    if ruling["fid"]:
        parts.append(f"FAQ {ruling['fid']}")
    if ruling.get("old_date") and ruling["old_date"] != ruling["date"]:
        parts.append(f"was dated {ruling['old_date']}")
    if ruling["url"]:
        parts.append(ruling["url"])
    return " · ".join(parts)
