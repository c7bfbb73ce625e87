"""The templates' environment: autoescaping on, and the few filters pages share."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from markupsafe import Markup, escape
from starlette.requests import Request
from starlette.templating import Jinja2Templates

from ocgkb.display import marked
from ocgkb.web.i18n import language_context
from ocgkb.web.static_files import static_url

# The zones where a card is face-up or face-down (a monster's battle position only in
# its own zone): a card in the GY or the hand has neither.
FACED_ZONES = ("monster", "emz", "spelltrap", "field", "banished")


def mark(text: str, words: list[str]) -> Markup:
    """Text escaped, with the question's words in <mark>."""
    return Markup("").join(
        Markup("<mark>{}</mark>").format(run) if hit else escape(run) for run, hit in marked(text, words)
    )


def path(value: str) -> str:
    """A name or id as one URL path segment set (slashes kept: section and passage ids hold them)."""
    return quote(value, safe="/")


def document_titles(request: Request) -> dict:
    """The titles of the documents the served knowledge base was built from (its manifest's)."""
    return {"DOC_TITLE": request.app.state.doc_titles}


def templates_for(directory: Path) -> Jinja2Templates:
    templates = Jinja2Templates(directory=directory, context_processors=[document_titles, language_context])
    templates.env.filters.update(mark=mark, path=path)
    templates.env.globals.update(FACED_ZONES=FACED_ZONES, static_url=static_url)
    templates.env.trim_blocks = True
    templates.env.lstrip_blocks = True
    return templates
