"""The knowledge base as one networkx graph, for study and export.

Nodes are `doc:NAME`, `section:NUMBER` (rulebook sections and ruling topics),
`passage:ID`, `card:NAME` (with its password and names in every language),
`archetype:NAME`, `concept:ID` and `scenario:NAME`; each has a `kind` and a readable
`label`. Edges carry a `relation`: parent_of, in_section, in_document,
illustrates, part_of, annotates, refers_to, mentions_card, mentions_archetype, about_concept,
related_concept, defined_in, replays (a scenario of kb/scenarios/ → the passages
it replays). Attribute values are strings or integers only
(never None or lists), so every export format accepts them.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ocgkb.display import shorten
from ocgkb.store import cards, concepts, passages, scenarios, sections, tables
from ocgkb.store.database import KnowledgeBase

if TYPE_CHECKING:
    import networkx as nx


def build_graph(kb: KnowledgeBase) -> nx.DiGraph:
    """Every document, section, passage, card and concept, and how they link."""
    import networkx as nx

    graph = nx.DiGraph()
    for add in (_add_documents, _add_passages, _add_cards_and_concepts, _add_edges):
        add(kb, graph)
    return graph


def graph_of(kb: KnowledgeBase) -> nx.DiGraph:
    """The graph of a knowledge base, built once for as long as it is open (a
    server asks for it on every concept page; a build takes half a second)."""
    return kb.memo("study.graph", lambda: build_graph(kb))


def _add_documents(kb: KnowledgeBase, graph: nx.DiGraph) -> None:
    for row in tables.documents(kb):
        graph.add_node(
            f"doc:{row['name']}", kind="document", label=row["title"], file=row["file"], doc=row["name"]
        )
    for row in sections.all_sections(kb):
        rulebook = row["doc"] == "rulebook"
        graph.add_node(
            f"section:{row['number']}",
            kind="section" if rulebook else "topic",
            label=f"{row['number']} {row['title']}" if rulebook else row["title"],
            number=row["number"],
            title=row["title"],
            doc=row["doc"],
            line=row["line"],
        )
        if row["parent"] is None:
            _edge(graph, f"doc:{row['doc']}", f"section:{row['number']}", "in_document")


def _add_passages(kb: KnowledgeBase, graph: nx.DiGraph) -> None:
    dates = passages.dates_by_passage(kb)
    for row in passages.all_passages(kb):
        graph.add_node(
            f"passage:{row['id']}",
            kind=row["kind"],
            label=shorten(row["text"], 32),
            text=row["text"],
            doc=row["doc"],
            file=row["file"],
            line=row["line"],
            section=row["section"] or "",
            topic=row["topic"],
            dates=dates.get(row["id"], ""),
            damaged=", ".join(json.loads(row["flags"])) if row["flags"] else "",
        )


def _add_cards_and_concepts(kb: KnowledgeBase, graph: nx.DiGraph) -> None:
    # The cards the texts name (not the 14k of the card facts), with their password and names.
    for row in cards.mentioned_cards(kb):
        names = {key: row[key] for key in ("name_zh", "name_zh_official", "name_en", "name_ja") if row[key]}
        password = {"password": row["password"]} if row["password"] is not None else {}
        graph.add_node(
            f"card:{row['name']}",
            kind="card",
            label=row["name"],
            **password,
            **names,
            type_line=" · ".join(filter(None, [row["card_type"], row["type_line"] or row["property"]])),
        )
    for name in tables.archetypes(kb):
        graph.add_node(f"archetype:{name}", kind="archetype", label=name)
    for row in concepts.all_concepts(kb):
        graph.add_node(
            f"concept:{row['id']}",
            kind="concept",
            label=row["name_zh"],
            name_zh=row["name_zh"],
            name_en=row["name_en"],
            names=" / ".join([*json.loads(row["zh"]), *json.loads(row["en"])]),
        )
    for row in scenarios.all_scenarios(kb):
        graph.add_node(
            f"scenario:{row['name']}", kind="scenario", label=row["title"], file=f"kb/scenarios/{row['file']}"
        )


def _add_edges(kb: KnowledgeBase, graph: nx.DiGraph) -> None:
    for src, dst, relation in tables.links(kb):
        _edge(graph, src, dst, relation)
    for pid, card in tables.passage_cards(kb):
        _edge(graph, f"passage:{pid}", f"card:{card}", "mentions_card")
    for pid, archetype in tables.passage_archetypes(kb):
        _edge(graph, f"passage:{pid}", f"archetype:{archetype}", "mentions_archetype")
    for pid, concept, how in tables.passage_concepts(kb):
        _edge(graph, f"passage:{pid}", f"concept:{concept}", "about_concept", how=how)


def _edge(graph: nx.DiGraph, src: str, dst: str, relation: str, **attrs: str) -> None:
    # Two relations between the same pair (a ruling in a topic that it also
    # refers to) are kept as one edge naming both.
    if graph.has_edge(src, dst):
        known = graph.edges[src, dst]["relation"].split(",")
        if relation not in known:
            graph.edges[src, dst]["relation"] = ",".join([*known, relation])
        return
    graph.add_edge(src, dst, relation=relation, **attrs)
