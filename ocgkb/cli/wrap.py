"""A command's text fitted to the terminal: long lines wrapped to its width with a
hanging indent, so that a wrapped line still shows where it belongs.

Columns are counted as a terminal shows them: an East Asian wide character takes
two, a colour code none. A Latin word is cut only when it is wider than the
line itself (a long path: the terminal would cut it anyway, at column 0, losing
the indent); Chinese may break between any two characters, but a
closing mark (，。」）) never starts a line and an opening one (「（) never ends one.
`unicodedata` (a C module, loaded only when a line is wrapped) says which
characters are wide: `wcwidth` would add a dependency for the same answer here.
"""

from __future__ import annotations

import os
import sys

# Kinsoku: marks that may not begin a line, and marks that may not end one.
_CLOSING = frozenset("，。、；：！？」』）》〉】〕…’”,.;:!?)]}%")
_OPENING = frozenset("「『（《〈【〔‘“([{")
# What may open a line's text, followed by a space: its continuation goes under the text after it.
_MARKERS = frozenset("-*•↳▶✗⚠")
_RESET = "\x1b[0m"
# Under this many columns a hanging indent is given up: the text needs the room.
_LEAST_TEXT = 20


def terminal_width() -> int | None:
    """The width to wrap to: `COLUMNS` when set, else the terminal's; None (no
    wrapping) when standard output is not a terminal and `COLUMNS` is unset."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    if not sys.stdout.isatty():
        return None
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns or None
    except (OSError, ValueError):
        return None


def fit(text: str, width: int | None) -> str:
    """`text` with each line longer than `width` columns wrapped; unchanged when width is None."""
    if width is None:
        return text
    return "\n".join(_wrap_line(line, width) for line in text.split("\n"))


_WIDTHS: dict[str, int] = {}  # each character's columns, asked of unicodedata once


def _char_width(char: str) -> int:
    if char < "\u0300":  # Latin, the most common case, answered first
        return 1
    width = _WIDTHS.get(char)
    if width is None:
        from unicodedata import combining, east_asian_width  # not on a piped command's start

        width = _WIDTHS[char] = 0 if combining(char) else 2 if east_asian_width(char) in "WF" else 1
    return width


def display_width(text: str) -> int:
    """The columns `text` takes on a terminal, colour codes counting none."""
    return sum(_char_width(char) for kind, char in _pieces(text) if kind != "esc")


def _pieces(line: str):
    """(kind, text) for each colour code ("esc"), space and other character of a line."""
    at, end = 0, len(line)
    while at < end:
        char = line[at]
        if char == "\x1b" and line.startswith("\x1b[", at):
            stop = at + 2
            while stop < end and not ("@" <= line[stop] <= "~"):
                stop += 1
            yield "esc", line[at : stop + 1]
            at = stop + 1
            continue
        yield ("space" if char == " " else "char"), char
        at += 1


def _boxes(line: str) -> list[list]:
    """The line cut where it may break: [text, columns, is_space] boxes; a colour
    code joins the box before it, so it never makes a break of its own."""
    boxes: list[list] = []
    last = ""  # the last visible character
    for kind, piece in _pieces(line):
        if kind == "esc":
            if boxes:
                boxes[-1][0] += piece
            else:
                boxes.append([piece, 0, False])
            continue
        columns = _char_width(piece)
        space = kind == "space"
        if boxes and last and _joined(last, piece, space, boxes[-1][2]):
            boxes[-1][0] += piece
            boxes[-1][1] += columns
        else:
            boxes.append([piece, columns, space])
        last = piece
    return boxes


def _joined(before: str, char: str, space: bool, after_space: bool) -> bool:
    """Whether no break may come between the visible characters `before` and `char`."""
    if space or after_space:
        return space and after_space  # spaces run together; a break comes at either side
    if char in _CLOSING or before in _OPENING:
        return True
    return _char_width(before) < 2 and _char_width(char) < 2  # inside a Latin word


def _indents(line: str) -> tuple[int, int]:
    """The line's own indent, and where a continuation starts: under the text
    after that indent and its marker ("1. ", "- ", "↳ "); a line at the margin
    continues two columns in."""
    visible = "".join(piece for kind, piece in _pieces(line) if kind != "esc")
    text = visible.lstrip(" ")
    indent = hang = len(visible) - len(text)
    number, dot, _ = text.partition(". ")
    if dot and number.isdigit() and len(number) <= 3:
        hang += len(number) + 2
    elif len(text) > 1 and text[0] in _MARKERS and text[1] == " ":
        hang += 2
    return indent, hang or 2


def _wrap_line(line: str, width: int) -> str:
    if len(line) * 2 <= width or display_width(line) <= width:
        return line
    indent, hang = _indents(line)
    hang = min(hang, max(width - _LEAST_TEXT, 0))
    lines: list[str] = []
    text, used, active = "", 0, []  # the line so far, its columns, the colour codes in force
    space = None  # a space box waiting for the word after it
    words = False  # whether this line holds a word yet
    for box in _cut_overlong(_boxes(line), max(width - max(hang, indent), 1)):
        if box[2] and text:
            space = box
            continue
        gap = space[1] if space else 0
        if words and used + gap + box[1] > width:
            # The break: the waiting space is dropped (its colour codes kept) and the
            # colours in force end here and resume after the indent.
            dropped = space[0].replace(" ", "") if space else ""
            active = _in_force(active, dropped)
            lines.append(text + dropped + (_RESET if active else ""))
            text, used = " " * hang + "".join(active), hang
        elif space:
            text, used, active = text + space[0], used + gap, _in_force(active, space[0])
        space, words = None, words or (box[1] > 0 and not box[2])
        text, used, active = text + box[0], used + box[1], _in_force(active, box[0])
    lines.append(text + (space[0] if space else ""))
    return "\n".join(lines)


def _cut_overlong(boxes: list[list], room: int) -> list[list]:
    """The boxes, each word wider than `room` columns cut into pieces that fit."""
    fitted: list[list] = []
    for box in boxes:
        if box[2] or box[1] <= room:
            fitted.append(box)
            continue
        piece, used = "", 0
        for kind, char in _pieces(box[0]):
            columns = 0 if kind == "esc" else _char_width(char)
            if used + columns > room:
                fitted.append([piece, used, False])
                piece, used = "", 0
            piece, used = piece + char, used + columns
        fitted.append([piece, used, False])
    return fitted


def _in_force(active: list[str], text: str) -> list[str]:
    """The colour codes in force after `text`: a reset clears those before it."""
    for kind, piece in _pieces(text):
        if kind == "esc" and piece[-1] == "m":
            active = [] if piece in (_RESET, "\x1b[m") else [*active, piece]
    return active
