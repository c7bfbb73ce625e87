"""The .ydk deck format of ygopro and the deck builders players use: `#main`,
`#extra` and `!side` sections, one password a line, `#` comment lines.

Pure: it reads bytes it is handed and writes nothing. Whatever is not a .ydk is
a one-line `DeckError`, said before any card is looked up.
"""

from __future__ import annotations

from typing import NamedTuple

from ocgkb import UsageError

# A real deck of 90 cards is under 1 KB; anything near this is not a deck.
MAX_YDK_BYTES = 64 * 1024
SECTIONS = {"#main": "main", "#extra": "extra", "!side": "side"}
# The longest password in use has 9 digits; a longer number is not a card.
MAX_PASSWORD_DIGITS = 10


class DeckError(UsageError):
    """A deck file that cannot be read as a .ydk: exit 2, HTTP 400."""


class Deck(NamedTuple):
    """The passwords of each section in file order, as canonical digit strings."""

    main: list[str]
    extra: list[str]
    side: list[str]


def decode_ydk(data: bytes) -> str:
    """The text of a .ydk, or a DeckError: empty, too large, binary, not UTF-8."""
    if not data.strip():
        raise DeckError("the deck is empty: a .ydk has #main, #extra and !side sections of passwords")
    if len(data) > MAX_YDK_BYTES:
        raise DeckError(f"the deck is larger than {MAX_YDK_BYTES // 1024} KB: not a .ydk")
    if b"\0" in data:
        raise DeckError("the deck holds binary bytes: not a .ydk")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DeckError(f"the deck is not UTF-8 text (byte {exc.start}): not a .ydk") from None


def parse_ydk(data: bytes) -> Deck:
    """The deck a .ydk holds. A section given twice, a line that is not a
    password, or a file with no section header at all is a DeckError naming the line."""
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for number, raw in enumerate(decode_ydk(data).splitlines(), start=1):
        line = raw.strip()
        if line in SECTIONS:
            if SECTIONS[line] in sections:
                raise DeckError(f"line {number}: the section {line} is given twice")
            current = sections[SECTIONS[line]] = []
        elif not line or line.startswith("#"):
            continue  # a blank line or a comment (`#created by …`)
        elif current is None:
            raise DeckError(f"line {number}: {_shown(line)} comes before any #main, #extra or !side section")
        elif line.isascii() and line.isdigit() and len(line) <= MAX_PASSWORD_DIGITS:
            current.append(str(int(line)))  # leading zeros are the same password
        else:
            raise DeckError(f"line {number}: {_shown(line)} is not a card password")
    if not sections:
        raise DeckError("no #main, #extra or !side section: not a .ydk")
    return Deck(*(sections.get(name, []) for name in SECTIONS.values()))


def _shown(line: str) -> str:
    """A line as a message quotes it, cut short."""
    return repr(line if len(line) <= 40 else line[:40] + "…")
