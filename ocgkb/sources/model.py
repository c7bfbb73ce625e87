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
