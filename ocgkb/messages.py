"""What ocgkb says to a person in more than one front end, said once."""

from __future__ import annotations


def no_such_card(query: str) -> str:
    """A name no card is close to (the card command, the card page, the API, a --card filter)."""
    return f"no card is called anything like {query!r}"
