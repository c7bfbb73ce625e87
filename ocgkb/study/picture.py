"""A node's neighbourhood in the graph laid out for a picture: the node in the
middle, its neighbours of the kinds asked for on a ring around it. Plain
trigonometry, so no numpy on the serving path; a page draws it as SVG."""

from __future__ import annotations

import math
from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx

PICTURE_KINDS = ("concept", "section")
MOST_NEIGHBOURS = 20


def neighbourhood_picture(
    graph: nx.DiGraph,
    node: str,
    kinds: tuple[str, ...] = PICTURE_KINDS,
    most: int = MOST_NEIGHBOURS,
    size: int = 360,
) -> dict:
    """`{"width", "height", "centre", "nodes", "edges", "counts"}`: the node and up to
    `most` neighbours of `kinds` (grouped by kind, then by label) with x/y, a line
    from the centre to each, and how many neighbours of each kind there are in all."""
    around = set(graph.successors(node)) | set(graph.predecessors(node))
    counts = Counter(graph.nodes[n].get("kind", "") for n in around)
    shown = sorted(
        (n for n in around if graph.nodes[n].get("kind") in kinds),
        key=lambda n: (kinds.index(graph.nodes[n]["kind"]), graph.nodes[n].get("label", n)),
    )[:most]
    middle = size / 2
    radius = size / 2 - 48
    nodes = []
    for index, other in enumerate(shown):
        angle = 2 * math.pi * index / max(len(shown), 1) - math.pi / 2
        nodes.append(
            {
                **_node(graph, other),
                "x": round(middle + radius * math.cos(angle), 1),
                "y": round(middle + radius * math.sin(angle), 1),
                "relation": (graph.get_edge_data(node, other) or graph.get_edge_data(other, node))[
                    "relation"
                ],
            }
        )
    return {
        "width": size,
        "height": size,
        "centre": {**_node(graph, node), "x": middle, "y": middle},
        "nodes": nodes,
        "counts": dict(sorted(counts.items())),
    }


def _node(graph: nx.DiGraph, node: str) -> dict:
    """A node's kind, its key (concept id, section number, …) and a short label."""
    kind, _, key = node.partition(":")
    label = graph.nodes[node].get("label", key)
    return {"id": node, "kind": kind, "key": key, "label": label if len(label) <= 12 else label[:11] + "…"}
