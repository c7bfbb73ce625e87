"""Exports: every format round-trips or parses with its standard reader, the same
knowledge base gives the same bytes, and bad requests fail cleanly."""

import csv
import io
import json
import os
import stat
import threading

import networkx as nx
import pydot
import pytest
from click.testing import CliRunner

from ocgkb.cli.main import main
from ocgkb.store.door import KnowledgeBase
from ocgkb.study.export import keep_kinds, neighbourhood, serialize
from ocgkb.study.graph import build_graph


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
    same_graph(nx.parse_graphml(serialize(small, "graphml")[""]), small)


def test_gexf_round_trips(small, tmp_path):
    path = tmp_path / "g.gexf"
    path.write_text(serialize(small, "gexf")[""], encoding="utf-8")
    same_graph(nx.read_gexf(path), small)


def test_node_link_json_round_trips(small):
    data = json.loads(serialize(small, "json")[""])
    same_graph(nx.node_link_graph(data, edges="edges"), small)


def test_dot_parses_with_pydot(small):
    parsed = pydot.graph_from_dot_data(serialize(small, "dot")[""])[0]
    names = {n.get_name().strip('"') for n in parsed.get_nodes()}
    assert names == set(small.nodes)
    assert len(parsed.get_edges()) == small.number_of_edges()
    relations = {e.get_attributes()["relation"].strip('"') for e in parsed.get_edges()}
    assert relations <= {d for _, _, d in small.edges(data="relation")}


def test_csv_parses_with_the_csv_module(small):
    parts = serialize(small, "csv")
    nodes = list(csv.DictReader(io.StringIO(parts["nodes.csv"])))
    edges = list(csv.DictReader(io.StringIO(parts["edges.csv"])))
    assert {row["id"] for row in nodes} == set(small.nodes)
    assert len(edges) == small.number_of_edges() and {"source", "target", "relation"} <= set(edges[0])


@pytest.mark.parametrize("fmt", ["graphml", "gexf", "json", "dot", "csv"])
def test_exports_are_deterministic(small_kb, fmt):
    kb = KnowledgeBase(small_kb)  # every kind of node and edge, in a graph a tenth the size
    assert serialize(build_graph(kb), fmt) == serialize(build_graph(kb), fmt)
    kb.close()


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
    for args, message, code in [
        (["--format", "xml"], "unknown format 'xml'", 2),
        (
            ["--around", "完全没有这个东西", "-o", str(tmp_path / "x.json")],
            "no concept, card, section or passage",
            1,  # not found, as an unknown card or section is
        ),
        (["--format", "gexf", "-o", str(tmp_path / "missing" / "x.gexf")], "cannot write", 2),
        (["--format", "csv", "-o", "-"], "CSV is two files", 2),
    ]:
        result = run(*args)
        assert result.exit_code == code and message in result.output and "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "x.json").exists() and not (tmp_path / "missing").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no partial file left


def _export(kb_path, *args):
    return CliRunner().invoke(main, ["--db", str(kb_path), "export", *args])


def _one_line_error(result, message):
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_an_unknown_kind_is_an_error_naming_it_and_the_known_kinds(kb_path, graph, tmp_path):
    out = tmp_path / "k.json"
    result = _export(kb_path, "--format", "json", "--kinds", "concept,nosuchkind", "-o", str(out))
    _one_line_error(result, "unknown kind 'nosuchkind'")
    known = {kind for _, kind in graph.nodes(data="kind")}
    assert known >= {"concept", "clause", "card"} and all(kind in result.output for kind in known)
    assert not out.exists()
    # A kind the whole graph has is not unknown just because a neighbourhood lacks it.
    result = _export(kb_path, "--format", "json", "--around", "cost", "--depth", "0", "--kinds", "card")
    assert result.exit_code == 0, result.output


def test_export_writes_into_a_fifo_a_reader_holds_open(kb_path, tmp_path):
    fifo = tmp_path / "graph.fifo"
    os.mkfifo(fifo)
    received = []

    def read():
        with open(fifo, "rb") as pipe:
            received.append(pipe.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        result = _export(kb_path, "--format", "json", "--around", "cost", "--depth", "1", "-o", str(fifo))
    finally:
        reader.join(timeout=60)
        if reader.is_alive():  # the export never opened the FIFO: let the reader go
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            reader.join(timeout=10)
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still a FIFO, not replaced by a file
    assert received and "concept:cost" in {n["id"] for n in json.loads(received[0])["nodes"]}


def test_export_through_a_symlink_replaces_its_target_and_keeps_the_link(kb_path, tmp_path):
    (tmp_path / "store").mkdir()
    target = tmp_path / "store" / "graph.json"
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "graph.json"
    link.symlink_to(target)
    result = _export(kb_path, "--format", "json", "--around", "cost", "--depth", "1", "-o", str(link))
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert "concept:cost" in {n["id"] for n in json.loads(target.read_text(encoding="utf-8"))["nodes"]}
    assert sorted(p.name for p in (tmp_path / "store").iterdir()) == ["graph.json"]  # no temp file left


def test_writing_to_dev_full_exits_2_with_one_line(kb_path, tmp_path):
    if not (os.path.exists("/dev/full") and stat.S_ISCHR(os.stat("/dev/full").st_mode)):
        pytest.skip("no /dev/full character device on this system")
    full = "/dev/full"
    if os.geteuid() == 0:
        # As root an export that replaced its output (the bug) would replace the
        # device itself for the whole machine: go through a link, which it would replace instead.
        full = str(tmp_path / "full")
        os.symlink("/dev/full", full)
    result = _export(kb_path, "--format", "json", "--around", "cost", "--depth", "1", "-o", full)
    _one_line_error(result, f"cannot write {full}: No space left on device")
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_new_file_gets_umask_permissions_and_an_old_one_keeps_its_own(kb_path, tmp_path):
    new, old = tmp_path / "new.json", tmp_path / "old.json"
    old.write_text("old", encoding="utf-8")
    old.chmod(0o640)
    previous = os.umask(0o022)
    try:
        for path in (new, old):
            result = _export(kb_path, "--format", "json", "--around", "cost", "--depth", "0", "-o", str(path))
            assert result.exit_code == 0, result.output
    finally:
        os.umask(previous)
    assert stat.S_IMODE(new.stat().st_mode) == 0o644  # not a private 0600 temp file
    assert stat.S_IMODE(old.stat().st_mode) == 0o640
    assert json.loads(old.read_text(encoding="utf-8"))["nodes"]
