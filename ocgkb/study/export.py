"""The knowledge graph written for the tools people study graphs with: GraphML and
GEXF (Gephi, Cytoscape), node-link JSON (networkx, d3), DOT (Graphviz) and CSV
(spreadsheets, pandas). Every writer is deterministic (the same knowledge base
gives byte-identical files) and atomic (a failed write leaves no partial file).

An output that is not a regular file is written into, not replaced: a FIFO or a
device (`/dev/stdout`, a named pipe a viewer reads) gets the bytes straight, and a
symlink keeps pointing where it did while its target is replaced atomically.
"""

from __future__ import annotations

import csv
import errno
import io
import json
import os
import re
import stat
import weakref
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from ocgkb import NotFound, OcgkbError
from ocgkb.files import owner_may_write
from ocgkb.store.database import KnowledgeBase

if TYPE_CHECKING:
    import networkx as nx

FORMATS = ("graphml", "gexf", "json", "dot", "csv")
TO_STDOUT = ("graphml", "gexf", "json", "dot")


class ExportError(OcgkbError):
    """An export that cannot be written: a bad path or format, an unknown --kinds kind."""

    exit_code = 2  # a bad format, path or selection: the command was used wrongly


# The kinds of the whole graph a neighbourhood was cut from, so that --kinds after
# --around knows a kind the neighbourhood merely lacks from one that does not exist.
_WHOLE_KINDS: weakref.WeakKeyDictionary[nx.DiGraph, frozenset[str]] = weakref.WeakKeyDictionary()


def kinds_of(graph: nx.DiGraph) -> frozenset[str]:
    """The node kinds a graph holds (for a neighbourhood: those of the graph it came from)."""
    return _WHOLE_KINDS.get(graph) or frozenset(kind for _, kind in graph.nodes(data="kind") if kind)


def neighbourhood(kb: KnowledgeBase, graph: nx.DiGraph, name: str, depth: int) -> nx.DiGraph:
    """The nodes within `depth` links of a concept, card, section or passage, however the links point."""
    import networkx as nx

    node = find_node(kb, graph, name)
    around = nx.ego_graph(graph, node, radius=depth, undirected=True).copy()
    _WHOLE_KINDS[around] = kinds_of(graph)
    return around


def find_node(kb: KnowledgeBase, graph: nx.DiGraph, name: str) -> str:
    """The graph node a name means: a node id, a concept by any name, a section
    number, a passage id, a card (typos allowed)."""
    from ocgkb.query.lookup import find_cards, find_concept

    name = name.strip()
    for candidate in (name, f"section:{name}", f"passage:{name}", f"card:{name}", f"scenario:{name}"):
        if candidate in graph:
            return candidate
    try:
        return f"concept:{find_concept(kb, name)['id']}"
    except NotFound:
        pass
    cards = find_cards(kb, name, limit=1) if name else []
    if cards and f"card:{cards[0].name}" in graph:
        return f"card:{cards[0].name}"
    raise NotFound(f"--around: no concept, card, section or passage called {name!r}")


def keep_kinds(graph: nx.DiGraph, kinds: Iterable[str]) -> nx.DiGraph:
    """The nodes of the given kinds; a kind the graph does not know is an error, not an empty file."""
    wanted = set(kinds)
    known = kinds_of(graph)
    if not wanted:
        raise ExportError(f"--kinds: no kind given (known kinds: {', '.join(sorted(known))})")
    unknown = sorted(wanted - known)
    if unknown:
        raise ExportError(
            f"--kinds: unknown kind {', '.join(map(repr, unknown))} (known kinds: {', '.join(sorted(known))})"
        )
    return graph.subgraph([n for n, kind in graph.nodes(data="kind") if kind in wanted]).copy()


def check_format(fmt: str) -> None:
    """An unknown format is a usage error, found before any work is done."""
    if fmt not in FORMATS:
        raise ExportError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")


def serialize(graph: nx.DiGraph, fmt: str) -> dict[str, str]:
    """The export as text: one file, or for CSV two (`nodes.csv`, `edges.csv`).
    Nodes and edges are written sorted, so an export is the same bytes whichever
    way the graph (or the neighbourhood cut from it) was put together."""
    import networkx as nx

    check_format(fmt)
    graph = _sorted(graph)
    if fmt == "graphml":
        return {"": "\n".join(nx.generate_graphml(graph)) + "\n"}
    if fmt == "gexf":
        text = "\n".join(nx.generate_gexf(graph)) + "\n"
        # The writer stamps today's date; a study export must not change with the day.
        return {"": re.sub(r' lastmodifieddate="[^"]*"', "", text)}
    if fmt == "json":
        data = nx.node_link_data(graph, edges="edges")
        return {"": json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"}
    if fmt == "dot":
        return {"": _dot(graph)}
    return {"nodes.csv": _csv_nodes(graph), "edges.csv": _csv_edges(graph)}


def _sorted(graph: nx.DiGraph) -> nx.DiGraph:
    ordered = graph.__class__()
    ordered.graph.update(graph.graph)
    ordered.add_nodes_from(sorted(graph.nodes(data=True), key=lambda node: node[0]))
    ordered.add_edges_from(sorted(graph.edges(data=True), key=lambda edge: (edge[0], edge[1])))
    return ordered


def write(graph: nx.DiGraph, fmt: str, output: str) -> list[Path]:
    """Write the export to `output` (a file; a folder for CSV; `-` for standard
    output where the format allows). Regular files are written beside and renamed
    in; a FIFO or a device is written into; a symlink's target is replaced."""
    parts = serialize(graph, fmt)
    if output == "-":
        if fmt not in TO_STDOUT:
            raise ExportError("CSV is two files (nodes.csv and edges.csv): give a folder with --output")
        import sys

        try:
            sys.stdout.write(parts[""])
            sys.stdout.flush()
        except BrokenPipeError:
            raise  # `ocgkb export | head`: the command line ends quietly, as on any pipe
        except OSError as exc:
            raise ExportError(f"cannot write to standard output: {exc.strerror or exc}") from None
        return []
    if not output:
        raise ExportError("--output: the path is empty (give a file, or - for standard output)")
    target = Path(output)
    paths = [target / name for name in parts] if fmt == "csv" else [target]
    try:
        if fmt == "csv":
            target.mkdir(parents=True, exist_ok=True)
        for path in paths:  # every file checked before any is written
            _refuse_read_only(path)
        for path, text in zip(paths, parts.values(), strict=True):
            _write_file(path, text.encode("utf-8"))
    except OSError as exc:
        raise ExportError(f"cannot write {output}: {exc.strerror or exc}") from None
    return paths


def _refuse_read_only(path: Path) -> None:
    """A read-only regular file is not replaced: the rename would succeed (it needs
    the folder's permission, not the file's), so the mode is honoured here."""
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return
    if stat.S_ISREG(info.st_mode) and not owner_may_write(path, info):
        raise ExportError(f"{path} is read-only ({stat.filemode(info.st_mode)}); not replacing it")


def _write_file(path: Path, data: bytes) -> None:
    """Write `data` to `path` the way its kind of file wants."""
    try:
        info = os.stat(path)  # through any symlink
    except FileNotFoundError:
        info = None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if info is not None and not stat.S_ISREG(info.st_mode):
        _write_into(path, data)  # a FIFO, /dev/stdout, /dev/null: there is nothing to replace
    elif path.is_symlink():
        _atomic_write(Path(os.path.realpath(path)), data, info)  # the link stays a link
    else:
        _atomic_write(path, data, info)


def _write_into(path: Path, data: bytes) -> None:
    with open(path, "wb") as out:
        out.write(data)


def _atomic_write(path: Path, data: bytes, existing: os.stat_result | None) -> None:
    """Write beside `path` and rename over it: a reader sees the old file or the
    new one, never a part. An existing file keeps its permission bits; a new one
    gets the usual ones (0666 less the umask)."""
    directory = path.parent
    while True:
        tmp = directory / f".{path.name}.{os.urandom(4).hex()}.tmp"
        try:
            handle = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            if existing is not None:
                os.fchmod(out.fileno(), stat.S_IMODE(existing.st_mode))
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _dot_quote(value: object) -> str:
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{text}"'


def _dot(graph: nx.DiGraph) -> str:
    """DOT through pydot, with every id and value quoted: ids such as
    `passage:4.2.2/2` would otherwise be read as ports."""
    import networkx as nx
    from networkx.drawing.nx_pydot import to_pydot

    quoted = nx.DiGraph()
    for node, attrs in graph.nodes(data=True):
        quoted.add_node(_dot_quote(node), **{k: _dot_quote(v) for k, v in sorted(attrs.items())})
    for src, dst, attrs in graph.edges(data=True):
        quoted.add_edge(
            _dot_quote(src), _dot_quote(dst), **{k: _dot_quote(v) for k, v in sorted(attrs.items())}
        )
    return to_pydot(quoted).to_string()


def _columns(rows: Iterable[dict]) -> list[str]:
    return sorted({key for row in rows for key in row})


def _csv_nodes(graph: nx.DiGraph) -> str:
    rows = [{"id": node, **attrs} for node, attrs in graph.nodes(data=True)]
    columns = ["id", "kind", "label"] + [c for c in _columns(rows) if c not in ("id", "kind", "label")]
    return _csv(rows, columns)


def _csv_edges(graph: nx.DiGraph) -> str:
    rows = [{"source": src, "target": dst, **attrs} for src, dst, attrs in graph.edges(data=True)]
    columns = ["source", "target", "relation"] + [
        c for c in _columns(rows) if c not in ("source", "target", "relation")
    ]
    return _csv(rows, columns)


def _csv(rows: list[dict], columns: list[str]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def export(
    kb: KnowledgeBase,
    fmt: str,
    output: str,
    around: str | None = None,
    depth: int = 1,
    kinds: str | None = None,
) -> tuple[list[Path], int, int]:
    """The graph (or the neighbourhood of `around`, of the `kinds` given) written
    to `output`; returns the files written and the numbers of nodes and edges."""
    from ocgkb.study.graph import build_graph

    check_format(fmt)
    graph = build_graph(kb)
    if around:
        graph = neighbourhood(kb, graph, around, depth)
    if kinds is not None:
        graph = keep_kinds(graph, [k.strip() for k in kinds.split(",") if k.strip()])
    return write(graph, fmt, output), graph.number_of_nodes(), graph.number_of_edges()
