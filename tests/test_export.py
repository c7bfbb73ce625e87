"""Exports: every format round-trips or parses with its standard reader, the same
knowledge base gives the same bytes, and bad requests fail cleanly."""

import csv
import io
import json

import networkx as nx
import pydot
import pytest
from click.testing import CliRunner

from ocgkb.cli import main
from ocgkb.export import keep_kinds, neighbourhood, render
from ocgkb.graph import build_graph


@pytest.fixture(scope="module")
def graph(kb):
    return build_graph(kb)


@pytest.fixture(scope="module")
def small(kb, graph):
    """A neighbourhood small enough to compare attribute by attribute quickly."""
    return neighbourhood(kb, graph, "replay", 1)


def same_graph(read, original):
    assert set(read.nodes) == set(original.nodes)
    assert {(u, v) for u, v in read.edges} == {(u, v) for u, v in original.edges}
    for node, attrs in original.nodes(data=True):
        assert {k: read.nodes[node][k] for k in attrs} == attrs, node
    for u, v, attrs in original.edges(data=True):
        assert {k: read.edges[u, v][k] for k in attrs} == attrs


def test_graphml_round_trips(small):
    same_graph(nx.parse_graphml(render(small, "graphml")[""]), small)


def test_gexf_round_trips(small, tmp_path):
    path = tmp_path / "g.gexf"
    path.write_text(render(small, "gexf")[""], encoding="utf-8")
    same_graph(nx.read_gexf(path), small)


def test_node_link_json_round_trips(small):
    data = json.loads(render(small, "json")[""])
    same_graph(nx.node_link_graph(data, edges="edges"), small)


def test_dot_parses_with_pydot(small):
    parsed = pydot.graph_from_dot_data(render(small, "dot")[""])[0]
    names = {n.get_name().strip('"') for n in parsed.get_nodes()}
    assert names == set(small.nodes)
    assert len(parsed.get_edges()) == small.number_of_edges()
    relations = {e.get_attributes()["relation"].strip('"') for e in parsed.get_edges()}
    assert relations <= {d for _, _, d in small.edges(data="relation")}


def test_csv_parses_with_the_csv_module(small):
    parts = render(small, "csv")
    nodes = list(csv.DictReader(io.StringIO(parts["nodes.csv"])))
    edges = list(csv.DictReader(io.StringIO(parts["edges.csv"])))
    assert {row["id"] for row in nodes} == set(small.nodes)
    assert len(edges) == small.number_of_edges() and {"source", "target", "relation"} <= set(edges[0])


@pytest.mark.parametrize("fmt", ["graphml", "gexf", "json", "dot", "csv"])
def test_exports_are_deterministic(kb, fmt):
    assert render(build_graph(kb), fmt) == render(build_graph(kb), fmt)


def test_the_cost_neighbourhood_holds_the_refund_clause_and_its_related_concepts(kb, graph):
    around = neighbourhood(kb, graph, "cost", 1)
    texts = [d.get("text", "") for _, d in around.nodes(data=True)]
    assert any("支付的cost也不能取回" in t for t in texts)
    related = [
        n
        for n in graph.successors("concept:cost")
        if graph.edges["concept:cost", n]["relation"] == "related_concept"
    ]
    assert related and all(n in around for n in related)


def test_kinds_keep_only_some_nodes(graph):
    kept = keep_kinds(graph, ["concept", "clause"])
    assert {kind for _, kind in kept.nodes(data="kind")} == {"concept", "clause"}


def test_cli_writes_files_and_reports_bad_requests_in_one_line(kb_path, tmp_path):
    run = lambda *args: CliRunner().invoke(main, ["--db", str(kb_path), "export", *args])  # noqa: E731
    result = run("--format", "json", "--around", "卡时点", "--depth", "1", "-o", str(tmp_path / "mt.json"))
    assert result.exit_code == 0 and (tmp_path / "mt.json").exists()
    ids = {n["id"] for n in json.loads((tmp_path / "mt.json").read_text(encoding="utf-8"))["nodes"]}
    assert "concept:miss_timing" in ids
    result = run("--format", "csv", "-o", str(tmp_path / "csv"))
    assert result.exit_code == 0 and sorted(p.name for p in (tmp_path / "csv").iterdir()) == [
        "edges.csv",
        "nodes.csv",
    ]
    for args, message in [
        (["--format", "xml"], "unknown format 'xml'"),
        (
            ["--around", "完全没有这个东西", "-o", str(tmp_path / "x.json")],
            "no concept, card, section or passage",
        ),
        (["--format", "gexf", "-o", str(tmp_path / "missing" / "x.gexf")], "cannot write"),
        (["--format", "csv", "-o", "-"], "CSV is two files"),
    ]:
        result = run(*args)
        assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "x.json").exists() and not (tmp_path / "missing").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no partial file left
