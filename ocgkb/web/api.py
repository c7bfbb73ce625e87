"""The JSON API: each endpoint returns exactly what the matching command prints
with --json for the same input. Errors are `{"error": "…"}` with the error's own status (400, 404, 500), and
what the error carries besides (an unknown card's nearest names)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.schemas import SchemaGenerator

from ocgkb.views.answer import MOST_CLAUSES, answer
from ocgkb.views.card import MOST_PASSAGES, card_view
from ocgkb.views.concept import concept_view
from ocgkb.views.search import MOST_HITS, search_view
from ocgkb.views.section import section_view
from ocgkb.web import params


class JSON(JSONResponse):
    """UTF-8 JSON with the characters as they are, as the CLI prints it."""

    media_type = "application/json"


async def api_search(request: Request) -> JSON:
    """
    summary: The passages that best answer a query, ranked (`ocgkb search --json`).
    parameters:
      - {name: q, in: query, required: true, schema: {type: string, maxLength: 300}}
      - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 40, default: 10}}
      - {name: kind, in: query, schema: {type: string, enum: [clause, subitem, example, ruling, note, paragraph]}}
      - {name: section, in: query, schema: {type: string}, description: this section and those below it}
      - {name: concept, in: query, schema: {type: string}}
      - {name: card, in: query, schema: {type: string}}
      - {name: since, in: query, schema: {type: string}, description: 'a date, YYYY-MM-DD'}
      - {name: until, in: query, schema: {type: string}}
    responses:
      200: {description: '{"query", "plan", "hits"}; each hit cites its section or topic and dates'}
      400: {description: '{"error"}: a missing, empty or over-long q; a bad limit or filter'}
    """
    kb = request.app.state.kb
    query = params.text(request)
    view = search_view(kb, query, params.filters(request), params.limit(request, 10, MOST_HITS))
    return JSON(view)


async def api_ask(request: Request) -> JSON:
    """
    summary: The clauses that settle a question, with examples and rulings (`ocgkb ask --json`).
    parameters:
      - {name: q, in: query, required: true, schema: {type: string, maxLength: 300}}
      - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 10, default: 5}}
      - {name: kind, in: query, schema: {type: string}}
      - {name: section, in: query, schema: {type: string}}
      - {name: concept, in: query, schema: {type: string}}
      - {name: card, in: query, schema: {type: string}}
      - {name: since, in: query, schema: {type: string}}
      - {name: until, in: query, schema: {type: string}}
    responses:
      200: {description: '{"query", "plan", "hits", "nothing_fits"}'}
      400: {description: '{"error"}'}
    """
    kb = request.app.state.kb
    query = params.text(request)
    return JSON(answer(kb, query, params.filters(request), params.limit(request, 5, MOST_CLAUSES)))


async def api_card(request: Request) -> JSON:
    """
    summary: The card a name means, in any form, and the passages that mention it (`ocgkb card --json`).
    parameters:
      - {name: q, in: query, required: true, schema: {type: string, maxLength: 300}}
      - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 200, default: 20}}
    responses:
      200: {description: '{"query", "matches", "rulings"}'}
      404: {description: 'no card is close: {"error", "query", "matches": [], "suggestions"}'}
      400: {description: '{"error"}'}
    """
    kb = request.app.state.kb
    query = params.text(request)
    return JSON(card_view(kb, query, params.limit(request, 20, MOST_PASSAGES)))


async def api_section(request: Request) -> JSON:
    """
    summary: A rulebook section or ruling topic with everything linked to it (`ocgkb section --json`).
    parameters:
      - {name: number, in: path, required: true, schema: {type: string}, example: 4.2.2}
    responses:
      200: {description: '{"number", "title", "breadcrumb", "passages", "children", "rulings", …}'}
      404: {description: '{"error"}: no such section'}
    """
    number = params.checked(request.path_params["number"], "number")
    return JSON(section_view(request.app.state.kb, number))


async def api_concept(request: Request) -> JSON:
    """
    summary: A rule concept by English or Chinese name or alias (`ocgkb concept --json`).
    parameters:
      - {name: name, in: path, required: true, schema: {type: string}, example: miss-timing}
    responses:
      200: {description: '{"id", "name_zh", "name_en", "definitions", "related", "rulings", …}'}
      404: {description: '{"error"}: no such concept'}
    """
    name = params.checked(request.path_params["name"], "name")
    return JSON(concept_view(request.app.state.kb, name))


schemas = SchemaGenerator(
    {
        "openapi": "3.0.0",
        "info": {
            "title": "ocgkb",
            "version": "1",
            "description": "Rulings of the Yu-Gi-Oh! OCG over the Chinese rule texts. Every answer "
            'cites its section number or ruling date. Read-only; errors are {"error": …}.',
        },
    }
)


async def openapi(request: Request) -> JSON:
    return JSON(schemas.get_schema(routes=request.app.routes))


routes = [
    Route("/api/search", api_search, name="api_search"),
    Route("/api/ask", api_ask, name="api_ask"),
    Route("/api/card", api_card, name="api_card"),
    Route("/api/section/{number:path}", api_section, name="api_section"),
    Route("/api/concept/{name:path}", api_concept, name="api_concept"),
    Route("/openapi.json", openapi, include_in_schema=False),
]
