"""The short text beside each tool's JSON: what an assistant may quote, every
passage with its citation (§ number or ruling topic, dates, passage id) before
its verbatim text, so the citation travels with the words."""

from __future__ import annotations

from ocgkb.views.status import status_line

# Said after every answer drawn from the texts.
CITE_REMINDER = "Cite the § number (or ruling topic and date), the passage id and any FAQ link of every passage you rely on."


def cite(hit: dict) -> str:
    """`[§4.2.2 cost · 4.2.2/4]`, or a ruling's topic and dates instead of the §
    (an added documentation's title before its topic)."""
    where = f"§{hit['topic'] or hit['section']}" if hit.get("section") else hit.get("topic") or hit["id"]
    own = (hit.get("citations") or [{}])[0]
    if own.get("added"):
        where = f"{own['document']} › {where}"
    dates = f", {', '.join(hit['dates'])}" if hit.get("dates") else ""
    return f"[{where}{dates} · {hit['id']}]"


def place_lines(hit: dict, indent: str) -> list[str]:
    """Each official FAQ a passage cites, and every other place the same ruling stands."""
    lines = []
    for n, place in enumerate(hit.get("citations") or []):
        if n:
            lines.append(f"{indent}(also in {place['document']} › {place['topic']} · {place['id']})")
        lines += [
            f"{indent}({'FAQ ' + str(link['fid']) if link['fid'] else link['source']}"
            f"{', ' + link['date'] if link['date'] else ''}: {link['url']})"
            for link in place["faq"]
        ]
    return lines


def passage_lines(hits: list[dict], indent: str = "") -> list[str]:
    """Each passage cited then quoted, with its FAQ links, the list it introduces, its
    examples and rulings (an answer's) below it."""
    lines = []
    for hit in hits:
        lines.append(f"{indent}{cite(hit)} {hit['text']}")
        lines += place_lines(hit, indent + "  ")
        lines += passage_lines(
            hit.get("items", []) + hit.get("examples", []) + hit.get("rulings", []), indent + "  "
        )
    return lines


def status_lines(status: dict | None) -> list[str]:
    """An answer's Forbidden & Limited status of the cards it names, when asked."""
    if not status:
        return []
    lines = ["Forbidden & Limited (from the lists, not the rule texts):"]
    lines += [
        f"「{card['card']}」 " + "; ".join(map(status_line, card["statuses"])) for card in status["cards"]
    ]
    return lines + status["warnings"]


def hits_quote(view: dict) -> str:
    """`search` and `ask`: a card's status when asked, the verdict when nothing fits,
    then the passages ranked."""
    lines = status_lines(view.get("status"))
    lines += [view["message"]] if view.get("message") else []
    lines += view.get("notes", [])
    if not view["hits"]:
        return "\n".join(lines + [f"Nothing in the texts answers {view['query']!r}."])
    for rank, hit in enumerate(view["hits"], 1):
        first, *rest = passage_lines([hit])
        lines += [f"{rank}. {first}", *rest]
    return "\n".join(lines + [CITE_REMINDER])


def card_quote(view: dict) -> str:
    """`card`: the card, its names and password, its F&L status, the passages naming it."""
    if "set" in view:
        names = ", ".join(f"「{card['name']}」" for card in view["cards"])
        return f"{view['query']!r} names a set of {view['count']} cards: {names}"
    best = view["matches"][0]
    names = best.get("names") or {}
    others = "; ".join(f"{lang} {names[lang]}" for lang in ("en", "ja", "zh_official") if names.get(lang))
    lines = [view["message"]] if view.get("message") else []
    lines.append(f"「{best['name']}」 password {best.get('password')}" + (f" ({others})" if others else ""))
    lines += [f"{region['region_name']}: {region['says']}" for region in view["status"]["regions"]]
    if view["rulings"]:
        lines += [
            "Passages that mention it, newest ruling first:",
            *passage_lines(view["rulings"]),
            CITE_REMINDER,
        ]
    return "\n".join(lines)


def section_quote(view: dict) -> str:
    """`section`: its title and its passages, or the sections below it."""
    lines = [f"§{view['number']} {view['title']}".rstrip()]
    if view.get("note"):
        lines.append(view["note"])
    lines += passage_lines(view["passages"])
    if not view["passages"]:  # a number with no text of its own: the two levels below it
        lines += [
            "  " * row["depth"] + f"§{row['number']} {row['title']}"
            for row in view["tree"]
            if row["depth"] <= 2
        ]
    if view["rulings"]:
        lines += ["Rulings on its concepts:", *passage_lines(view["rulings"])]
    return "\n".join(lines + [CITE_REMINDER])


def concept_quote(view: dict) -> str:
    """`concept`: its names, its defining clauses, its newest rulings."""
    lines = [
        f"{view['name_zh']} ({view['name_en']}), defined in " + (", ".join(view["sections"]) or "no section")
    ]
    lines += ["Definitions:", *passage_lines(view["definitions"])]
    if view["rulings"]:
        lines += ["Newest rulings:", *passage_lines(view["rulings"])]
    return "\n".join(lines + [CITE_REMINDER])


def replay_quote(view: dict) -> str:
    """`replay`: each scenario's verdict, the passages it replays, its log."""
    lines = []
    for outcome in view.get("outcomes", [view]):
        lines.append(
            f"{outcome['title']}: {outcome['status']}"
            + (f" ({outcome['reason']})" if outcome["reason"] else "")
        )
        lines.append(f"replays {', '.join(outcome['replays']) or 'no passage'}")
        lines += outcome["log"]
    return "\n".join(lines)


def deck_quote(view: dict) -> str:
    """`deck_check`: legal or not under which list, each problem with its rule's passages."""
    under = f"under the {view['region_name']} list of {view['list_date']}"
    lines = [f"The deck is {'legal' if view['legal'] else 'not legal'} {under}."]
    lines += [
        f"- {problem['message']} [{', '.join(problem['cites']) or 'no passage'}]"
        for problem in view["problems"]
    ]
    return "\n".join(lines + view["warnings"] + ([CITE_REMINDER] if view["problems"] else []))


def read_quote(view: dict) -> str:
    """`read_card_text`: each effect's conclusions, each with the passage it rests on."""
    lines = []
    for effect in view["effects"]:
        lines.append(f"{effect['label']} {effect['text']}")
        lines += [f"  {c['says']} [{c['cite']}]" for c in effect["conclusions"]]
    return "\n".join(lines + view["notes"] + [CITE_REMINDER])
