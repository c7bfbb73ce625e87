"""`ocgkb serve`: the knowledge base as a web site and a JSON API.

Routes, templates and static files only: every page and every API answer renders
a function of `ocgkb.views`, the same data the command line prints.
"""

INSTALL_HINT = (
    "the web site needs its extra: pip install 'ocgkb[web]' (Starlette, Jinja2, uvicorn, httptools)"
)
