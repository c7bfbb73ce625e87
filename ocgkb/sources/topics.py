"""Reader of the documents organised by topic headings instead of numbers: the
rulings (002), the wiki article (001), the tournament text (003) and the guide (004).

- A heading is a short, unindented line with no sentence punctuation, no quotes
  and no date, followed by a blank line. A heading followed straight by another
  heading opens a group (基本用语 › cost).
- `例：` opens examples, `注意` / `备注` / `小技巧` open notes; the block runs to the
  next blank line that follows some text.
- `•` lines and numbered lines (`1. `, `2．`) are sub-items.
- Every other line is a ruling (002) or a paragraph (the others).
"""

from __future__ import annotations

import re
from collections import Counter

from ocgkb.sources.model import ParsedDocument, Passage, Section
from ocgkb.text.textchecks import damage_flags

NOTE_LABELS = ("注意", "备注", "小技巧")
EXAMPLE_LABEL = re.compile(r"^例\s*[：:]\s*(.*)$")
SUBITEM = re.compile(r"^(?:[•·・]|\d+\s*[.．、](?!\d))")
_NOT_IN_HEADING = re.compile(r"[。，；！？：:!?「」『』【】“”]|\d{2}/\d{1,2}/\d{1,2}")
HEADING_MAX = 16
_WORD = re.compile(r"[A-Za-z\u4e00-\u9fff]")
_LIST_INTRO = ("以下", "如下")
BULLET = re.compile(r"^[•·・]")
# 详见持续取对象 / 见X素材 / 详见#卡时点 / 详见“苏生限制”章节
REFERENCE = re.compile(r"(详见|见)\s*([^，。；,;（(\n]{1,24}?)\s*(?:[。；）)]|$)")


def is_heading(
    line: str, next_line: str | None, style: str = "blank-after", previous_line: str | None = None
) -> bool:
    """Whether a line is a topic heading under a document's heading style:
    `blank-after` (a short line followed by a blank one, or closing an indented
    block), `short-line` (any short line: for text without blank lines) or
    `none` (the document has no headings)."""
    if style == "none" or line != line.lstrip() or not line.strip():
        return False
    text = line.strip()
    looks_like_heading = (
        len(text) <= HEADING_MAX
        and not _NOT_IN_HEADING.search(text)
        and text not in NOTE_LABELS
        and not EXAMPLE_LABEL.match(text)
        and not SUBITEM.match(text)
        and _WORD.search(text) is not None  # 「;」 names nothing
        and not text.startswith(_LIST_INTRO)  # 以下的效果是…的例子 introduces a list
    )
    if style == "short-line":
        return looks_like_heading
    closes_block = (
        previous_line is not None and previous_line.strip() != "" and previous_line != previous_line.lstrip()
    )
    return looks_like_heading and (next_line is None or not next_line.strip() or closes_block)


def references(text: str) -> list[str]:
    """The targets of 详见X / 见X, as written (quotes and # removed)."""
    found = []
    for match in REFERENCE.finditer(text):
        target = re.sub(r"[“”\"『』#]", "", match.group(2)).strip()
        target = re.sub(r"(章节|段落说明|段落|一节)$", "", target)
        if re.search(r"[\w\u4e00-\u9fff]", target):
            found.append(target)
    return found


def read_topics(
    text: str, name: str, file: str, title: str, default_kind: str, headings: str = "blank-after"
) -> ParsedDocument:
    doc = ParsedDocument(name, file, title)
    lines = text.splitlines()
    nonblank_after = _next_nonblank(lines)
    # A title is said once; a short line said twice is a step (连锁结束 ends each
    # chain of the guide's examples), not a heading.
    said = Counter(line.strip() for line in lines if line.strip())

    group: Section | None = None
    topic: Section | None = None
    block: str | None = None  # "example" or "note" while inside a labelled block
    block_has_text = False
    anchor: Passage | None = None  # the ruling, paragraph or sub-rule that examples and notes belong to
    ruling: Passage | None = None  # the ruling or paragraph that sub-rules belong to
    last: Passage | None = None
    counters: dict[str, int] = {}
    slugs: dict[str, int] = {}

    def open_topic(heading: str, line_no: int, parent: Section | None) -> Section:
        slug = f"{name}/{heading}"
        slugs[slug] = slugs.get(slug, 0) + 1
        number = slug if slugs[slug] == 1 else f"{slug}#{slugs[slug]}"
        section = Section(
            number, heading, name, line_no, parent.number if parent else None, len(doc.sections)
        )
        doc.sections.append(section)
        return section

    def topic_path() -> str:
        parts = [s.title for s in (group, topic) if s is not None]
        return " › ".join(parts) if parts else title

    for index, raw in enumerate(lines):
        line_no = index + 1
        stripped = raw.strip()
        if not stripped:
            if block and block_has_text:
                block, block_has_text = None, False
            continue
        next_line = lines[index + 1] if index + 1 < len(lines) else None
        previous_line = lines[index - 1] if index else None
        if is_heading(raw, next_line, headings, previous_line) and not (
            headings == "short-line" and said[stripped] > 1
        ):
            following = nonblank_after[index]
            opens_group = (
                headings == "blank-after"
                and following is not None
                and is_heading(lines[following], lines[following + 1] if following + 1 < len(lines) else None)
            )
            if opens_group:
                group = open_topic(stripped, line_no, None)
                topic = None
            else:
                topic = open_topic(stripped, line_no, group)
            block, block_has_text, anchor, ruling, last = None, False, None, None, None
            continue
        if block and BULLET.match(stripped):
            block, block_has_text = None, False  # a • sub-rule ends the example above it
        label = EXAMPLE_LABEL.match(stripped)
        if stripped in NOTE_LABELS or (label and not label.group(1)):
            block, block_has_text = ("note" if stripped in NOTE_LABELS else "example"), False
            continue
        if label:  # 例：text on the same line
            block, block_has_text, stripped = "example", False, stripped

        home = topic or group
        base = home.number if home else name
        if block:
            kind = block
            block_has_text = True
        elif SUBITEM.match(stripped):
            kind = "subitem"
        else:
            kind = default_kind
        counters[base] = counters.get(base, 0) + 1
        if kind == "subitem":  # a sub-rule belongs to its ruling, not to the sub-rule before it
            parent = ruling.id if ruling else None
        else:
            parent = anchor.id if kind in ("example", "note") and anchor else None
        passage = Passage(
            f"{base}/{counters[base]}",
            name,
            kind,
            stripped,
            line_no,
            line_no,
            home.number if home else None,
            topic_path(),
            parent,
        )
        passage.flags = damage_flags(passage.text)
        passage.refs = references(stripped)
        doc.passages.append(passage)
        if kind == default_kind:
            ruling = passage
        if kind in (default_kind, "subitem"):
            anchor = passage  # examples and notes that follow belong to it
        last = passage
    del last
    return doc


def _next_nonblank(lines: list[str]) -> list[int | None]:
    result: list[int | None] = [None] * len(lines)
    upcoming: int | None = None
    for i in range(len(lines) - 1, -1, -1):
        result[i] = upcoming
        if lines[i].strip():
            upcoming = i
    return result
