"""The knowledge graph written for the tools people study graphs with: GraphML and
GEXF (Gephi, Cytoscape), node-link JSON (networkx, d3), DOT (Graphviz) and CSV
(spreadsheets, pandas). Every writer is deterministic (the same knowledge base
gives byte-identical files) and atomic (a failed write leaves no partial file).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from . import OcgkbError
from .store import KnowledgeBase

if TYPE_CHECKING:
    import networkx as nx

FORMATS = ("graphml", "gexf", "json", "dot", "csv")
TO_STDOUT = ("graphml", "gexf", "json", "dot")


class ExportError(OcgkbError):
    """An export that cannot be written: a bad path, an unknown --around name."""


def neighbourhood(kb: KnowledgeBase, graph: nx.DiGraph, name: str, depth: int) -> nx.DiGraph:
    """The nodes within `depth` links of a concept, card, section or passage, however the links point."""
    import networkx as nx

    node = find_node(kb, graph, name)
    return nx.ego_graph(graph, node, radius=depth, undirected=True).copy()


def find_node(kb: KnowledgeBase, graph: nx.DiGraph, name: str) -> str:
    """The graph node a name means: a node id, a concept by any name, a section
    number, a passage id, a card (typos allowed)."""
    from .lookup import NotFound, find_cards, find_concept

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
    raise ExportError(f"--around: no concept, card, section or passage called {name!r}")


def keep_kinds(graph: nx.DiGraph, kinds: Iterable[str]) -> nx.DiGraph:
    wanted = set(kinds)
    return graph.subgraph([n for n, kind in graph.nodes(data="kind") if kind in wanted]).copy()


def render(graph: nx.DiGraph, fmt: str) -> dict[str, str]:
    """The export as text: one file, or for CSV two (`nodes.csv`, `edges.csv`)."""
    import networkx as nx

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
    if fmt == "csv":
        return {"nodes.csv": _csv_nodes(graph), "edges.csv": _csv_edges(graph)}
    raise ExportError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")


def write(graph: nx.DiGraph, fmt: str, output: str) -> list[Path]:
    """Write the export to `output` (a file; a folder for CSV; `-` for standard
    output where the format allows). Files are written beside and renamed in."""
    parts = render(graph, fmt)
    if output == "-":
        if fmt not in TO_STDOUT:
            raise ExportError("CSV is two files (nodes.csv and edges.csv): give a folder with --output")
        import sys

        sys.stdout.write(parts[""])
        return []
    target = Path(output)
    paths = [target / name for name in parts] if fmt == "csv" else [target]
    try:
        if fmt == "csv":
            target.mkdir(parents=True, exist_ok=True)
        for path, text in zip(paths, parts.values(), strict=True):
            _atomic_write(path, text)
    except OSError as exc:
        raise ExportError(f"cannot write {output}: {exc.strerror or exc}") from None
    return paths


def _atomic_write(path: Path, text: str) -> None:
    handle, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or ".")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
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
