"""Reader of the documents organised by topic headings instead of numbers: the
rulings (002), the wiki article (001), the tournament text (003) and the guide (004).

- A heading is a short, unindented line with no sentence punctuation, no quotes
  and no date, followed by a blank line. A heading followed straight by another
  heading opens a group (基本用语 › cost).
- `例：` opens examples, `注意` / `备注` / `小技巧` open notes.
- `•` lines and numbered lines (`1. `, `2．`) are sub-items.
- Every other line is a ruling (002) or a paragraph (the others).

Where a line sits (its parent) comes from the layout, read in one of two ways:

- **Indented** (002): the columns say it. A
  `•` sub-rule belongs to the bullet whose text column encloses it, an unmarked
  line at a bullet's text column says more of that bullet (under it), a line left
  of an open `例：` block steps out of it, and a note owns the examples after it.
  An undated line right under an undated statement says more of it and joins it
  (one statement, its id's number skipped so the ids after it stay); a dated line
  is a ruling of its own.
- **Outline** (003, 004: flat text): the kind of line says it. An introducing
  line (`规则用语：`, `…以下…：`) owns what follows; a bare `·term` heads its
  definition as a topic; an item (`1．`, `X：…`) owns the plain lines under it; a numbered
  list's item that wraps onto a second line is carried on.
- **Paragraphs** (001): each line is a paragraph of its own; a list belongs to
  the paragraph before it.

The manifest names each document's layout.

When neither says, a rule falls back on the topic's lead statement; those
passages are listed in `ParsedDocument.fallbacks` for the build report.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from ocgkb.sources.model import ParsedDocument, Passage, Section
from ocgkb.text.textchecks import damage_flags

NOTE_LABELS = ("注意", "备注", "小技巧")
EXAMPLE_LABEL = re.compile(r"^例\d*\s*[：:]\s*(.*)$")
SUBITEM = re.compile(r"^(?:[•·・]|\d+\s*[.．、](?!\d))")
_NOT_IN_HEADING = re.compile(r"[。，；！？：:!?「」『』【】“”]|\d{2}/\d{1,2}/\d{1,2}")
HEADING_MAX = 16
_WORD = re.compile(r"[A-Za-z\u4e00-\u9fff]")
_LIST_INTRO = ("以下", "如下")
BULLET = re.compile(r"^([•·・●]\s*)")
ITEM_MARK = re.compile(r"^(?:[•·・●]|\d+\s*[.．、](?!\d))\s*")  # a bullet or a list number
NUMBERED = re.compile(r"^(\d+)\s*[.．、](?!\d)")
# 详见持续取对象 / 见X素材 / 详见#卡时点 / 详见“苏生限制”章节
# 参照/参见/参考 a quoted heading (参照后面的“怪物战斗规则”) reads as 详见 it; 详见X / 见X.
# Unquoted, 参照 is no reference (参照该卡上记载的数值), nor a 「term」 (参照「原本攻击力」).
REFERENCE = re.compile(
    r"(?:参照|参见|参考)(?:后面|前面|下面|上面|下文|上文|以下|以上)?的?\s*[“\"《]([^“”\"《》\n]{1,24})[”\"》]"
    r"|(?:详见|见)\s*([^，。；,;（(\n]{1,24}?)\s*(?:[。；）)]|$)"
)
# What an example looks like in the rulings: a situation with cards in 「」, or a
# dated one. A line inside an example block with neither is a statement again
# (衍生物不能变成里侧表示。 after the examples of 衍生物不能成为X素材。).
_DATE = re.compile(r"\d{2}/\d{1,2}/\d{1,2}")
# Outline lines: a line that introduces what follows ends in a colon or says 以下;
# a bare term is short and says no sentence; a labelled item starts `名称：`.
_INTRO_END = re.compile(r"[：:]\s*$")
_SENTENCE = re.compile(r"[。，；！？:：,;!?]")
TERM_MAX = 20
# Ranks of the outline layout, highest first: ●header, an introducing line, a bare
# ·term, an item (1．… / ·X：… / 名称：…), a plain line.
HEADER, INTRO, TERM, ITEM, PLAIN = range(5)
LAYOUTS = ("indented", "outline", "paragraphs")
_LABELLED = re.compile(r"^[^，。：:「」“”]{1,10}[：:]\s*\S")
# An item of a list in paragraphs: a label of a few words or a number, then a colon.
_PARAGRAPH_LABEL = re.compile(r"^([^，。：:「」“”（(]{1,16}?)(?:指的是)?[：:]\s*\S")
# Notes written inline: 注意：… PS：… 特别提醒：… ※… *…
_INLINE_NOTE = re.compile(r"^(?:注意|备注|PS|ps|特别提醒|提醒|小技巧)\s*[：:]|^[※*＊]")
_TERMINAL = "。！？!?）)」』”"


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
    if style == "short-line":  # with no blank lines to tell, 连锁照以下清算 introduces a list
        return looks_like_heading and not any(w in text for w in _LIST_INTRO)
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
    text: str,
    name: str,
    file: str,
    title: str,
    default_kind: str,
    headings: str = "blank-after",
    layout: str = "indented",
) -> ParsedDocument:
    """A document of titled topics (the dated rulings, the wiki, the tournament
    rules, the guide): its topics as sections and its lines as passages, placed
    by `layout` (indented, outline or paragraphs)."""
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}: one of {', '.join(LAYOUTS)}")
    reader = _TopicReader(text, name, file, title, default_kind, headings, layout)
    for index, raw in enumerate(reader.lines):
        reader.read_line(index, raw)
    return reader.doc


def indent_of(raw: str) -> int:
    """The column a line's text starts at (an ideographic space counts two)."""
    width = 0
    for char in raw:
        if char == " ":
            width += 1
        elif char == "\u3000":
            width += 2
        elif char == "\t":
            width += 4
        else:
            break
    return width


@dataclass
class _Frame:
    """An open bullet or list item (indented layout): its marker's column, its text's column."""

    column: int
    text_column: int
    passage: Passage


@dataclass
class _Block:
    """An open 例： or 注意 block: its kind, the label's column, whom it belongs to,
    and (for a note) the note passage its lines and later examples belong to."""

    kind: str
    column: int
    owner: Passage | None
    note: Passage | None = None
    has_text: bool = False


@dataclass
class _Owner:
    """An open owner in the outline layout: its rank (HEADER … ITEM) and passage."""

    rank: int
    passage: Passage


class _TopicReader:
    """The state of reading a topic document line by line."""

    def __init__(
        self, text: str, name: str, file: str, title: str, default_kind: str, headings: str, layout: str
    ) -> None:
        self.doc = ParsedDocument(name, file, title)
        self.name, self.title, self.default_kind, self.headings = name, title, default_kind, headings
        self.layout = layout
        self.lines = text.splitlines()
        self.nonblank_after = _next_nonblank(self.lines)
        # A title is said once; a short line said twice is a step (连锁结束 ends each
        # chain of the guide's examples), not a heading.
        self.said = Counter(line.strip() for line in self.lines if line.strip())
        self.group: Section | None = None
        self.topic: Section | None = None
        self.term: Section | None = None  # a ·term of the outline layout heads its definition
        self.term_lines: int | None = None  # plain lines under a ·term so far (None: a colon heading)
        self.counters: dict[str, int] = {}
        self.slugs: dict[str, int] = {}
        self.block: _Block | None = None
        self.frames: list[_Frame] = []  # open bullets, outermost first (indented layout)
        self.owners: list[_Owner] = []  # open owners, highest first (outline layout)
        self.lead: Passage | None = None  # the statement that opens the current paragraph
        self.statement: Passage | None = None  # the latest unindented statement
        self.paragraph: list[Passage] = []  # the unindented statements of the current paragraph
        self.last: Passage | None = None
        # A numbered list a statement introduced (分为以下3种：), and its items' column:
        # its later items may come after explanations of the earlier ones (indented layout).
        self.numbered_list: _Frame | None = None
        self.after_blank = True

    # Reading -------------------------------------------------------------

    def read_line(self, index: int, raw: str) -> None:
        stripped = raw.strip()
        if not stripped:
            if self.block and self.block.has_text:
                self.block = None
            self.after_blank = True
            return
        if self._is_heading(index, raw, stripped):
            self._open_heading(index, stripped)
        elif self.layout == "indented":
            self._read_indented(index, raw, stripped)
        else:
            self._read_outline(index, stripped)
        self.after_blank = False

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
        self.block, self.frames, self.owners, self.term, self.term_lines = None, [], [], None, None
        self.lead = self.statement = self.last = None
        self.numbered_list = None

    def _open_topic(self, heading: str, line_no: int, parent: Section | None) -> Section:
        slug = f"{self.name}/{heading}"
        self.slugs[slug] = self.slugs.get(slug, 0) + 1
        number = slug if self.slugs[slug] == 1 else f"{slug}#{self.slugs[slug]}"
        section = Section(
            number, heading, self.name, line_no, parent.number if parent else None, len(self.doc.sections)
        )
        self.doc.sections.append(section)
        return section

    # The indented layout (002) ---------------------------------------------

    def _read_indented(self, index: int, raw: str, stripped: str) -> None:
        column = indent_of(raw)
        line_no = index + 1
        bullet = ITEM_MARK.match(stripped)
        label = EXAMPLE_LABEL.match(stripped)
        block = self.block
        if block and (
            column < block.column
            or bullet
            or (block.kind == "example" and not label and not _looks_like_example(stripped))
        ):
            self.block = block = None  # stepped out, a new sub-rule, or a statement again
        if stripped in NOTE_LABELS or (label and not label.group(1)):
            self._open_block("note" if stripped in NOTE_LABELS else "example", column)
            return
        if label:  # 例：text on the same line
            self._open_block("example", column)
            block = self.block
        if block:
            self._add_to_block(block, line_no, stripped)
        elif bullet:
            self._add_bullet(column, line_no, stripped, bullet.end())
        elif column > 0:
            self._add_indented_text(column, line_no, stripped)
        else:
            # A paragraph starts after a blank line, or where the text steps back out
            # of examples, a note or an indented block; its first statement leads it.
            starts = self.after_blank or self.lead is None or self.frames
            starts = starts or (self.last is not None and self.last.kind in ("example", "note"))
            self.frames = []
            if not starts and self._goes_on_saying(stripped):
                self._carry(self.statement, line_no, stripped)  # type: ignore[arg-type]
                self._next_id()  # the ids after it stay what they were
                return
            passage = self._add(line_no, stripped, self.default_kind, None)
            self.statement = passage
            if starts:
                self.lead, self.paragraph = passage, []
            self.paragraph.append(passage)

    def _goes_on_saying(self, stripped: str) -> bool:
        """An undated line right under an undated statement of the same paragraph says
        more of it (通常召唤包括召唤和盖放。 / 召唤即表侧表示通常召唤…): one statement.
        A dated line is a ruling of its own, and a line ending in a colon opens a list."""
        statement = self.statement
        if statement is None or self.last is not statement:
            return False
        dated = _DATE.search(statement.text) or _DATE.search(stripped)
        return not dated and not _INTRO_END.search(statement.text) and not _INTRO_END.search(stripped)

    def _open_block(self, kind: str, column: int) -> None:
        """A 例： or 注意 label: the block belongs to the note just read, else to the
        innermost bullet at or left of the label's column, else to the statement."""
        owner: Passage | None
        if kind == "example" and self.block and self.block.kind == "note" and self.block.note:
            owner = self.block.note
        elif kind == "example" and self.last is not None and self.last.kind == "note":
            owner = self.last
        else:
            outermost = self.frames[0].passage if self.frames else None
            self._close_frames(column + 1)
            # Examples and notes at the margin are of the paragraph: its first statement.
            owner = self.frames[-1].passage if self.frames and column > 0 else self.lead
            owner = owner or outermost  # a topic that opens on its bullets: the note is on them
        self.block = _Block(kind, column, owner)

    def _add_to_block(self, block: _Block, line_no: int, stripped: str) -> None:
        block.has_text = True
        if block.kind == "note" and block.note is not None:
            self._carry(block.note, line_no, stripped)
            return
        owner = block.owner
        if owner is not None and owner is self.lead and len(self.paragraph) > 1:
            # 例： under several statements: the one it illustrates.
            owner = _closest(stripped, self.paragraph)
        passage = self._add(line_no, stripped, block.kind, owner.id if owner else None)
        if block.owner is None:
            self._fallback(passage, "an example or note before any statement of its topic")
        if block.kind == "note":
            block.note = passage

    def _add_bullet(self, column: int, line_no: int, stripped: str, marker: int) -> None:
        self._close_frames(column)
        numbered = NUMBERED.match(stripped) is not None
        listed = self.numbered_list
        if self.frames:
            parent: Passage | None = self.frames[-1].passage
        elif self.statement is not None and _INTRO_END.search(self.statement.text):
            parent = self.statement  # 分为以下3种： opens the list under it
            if numbered:
                self.numbered_list = _Frame(column, column, parent)
        elif numbered and listed is not None and listed.column == column:
            parent = listed.passage  # the list's next item, after what explains the one before
        else:
            parent = self.lead
        passage = self._add(line_no, stripped, "subitem", parent.id if parent else None)
        placed = self.frames or parent is self.statement or (listed is not None and parent is listed.passage)
        if parent is not None and not placed:
            self._fallback(passage, "a sub-rule after several statements: under the paragraph's first")
        self.frames.append(_Frame(column, column + marker, passage))

    def _add_indented_text(self, column: int, line_no: int, stripped: str) -> None:
        """An unmarked indented line says more of the bullet whose text it lines up with."""
        self._close_frames(column + 1)
        owner = self.frames[-1].passage if self.frames else self.statement
        passage = self._add(line_no, stripped, "subitem", owner.id if owner else None)
        if not self.frames:
            self._fallback(passage, "an indented line under no bullet: under the statement above")

    def _close_frames(self, column: int) -> None:
        """Close the bullets whose marker sits at or right of `column`."""
        while self.frames and self.frames[-1].column >= column:
            self.frames.pop()

    # The outline layout (001, 003, 004) -----------------------------------

    def _read_outline(self, index: int, stripped: str) -> None:
        line_no = index + 1
        label = EXAMPLE_LABEL.match(stripped)
        if stripped in NOTE_LABELS or (label and not label.group(1)):
            self.block = _Block("note" if stripped in NOTE_LABELS else "example", 0, self.last)
            return
        if label or _INLINE_NOTE.match(stripped):
            kind = "example" if label else "note"
            owner = self.last if self.last is not None and self.last.kind != kind else None
            owner = owner or (self._owner_of(self.last) if self.last else None)
            passage = self._add(line_no, stripped, kind, owner.id if owner else None)
            if owner is None:
                self._fallback(passage, f"an {kind} before any statement of its topic")
            return
        if self.block:
            self.block.has_text = True
            owner = self.block.owner
            passage = self._add(line_no, stripped, self.block.kind, owner.id if owner else None)
            return
        if self._wraps_list_item(index, stripped):
            self._carry(self.last, line_no, stripped)  # type: ignore[arg-type]
            return
        if stripped.startswith(("（", "(")) and self.last is not None and self.layout == "outline":
            self._add(line_no, stripped, self.default_kind, self.last.id)  # an aside on the line before
            return
        if self.layout == "paragraphs":  # every line its own paragraph; a list under the one before
            rank = ITEM if SUBITEM.match(stripped) or self._labels_next_item(stripped) else PLAIN
            self.owners = []
        else:
            rank = self._rank(index, stripped)
        self._place_outline(line_no, stripped, rank)

    def _place_outline(self, line_no: int, stripped: str, rank: int) -> None:
        if rank <= TERM or (rank == PLAIN and self.term_lines is not None and self.term_lines >= 1):
            # A ·term heads its definition (and the cases under it), not the plain
            # paragraphs after it: text with no headings would otherwise never leave it.
            self.term, self.term_lines = None, None
            if rank == PLAIN:
                self.owners = []
        if rank == TERM:  # ·洗牌 heads its definition as a topic of its own
            self.owners = []
            body = _INTRO_END.sub("", BULLET.sub("", stripped))
            self.term = self._open_topic(body, line_no, self.topic or self.group)
            self.term_lines = 0 if BULLET.match(stripped) else None
            self.lead = None
            return
        if rank == PLAIN and self.term_lines is not None:
            self.term_lines += 1
        number = NUMBERED.match(stripped)
        restarts = (
            number and int(number.group(1)) == 1 and self.last is not None and self.last.kind != "paragraph"
        )
        if rank < PLAIN:
            if restarts:  # 1． after another list starts a list of its own, headed by nothing left
                self.owners, self.lead = [], None
            while (
                self.owners
                and self.owners[-1].rank >= rank
                and not _sub_label(self.owners[-1].passage, stripped)
            ):
                self.owners.pop()
        else:  # a numbered item owns nothing but its wrapped second line (read before)
            while self.owners and NUMBERED.match(self.owners[-1].passage.text):
                self.owners.pop()
            # A plain line after an introduced list ends it in text with no headings to end it.
            if (
                self.headings == "none"
                and self.owners
                and self.owners[-1].rank == INTRO
                and self.last is not self.owners[-1].passage
            ):
                if self.last is not None and self.last.parent == self.owners[-1].passage.id:
                    self.owners.pop()
        owner = self.owners[-1].passage if self.owners else None
        if owner is None and rank == ITEM and not BULLET.match(stripped) and not restarts:
            owner = self.lead  # a list (1．…, 名称：…) under the statement that opens it; ·X：… stands alone
        # A marked line is a sub-item, and so is an item of the list a line introduces.
        introduced = owner is not None and _introduces(owner.text)
        marked = SUBITEM.match(stripped) or BULLET.match(stripped)
        kind = "subitem" if marked or introduced else self.default_kind
        passage = self._add(line_no, stripped, kind, owner.id if owner else None)
        if rank < PLAIN:
            self.owners.append(_Owner(rank, passage))
        elif owner is None and self.term is None:  # under a term, the term leads
            self.lead = passage

    def _rank(self, index: int, stripped: str) -> int:
        """How high a line stands in the outline (HEADER … PLAIN)."""
        bullet = BULLET.match(stripped)
        body = stripped[len(bullet.group(1)) :] if bullet else stripped
        if stripped.startswith("●"):
            return HEADER  # ●有关违反规则和二次违规。 heads what follows
        heading = _INTRO_END.sub("", body)
        short = heading != body and len(heading) <= HEADING_MAX and not _SENTENCE.search(heading)
        following = self.nonblank_after[index]
        leads_on = following is not None and self._is_item(self.lines[following].strip())
        if short and self.headings != "none" and not leads_on:
            return TERM  # 回合玩家的优先权： heads what follows, as ·洗牌 does, where the text has headings
        if bullet and len(body) <= TERM_MAX and not _SENTENCE.search(body):
            return TERM
        if self._is_item(stripped):
            return ITEM
        # Said under nothing but a ●header (代表性的违规… over its numbered list), not under a term.
        heads = self.term is None and (not self.owners or self.owners[-1].rank == HEADER)
        says_list = any(w in stripped for w in _LIST_INTRO)
        if _introduces(stripped) or (leads_on and heads and (says_list or self.owners)):
            return INTRO
        return PLAIN

    def _labels_next_item(self, stripped: str) -> bool:
        """In paragraphs, a labelled line (攻击表示怪兽与守备表示怪兽：…, 1：…) that goes on
        the list a paragraph ending in a colon introduces; a numbered list ends where
        its numbers do."""
        lead, last = self.lead, self.last
        label = _PARAGRAPH_LABEL.match(stripped)
        if lead is None or last is None or not label or not _INTRO_END.search(lead.text):
            return False
        if last is lead:
            return True
        numbered = _PARAGRAPH_LABEL.match(last.text)
        return (
            last.parent == lead.id
            and bool(numbered)
            and (numbered.group(1).isdigit() == label.group(1).isdigit())
        )

    @staticmethod
    def _is_item(stripped: str) -> bool:
        return bool(SUBITEM.match(stripped) or BULLET.match(stripped) or _LABELLED.match(stripped))

    def _wraps_list_item(self, index: int, stripped: str) -> bool:
        """A plain line between items N and N+1 of a numbered list, after an item that
        stops mid-sentence, is that item's second line (003: 3．…若是思考时间 / 过久的话…)."""
        last = self.last
        if last is None or self._is_item(stripped) or _INLINE_NOTE.match(stripped):
            return False
        number = NUMBERED.match(last.text)
        following = self.nonblank_after[index]
        if not number or last.text.rstrip()[-1] in _TERMINAL or following is None:
            return False
        after = NUMBERED.match(self.lines[following].strip())
        return bool(after and int(after.group(1)) == int(number.group(1)) + 1)

    def _owner_of(self, passage: Passage) -> Passage | None:
        parent = passage.parent
        return next((p for p in reversed(self.doc.passages) if p.id == parent), None) if parent else None

    # Passages ---------------------------------------------------------------

    def _next_id(self) -> str:
        """The next passage id of the current topic (each topic numbers its own)."""
        home = self.term or self.topic or self.group
        base = home.number if home else self.name
        self.counters[base] = self.counters.get(base, 0) + 1
        return f"{base}/{self.counters[base]}"

    def _add(self, line_no: int, stripped: str, kind: str, parent: str | None) -> Passage:
        home = self.term or self.topic or self.group
        path = " › ".join(s.title for s in (self.group, self.topic, self.term) if s is not None) or self.title
        passage = Passage(
            self._next_id(), self.name, kind, stripped, line_no, line_no,
            home.number if home else None, path, parent,
        )  # fmt: skip
        passage.flags = damage_flags(passage.text)
        passage.refs = references(stripped)
        self.doc.passages.append(passage)
        self.last = passage
        return passage

    def _carry(self, passage: Passage, line_no: int, stripped: str) -> None:
        """A line that carries a statement on joins its passage."""
        passage.extend(stripped, line_no)
        passage.flags = damage_flags(passage.text)
        passage.refs = references(passage.text)

    def _fallback(self, passage: Passage, why: str) -> None:
        self.doc.fallbacks.append(f"{passage.id} ({self.doc.file}:{passage.line}): {why}")


def _pairs(text: str) -> set[str]:
    return {text[i : i + 2] for i in range(len(text) - 1)}


def _closest(text: str, statements: list[Passage]) -> Passage:
    """The statement an example or note says most again (shared character pairs,
    for the statement's length); the first of the paragraph when none stands out."""
    pairs = _pairs(re.sub(r"「[^」]*」|\d+/\d+/\d+", "", text))

    def overlap(statement: Passage) -> float:
        own = _pairs(statement.text)
        return len(pairs & own) / (len(own) ** 0.5 or 1.0)

    best = max(statements, key=overlap)
    return best if overlap(best) > overlap(statements[0]) else statements[0]


def _introduces(text: str) -> bool:
    """A line that introduces a list: it ends in a colon, or it is short, says 以下 and
    holds no sentence (连锁照以下清算)."""
    short_list = len(text) <= HEADING_MAX and not _SENTENCE.search(text)
    return _INTRO_END.search(text) is not None or (short_list and any(w in text for w in _LIST_INTRO))


def _sub_label(owner: Passage, line: str) -> bool:
    """结束阶段必须做的：… under 结束阶段：…: the label says more of the owner's label."""
    above, below = _LABELLED.match(owner.text), _LABELLED.match(line)
    if not above or not below:
        return False
    label = above.group(0).split("：")[0].split(":")[0]
    return len(label) >= 2 and below.group(0).startswith(label) and below.group(0) != above.group(0)


def _looks_like_example(text: str) -> bool:
    return "「" in text or _DATE.search(text) is not None


def _next_nonblank(lines: list[str]) -> list[int | None]:
    result: list[int | None] = [None] * len(lines)
    upcoming: int | None = None
    for i in range(len(lines) - 1, -1, -1):
        result[i] = upcoming
        if lines[i].strip():
            upcoming = i
    return result
