"""The HTML pages: each renders one view of `ocgkb.views` through a template, in a
thread of its pool (`offload.py`), never on the event loop."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from ocgkb import NotFound, OcgkbError, UsageError
from ocgkb.store import schema
from ocgkb.views.answer import answer_page
from ocgkb.views.card import card_view
from ocgkb.views.changes import last_changes_view
from ocgkb.views.concept import concept_page
from ocgkb.views.deck import MAX_YDK_BYTES, REGIONS, deck_view
from ocgkb.views.home import home_view
from ocgkb.views.passage import passage_view
from ocgkb.views.read import read_view
from ocgkb.views.replay import scenario_view
from ocgkb.views.section import section_view
from ocgkb.web import i18n, params
from ocgkb.web.limits import READ_BODY_BYTES
from ocgkb.web.offload import LOOKUPS, QUESTIONS, in_thread, off_loop
from ocgkb.web.templating import templates_for

templates: Jinja2Templates = templates_for(Path(__file__).parent / "templates")
LANGUAGE_COOKIE_SECONDS = 365 * 24 * 3600


def page(request: Request, template: str, status_code: int = 200, **context) -> Response:
    """A template rendered in the request's language. A language chosen by the switch
    is remembered for the pages after it; a page varies with what picks its language."""
    response = templates.TemplateResponse(request, template, context, status_code=status_code)
    response.headers["vary"] = "Accept-Language, Cookie"
    if lang := i18n.chosen(request):
        response.set_cookie(i18n.COOKIE, lang, max_age=LANGUAGE_COOKIE_SECONDS, samesite="lax", httponly=True)
    return response


@in_thread(LOOKUPS)
def home(request: Request) -> Response:
    return page(request, "home.html", view=home_view(request.app.state.kb))


@in_thread(QUESTIONS)
def ask(request: Request) -> Response:
    query = params.text(request)
    view = answer_page(request.app.state.kb, query, params.limit(request, *CLAUSES))
    return page(request, "ask.html", query=query, view=view)


@in_thread(LOOKUPS)
def card(request: Request) -> Response:
    name = params.checked(request.path_params["name"], "name")
    limit, day = params.limit(request, *CARD_PASSAGES), params.date(request, "on")
    try:
        view = card_view(request.app.state.kb, name, limit, day)
    except NotFound as exc:  # the nearest names, and a way to ask instead
        return page(request, "card_missing.html", status_code=exc.http_status, query=name, view=exc.detail)
    return page(request, "card_set.html" if "set" in view else "card.html", query=name, view=view)


@in_thread(LOOKUPS)
def section(request: Request) -> Response:
    number = params.checked(request.path_params["number"], "number")
    return page(request, "section.html", view=section_view(request.app.state.kb, number))


@in_thread(LOOKUPS)
def concept(request: Request) -> Response:
    name = params.checked(request.path_params["name"], "name")
    return page(request, "concept.html", view=concept_page(request.app.state.kb, name))


@in_thread(LOOKUPS)
def passage(request: Request) -> Response:
    pid = params.checked(request.path_params["pid"], "passage id")
    return page(request, "passage.html", view=passage_view(request.app.state.kb, pid))


@in_thread(LOOKUPS)
def scenario(request: Request) -> Response:
    name = params.checked(request.path_params["name"], "name")
    view = scenario_view(request.app.state.kb, name, request.app.state.kb_dir)
    return page(request, "scenario.html", view=view)


@in_thread(LOOKUPS)
def changes(request: Request) -> Response:
    only = request.query_params.get("only")
    only = params.checked(only, "only") if only is not None else None
    view = last_changes_view(request.app.state.kb, only, params.date(request, "since"))
    return page(request, "changes.html", view=view)


async def deck(request: Request) -> Response:
    """GET: the form. POST: the pasted or uploaded .ydk checked, shown under the
    form; nothing is stored. Bad input is the form again with the reason (400)."""
    form = {"regions": [(code, f"{name} ({code})") for code, name in REGIONS.items()], "region": "ocg"}
    if request.method != "POST":
        return await off_loop(request, LOOKUPS, partial(page, request, "deck.html", **form))
    data, region, day = await params.deck_form(request, MAX_YDK_BYTES)
    form |= {"text": data.decode("utf-8", "replace")[:MAX_YDK_BYTES], "region": region, "on": day}
    return await off_loop(request, QUESTIONS, _deck_checked, request, data, form)


def _deck_checked(request: Request, data: bytes, form: dict) -> Response:
    try:
        view = deck_view(request.app.state.kb, data, form["region"], form["on"])
    except UsageError as exc:
        return page(request, "deck.html", status_code=exc.http_status, error=str(exc), **form)
    return page(request, "deck.html", view=view, **form)


async def read(request: Request) -> Response:
    """GET: the form. POST: the pasted card text read under it, stored nowhere. A
    text the reader refuses, or a card not found, is the form again with the reason."""
    if request.method != "POST":
        return await off_loop(request, LOOKUPS, page, request, "read.html")
    text, card = await params.read_form(request, READ_BODY_BYTES)
    return await off_loop(request, QUESTIONS, _text_read, request, text, card)


def _text_read(request: Request, text: str, card: str | None) -> Response:
    form = {"text": text, "card": card}
    try:
        view = read_view(request.app.state.kb, text, card)
    except OcgkbError as exc:
        if exc.http_status >= 500:  # the site's own fault: the one handler logs it
            raise
        failed = {"error": str(exc), "detail": getattr(exc, "detail", {})}
        return page(request, "read.html", status_code=exc.http_status, **failed, **form)
    return page(request, "read.html", view=view, **form)


# A page's (default, most) of what it lists, from the schema's declared limits.
CLAUSES = (schema.DEFAULT_CLAUSES, schema.MOST_CLAUSES)
CARD_PASSAGES = (schema.PAGE_CARD_PASSAGES, schema.MOST_CARD_PASSAGES)

routes = [
    Route("/", home, name="home", include_in_schema=False),
    Route("/ask", ask, name="ask", include_in_schema=False),
    Route("/deck", deck, name="deck", methods=["GET", "POST"], include_in_schema=False),
    Route("/read", read, name="read", methods=["GET", "POST"], include_in_schema=False),
    Route("/card/{name:path}", card, name="card", include_in_schema=False),
    Route("/section/{number:path}", section, name="section", include_in_schema=False),
    Route("/concept/{name:path}", concept, name="concept", include_in_schema=False),
    Route("/p/{pid:path}", passage, name="passage", include_in_schema=False),
    Route("/scenario/{name}", scenario, name="scenario", include_in_schema=False),
    Route("/changes", changes, name="changes", include_in_schema=False),
]
