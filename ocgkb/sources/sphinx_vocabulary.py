"""Sphinx's roles and directives, taught to docutils (the reference reST parser).

A Sphinx documentation uses words plain docutils does not know: `:ref:` links,
`.. toctree::`, `:strike:` (declared per file with `.. role::`, which docutils
reads itself), `.. tabularcolumns::`. Registered here, they are read as Sphinx
reads them instead of being reported as errors; anything else unknown stays an
error, so a file that is not reST is still refused. Nothing is executed: a
documentation's conf.py is never run.

`register()` is idempotent and only touches docutils' registries.
"""

from __future__ import annotations

import re

from docutils import nodes, utils
from docutils.parsers.rst import Directive, directives, roles


class xref(nodes.Inline, nodes.TextElement):  # noqa: N801 (docutils names node classes in lower case)
    """A `:ref:` link: its text as shown, `label` the heading it points to."""


class toctree(nodes.General, nodes.Element):  # noqa: N801
    """A `.. toctree::`: the documents it lists, in order (`entries`, as written)."""


_EXPLICIT_TITLE = re.compile(r"^(.+?)\s*<([^<>]+)>$", re.DOTALL)


def _ref_role(name, rawtext, text, lineno, inliner, options=None, content=None):  # noqa: ARG001
    """`:ref:`label`` or `:ref:`text <label>``: shown as its text (the label when
    none is given, which is the heading's text in these documents)."""
    match = _EXPLICIT_TITLE.match(text)
    title, label = (match.group(1), match.group(2)) if match else (text, text)
    node = xref(rawtext, utils.unescape(title))
    node["label"] = utils.unescape(label).strip()
    node["titled"] = match is not None  # `text <label>`: shown as written, not as the heading's title
    return [node], []


def _text_role(name, rawtext, text, lineno, inliner, options=None, content=None):  # noqa: ARG001
    """A Sphinx role that only marks its text (`:doc:`, `:term:`, `:kbd:`…): kept as text."""
    match = _EXPLICIT_TITLE.match(text)
    shown = match.group(1) if match else text
    return [nodes.inline(rawtext, utils.unescape(shown), classes=[name])], []


class _Toctree(Directive):
    has_content = True
    option_spec = {
        "maxdepth": directives.unchanged,
        "glob": directives.flag,
        "hidden": directives.flag,
        "caption": directives.unchanged,
        "name": directives.unchanged,
        "numbered": directives.unchanged,
        "titlesonly": directives.flag,
        "includehidden": directives.flag,
        "reversed": directives.flag,
    }

    def run(self):
        node = toctree()
        node["entries"] = [line.strip() for line in self.content if line.strip()]
        node["glob"] = "glob" in self.options
        node.line = self.lineno
        return [node]


class _Ignored(Directive):
    """A Sphinx directive about output only (`tabularcolumns`, `highlight`, `index`…): nothing to read."""

    has_content = True
    optional_arguments = 10
    final_argument_whitespace = True
    option_spec = None

    def run(self):
        return []


class _Container(_Ignored):
    """A Sphinx directive whose body is text to read (`only`, `seealso`, `versionadded`…)."""

    def run(self):
        node = nodes.container()
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


TEXT_ROLES = (
    "doc",
    "term",
    "numref",
    "abbr",
    "kbd",
    "guilabel",
    "menuselection",
    "download",
    "any",
    "strike",
)
IGNORED_DIRECTIVES = (
    "tabularcolumns",
    "highlight",
    "index",
    "centered",
    "hlist",
    "sectionauthor",
    "codeauthor",
)
CONTAINER_DIRECTIVES = ("only", "seealso", "versionadded", "versionchanged", "deprecated", "glossary")
_registered = False


def register() -> None:
    """Teach docutils Sphinx's vocabulary (once per process)."""
    global _registered
    if _registered:
        return
    roles.register_local_role("ref", _ref_role)
    for name in TEXT_ROLES:
        roles.register_local_role(name, _text_role)
    directives.register_directive("toctree", _Toctree)
    for name in IGNORED_DIRECTIVES:
        directives.register_directive(name, _Ignored)
    for name in CONTAINER_DIRECTIVES:
        directives.register_directive(name, _Container)
    _registered = True
