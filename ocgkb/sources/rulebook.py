"""Reader of the numbered rulebook (000): sections 1 … 6.3.4.4.

- `4.2.2 cost` starts a section; its parent comes from the numbering alone, so a
  missing section (there is no 2, no 4.1) is never invented.
- `●` starts a clause; `例：` an example of the clause before it; `•` a sub-item.
- A bare line after an example continues it (the arithmetic `2500+700=3200…`);
  after a sub-item it continues the sub-item; after a clause it is a sub-item
  (numbered steps, lists of cards); before any clause it is a paragraph.
- When a chapter appears twice (section 6 does: a partial copy, then the full
  one), the copy with more text is kept and the other is reported as dropped.
"""

from __future__ import annotations

import functools
import re

from ocgkb.sources.model import ParsedDocument, Passage, Section
from ocgkb.text.textchecks import damage_flags

HEADING = re.compile(r"^(\d+(?:\.\d+)*)[ \u3000]+(\S.*)$")
EXAMPLE = re.compile(r"^例\s*[：:]\s*")
STEP = re.compile(r"^\d+\s*[.．、](?!\d)")  # 1.从自己场上… : a numbered step of a clause
# ●…是以下种类的魔法卡。 says what follows, not 4星以下 nor （以下略称…）.
INTRODUCES = re.compile(r"(?<![0-9０-９星个张级阶])(?:以下|如下|下列)(?!略|的?简称)[^。：:]*[。：:]$")


def parent_number(number: str, known: set[str]) -> str | None:
    """The nearest existing ancestor: 4.2.2 → 4.2; 4.2 (absent 4.1 aside) → 4."""
    parts = number.split(".")
    while len(parts) > 1:
        parts.pop()
        candidate = ".".join(parts)
        if candidate in known:
            return candidate
    return None


def _chapters(lines: list[str]) -> list[tuple[str, int, int]]:
    """(chapter number, first line index, end index) for each run of a top-level chapter."""
    runs: list[tuple[str, int, int]] = []
    start, current = 0, None
    for i, line in enumerate(lines):
        match = HEADING.match(line)
        if match and "." not in match.group(1):
            if current is not None:
                runs.append((current, start, i))
            current, start = match.group(1), i
    if current is not None:
        runs.append((current, start, len(lines)))
    return runs


def read_rulebook(text: str, name: str, file: str, title: str) -> ParsedDocument:
    doc = ParsedDocument(name, file, title)
    lines = text.splitlines()
    keep = _choose_chapter_copies(lines, doc)

    known: set[str] = set()
    section: Section | None = None
    clause: Passage | None = None
    last: Passage | None = None
    lister: Passage | None = None  # a clause whose list is ● lines, while they last
    new_id = _Ids()

    for index, raw in enumerate(lines):
        if not keep[index]:
            continue
        line_no = index + 1
        stripped = raw.strip()
        if not stripped:
            continue
        heading = HEADING.match(stripped)
        if heading or section is None:
            section = _open_section(doc, heading, known, line_no)
            if heading:
                clause = last = None
                continue
        base = section.number
        topic = f"{section.number} {section.title}"
        make = functools.partial(_passage, name, stripped, line_no, section.number, topic)

        if stripped.startswith("●") and _goes_on_list(lister, last, section):
            last = make("subitem", new_id(base, ""), lister.id)  # type: ignore[union-attr]
            doc.passages.append(last)
        elif stripped.startswith("●"):
            clause = last = make("clause", new_id(base, ""), None)
            lister = clause if INTRODUCES.search(stripped) else None
            doc.passages.append(clause)
        elif EXAMPLE.match(stripped):
            owner = clause.id if clause else base
            last = make("example", new_id(owner, "ex"), clause.id if clause else None)
            doc.passages.append(last)
        elif stripped.startswith(("•", "·", "・")) or (clause is not None and STEP.match(stripped)):
            owner = clause.id if clause else base
            last = make("subitem", new_id(owner, "sub"), clause.id if clause else None)
            doc.passages.append(last)
        elif last is not None and last.kind in ("example", "subitem"):
            last.extend(stripped, line_no)
        elif clause is not None:
            last = make("subitem", new_id(clause.id, "sub"), clause.id)
            doc.passages.append(last)
        else:
            last = make("paragraph", new_id(base, "p"), None)
            doc.passages.append(last)

    _finish(doc)
    return doc


def _open_section(doc: ParsedDocument, heading: re.Match | None, known: set[str], line_no: int) -> Section:
    """The section a heading opens, or section 0 for text before the first heading."""
    if heading:
        number, title = heading.group(1), heading.group(2).strip()
        section = Section(number, title, doc.name, line_no, parent_number(number, known), len(doc.sections))
    else:
        doc.notes.append(f"{doc.file}:{line_no}: text before the first section, kept as a paragraph")
        number, section = "0", Section("0", doc.title, doc.name, line_no)
    known.add(number)
    doc.sections.append(section)
    return section


def _goes_on_list(lister: Passage | None, last: Passage | None, section: Section) -> bool:
    """A ● line on the list of a clause that introduces one made of ● lines (3.1.5.1:
    以下种类的魔法卡。 then ●记载了「仪式」…), which runs to the end of its section."""
    if lister is None or last is None or lister.section != section.number:
        return False
    return last is lister or (last.parent == lister.id and last.text.startswith("●"))


class _Ids:
    """Passage ids numbered within their clause or section: 4.2.2/4, 4.2.2/4/ex1, 4.2.2/4/sub2."""

    def __init__(self) -> None:
        self.counters: dict[str, int] = {}

    def __call__(self, base: str, label: str) -> str:
        key = f"{base}/{label}"
        self.counters[key] = self.counters.get(key, 0) + 1
        return f"{base}/{label}{self.counters[key]}" if label else f"{base}/{self.counters[key]}"


def _finish(doc: ParsedDocument) -> None:
    """Flag what is damaged, and say which sections have no text."""
    for passage in doc.passages:
        passage.flags = damage_flags(passage.text)
    for section in doc.sections:
        if not any(p.section == section.number for p in doc.passages) and not any(
            s.parent == section.number for s in doc.sections
        ):
            doc.notes.append(f"section {section.number} {section.title} has no text in the source")


def _passage(
    doc: str, text: str, line_no: int, number: str, topic: str, kind: str, pid: str, parent: str | None
) -> Passage:
    return Passage(pid, doc, kind, text, line_no, line_no, number, topic, parent)


def _choose_chapter_copies(lines: list[str], doc: ParsedDocument) -> list[bool]:
    """Which lines to read: for a chapter that appears twice, only its fullest copy."""
    keep = [True] * len(lines)
    by_number: dict[str, list[tuple[int, int]]] = {}
    for number, start, end in _chapters(lines):
        by_number.setdefault(number, []).append((start, end))
    for number, copies in by_number.items():
        if len(copies) < 2:
            continue
        size = lambda span: sum(1 for line in lines[span[0] : span[1]] if line.strip())  # noqa: E731
        kept = max(copies, key=size)
        kept_text = {line.strip() for line in lines[kept[0] : kept[1]] if line.strip()}
        for start, end in copies:
            if (start, end) == kept:
                continue
            for i in range(start, end):
                keep[i] = False
            dropped = [line.strip() for line in lines[start:end] if line.strip()]
            unique = [line for line in dropped if line not in kept_text]
            doc.notes.append(
                f"duplicate dropped: section {number} at lines {start + 1}-{end} "
                f"({len(dropped)} lines) is a copy of lines {kept[0] + 1}-{kept[1]}"
                + (
                    f"; {len(unique)} of its lines are not in the kept copy"
                    if unique
                    else "; every line is in the kept copy"
                )
            )
    return keep
