"""Reader of a user's rulings documentation in reStructuredText (a Sphinx site's
`docs/…/*.rst`), parsed by docutils with Sphinx's vocabulary registered
(sources/sphinx_vocabulary.py). No reST is parsed by hand.

The structure is the document's own:

- the file and its heading path are the topic (`基本用语 › cost`, as 002 prints it);
- each line of a line block, each paragraph, each list item is a statement
  (`ruling`); a line `例：` opens the examples of its block's first statement;
- a numbered line (`1. …`, `A. …`) or a nested line block under a statement, a
  nested list, or a list after a line that introduces it (`…：`) is its `subitem`;
- an admonition (`.. note::`, `.. attention::`, `.. tip::`…), a sidebar or a
  footnote is a `note` on the statement before it;
- a `:ref:` link is a cross-reference to the labelled heading, found in any file;
- a date link (`17/3/24 <…faq_search.action?…fid=10239…>`) is a citation with
  its date, official FAQ id and address; an example with no date says where the
  document says such examples come from (`mail` where it says 邮件), else `undated`;
- a card link 「`灰流丽`_」 is read as its name in 「」; its target (links.rst, or
  the file's own) says whether the name is a card or a search (an archetype).

The reading order is the table of contents' (`.. toctree::` from index.rst), the
root document's own text last, then any file no table lists. Problems that do
not stop the reading (a link with no target, a file no table lists) are notes for
the build report; a file that is not reST (an error docutils reports, an unknown
directive or role), not UTF-8, empty or over the size limit stops it in one line.
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from ocgkb import OcgkbError
from ocgkb.sources.dates import to_iso
from ocgkb.sources.model import Edition, Passage, Section
from ocgkb.text.textchecks import damage_flags

# The most one .rst file may hold (the largest of a real edition is 0.75 MB), and a whole edition.
MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_EDITION_BYTES = 64 * 1024 * 1024
MAX_FILES = 2000
# A Sphinx project's own folders that hold no documents.
_SKIPPED_FOLDERS = {"_build", "_static", "_templates", ".static", ".templates", "node_modules"}

_DATE_TEXT = re.compile(r"^\s*(\d{2})/(\d{1,2})/(\d{1,2})\s*$")
_EXAMPLE_LABEL = re.compile(r"^例\d*\s*[：:]\s*(.*)$", re.DOTALL)
_NUMBERED = re.compile(r"^(?:\d{1,2}\s*[.．、](?!\d)|[A-H]\s*[.．、]\s*|[（(]\d{1,2}[)）])")
_INTRODUCES = ("：", ":")
_TARGET_LINE = re.compile(r"^\.\. _`(.+?)`: (\S.*)$")
_NAMED_REFERENCE = re.compile(r"`([^`<>]+?)`_(?!_)")
_LEFT_MARKUP = re.compile(r"`([^`\n]+?)`_{1,2}")
_MESSAGE = re.compile(r"^(?P<path>.*?):(?P<line>\d+)?:? ?\((?P<level>[A-Z]+)/(?P<n>\d)\) (?P<text>.*)$")
# What an undated example's source is, when the document says so in one line
# (没有日期的例子基本来自…邮件答复: examples with no date come from mail replies).
_UNDATED_SAYS_MAIL = re.compile(r"没有日期.{0,40}邮件|邮件.{0,40}没有日期")
SOURCE_KINDS = ("faq", "wiki", "link", "mail", "undated")
_ADMONITIONS = ("admonition", "attention", "caution", "danger", "error", "hint", "important", "note", "tip",
                "warning", "sidebar", "topic", "footnote", "rubric")  # fmt: skip


class RulingsDocsError(OcgkbError):
    """A rulings documentation that cannot be read: missing, empty, not reST, not UTF-8, too large."""


@dataclass
class DocFile:
    """One .rst file of an edition: its path from the documentation's root and its text."""

    path: str
    text: str


def find_files(path: str | os.PathLike[str]) -> tuple[Path, list[Path]]:
    """The documentation's root folder and its .rst files, for a folder holding
    `docs/…/*.rst`, a folder of .rst files, or one .rst file. A missing path, an
    empty folder or one with no .rst file is a one-line RulingsDocsError."""
    given = Path(path).expanduser()
    if not given.exists():
        raise RulingsDocsError(f"{given}: no such file or folder")
    if given.is_file():
        if given.suffix != ".rst":
            raise RulingsDocsError(
                f"{given}: not an .rst file (give a folder holding docs/…/*.rst, or one .rst)"
            )
        return given.parent, [given]
    if not given.is_dir():
        raise RulingsDocsError(f"{given}: neither a folder nor an .rst file")
    root = given / "docs" if (given / "docs").is_dir() else given
    files = []
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if d not in _SKIPPED_FOLDERS and not d.startswith("."))
        files += [Path(folder) / n for n in sorted(names) if n.endswith(".rst")]
        if len(files) > MAX_FILES:
            raise RulingsDocsError(
                f"{given}: more than {MAX_FILES} .rst files; is this a documentation folder?"
            )
    if not files:
        empty = not any(given.iterdir())
        raise RulingsDocsError(f"{given}: {'the folder is empty' if empty else 'no .rst file in it'}")
    return root, files


def read_files(root: Path, files: list[Path]) -> list[DocFile]:
    """Each file's text: a file over MAX_FILE_BYTES, not UTF-8 or unreadable is a
    one-line RulingsDocsError naming it; a byte-order mark is dropped."""
    read, total = [], 0
    for path in files:
        name = path.relative_to(root).as_posix() if path != root else path.name
        try:
            size = path.stat().st_size
            if size > MAX_FILE_BYTES:
                raise RulingsDocsError(
                    f"{name}: {size / 2**20:.0f} MB, over the {MAX_FILE_BYTES // 2**20} MB a documentation file may be"
                )
            total += size
            if total > MAX_EDITION_BYTES:
                raise RulingsDocsError(f"{root}: over {MAX_EDITION_BYTES // 2**20} MB of .rst files")
            data = path.read_bytes()
        except OSError as exc:
            raise RulingsDocsError(f"{name}: cannot read it ({exc.strerror})") from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RulingsDocsError(
                f"{name}: not UTF-8 (byte {exc.start:,} is 0x{data[exc.start]:02x})"
            ) from None
        read.append(DocFile(name, text.removeprefix("\ufeff")))
    return read


def read_docs(path: str | os.PathLike[str], name: str | None = None) -> Edition:
    """Read a rulings documentation (see the module's help) into an Edition named
    `name` (else its Sphinx project's name, else its folder's)."""
    root, paths = find_files(path)
    default_name, title = name_and_title(root)
    return parse_edition(read_files(root, paths), name or default_name, title, str(root.resolve()))


def name_and_title(root: Path) -> tuple[str, str]:
    """A documentation's name (its Sphinx project's, else its folder's) and title."""
    project = conf_value(root, "project")
    return slug(project or folder_name(root)), conf_value(root, "html_title") or project or folder_name(root)


def parse_edition(files: list[DocFile], name: str, title: str, root: str = "") -> Edition:
    """An edition from its files' texts (no file is read here)."""
    from ocgkb.sources import sphinx_vocabulary

    sphinx_vocabulary.register()
    if not any(f.text.strip() for f in files):
        raise RulingsDocsError(f"{root or name}: every .rst file is empty")
    edition = Edition(name=name, file=root, title=title, root=root)
    targets = _link_targets(files)
    parsed = [(f, _doctree(f, targets)) for f in files if f.path != "links.rst" or len(files) == 1]
    ordered, unlisted = _reading_order(parsed)
    if unlisted:
        edition.notes.append(
            f"{name}: {len(unlisted)} file(s) no table of contents lists, read last: {', '.join(unlisted[:5])}"
        )
    says_mail = any(_UNDATED_SAYS_MAIL.search(f.text) for f in files)
    reader = _EditionReader(edition, "mail" if says_mail else "undated")
    for doc_file, tree in ordered:
        reader.read_file(doc_file, tree)
    reader.resolve_references()
    edition.files = [f.path for f, _ in ordered]
    dates = [c["date"] for p in edition.passages for c in p.citations if c.get("date")]
    edition.newest = max(dates) if dates else None
    if not edition.passages:
        raise RulingsDocsError(f"{root or name}: no text could be read from its .rst files")
    return edition


def slug(text: str) -> str:
    """A source's name as passage ids and commands spell it: lower case, no spaces or slashes."""
    cleaned = re.sub(r"[\s/\\?#%&:\"'<>|*]+", "-", text.strip().lower()).strip("-.")
    return cleaned[:40] or "docs"


def folder_name(root: Path) -> str:
    return root.parent.name if root.name == "docs" else root.name


def conf_value(root: Path, key: str) -> str | None:
    """A plain string setting of conf.py (`project = 'ocg-rule'`), read as text, never run."""
    conf = root / "conf.py"
    try:
        text = conf.read_text(encoding="utf-8", errors="replace") if conf.is_file() else ""
    except OSError:
        return None
    match = re.search(rf"^{key}\s*=\s*(['\"])(.+?)\1\s*(?:#.*)?$", text, re.MULTILINE)
    return match.group(2).strip() if match else None


# -- docutils ------------------------------------------------------------------------------


@dataclass
class _Tree:
    document: object
    problems: list[str] = field(default_factory=list)  # errors that do not stop the reading


def _link_targets(files: list[DocFile]) -> dict[str, str]:
    """The documentation's global link targets (links.rst), name → address: a Sphinx
    conf.py of this kind appends the ones a file uses to its text before reading it."""
    targets: dict[str, str] = {}
    for f in files:
        if f.path.rsplit("/", 1)[-1] == "links.rst":
            for line in f.text.splitlines():
                if match := _TARGET_LINE.match(line):
                    targets.setdefault(match.group(1), match.group(2).strip())
    return targets


def _doctree(doc_file: DocFile, targets: dict[str, str]) -> _Tree:
    """The file's docutils document. An error (level 3) or worse is a one-line
    RulingsDocsError naming the file and line, except a link whose target no file
    defines: that is a problem for the report, and the link's text is kept."""
    from docutils.core import publish_doctree

    text = doc_file.text
    defined = {m.group(1) for m in re.finditer(r"^\.\. _`(.+?)`:", text, re.MULTILINE)}
    used = dict.fromkeys(m.group(1) for m in _NAMED_REFERENCE.finditer(text))
    extra = [f".. _`{n}`: {targets[n]}" for n in used if n in targets and n not in defined]
    if extra:
        text += "\n\n" + "\n".join(extra) + "\n"
    stream = io.StringIO()
    overrides = {
        "report_level": 3,
        "halt_level": 5,
        "warning_stream": stream,
        "file_insertion_enabled": False,
        "raw_enabled": False,
        "doctitle_xform": False,
        "sectsubtitle_xform": False,
        "smart_quotes": False,
        "syntax_highlight": "none",
        "line_length_limit": 1_000_000,
        "input_encoding": "unicode",
        "language_code": "zh_cn",
    }
    try:
        document = publish_doctree(text, source_path=doc_file.path, settings_overrides=overrides)
    except Exception as exc:  # docutils raises its own kinds on input it cannot take at all
        raise RulingsDocsError(
            f"{doc_file.path}: not reStructuredText ({str(exc).splitlines()[0][:120]})"
        ) from None
    tree = _Tree(document)
    for line in stream.getvalue().splitlines():
        match = _MESSAGE.match(line)
        if not match:
            continue
        where = f"{doc_file.path}:{match.group('line') or '?'}"
        message = match.group("text").rstrip(".")
        if message.startswith("Unknown target name"):
            if f"{where}: {message}" not in tree.problems:
                tree.problems.append(f"{where}: {message}")
            continue
        raise RulingsDocsError(f"{where}: {message} (a reST {match.group('level').lower()})")
    return tree


def _reading_order(parsed: list[tuple[DocFile, _Tree]]) -> tuple[list[tuple[DocFile, _Tree]], list[str]]:
    """The files in the order the tables of contents give, from index.rst down,
    each document's own text before the ones it lists (the root's own text last);
    then the files no table lists, by name."""
    from ocgkb.sources.sphinx_vocabulary import toctree

    by_path = {f.path: (f, t) for f, t in parsed}
    root = "index.rst" if "index.rst" in by_path else None
    order: list[str] = []

    def visit(path: str) -> None:
        if path in order:
            return
        order.append(path)
        folder = path.rsplit("/", 1)[0] if "/" in path else ""
        for node in by_path[path][1].document.findall(toctree):
            for entry in node["entries"]:
                for listed in _toc_entries(entry, folder, node["glob"], by_path):
                    visit(listed)

    if root:
        visit(root)
        order.remove(root)
        order.append(root)  # a home page that repeats a chapter's text is cited where the chapter puts it
    listed = set(order)
    unlisted = sorted(p for p in by_path if p not in listed)
    # links.rst holds targets only, and a second root (pdf_index) lists what index does.
    quiet = [p for p in unlisted if not _only_structure(by_path[p][1])]
    return [by_path[p] for p in order + unlisted], quiet if root else []


def _toc_entries(entry: str, folder: str, glob: bool, by_path: dict) -> list[str]:
    """The files a toctree entry names (`../c02/基本用语.rst`, `chapters/*`, `前言`, `Title <doc>`)."""
    import fnmatch
    import posixpath

    match = re.match(r"^.*<(.+)>$", entry)
    target = (match.group(1) if match else entry).strip()
    if target.startswith(("http://", "https://")) or target == "self":
        return []
    joined = posixpath.normpath(
        posixpath.join(folder, target.lstrip("/") if not target.startswith("/") else target[1:])
    )
    if target.startswith("/"):
        joined = posixpath.normpath(target[1:])
    if glob and any(ch in joined for ch in "*?["):
        pattern = joined if joined.endswith(".rst") else joined + ".rst"
        return sorted(p for p in by_path if fnmatch.fnmatch(p, pattern))
    path = joined if joined.endswith(".rst") else joined + ".rst"
    return [path] if path in by_path else []


def _only_structure(tree: _Tree) -> bool:
    """A file with no text of its own: targets, a table of contents, comments."""
    from docutils import nodes

    return not any(
        True for _ in tree.document.findall(lambda n: isinstance(n, (nodes.paragraph, nodes.line)))
    )


# -- the structure -------------------------------------------------------------------------


@dataclass
class _Place:
    """Where the walk is: the section, the kind a statement takes here, and the
    passage a note or list hangs under."""

    section: Section
    topic: str
    kind: str = "ruling"  # `note` inside an admonition
    anchor: Passage | None = None  # what a statement here belongs to (a note's statement, a list's intro)
    below_kind: str | None = None  # the kind a statement takes under its anchor (subitem, note)


class _EditionReader:
    """The state of reading an edition, file after file."""

    def __init__(self, edition: Edition, undated_source: str) -> None:
        self.edition = edition
        self.undated_source = undated_source
        self.numbers: set[str] = set()
        self.counters: dict[str, int] = {}
        self.labels: dict[str, str] = {}  # a :ref: label → section number
        self.pending: list[
            tuple[Passage, dict]
        ] = []  # (passage, :ref: node) to resolve once every file is read
        self.file = ""
        self.footnotes: dict[str, Passage] = {}  # footnote id → the passage that refers to it

    # files and sections

    def read_file(self, doc_file: DocFile, tree: _Tree) -> None:
        from docutils import nodes

        self.file = doc_file.path
        self.edition.notes += tree.problems
        document = tree.document
        top = [n for n in document.children if isinstance(n, nodes.section)]
        stem = doc_file.path.rsplit("/", 1)[-1].removesuffix(".rst")
        title = _title_of(top[0]) if len(top) == 1 else stem
        file_section = self._section(title, None, getattr(top[0], "line", 1) if len(top) == 1 else 1)
        self._labels_of(document, file_section)
        place = _Place(file_section, title)
        if len(top) == 1:
            self._labels_of(top[0], file_section)
            self._body(top[0].children, place)
            rest = [n for n in document.children if n is not top[0]]
            self._body(rest, place)
        else:
            self._body(document.children, place)

    def _section(self, title: str, parent: Section | None, line: int | None) -> Section:
        base = f"{self.edition.name}/{_id_part(title)}"
        number, n = base, 1
        while number in self.numbers:
            n += 1
            number = f"{base}~{n}"
        self.numbers.add(number)
        section = Section(number, title, self.edition.name, line or 0, parent.number if parent else None)
        self.edition.sections.append(section)
        return section

    def _labels_of(self, node, section: Section) -> None:
        """The labels (`.. _name:` before a heading) that name this section."""
        for name in node.get("names", []):
            self.labels.setdefault(_label_key(name), section.number)

    # bodies

    def _body(self, children, place: _Place) -> None:
        """A sequence of body elements: blocks of statements, lists, notes, sub-sections."""
        from docutils import nodes

        lead: Passage | None = (
            None  # the statement before: a following note or introduced list hangs under it
        )
        for node in children:
            if isinstance(node, nodes.section):
                title = _title_of(node)
                section = self._section(title, place.section, node.line)
                self._labels_of(node, section)
                self._body(node.children, _Place(section, f"{place.topic} › {title}"))
                lead = None
            elif isinstance(node, nodes.title | nodes.target | nodes.comment | nodes.substitution_definition
                            | nodes.system_message | nodes.image | nodes.raw | nodes.label):  # fmt: skip
                continue
            elif isinstance(
                node, nodes.paragraph | nodes.line_block | nodes.literal_block | nodes.doctest_block
            ):
                lead = self._block(node, place, lead) or lead
            elif isinstance(node, nodes.bullet_list | nodes.enumerated_list | nodes.definition_list):
                introduced = lead is not None and lead.text.rstrip().endswith(_INTRODUCES)
                anchor = lead if introduced else place.anchor
                kind = "subitem" if introduced or place.anchor is not None else place.kind
                self._list(node, _Place(place.section, place.topic, kind, anchor, place.below_kind))
            elif node.tagname in _ADMONITIONS:
                # An admonition's or sidebar's own title (卡的发动和效果的使用) is its first line.
                owner = lead or place.anchor
                inside = [nodes.paragraph(c.rawsource, "", *c.children) if isinstance(c, nodes.title) else c
                          for c in node.children]  # fmt: skip
                self._body(inside, _Place(place.section, place.topic, "note", owner, "note"))
            elif isinstance(node, nodes.table):
                self._table(node, place, lead)
            elif isinstance(node, nodes.figure):
                self._body([c for c in node.children if isinstance(c, nodes.legend)], place)
            elif isinstance(node, nodes.block_quote | nodes.container | nodes.compound | nodes.legend):
                self._body(node.children, place)
            elif isinstance(node, nodes.footnote):
                owner = self.footnotes.get(node.get("ids", [""])[0]) or lead
                self._body([c for c in node.children if not isinstance(c, nodes.label)],
                           _Place(place.section, place.topic, "note", owner, "note"))  # fmt: skip
            # Anything else (a toctree, a transition, a field list of metadata) holds no statement.

    def _list(self, node, place: _Place) -> None:
        from docutils import nodes

        for item in node.children:
            if isinstance(item, nodes.definition_list_item):
                term = self._statement(_inline_text(item.children[0]), item.children[0], place, place.anchor)
                self._body(item.children[1:], _Place(place.section, place.topic, "subitem", term, "subitem"))
                continue
            if not isinstance(item, nodes.list_item):
                continue
            # The item's first block is its statement; what follows in it hangs under that.
            first, *rest = item.children or [None]
            lead = self._block(first, place) if first is not None else None
            below = _Place(place.section, place.topic, "subitem" if lead else place.kind, lead or place.anchor,
                           place.below_kind)  # fmt: skip
            inner: list = []
            for child in rest:
                if isinstance(child, nodes.bullet_list | nodes.enumerated_list):
                    self._list(child, below)
                else:
                    inner.append(child)
            if inner:
                # Notes and more blocks of the item: under its statement, its own statements kept.
                self._body(
                    inner, _Place(place.section, place.topic, place.kind, lead or place.anchor, "subitem")
                )

    def _block(self, node, place: _Place, before: Passage | None = None) -> Passage | None:
        """A paragraph or line block: each line a statement, or an example of the
        block's first statement once `例：` is said (of the statement `before` it
        when the block opens with 例：), or a sub-item when numbered or indented
        under the line before. Returns the block's first statement."""
        from docutils import nodes

        if node is None:
            return None
        if isinstance(node, nodes.line_block):
            lines = list(_lines(node))
        elif isinstance(node, nodes.paragraph | nodes.literal_block | nodes.doctest_block):
            lines = [(node, 0)]
        else:
            self._body([node], place)
            return None
        lead: Passage | None = None
        last: Passage | None = None
        examples = False
        for line_node, depth in lines:
            text = _inline_text(line_node)
            if not text.strip():
                continue
            label = _EXAMPLE_LABEL.match(text.strip())
            if label and (lead is not None or before is not None):
                examples = True
                lead = lead or before
                text = label.group(1)
                if not text.strip():
                    continue
            if examples:
                self._statement(text, line_node, place, lead, kind="example")
            elif depth > 0 and last is not None:
                self._statement(text, line_node, place, last, kind="subitem")
            elif _NUMBERED.match(text.strip()) and lead is not None:
                self._statement(text, line_node, place, lead, kind="subitem")
            else:
                last = self._statement(text, line_node, place, place.anchor)
                lead = lead or last
        return lead

    def _table(self, node, place: _Place, lead: Passage | None) -> None:
        """A table: its title a statement, each row under it, the cells joined by ' | '."""
        from docutils import nodes

        titles = [c for c in node.children if isinstance(c, nodes.title)]
        owner = self._statement(_inline_text(titles[0]), titles[0], place, place.anchor) if titles else lead
        for row in node.findall(nodes.row):
            cells = [
                " ".join(_inline_text(p) for p in entry.findall(nodes.paragraph)) for entry in row.children
            ]
            text = " | ".join(c.strip() for c in cells if c.strip())
            if text:
                self._statement(text, row, place, owner, kind="subitem" if owner else place.kind)

    def _statement(
        self, text_node_text: str, node, place: _Place, parent: Passage | None, kind: str | None = None
    ) -> Passage:
        """One passage: its text as shown, its citations, the cards it links, the
        headings it refers to."""
        text = _clean(text_node_text)
        if kind is None:
            kind = place.below_kind if parent is not None and place.below_kind else place.kind
        section = place.section
        n = self.counters.get(section.number, 0) + 1
        self.counters[section.number] = n
        line = _line_of(node)
        passage = Passage(
            id=f"{section.number}/{n}",
            doc=self.edition.name,
            kind=kind,
            text=text,
            line=line,
            line_end=line + max(0, str(getattr(node, "rawsource", "")).count("\n")),
            section=section.number,
            topic=place.topic,
            parent=parent.id if parent is not None else None,
            flags=damage_flags(text),
            file=self.file,
        )
        links, xrefs, footnotes = _links_in(node)
        passage.citations = self._citations(links, kind)
        passage.source_note = _source_note(passage.citations)
        for ref in xrefs:
            self.pending.append(
                (passage, {"label": ref["label"], "shown": ref.astext(), "titled": ref["titled"]})
            )
        for footnote in footnotes:
            self.footnotes[footnote.get("refid")] = passage
        for ref in links:
            url = ref.get("refuri") or ""
            if ref.get("refname") or "ygocdb" in url:  # a named link in 「」: a card or a search
                self.edition.card_links.setdefault(ref.astext(), _link_kind(url))
        self.edition.passages.append(passage)
        return passage

    def _citations(self, links: list, kind: str) -> list[dict]:
        """The dated links a statement ends with: each with its date, the official
        FAQ id and address, and its source (faq, wiki, link); an example with none
        says where undated examples come from."""
        cited = []
        for ref in links:
            match = _DATE_TEXT.match(ref.astext())
            url = ref.get("refuri")
            if not url or not url.startswith(("https://", "http://")):  # shown as a link: no javascript:
                continue
            if match:
                cited.append({"date": to_iso(*match.groups()), "raw": ref.astext().strip(), **_faq(url)})
            elif (faq := _faq(url))["fid"]:  # a FAQ linked by its question or the word FAQ: no date
                cited.append({"date": None, "raw": None, **faq})
        if not cited and kind == "example":
            cited.append({"date": None, "raw": None, "url": None, "fid": None, "source": self.undated_source})
        return cited

    def resolve_references(self) -> None:
        """`:ref:` labels → the sections they name (in any file), shown by the
        heading's title as Sphinx shows them; one not found is a note."""
        titles = {s.number: s.title for s in self.edition.sections}
        for passage, ref in self.pending:
            number = self.labels.get(_label_key(ref["label"]))
            if not number:
                self.edition.notes.append(
                    f"{passage.file}:{passage.line}: :ref:`{ref['label']}` names no heading"
                )
                continue
            passage.xrefs.append(number)
            if not ref["titled"] and titles[number] != ref["shown"]:
                passage.text = passage.text.replace(ref["shown"], titles[number], 1)


# -- reading nodes ---------------------------------------------------------------------------


def _lines(block, depth: int = 0):
    """The lines of a line block with how deep each is nested."""
    from docutils import nodes

    for child in block.children:
        if isinstance(child, nodes.line_block):
            yield from _lines(child, depth + 1)
        elif isinstance(child, nodes.line):
            yield child, depth


def _inline_text(node) -> str:
    """A node's text as a reader sees it: a link as its text, a :ref: as its
    title, a footnote's mark dropped, a link with no target as its name."""
    from docutils import nodes

    parts: list[str] = []
    for child in node.children if isinstance(node, nodes.Element) else [node]:
        if isinstance(child, nodes.Text):
            # astext(): str() keeps docutils' marks of escaped characters. A link inside
            # bold (**Q. 「`X`_」**) is no link in reST, shown as written: its name is read.
            parts.append(_LEFT_MARKUP.sub(r"\1", child.astext()))
        elif isinstance(child, nodes.footnote_reference | nodes.citation_reference | nodes.system_message
                        | nodes.target | nodes.image):  # fmt: skip
            continue
        elif isinstance(child, nodes.problematic):
            parts.append(_unlinked_text(child.astext()))
        elif isinstance(child, nodes.Element):
            parts.append(_inline_text(child))
    return "".join(parts)


def _unlinked_text(raw: str) -> str:
    """`X`_ whose target is missing, as its name (X)."""
    match = re.fullmatch(r"`?(.+?)`?_{1,2}", raw.strip(), re.DOTALL)
    return match.group(1) if match else raw


def _clean(text: str) -> str:
    """The text of one statement: lines of a paragraph joined as the page shows
    them (Chinese wraps without a space), outer space trimmed."""
    lines = [line.strip() for line in text.splitlines()]
    joined = ""
    for line in lines:
        if joined and line and (joined[-1].isascii() and line[0].isascii()):
            joined += " "
        joined += line
    return joined.strip()


def _title_of(section) -> str:
    from docutils import nodes

    titles = [c for c in section.children if isinstance(c, nodes.title)]
    return _clean(_inline_text(titles[0])) if titles else ""


def _line_of(node) -> int:
    """The line a node starts on in its file (docutils counts a paragraph's from its end at times)."""
    line = getattr(node, "line", None)
    if line is None:
        parent = getattr(node, "parent", None)
        while parent is not None and getattr(parent, "line", None) is None:
            parent = parent.parent
        line = getattr(parent, "line", None) or 0
    return int(line)


def _id_part(title: str) -> str:
    """A heading as a part of a passage id: no slash, no space, at most 30 characters."""
    text = re.sub(r"[\s/\\?#%]+", "_", title).strip("_") or "_"
    return text[:30]


def _label_key(label: str) -> str:
    """Labels compare as docutils normalises names: case and runs of space folded."""
    return " ".join(label.lower().split())


def _links_in(node) -> tuple[list, list, list]:
    """A statement's links, :ref: links and footnote marks, in one walk of its nodes."""
    from docutils import nodes

    from ocgkb.sources.sphinx_vocabulary import xref

    links, xrefs, footnotes = [], [], []
    for found in node.findall(lambda n: isinstance(n, nodes.reference | xref | nodes.footnote_reference)):
        if isinstance(found, xref):
            xrefs.append(found)
        elif isinstance(found, nodes.footnote_reference):
            if found.get("refid"):
                footnotes.append(found)
        else:
            links.append(found)
    return links, xrefs, footnotes


def _link_kind(url: str) -> str:
    """What a card link's target says its name is: a card page, or a search (an archetype)."""
    path = urlsplit(url).path
    if "/card/" in path:
        return "card"
    if "search=" in url:
        return "search"
    return "link"


def _faq(url: str) -> dict:
    """An official FAQ address's id (`fid`), or the wiki's, or another page."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    if "yugioh-card.com" in parts.netloc:
        fid = query.get("fid", [None])[0]
        return {"url": url, "fid": int(fid) if fid and fid.isdigit() else None, "source": "faq"}
    if "yugioh-wiki" in parts.netloc:
        return {"url": url, "fid": None, "source": "wiki"}
    return {"url": url, "fid": None, "source": "link"}


def _source_note(citations: list[dict]) -> str | None:
    """Where a passage's ruling comes from, in a word: the first citation's source."""
    return citations[0]["source"] if citations else None
