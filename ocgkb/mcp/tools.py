"""The server's tools, one per view: each with what it is for, its arguments, the
view it calls and the text an assistant may quote. Every tool only reads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from ocgkb import NotFound
from ocgkb.mcp import quotes
from ocgkb.mcp.arguments import FILTER_PARAMS, ArgumentError, Param, date, filters
from ocgkb.messages import with_suggestions
from ocgkb.store import schema
from ocgkb.views.answer import answer
from ocgkb.views.card import card_view
from ocgkb.views.concept import concept_view
from ocgkb.views.deck import MAX_YDK_BYTES, REGIONS, deck_view
from ocgkb.views.read import read_view
from ocgkb.views.replay import most_scenario_bytes, replay_text_view, scenario_view
from ocgkb.views.search import search_view
from ocgkb.views.section import section_view


class Where(NamedTuple):
    """What a tool reads: the open knowledge base and the curated files' folder."""

    kb: Any
    kb_dir: str


class Tool(NamedTuple):
    name: str
    title: str
    description: str
    params: tuple[Param, ...]
    run: Callable[[Where, dict], dict]  # the checked arguments → the view's JSON
    quote: Callable[[dict], str]  # the view → the text an assistant may quote


# Said in every description: where an answer's authority comes from.
MUST_CITE = (
    " Answers drawn from it must cite what it returns: the § number or ruling topic and date,"
    " and the passage id, quoting the passage's text as given."
)


def _search(where: Where, args: dict) -> dict:
    return search_view(where.kb, args["query"], filters(args), args["limit"])


def _ask(where: Where, args: dict) -> dict:
    return answer(where.kb, args["question"], filters(args), args["limit"])


def _card(where: Where, args: dict) -> dict:
    try:
        return card_view(where.kb, args["name"], args["limit"], date(args, "on"))
    except NotFound as exc:  # the nearest names in the one line an assistant sees
        raise NotFound(with_suggestions(str(exc), exc.detail.get("suggestions"))) from None


def _section(where: Where, args: dict) -> dict:
    return section_view(where.kb, args["number"])


def _concept(where: Where, args: dict) -> dict:
    return concept_view(where.kb, args["name"])


def _replay(where: Where, args: dict) -> dict:
    if (args["name"] is None) == (args["yaml"] is None):
        raise ArgumentError(
            "give either 'name' (a curated scenario) or 'yaml' (a scenario's text), one of them"
        )
    if args["name"] is not None:
        return scenario_view(where.kb, args["name"].strip(), where.kb_dir)
    return replay_text_view(args["yaml"])


def _deck_check(where: Where, args: dict) -> dict:
    return deck_view(where.kb, args["ydk"], args["region"], date(args, "on"))


def _read_card_text(where: Where, args: dict) -> dict:
    return read_view(where.kb, args["text"], args["card"])


def _question_params(name: str, what: str, most: int, default: int) -> tuple[Param, ...]:
    return (
        Param(name, what, required=True),
        Param("limit", "How many passages to return.", "integer", most=most, default=default),
        *FILTER_PARAMS,
    )


# In the order an assistant should reach for them.
ALL = (
    Tool(
        "ask",
        "Answer a rules question",
        "Answer a Yu-Gi-Oh! OCG rules question from the Chinese rule texts: the clauses that settle it, "
        "with their examples and dated rulings, and whether the texts answer it at all. Call it before "
        "saying anything about a ruling; ask in Chinese for the best results." + MUST_CITE,
        _question_params(
            "question",
            "The question, in Chinese (or English words the glossary knows).",
            schema.MOST_CLAUSES,
            schema.DEFAULT_CLAUSES,
        ),
        _ask,
        quotes.hits_quote,
    ),
    Tool(
        "search",
        "Search the rule texts",
        "The passages of the rule texts (rulebook clauses, examples, dated rulings) that best match a "
        "query, ranked, optionally filtered by kind, section, concept, card or date." + MUST_CITE,
        _question_params("query", "The words to look for.", schema.MOST_HITS, schema.DEFAULT_HITS),
        _search,
        quotes.hits_quote,
    ),
    Tool(
        "card",
        "Look a card up",
        "A card by any name (Chinese, English, Japanese, a nickname, pinyin, with typos) or its password: "
        "its password, names, type and stats, its Forbidden & Limited status in each region, and the "
        "passages that mention it. An unknown card is an error naming the nearest cards." + MUST_CITE,
        (
            Param("name", "The card's name in any form, or its password.", required=True),
            Param(
                "limit",
                "How many passages to return.",
                "integer",
                most=schema.MOST_CARD_PASSAGES,
                default=schema.DEFAULT_CARD_PASSAGES,
            ),
            Param("on", "The F&L status under the lists in force on this day (YYYY-MM-DD)."),
        ),
        _card,
        quotes.card_quote,
    ),
    Tool(
        "section",
        "Read a rulebook section",
        "A rulebook section by number (4.2.2; 4 lists the sections below it) or a ruling topic "
        "(rulings/cost): its passages verbatim, its concepts and the rulings on them." + MUST_CITE,
        (Param("number", "The section's number, e.g. 4.2.2.", required=True),),
        _section,
        quotes.section_quote,
    ),
    Tool(
        "concept",
        "Explain a rules concept",
        "A rules concept by English or Chinese name or alias (cost, miss-timing, 卡时点): its defining "
        "clauses, related concepts and newest rulings." + MUST_CITE,
        (Param("name", "The concept's name or alias.", required=True),),
        _concept,
        quotes.concept_quote,
    ),
    Tool(
        "replay",
        "Replay a scenario",
        "Replay a situation step by step in the rules engine: a curated scenario by name, or a scenario's "
        "YAML (title, cards, start, actions, expect) to check. It returns the log, each step with the rule "
        "that made it so, the final state and whether it ends as the scenario expects. Cite the passages "
        "it replays.",
        (
            Param("name", "A curated scenario's name, e.g. atk_rush_then_gale."),
            Param(
                "yaml",
                "A scenario's YAML text, to check instead of a curated one.",
                most=most_scenario_bytes(),
            ),
        ),
        _replay,
        quotes.replay_quote,
    ),
    Tool(
        "deck_check",
        "Check a deck",
        "Check a .ydk deck as a judge does: deck sizes, at most 3 copies of a card, the Forbidden & "
        "Limited list of a region on a day, extra-deck monsters in the extra deck. Each problem cites "
        "the passages of its rule (000 §1.2, 003)." + MUST_CITE,
        (
            Param(
                "ydk",
                "The .ydk file's text: #main, #extra, !side, one password a line.",
                required=True,
                most=MAX_YDK_BYTES,
            ),
            Param("region", "Whose list: ocg or ocg-cn.", choices=tuple(REGIONS), default="ocg"),
            Param("on", "The list in force on this day (YYYY-MM-DD); default: the newest."),
        ),
        _deck_check,
        quotes.deck_quote,
    ),
    Tool(
        "read_card_text",
        "Read a card's effect text",
        "Read a card's effect text (Chinese, Japanese or English) as a judge does: each effect's kind, "
        "spell speed, condition, cost, target, optionality, miss-timing and once-per-turn limit, every "
        "conclusion citing the rule passage it rests on. Name the card for a spell's or trap's "
        "activation." + MUST_CITE,
        (
            Param("text", "The card's effect text.", required=True, most=schema.MAX_CARD_TEXT),
            Param("card", "The card whose text it is: any name or its password."),
        ),
        _read_card_text,
        quotes.read_quote,
    ),
)
TOOLS = {tool.name: tool for tool in ALL}
