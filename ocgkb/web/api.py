"""The JSON API: each endpoint returns exactly what the matching command prints
with --json for the same input. Errors are `{"error": "…"}` with the error's own status (400, 404, 500), and
what the error carries besides (an unknown card's nearest names)."""

from __future__ import annotations

from collections.abc import Callable
from string import Template

from starlette.datastructures import State
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.schemas import SchemaGenerator

from ocgkb.store import schema
from ocgkb.views.answer import answer
from ocgkb.views.card import card_view
from ocgkb.views.changes import last_changes_view
from ocgkb.views.concept import concept_view
from ocgkb.views.deck import MAX_YDK_BYTES, deck_view
from ocgkb.views.passage import passage_view
from ocgkb.views.read import read_view
from ocgkb.views.replay import scenario_view
from ocgkb.views.schemas import SCHEMAS
from ocgkb.views.search import search_view
from ocgkb.views.section import section_view
from ocgkb.web import params
from ocgkb.web.limits import READ_BODY_BYTES
from ocgkb.web.offload import LOOKUPS, QUESTIONS, off_loop


class JSON(JSONResponse):
    """UTF-8 JSON with the characters as they are, as the CLI prints it."""

    media_type = "application/json"


# The search filters, the same parameters for search and ask (web/params.filters).
FILTER_PARAMETERS = (
    f"{{name: kind, in: query, schema: {{type: string, enum: [{', '.join(schema.PASSAGE_KINDS)}]}}}}",
    "{name: section, in: query, schema: {type: string}, description: this section and those below it}",
    "{name: concept, in: query, schema: {type: string}, description: any name of a concept}",
    "{name: card, in: query, schema: {type: string}, description: any name of a card}",
    "{name: since, in: query, schema: {type: string}, description: 'a date, YYYY-MM-DD'}",
    "{name: until, in: query, schema: {type: string}, description: 'a date, YYYY-MM-DD'}",
)

# What the OpenAPI text of an endpoint says of filters, kinds and limits, from the schema.
SCHEMA_WORDS = {
    "filters": "\n      ".join(f"- {parameter}" for parameter in FILTER_PARAMETERS),
    "max_query": schema.MAX_QUERY,
    "most_card_passages": schema.MOST_CARD_PASSAGES,
    "default_card_passages": schema.DEFAULT_CARD_PASSAGES,
    "max_deck_bytes": MAX_YDK_BYTES,
    "max_card_text": schema.MAX_CARD_TEXT,
    "max_read_bytes": READ_BODY_BYTES,
}


def documented(endpoint: Callable) -> Callable:
    """The endpoint with its OpenAPI docstring's $words filled in (SCHEMA_WORDS)."""
    endpoint.__doc__ = Template(endpoint.__doc__).substitute(SCHEMA_WORDS)
    return endpoint


# The OpenAPI text of an endpoint that answers a question (search, ask).
QUESTION_DOC = """
    summary: $summary
    parameters:
      - {name: q, in: query, required: true, schema: {type: string, maxLength: $max_query}}
      - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: $most, default: $default}}
      $filters
    responses:
      200: {description: '$returns'}
      400: {description: '{"error"}: a missing, empty or over-long q; a bad limit or filter'}
    """


def question_endpoint(view: Callable, most: int, default: int, summary: str, returns: str) -> Callable:
    """An endpoint that reads q, the filters and the limit, in that order, and answers with `view`."""

    async def endpoint(request: Request) -> JSON:
        kb, query, filters = request.app.state.kb, params.text(request), params.filters(request)
        limit = params.limit(request, default, most)
        return JSON(await off_loop(request, QUESTIONS, view, kb, query, filters, limit))

    words = {"summary": summary, "most": most, "default": default, "returns": returns}
    endpoint.__doc__ = Template(QUESTION_DOC).substitute(SCHEMA_WORDS, **words)
    return endpoint


api_search = question_endpoint(
    search_view,
    schema.MOST_HITS,
    schema.DEFAULT_HITS,
    "The passages that best answer a query, ranked (`ocgkb search --json`).",
    '{"query", "plan", "hits", "nothing_fits", "message", "notes"}; each hit cites its section or topic and dates',
)
api_ask = question_endpoint(
    answer,
    schema.MOST_CLAUSES,
    schema.DEFAULT_CLAUSES,
    "The clauses that settle a question, with examples and rulings (`ocgkb ask --json`).",
    '{"query", "plan", "hits", "nothing_fits"}',
)


@documented
async def api_card(request: Request) -> JSON:
    """
    summary: The card a password or name means, in any form, its F&L status and the passages that mention it (`ocgkb card --json`).
    parameters:
      - {name: q, in: query, required: true, schema: {type: string, maxLength: $max_query}}
      - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: $most_card_passages, default: $default_card_passages}}
      - {name: on, in: query, schema: {type: string}, description: 'the F&L status under the lists in force on this date, YYYY-MM-DD'}
    responses:
      200: {description: '{"query", "matches", "confidence", "status", "rulings"}, or for a set''s name {"query", "set", "count", "cards"}'}
      404: {description: 'no card is close: {"error", "query", "matches": [], "suggestions"}'}
      400: {description: '{"error"}'}
    """
    kb = request.app.state.kb
    query = params.text(request)
    limit = params.limit(request, schema.DEFAULT_CARD_PASSAGES, schema.MOST_CARD_PASSAGES)
    return JSON(await off_loop(request, LOOKUPS, card_view, kb, query, limit, params.date(request, "on")))


# The OpenAPI text of an endpoint that shows one thing named in its path.
NAMED_DOC = """
    summary: $summary
    parameters:
      - {name: $name, in: path, required: true, schema: {type: string}, example: $example}
    responses:
      200: {description: 'the $what'}
      404: {description: '{"error"}: no such $what'}
    """


def named(name: str, what: str, example: str) -> Callable:
    """An endpoint made of `show(app.state, the path's {name})`, documented by its docstring."""

    def endpoint_of(show: Callable) -> Callable:
        async def endpoint(request: Request) -> JSON:
            value = params.checked(request.path_params[name], name)
            return JSON(await off_loop(request, LOOKUPS, show, request.app.state, value))

        words = {"summary": show.__doc__, "name": name, "what": what, "example": example}
        endpoint.__doc__ = Template(NAMED_DOC).substitute(words)
        return endpoint

    return endpoint_of


@named("number", "section", example="4.2.2")
def api_section(state: State, number: str) -> dict:
    """A rulebook section or ruling topic with everything linked to it (`ocgkb section --json`)."""
    return section_view(state.kb, number)


@named("name", "concept", example="miss-timing")
def api_concept(state: State, name: str) -> dict:
    """A rule concept by English or Chinese name or alias (`ocgkb concept --json`)."""
    return concept_view(state.kb, name)


@named("pid", "passage", example="4.2.2/4")
def api_passage(state: State, pid: str) -> dict:
    """One passage, the clause or ruling it belongs to, what stands under it and the scenarios that replay it."""
    return passage_view(state.kb, pid)


@named("name", "scenario", example="atk_rush_then_gale")
def api_scenario(state: State, name: str) -> dict:
    """A curated scenario, replayed by the rules engine (`ocgkb replay --json` over its file)."""
    return scenario_view(state.kb, name, state.kb_dir)


@documented
async def api_deck_check(request: Request) -> JSON:
    """
    summary: A .ydk deck checked against the deck rules (000 §1.2, 003) and the F&L list (`ocgkb deck check --json`). Stores nothing.
    parameters:
      - {name: region, in: query, schema: {type: string, enum: [ocg, ocg-cn], default: ocg}}
      - {name: 'on', in: query, schema: {type: string}, description: 'the list in force on this date, YYYY-MM-DD; default: the newest'}
    requestBody:
      required: true
      description: the .ydk file's text (#main, #extra, !side; one password a line)
      content: {text/plain: {schema: {type: string, maxLength: $max_deck_bytes}}}
    responses:
      200: {description: '{"legal", "region", "region_name", "list_date", "counts", "problems": [{"rule", "cites", "cards", "message"}], "cards", "warnings"}'}
      400: {description: '{"error"}: not a .ydk (empty, binary, a section twice, a line not a password), a bad region or date'}
      413: {description: '{"error"}: a body over $max_deck_bytes bytes'}
    """
    data = await params.bounded_body(request, MAX_YDK_BYTES)
    region = params.checked(request.query_params.get("region", "ocg"), "region")
    day = request.query_params.get("on")
    day = params.checked(day, "on") if day else None
    return JSON(await off_loop(request, QUESTIONS, deck_view, request.app.state.kb, data, region, day))


@documented
async def api_read(request: Request) -> JSON:
    """
    summary: A card's Chinese effect text read as a judge reads it, each conclusion citing the passage it rests on (`ocgkb read --json`). Stores nothing.
    requestBody:
      required: true
      description: the text, in the official wording (此卡, 的情况下, 可以发动) or ygopro's (这张卡, 的场合, 才能发动), and optionally the card whose text it is (its type decides an activation's spell speed)
      content:
        application/json:
          schema:
            type: object
            required: [text]
            additionalProperties: false
            properties:
              text: {type: string, maxLength: $max_card_text}
              card: {type: [string, "null"], maxLength: $max_query, description: any name or password of a card}
    responses:
      200: {description: '{"text", "card_kind", "effects": [{"n", "label", "text", "kind", "spell_speed", "optional", "trigger_wording", "can_miss_timing", "condition", "cost", "target", "targets", "once_per_turn", "parts", "conclusions": [{"about", "says", "cite"}], "cites"}], "notes", "card", "sources"}'}
      400: {description: '{"error"}: not a JSON object {"text", "card"}, not UTF-8, a field of the wrong type; a text empty, over $max_card_text characters or not Chinese'}
      404: {description: 'no card is close to "card": {"error", "query", "suggestions"}'}
      413: {description: '{"error"}: a body over $max_read_bytes bytes'}
    """
    text, card = await params.read_body(request, READ_BODY_BYTES)
    return JSON(await off_loop(request, QUESTIONS, read_view, request.app.state.kb, text, card))


@documented
async def api_changes(request: Request) -> JSON:
    """
    summary: What the last update of an added rulings documentation changed (`ocgkb changes --json` after `ocgkb sources add`), the totals first.
    parameters:
      - {name: only, in: query, schema: {type: string, enum: [added, removed, changed]}, description: one list only (longer)}
      - {name: since, in: query, schema: {type: string}, description: 'only the rulings dated on or after this day, YYYY-MM-DD'}
      - {name: source, in: query, schema: {type: string}, description: an added documentation's name}
    responses:
      200: {description: '{"source", "old", "new", "since", "totals", "added", "removed", "changed", "more"}; each ruling {"fid", "date", "topic", "text", "url"}'}
      404: {description: '{"error"}: no update recorded'}
      400: {description: '{"error"}: a bad only or since'}
    """
    only = request.query_params.get("only")
    source = request.query_params.get("source")
    only = params.checked(only, "only") if only is not None else None
    source = params.checked(source, "source") if source is not None else None
    since = params.date(request, "since")
    return JSON(
        await off_loop(request, LOOKUPS, last_changes_view, request.app.state.kb, only, since, source)
    )


schemas = SchemaGenerator(
    {
        "openapi": "3.1.0",
        "info": {
            "title": "ocgkb",
            "version": "1",
            "description": "Rulings of the Yu-Gi-Oh! OCG over the Chinese rule texts. Every answer "
            'cites its section number or ruling date. Read-only (a deck to check and a card text to read are posted and stored nowhere); errors are {"error": …}.',
        },
    }
)

# The view each endpoint answers with, by its path: the schema of its 200 (views/schemas.py).
RETURNS = {
    "/api/search": "Search",
    "/api/ask": "Answer",
    "/api/card": "Card",
    "/api/deck/check": "Deck",
    "/api/read": "Reading",
    "/api/section/{number}": "Section",
    "/api/concept/{name}": "Concept",
    "/api/p/{pid}": "Passage",
    "/api/scenario/{name}": "Scenario",
    "/api/changes": "Changes",
}


def with_response_schemas(spec: dict) -> dict:
    """The OpenAPI document with each answer's JSON Schema: the view's for a 200,
    {"error"} for any other status."""
    for path, operations in spec["paths"].items():
        for operation in operations.values():
            for status, response in operation["responses"].items():
                name = RETURNS[path] if str(status) == "200" else "Error"
                response["content"] = {
                    "application/json": {"schema": {"$ref": f"#/components/schemas/{name}"}}
                }
    return {**spec, "components": {"schemas": SCHEMAS}}


def openapi_document(routes: list) -> dict:
    return with_response_schemas(schemas.get_schema(routes=routes))


async def openapi(request: Request) -> JSON:
    return JSON(await off_loop(request, LOOKUPS, openapi_document, request.app.routes))


routes = [
    Route("/api/search", api_search, name="api_search"),
    Route("/api/ask", api_ask, name="api_ask"),
    Route("/api/card", api_card, name="api_card"),
    Route("/api/deck/check", api_deck_check, methods=["POST"], name="api_deck_check"),
    Route("/api/read", api_read, methods=["POST"], name="api_read"),
    Route("/api/section/{number:path}", api_section, name="api_section"),
    Route("/api/concept/{name:path}", api_concept, name="api_concept"),
    Route("/api/p/{pid:path}", api_passage, name="api_passage"),
    Route("/api/scenario/{name}", api_scenario, name="api_scenario"),
    Route("/api/changes", api_changes, name="api_changes"),
    Route("/openapi.json", openapi, include_in_schema=False),
]
