"""ocgkb: a rulings knowledge base and Q&A tool over the Chinese Yu-Gi-Oh! OCG rule texts.

The library does everything the command line does::

    from ocgkb.store.database import open_kb
    from ocgkb.query.ranking import search
    kb = open_kb()                    # builds on first use
    hits = search(kb, "cost算不算卡片的效果")
"""

__version__ = "0.1.0"


class OcgkbError(Exception):
    """Base of every error ocgkb reports to a user as a one-line message.

    `exit_code` is what the command line exits with: 1 for bad input (an unknown
    card, a damaged source), 2 for bad usage (an empty filter, an unknown format)."""

    exit_code = 1


class UsageError(OcgkbError):
    """A command was used wrongly: an empty or malformed option."""

    exit_code = 2


class SourceError(OcgkbError):
    """A source document is missing, unreadable or not UTF-8."""


class OntologyError(OcgkbError):
    """The curated files in kb/ are malformed."""


class BuildError(OcgkbError):
    """The knowledge base cannot be written where it should go."""
