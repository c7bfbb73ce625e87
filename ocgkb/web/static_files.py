"""The site's static files under names that carry their content's hash.

A page links `/static/style.<hash>.css`: that name never changes meaning, so a
browser keeps it a year without asking; a new file is a new name. The plain name
still answers, kept only a few minutes, for links made before."""

from __future__ import annotations

import hashlib
import os
from functools import cache

from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

FOLDER = os.path.join(os.path.dirname(__file__), "static")
FOREVER = "public, max-age=31536000, immutable"
BRIEFLY = "public, max-age=300"


@cache
def hashed_names() -> dict[str, str]:
    """Each static file's name → its name with a hash of its bytes, read once per process."""
    names = {}
    for name in sorted(os.listdir(FOLDER)):
        with open(os.path.join(FOLDER, name), "rb") as file:
            digest = hashlib.sha256(file.read()).hexdigest()[:12]
        stem, dot, ext = name.rpartition(".")
        names[name] = f"{stem}.{digest}.{ext}" if dot else f"{name}.{digest}"
    return names


def static_url(name: str) -> str:
    """The URL a page links a static file by: the hashed name."""
    return "/static/" + hashed_names()[name]


class HashedStaticFiles(StaticFiles):
    """Serves a file by its hashed name (cached for good) or its plain name (briefly)."""

    def __init__(self) -> None:
        super().__init__(directory=FOLDER)
        self.plain = {hashed: name for name, hashed in hashed_names().items()}

    async def get_response(self, path: str, scope: Scope) -> Response:
        plain = self.plain.get(path)
        response = await super().get_response(plain or path, scope)
        if response.status_code in (200, 304):
            response.headers["cache-control"] = FOREVER if plain else BRIEFLY
        return response
