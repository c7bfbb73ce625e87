"""The knowledge base as a networkx graph: typed nodes, typed edges, cross-links."""

from collections import Counter

import pytest

from ocgkb.study.graph import build_graph


@pytest.fixture(scope="module")
def graph(kb):
    return build_graph(kb)


def test_every_kind_of_node_is_there(graph, db):
    kinds = Counter(kind for _, kind in graph.nodes(data="kind"))
    assert kinds["section"] == 123
    assert kinds["concept"] == db.execute("SELECT count(*) FROM concepts").fetchone()[0]
    assert (
        kinds["card"] >= 300 and kinds["clause"] >= 390 and kinds["ruling"] > 100 and kinds["example"] > 100
    )


def test_attributes_are_plain_strings_and_numbers(graph):
    for _, attrs in graph.nodes(data=True):
        assert all(isinstance(v, (str, int)) for v in attrs.values()), attrs
    for _, _, attrs in graph.edges(data=True):
        assert all(isinstance(v, (str, int)) for v in attrs.values()), attrs


def test_clauses_examples_sections_cards_and_concepts_are_cross_linked(graph):
    assert graph.edges["section:4.2", "section:4.2.2"]["relation"] == "parent_of"
    assert graph.edges["passage:4.2.2/2", "section:4.2.2"]["relation"] == "in_section"
    assert graph.edges["passage:4.3.3.6.1.1/2/ex1", "passage:4.3.3.6.1.1/2"]["relation"] == "illustrates"
    assert graph.edges["passage:4.3.3.6.1.1/2/ex1", "card:电气尾龙"]["relation"] == "mentions_card"
    assert graph.edges["passage:4.2.2/2", "concept:cost"]["relation"] == "about_concept"
    assert graph.edges["concept:cost", "section:4.2.2"]["relation"] == "defined_in"
    assert any(graph.edges[e]["relation"] == "related_concept" for e in graph.out_edges("concept:cost"))


def test_the_cost_concept_reaches_the_clause_on_refunds(graph):
    neighbours = set(graph.predecessors("concept:cost")) | set(graph.successors("concept:cost"))
    texts = [graph.nodes[n].get("text", "") for n in neighbours]
    assert any("支付的cost也不能取回" in t for t in texts)


def test_rulings_carry_their_dates(graph):
    node = next(n for n, d in graph.nodes(data=True) if d.get("doc") == "rulings" and d.get("line") == 109)
    assert graph.nodes[node]["dates"] == "2025-04-11,2017-03-24"


def test_scenarios_are_linked_to_the_clauses_they_replay(graph):
    scenarios = [n for n, kind in graph.nodes(data="kind") if kind == "scenario"]
    assert scenarios
    for node in scenarios:
        replayed = [dst for _, dst, rel in graph.out_edges(node, data="relation") if rel == "replays"]
        assert replayed and all(dst.startswith("passage:") for dst in replayed)
    assert graph.edges["scenario:atk_rush_then_gale", "passage:4.3.3.6.1.1/2"]["relation"] == "replays"
