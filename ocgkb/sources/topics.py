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
# 参照/参见/参考 a quoted heading (参照后面的“怪物战斗规则”) reads as 详见 it; 详见X / 见X.
# Unquoted, 参照 is no reference (参照该卡上记载的数值), nor a 「term」 (参照「原本攻击力」).
REFERENCE = re.compile(
    r"(?:参照|参见|参考)(?:后面|前面|下面|上面|下文|上文|以下|以上)?的?\s*[“\"《]([^“”\"《》\n]{1,24})[”\"》]"
    r"|(?:详见|见)\s*([^，。；,;（(\n]{1,24}?)\s*(?:[。；）)]|$)"
)


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
    """The targets of 详见X / 见X / 参照“X”, as written (quotes and # removed)."""
    found = []
    for match in REFERENCE.finditer(text):
        target = re.sub(r"[“”\"『』#]", "", match.group(1) or match.group(2)).strip()
        target = re.sub(r"(章节|段落说明|段落|一节)$", "", target)
        if re.search(r"[\w\u4e00-\u9fff]", target):
            found.append(target)
    return found


def read_topics(
    text: str, name: str, file: str, title: str, default_kind: str, headings: str = "blank-after"
) -> ParsedDocument:
    """A document of titled topics (the dated rulings, the wiki, the tournament
    rules, the guide): its topics as sections and its lines as passages."""
    reader = _TopicReader(text, name, file, title, default_kind, headings)
    for index, raw in enumerate(reader.lines):
        reader.read_line(index, raw)
    return reader.doc


class _TopicReader:
    """The state of reading a topic document line by line."""

    def __init__(self, text: str, name: str, file: str, title: str, default_kind: str, headings: str) -> None:
        self.doc = ParsedDocument(name, file, title)
        self.name, self.title, self.default_kind, self.headings = name, title, default_kind, headings
        self.lines = text.splitlines()
        self.nonblank_after = _next_nonblank(self.lines)
        # A title is said once; a short line said twice is a step (连锁结束 ends each
        # chain of the guide's examples), not a heading.
        self.said = Counter(line.strip() for line in self.lines if line.strip())
        self.group: Section | None = None
        self.topic: Section | None = None
        self.block: str | None = None  # "example" or "note" while inside a labelled block
        self.block_has_text = False
        self.anchor: Passage | None = None  # the ruling, paragraph or sub-rule examples and notes belong to
        self.ruling: Passage | None = None  # the ruling or paragraph that sub-rules belong to
        self.counters: dict[str, int] = {}
        self.slugs: dict[str, int] = {}

    def read_line(self, index: int, raw: str) -> None:
        stripped = raw.strip()
        if not stripped:
            if self.block and self.block_has_text:
                self.block, self.block_has_text = None, False
            return
        if self._is_heading(index, raw, stripped):
            self._open_heading(index, stripped)
            return
        if self.block and BULLET.match(stripped):
            self.block, self.block_has_text = None, False  # a • sub-rule ends the example above it
        label = EXAMPLE_LABEL.match(stripped)
        if stripped in NOTE_LABELS or (label and not label.group(1)):
            self.block, self.block_has_text = ("note" if stripped in NOTE_LABELS else "example"), False
            return
        if label:  # 例：text on the same line
            self.block, self.block_has_text = "example", False
        self._add_passage(index + 1, stripped)

    def _is_heading(self, index: int, raw: str, stripped: str) -> bool:
        lines = self.lines
        next_line = lines[index + 1] if index + 1 < len(lines) else None
        previous_line = lines[index - 1] if index else None
        return is_heading(raw, next_line, self.headings, previous_line) and not (
            self.headings == "short-line" and self.said[stripped] > 1
        )

    def _open_heading(self, index: int, stripped: str) -> None:
        lines, following = self.lines, self.nonblank_after[index]
        opens_group = (
            self.headings == "blank-after"
            and following is not None
            and is_heading(lines[following], lines[following + 1] if following + 1 < len(lines) else None)
        )
        if opens_group:
            self.group, self.topic = self._open_topic(stripped, index + 1, None), None
        else:
            self.topic = self._open_topic(stripped, index + 1, self.group)
        self.block, self.block_has_text, self.anchor, self.ruling = None, False, None, None

    def _open_topic(self, heading: str, line_no: int, parent: Section | None) -> Section:
        slug = f"{self.name}/{heading}"
        self.slugs[slug] = self.slugs.get(slug, 0) + 1
        number = slug if self.slugs[slug] == 1 else f"{slug}#{self.slugs[slug]}"
        section = Section(
            number, heading, self.name, line_no, parent.number if parent else None, len(self.doc.sections)
        )
        self.doc.sections.append(section)
        return section

    def _add_passage(self, line_no: int, stripped: str) -> None:
        home = self.topic or self.group
        base = home.number if home else self.name
        if self.block:
            kind = self.block
            self.block_has_text = True
        elif SUBITEM.match(stripped):
            kind = "subitem"
        else:
            kind = self.default_kind
        self.counters[base] = self.counters.get(base, 0) + 1
        if kind == "subitem":  # a sub-rule belongs to its ruling, not to the sub-rule before it
            parent = self.ruling.id if self.ruling else None
        else:
            parent = self.anchor.id if kind in ("example", "note") and self.anchor else None
        path = " › ".join(s.title for s in (self.group, self.topic) if s is not None) or self.title
        passage = Passage(
            f"{base}/{self.counters[base]}", self.name, kind, stripped, line_no, line_no,
            home.number if home else None, path, parent,
        )  # fmt: skip
        passage.flags = damage_flags(passage.text)
        passage.refs = references(stripped)
        self.doc.passages.append(passage)
        if kind == self.default_kind:
            self.ruling = passage
        if kind in (self.default_kind, "subitem"):
            self.anchor = passage  # examples and notes that follow belong to it


def _next_nonblank(lines: list[str]) -> list[int | None]:
    result: list[int | None] = [None] * len(lines)
    upcoming: int | None = None
    for i in range(len(lines) - 1, -1, -1):
        result[i] = upcoming
        if lines[i].strip():
            upcoming = i
    return result
