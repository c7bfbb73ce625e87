"""What ocgkb says to a person in more than one front end, said once."""

from __future__ import annotations


def no_such_card(query: str) -> str:
    """A name no card is close to (the card command, the card page, the API, a --card filter)."""
    return f"no card is called anything like {query!r}"


def with_suggestions(message: str, names: list[str] | None) -> str:
    """An unknown name's message with the nearest names, when there are any (the
    card command, the MCP server's `card`)."""
    return f"{message}; did you mean {', '.join(names)}?" if names else message


# A damaged knowledge base is rebuilt once (the door's repair); these say how that went.
NOT_REBUILT = "the knowledge base is damaged and could not be rebuilt"
BEING_REBUILT = "the knowledge base is damaged and is being rebuilt; try again in a minute"


def not_damage(exc: Exception) -> str:
    """An SQLite error that is about the question, not the file (the command line, the web)."""
    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return f"cannot answer this: {first} (an SQLite error about the input, not damage to the knowledge base)"


# A card whose effect text was not imported (the card command, the card page).
NO_CARD_TEXT = (
    "this project ships no card effect texts; import your ygopro cards.cdb "
    "with `ocgkb cards import PATH/cards.cdb` to read this card's text here"
)
