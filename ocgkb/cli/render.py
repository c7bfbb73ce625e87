"""Text output for a person at a terminal: citations first, matches highlighted."""

from __future__ import annotations

import os

import click

from ocgkb.display import marked, shorten
from ocgkb.store.schema import KIND_NAMES

KIND_LABEL = {kind: f"{zh} {en}" for kind, (zh, en) in KIND_NAMES.items()}


# Scenarios listed under a hit in the terminal; a passage the Master Rule replays often has many.
SCENARIOS_SHOWN = 3


def citation(hit: dict) -> str:
    """Where a passage stands: §4.2.2 for the rulebook, topic and date for a ruling
    (a documentation the user added named first)."""
    source = hit["source"]
    where = f"§{hit['section']}" if hit.get("section") else hit["topic"]
    if hit.get("section") and hit["topic"]:
        where = f"§{hit['topic']}"
    own = (hit.get("citations") or [{}])[0]
    if own.get("added"):
        where = f"{own['document']} › {where}"
    dates = f" · {', '.join(hit['dates'])}" if hit.get("dates") else ""
    return f"{where}{dates}  [{hit['id']} · {source['file']}:{source['line']}]"


def sources_lines(hit: dict, indent: str = "   ") -> list[str]:
    """Under a passage: each official FAQ (or wiki) link it cites, where an undated
    example comes from, and every other place the same ruling stands."""
    out = []
    for n, place in enumerate(hit.get("citations") or []):
        if n:
            where = f"{place['document']} › {place['topic']}" if place["added"] else place["topic"]
            dates = f" · {', '.join(place['dates'])}" if place["dates"] else ""
            out.append(f"{indent}also in {where}{dates}  [{place['id']} · {place['file']}:{place['line']}]")
        for link in place["faq"]:
            what = f"FAQ {link['fid']}" if link["fid"] else link["source"]
            out.append(f"{indent}{what} · {link['date'] or 'undated'} · {link['url']}")
        if not place["faq"] and place["source"] in ("mail", "undated"):
            out.append(f"{indent}undated: {_UNDATED[place['source']]}")
    return [click.style(line, dim=True) for line in out]


_UNDATED = {
    "mail": "from a mail reply, as its documentation says of its undated examples",
    "undated": "its documentation gives no date or source",
}


def highlight(text: str, words: list[str]) -> str:
    return "".join(
        click.style(run, fg="yellow", bold=True) if hit else run for run, hit in marked(text, words)
    )


def _indent(text: str, prefix: str = "   ") -> str:
    return "\n".join(prefix + line for line in text.splitlines())


def _flags(hit: dict) -> str:
    return (
        click.style(f"   ⚠ damaged in the source: {', '.join(hit['flags'])}", fg="red")
        if hit.get("flags")
        else ""
    )


WEAK_MARK = "  (nearest, not an answer)"


def _verdict(view: dict) -> list[str]:
    """What is said before the hits: that the texts do not answer, and why."""
    out = [click.style(view["message"], fg="yellow")] if view.get("message") else []
    return out + [click.style(note, fg="yellow") for note in view.get("notes", [])]


def render_hits(view: dict) -> str:
    """The search view: ranked passages; when none holds what the question asks, it says so first."""
    query, hits = view["query"], view["hits"]
    if not hits:
        return f"Nothing in the texts answers {query!r}."
    words = view["plan"]["words"] + view["plan"]["expansions"]
    out = _verdict(view)
    for rank, hit in enumerate(hits, 1):
        out += _passage(rank, hit, words)
        out += _items(hit.get("items", []), words)
    return "\n".join(out)


def _passage(rank: int, hit: dict, words: list[str], weak: bool | None = None) -> list[str]:
    """A ranked passage: its citation and kind, its text with matches highlighted, its damage."""
    lines = [
        click.style(f"{rank}. {citation(hit)}", bold=True)
        + click.style(f"  {KIND_LABEL.get(hit['kind'], hit['kind'])}", dim=True)
        + (click.style(WEAK_MARK, fg="yellow") if (hit.get("weak") if weak is None else weak) else ""),
        _indent(highlight(hit["text"], words)),
        *sources_lines(hit),
    ]
    if flags := _flags(hit):
        lines.append(flags)
    return lines


def _cards(result: dict) -> list[str]:
    """The cards a question names, each with its English name, password and passages."""
    out = []
    for card in result.get("cards", []):
        english = (card.get("names") or {}).get("en")
        password = f" #{card['password']}" if card.get("password") else ""
        said = (
            f"{card['mentions']} passage{'s' if card['mentions'] != 1 else ''}"
            if card["in_texts"]
            else "no passage mentions it"
        )
        out.append(
            click.style(f"「{card['name']}」", bold=True)
            + click.style(f" {english or ''}{password} · {said}", dim=True)
        )
    return out


def _status(result: dict) -> list[str]:
    """A card's Forbidden & Limited status under the newest lists, first."""
    status = result.get("status")
    if not status:
        return []
    from ocgkb.views.status import status_line  # the lists' code only for a card's status

    out = [click.style("Forbidden & Limited (from the lists, not the rule texts):", bold=True)]
    for card in status["cards"]:
        out.append(f"  「{card['card']}」 " + "; ".join(status_line(s) for s in card["statuses"]))
    out += [click.style(f"  ⚠ {warning}", fg="yellow") for warning in status["warnings"]]
    return out


def render_answer(result: dict) -> str:
    hits = result["hits"]
    head = _cards(result)
    if not hits:
        return "\n".join(
            [
                *_status(result),
                *head,
                *_readings(result),
                f"Nothing in the texts answers {result['query']!r}. Try other words, or `ocgkb search`.",
            ]
        )
    words = result["plan"]["words"] + result["plan"]["expansions"]
    # A card's status from the lists first, then whether the texts answer, then the cards.
    out = _status(result) + _verdict(result) + head + _readings(result)
    if out:
        out.append("")
    for rank, h in enumerate(hits, 1):
        out += _passage(rank, h["clause"] or h, words, h["weak"])  # a matching example shows under its clause
        out += _answer_parts(h, words)
        out.append("")
    return "\n".join(out).rstrip()


def _items(items: list[dict], words: list[str]) -> list[str]:
    """The list a clause introduces, each item under it."""
    return [_indent(highlight(item["text"], words), "     · ") for item in items]


def _answer_parts(h: dict, words: list[str]) -> list[str]:
    """What an answer shows under a hit: the matching example, examples, rulings, scenarios, tags."""
    out = []
    if h["clause"]:
        out.append(_indent(highlight(h["text"], words), "     "))
        if flags := _flags(h):
            out.append(flags)
    out += _items(h.get("items", []), words)
    for example in h["examples"]:
        out.append(_indent(click.style(example["text"], fg="cyan"), "     "))
    for ruling in h["rulings"]:
        out.append(
            click.style(
                f"     ↳ {ruling['topic']} · {', '.join(ruling['dates'])}  [{ruling['id']}]", dim=True
            )
        )
        out.append(_indent(shorten(ruling["text"], 160), "       "))
    scenarios = h.get("scenarios", [])
    for scenario in scenarios[:SCENARIOS_SHOWN]:
        out.append(
            click.style(f"     ▶ replay: ocgkb replay {scenario['file']}  ({scenario['title']})", fg="green")
        )
    if len(scenarios) > SCENARIOS_SHOWN:  # the rest are in --json and on the passage's page
        more = len(scenarios) - SCENARIOS_SHOWN
        out.append(
            click.style(
                f"     ▶ … {more} more scenario(s) replay this passage (--json lists them)", fg="green"
            )
        )
    tags = []
    if h["concepts"]:
        tags.append("concepts: " + ", ".join(h["concepts"]))
    if h["cards"]:
        tags.append("cards: " + "、".join(h["cards"][:6]))
    if tags:
        out.append(click.style("   " + " · ".join(tags), dim=True))
    return out


def render_passage(view: dict) -> str:
    """`ocgkb show ID`: where the passage stands, its text and sources, the clause or
    ruling it belongs to, what hangs below it (sub-items, examples, notes), the passage
    it repeats, its concepts and cards, and the scenarios that replay it."""
    hit = view["passage"]
    crumb = " › ".join(f"{c['number']} {c['title']}".strip() for c in view["breadcrumb"])
    out = [click.style(crumb, bold=True)] if crumb else []
    if view["parent"]:
        parent = view["parent"]
        out.append(click.style(f"under {parent['id']}: ", dim=True) + shorten(parent["text"], 160))
    lines = _passage(1, hit, [])
    out += [lines[0].replace("1. ", "", 1), *lines[1:]]  # a passage on its own has no rank
    labels = {"subitem": "·", "example": "例", "note": "注"}
    for below in view["below"]:
        out.append(f"   {labels.get(below['kind'], '·')} " + click.style(below["id"], dim=True))
        out.append(_indent(below["text"], "     "))
    if view["repeats"]:
        out.append(click.style(f"   (the same as {view['repeats']['id']})", dim=True))
    tags = []
    if hit["concepts"]:
        tags.append("concepts: " + ", ".join(hit["concepts"]))
    if hit["cards"]:
        tags.append("cards: " + "、".join(hit["cards"]))
    if tags:
        out.append(click.style("   " + " · ".join(tags), dim=True))
    out += [
        click.style(f"   ▶ replay: ocgkb replay {sc['file']}  ({sc['title']})", fg="green")
        for sc in view["scenarios"]
    ]
    return "\n".join(out)


def render_section(view: dict) -> str:
    crumb = " › ".join(f"{c['number']} {c['title']}" for c in view["breadcrumb"])
    out = [click.style(crumb or f"{view['number']} {view['title']}".strip(), bold=True)]
    if view.get("note"):
        out.append(click.style(view["note"], dim=True))
    for p in view["passages"]:
        marker = {"example": "   ", "subitem": "   "}.get(p["kind"], "")
        label = p["id"].split("/", 1)[-1] if view["doc"] == "rulebook" else p["id"]
        out.append(f"{marker}{click.style(label, dim=True)} {p['text']}")
    if view["tree"]:
        out.append(click.style("\nSections below:", bold=True))
        out += [f"{'  ' * t['depth']}{t['number']} {t['title']}" for t in view["tree"]]
    if view["defines"]:
        out.append(
            click.style("\nDefines: ", bold=True)
            + ", ".join(f"{c['name_zh']} ({c['name_en']})" for c in view["defines"])
        )
    if view["concepts"]:
        out.append(
            click.style("Concepts: ", bold=True)
            + ", ".join(f"{c['name_zh']} ({c['name_en']})" for c in view["concepts"][:10])
        )
    if view["rulings"]:
        out.append(click.style("\nRulings on these concepts:", bold=True))
        for r in view["rulings"]:
            out.append(f"  {', '.join(r['dates'])}  {shorten(r['text'], 150)}  [{r['id']}]")
    if view.get("scenarios"):
        out.append(click.style("\nScenarios that replay it:", bold=True))
        out += [f"  ocgkb replay {sc['file']}  ({sc['title']})" for sc in view["scenarios"]]
    if view["referred_by"]:
        out.append(click.style("Referred to by: ", bold=True) + ", ".join(view["referred_by"]))
    return "\n".join(out)


def card_stats(card: dict) -> str:
    """The type line and numbers as printed: Monster · Insect / Effect · EARTH · Level 2 · 500/200."""
    parts = [card.get("card_type"), card.get("type_line") or card.get("property"), card.get("attribute")]
    for key, label in (("level", "Level"), ("rank", "Rank"), ("link_arrows", "Link")):
        if card.get(key) is not None:
            value = len(card[key].split(",")) if key == "link_arrows" else card[key]
            parts.append(f"{label} {value}")
    if card.get("pendulum_scale") is not None:
        parts.append(f"Scale {card['pendulum_scale']}")
    if card.get("atk") is not None:
        parts.append(f"ATK {card['atk']}" + (f" / DEF {card['def']}" if card.get("def") is not None else ""))
    return " · ".join(str(p) for p in parts if p)


def render_card(view: dict) -> str:
    if "set" in view:
        return render_set(view)
    top, *others = view["matches"]
    password = f"  #{top['password']}" if top.get("password") else "  (no password: not in the card data)"
    guess = [click.style(view["message"], fg="yellow")] if view["confidence"] == "low" else []
    out = guess + [
        click.style(top["name"], bold=True)
        + click.style(password, fg="cyan")
        + click.style(f"  (match {top['score']:.0f}, {top['how']})", dim=True)
    ]
    names = top.get("names") or {}
    labels = (("zh", "ygopro"), ("zh_official", "official"), ("en", "English"), ("ja", "Japanese"))
    shown = [f"{label} {names[key]}" for key, label in labels if names.get(key)]
    if names.get("ja_reading") and names["ja_reading"] != names.get("ja"):
        shown[-1] += f" ({names['ja_reading']})"
    if shown:
        out.append("  " + " · ".join(shown))
    if stats := card_stats(top):
        out.append("  " + stats)
    out += _card_status(view["status"])
    if others:
        out.append(
            click.style("  also close: ", dim=True)
            + ", ".join(f"{m['name']} ({m['score']:.0f})" for m in others)
        )
    out += _effect_text(view["effect_text"])
    if not view["rulings"]:
        out.append("\nNo passage in the texts mentions this card.")
    else:
        out.append(click.style("\nPassages that mention it, newest ruling first:", bold=True))
    spellings = [top["name"], *(n for n in names.values() if n)]
    for r in view["rulings"]:
        out.append("")
        out.append(click.style(citation(r), bold=True))
        out.append(_indent(highlight(r["text"], spellings)))
    return "\n".join(out)


def _effect_text(effect: dict) -> list[str]:
    """The card's imported effect text and its reading, or where to get a text."""
    out = [click.style(f"  ⚠ {effect['warning']}", fg="yellow")] if effect.get("warning") else []
    if effect["text"] is None:
        return out + [click.style(f"\nNo effect text: {effect['hint']}.", dim=True)]
    out += [click.style(f"\nEffect text (from {effect['source']}):", bold=True), _indent(effect["text"])]
    if effect["reading"] is None:
        return out + [click.style(f"   Not read: {effect['reason']}.", fg="yellow")]
    from ocgkb.cli.render_read import render_read

    return out + [
        click.style("Read as a judge reads it:", bold=True),
        render_read({**effect["reading"], "card": None}),
    ]


def _readings(result: dict) -> list[str]:
    """The readings of the card texts a question quotes or whose cards it names: each effect's conclusions."""
    from ocgkb.cli.render_read import conclusion_lines

    out = []
    for entry in result.get("readings", []):
        whose = f"「{entry['card']['name']}」's text" if entry["card"] else "the text"
        how = "quoted in the question" if entry["from"] == "quoted" else "imported"
        out.append(click.style(f"Reading of {whose} ({how}):", bold=True))
        out += [line for effect in entry["reading"]["effects"] for line in conclusion_lines(effect, "  ")]
    return out


def _card_status(status: dict) -> list[str]:
    """A card's status in each region under the list in force, and its history."""
    on = f" on {status['on']}" if status["on"] else ""
    out = [click.style(f"Forbidden & Limited{on} (from the lists, not the rule texts):", bold=True)]
    for region in status["regions"]:
        out.append(f"  {region['region_name']}: {region['says']}")
        if region["history_says"]:
            out.append(click.style(f"    {region['history_says']}", dim=True))
    out += [click.style(f"  ⚠ {warning}", fg="yellow") for warning in status["warnings"]]
    return out


def render_set(view: dict) -> str:
    """The cards of a set, those whose names begin with its name first."""
    count, shown = view["count"], view["cards"]
    more = f" (the first {len(shown)} shown)" if count > len(shown) else ""
    out = [click.style(f"{view['set']!r} names a set: {count} cards hold it in their names{more}", bold=True)]
    for card in shown:
        password = f" #{card['password']}" if card.get("password") else ""
        english = (card.get("names") or {}).get("en") or ""
        out.append(f"  「{card['name']}」" + click.style(f" {english}{password}", dim=True))
    out.append(click.style("Show one card with `ocgkb card NAME`.", dim=True))
    return "\n".join(out)


def render_concept(view: dict) -> str:
    names = " / ".join(dict.fromkeys([*view["zh"], *view["en"]]))
    out = [
        click.style(f"{view['name_zh']} · {view['name_en']}", bold=True),
        click.style(f"names: {names}", dim=True),
    ]
    if view["aliases"]:
        out.append(click.style(f"also: {', '.join(view['aliases'])}", dim=True))
    if view["sections"]:
        out.append(f"defined in: {', '.join('§' + s for s in view['sections'])}")
    if view["definitions"]:
        out.append(
            click.style(
                "\nDefining clauses:" if view["sections"] else "\nWhere the texts name it:", bold=True
            )
        )
        for d in view["definitions"]:
            out.append(f"  {click.style(d['id'], dim=True)} {d['text']}")
    if view["related"]:
        out.append(
            click.style("\nRelated: ", bold=True)
            + ", ".join(f"{r['name_zh']} ({r['id']})" for r in view["related"])
        )
    if view["rulings"]:
        out.append(click.style("\nRulings, newest first:", bold=True))
        for r in view["rulings"]:
            out.append(f"  {', '.join(r['dates'])}  {shorten(r['text'], 150)}  [{r['id']}]")
    out.append(click.style(f"\n{view['passages']} passages are about this concept.", dim=True))
    return "\n".join(out)


def render_report(report: dict, verbose: bool = False) -> str:
    out = [click.style(f"Built {report['db_path']} in {report['seconds']:.1f} s", bold=True)]
    out.append("  " + ", ".join(f"{k}: {v}" for k, v in report["counts"].items()))
    for title, key in (
        ("Duplicates dropped", "duplicates"),
        ("Unresolved references", "unresolved"),
        ("Damaged text", "damaged"),
        ("Notes", "notes"),
        ("Real cards without a password", "unlinked_cards"),
        ("In 「」 but no card or archetype", "not_cards"),
        ("Parents placed by a fallback rule", "fallback_parents"),
    ):
        items = report.get(key, [])
        if not items:
            continue
        out.append(click.style(f"{title} ({len(items)}):", bold=True))
        shown = items if verbose else items[:8]
        out += [f"  - {item}" for item in shown]
        if len(items) > len(shown):
            out.append(f"  … {len(items) - len(shown)} more (use -v)")
    return "\n".join(out)


def _final_state(state: dict) -> list[str]:
    """The end of a replay: LP, the winner, and where every card is."""
    lines = [
        click.style("     final state: ", bold=True)
        + f"LP A {state['lp']['A']} · B {state['lp']['B']}"
        + (f" · winner {state['winner']}" if state["winner"] else "")
    ]
    for key, card in state["cards"].items():
        place = f"{card['zone']} ({card['controller']})"
        if "zone_number" in card:  # a numbered zone, or an Extra Monster Zone by its name
            where = card["zone_number"] if card["zone"] == "emz" else f"{card['zone']} {card['zone_number']}"
            place = f"{where} ({card['controller']})"
        if card["zone"] in ("monster", "emz"):
            face = "face-up" if card["face_up"] else "face-down"
            defense = card["def"] if card["def"] is not None else "—"  # a Link monster has none
            place += f", {face} {card['position']}, ATK {card['atk']} DEF {defense}"
        if card.get("materials"):
            place += ", materials " + "、".join(f"「{m}」" for m in card["materials"])
        lines.append(click.style(f"       「{key}」 {place}", dim=True))
    return lines


def render_replay(outcomes: list[dict], quiet: bool = False) -> str:
    """Each scenario's verdict (the replay view's outcomes), its log unless quiet, and a summary."""
    marks = {
        "pass": click.style("PASS", fg="green", bold=True),
        "mismatch": click.style("FAIL", fg="red", bold=True),
        "malformed": click.style("MALFORMED", fg="yellow", bold=True),
    }
    out = []
    for outcome in outcomes:
        name = os.path.basename(outcome["file"])
        if outcome["status"] == "malformed":
            out.append(f"{marks['malformed']} {name}: {outcome['reason']}")
            continue
        cites = ", ".join(outcome["replays"])
        out.append(f"{marks[outcome['status']]} {outcome['title']}  [{name}; replays {cites}]")
        if quiet and outcome["passed"]:
            continue
        if not quiet:
            out += outcome["log"]
            out += _final_state(outcome["state"])
        for mismatch in outcome["mismatches"]:
            out.append(click.style(f"     ✗ {mismatch}", fg="red"))
        out.append("")
    counts = {
        status: sum(o["status"] == status for o in outcomes) for status in ("pass", "mismatch", "malformed")
    }
    out.append(f"{counts['pass']} passed, {counts['mismatch']} failed, {counts['malformed']} malformed")
    return "\n".join(out)
