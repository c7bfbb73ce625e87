"""The site's labels in Chinese and English, and which language a request reads.

Only the site's own words are translated: the rule texts, card names and what the
views say stay as written. A label is a string with `{name}` fields, or a pair
(one, many) where English counts.  `?lang=` (remembered in a cookie) overrides
`Accept-Language`; with neither the site is Chinese.
"""

from __future__ import annotations

import re

from starlette.requests import Request

from ocgkb.store.schema import KIND_NAMES
from ocgkb.web.i18n_catalogue import CATALOGUE, NOTES_ZH, TERMS

DEFAULT = "zh"
COOKIE = "lang"
HTML_LANG = {"zh": "zh-Hans", "en": "en"}
# Each language named in itself: the switch reads in the language it leads to.
NATIVE_NAME = {"zh": "中文", "en": "English"}


class Labels:
    """The labels of one language, called from the templates as `t("key", n=…, …)`."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.table = CATALOGUE[lang]

    def __call__(self, key: str, n: int | None = None, **values: object) -> str:
        text = self.table[key]
        if isinstance(text, tuple):
            text = text[0] if n == 1 else text[1]
        return text.format(n=n, **values)

    def get(self, key: str, default: str) -> str:
        """A label that may not exist (an effect kind the reader may add later): `default` then."""
        return self(key) if key in self.table else default

    def note(self, note: str) -> str:
        """A note a view wrote in English, in this language where it is one we know."""
        if self.lang == "zh":
            for pattern, zh in NOTES_ZH:
                if re.fullmatch(pattern, note):
                    return re.sub(pattern, zh, note)
        return note

    def term(self, word: object) -> str:
        """A card-data or game word (a type, a zone, a status) in this language;
        slash-separated type lines word by word; an unknown word as it is."""
        if self.lang != "zh" or not isinstance(word, str):
            return "" if word is None else str(word)
        return " / ".join(TERMS.get(part.strip(), part.strip()) for part in word.split("/"))

    def kind(self, kind: str) -> str:
        """A passage kind's name (clause, ruling, …)."""
        zh, en = KIND_NAMES.get(kind, (kind, kind))
        return zh if self.lang == "zh" else en

    def count(self, n: int, kind: str) -> str:
        """`n` things of a kind, counted as the language counts: 7 concepts, 7 个概念."""
        if kind in KIND_NAMES:
            zh, en = KIND_NAMES[kind]
        else:
            zh, en = TERMS.get(kind, kind), kind
        if self.lang == "zh":
            return f"{n} 个{zh}"
        return f"{n} {en}" if n == 1 else f"{n} {en}s"

    def counts(self, counted: dict[str, int]) -> str:
        """Several counts in one phrase: 7 concepts, 2 examples."""
        return self("list_sep").join(self.count(n, kind) for kind, n in counted.items())


def accepted(header: str) -> str | None:
    """The language of ours an Accept-Language header prefers most (q-values
    weighed, q=0 refused), or None when it names neither."""
    best, best_q = None, 0.0
    for item in header.split(","):
        tag, _, options = item.strip().partition(";")
        q = 1.0
        name, _, value = options.strip().partition("=")
        if name.strip() == "q":
            try:
                q = float(value)
            except ValueError:
                q = 0.0
        primary = tag.strip().lower().split("-")[0]
        if primary in CATALOGUE and q > best_q:
            best, best_q = primary, q
    return best


def chosen(request: Request) -> str | None:
    """The language asked for by the switch (`?lang=`), if it is one of ours."""
    lang = request.query_params.get("lang")
    return lang if lang in CATALOGUE else None


def language(request: Request) -> str:
    """The switch, then the cookie it set, then Accept-Language, then Chinese."""
    cookie = request.cookies.get(COOKIE)
    return (
        chosen(request)
        or (cookie if cookie in CATALOGUE else None)
        or accepted(request.headers.get("accept-language", ""))
        or DEFAULT
    )


def language_context(request: Request) -> dict:
    """What every template needs of the language: its labels, <html lang>, and a
    link to this page in the other language."""
    lang = language(request)
    other = "en" if lang == "zh" else "zh"
    url = request.url.include_query_params(lang=other)
    path = "/" + url.path.lstrip("/")  # never //host: a link on this site stays on it
    return {
        "t": Labels(lang),
        "lang": lang,
        "html_lang": HTML_LANG[lang],
        "switch": {"href": f"{path}?{url.query}", "lang": other, "hreflang": HTML_LANG[other]},
        "switch_name": NATIVE_NAME[other],
    }
