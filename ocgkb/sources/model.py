"""The records the parsers produce and the store keeps."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Section:
    """A numbered section of the rulebook (`4.2.2 cost`) or a topic heading elsewhere."""

    number: str
    title: str
    doc: str
    line: int
    parent: str | None = None
    order: int = 0


@dataclass
class Passage:
    """One citable piece of text: a clause, sub-item, example, ruling, note or paragraph.

    `id` is stable across rebuilds: it comes from the document's structure
    (`4.2.2/2` is the second bullet of 4.2.2), never from a counter over the file.
    """

    id: str
    doc: str
    kind: str
    text: str
    line: int
    line_end: int
    section: str | None = None  # rulebook section number, or topic number elsewhere
    topic: str = ""  # readable path: "4.2.2 cost" or "基本用语 › cost"
    parent: str | None = None  # the clause or ruling this example / sub-item belongs to
    flags: list[str] = field(default_factory=list)  # why the text looks damaged
    refs: list[str] = field(default_factory=list)  # 详见X: the X as written
    # An added documentation's passages (sources/rst_docs.py) say more of where they stand:
    file: str | None = None  # its file, when its document spans many (else the document's)
    citations: list[dict] = field(default_factory=list)  # date, raw, url, fid, source of each dated link
    source_note: str | None = None  # where its ruling comes from: faq, wiki, link, mail, undated
    xrefs: list[str] = field(default_factory=list)  # the sections its :ref: links name

    def extend(self, line_text: str, line_no: int) -> None:
        """A continuation line (an arithmetic line under an example, a list under a sub-item)."""
        self.text += "\n" + line_text
        self.line_end = line_no


@dataclass
class ParsedDocument:
    name: str
    file: str
    title: str
    sections: list[Section] = field(default_factory=list)
    passages: list[Passage] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what the build report should say
    fallbacks: list[str] = field(default_factory=list)  # passages placed by a fallback rule, and why


@dataclass
class Edition(ParsedDocument):
    """A user's rulings documentation, read from its .rst files: one document of
    many files (`file` is the folder it was read from)."""

    root: str = ""
    files: list[str] = field(default_factory=list)  # the .rst files read, in reading order
    card_links: dict[str, str] = field(default_factory=dict)  # a linked name → card, search or link
    newest: str | None = None  # the newest date it cites


def edition_to_json(edition: Edition) -> dict:
    """An edition as plain JSON (the build keeps what it parsed, sources/added.py's copies aside)."""
    from dataclasses import asdict

    return asdict(edition)


def edition_from_json(data: dict) -> Edition:
    """The edition edition_to_json wrote."""
    fields = {k: v for k, v in data.items() if k not in ("sections", "passages")}
    edition = Edition(**fields)
    edition.sections = [Section(**s) for s in data["sections"]]
    edition.passages = [Passage(**p) for p in data["passages"]]
    return edition
