"""ocgkb: a rulings knowledge base and Q&A tool over the Chinese Yu-Gi-Oh! OCG rule texts.

The library does everything the command line does::

    from ocgkb.store.door import open_kb
    from ocgkb.query.ranking import search
    kb = open_kb()                    # builds on first use (the one door: store/door.py)
    hits = search(kb, "cost算不算卡片的效果")
"""

__version__ = "0.1.0"


class OcgkbError(Exception):
    """Base of every error ocgkb reports to a user as a one-line message.

    An error carries its meaning once, for every front end: `exit_code` is what
    the command line exits with, `http_status` what the web answers. The base is
    bad input (an unknown filter value, an over-long question): 1 and 400."""

    exit_code = 1
    http_status = 400


class UsageError(OcgkbError):
    """A command was used wrongly: an empty or malformed option."""

    exit_code = 2


class NotFound(OcgkbError):
    """No card, concept, section, passage or scenario answers to the name given.

    `detail` is what a front end may show beside the message (the names that came
    closest), the same for the command's --json, the API and the page."""

    http_status = 404

    def __init__(self, message: str, detail: dict | None = None) -> None:
        super().__init__(message)
        self.detail = detail or {}


class SourceError(OcgkbError):
    """A source document is missing, unreadable or not UTF-8: a fault in the project's own data."""

    http_status = 500


class OntologyError(OcgkbError):
    """The curated files in kb/ are malformed: a fault in the project's own data."""

    http_status = 500


class BuildError(OcgkbError):
    """The knowledge base cannot be written where it should go."""

    http_status = 500
