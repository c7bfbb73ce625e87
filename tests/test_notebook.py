"""The study notebook runs top to bottom on the real knowledge base and saves its plots."""

import os

import pytest

from ocgkb.study.export import write
from ocgkb.study.figures import NO_CJK_NOTE
from ocgkb.study.graph import build_graph

from conftest import ROOT

nbformat = pytest.importorskip("nbformat", reason="pip install '.[notebooks]' for the notebook test")
nbclient = pytest.importorskip("nbclient")

FIGURES = [
    "graph_size",
    "central_concepts",
    "cooccurrence",
    "rulings_per_year",
    "neighbourhood_miss_timing",
    "neighbourhood_cost",
]


def test_the_study_notebook_runs_and_saves_its_plots(kb, tmp_path, monkeypatch):
    export = tmp_path / "ocgkb.graphml"
    write(build_graph(kb), "graphml", str(export))
    monkeypatch.setenv("OCGKB_EXPORT", str(export))
    monkeypatch.setenv("OCGKB_FIGURES", str(tmp_path / "figures"))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    notebook = nbformat.read(ROOT / "notebooks" / "study_graph.ipynb", as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(ROOT / "notebooks")}},
    )
    client.execute(env=dict(os.environ))
    for name in FIGURES:
        png = tmp_path / "figures" / f"{name}.png"
        assert png.exists() and png.stat().st_size > 10_000, name
    errors = [
        o
        for c in notebook.cells
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if o.get("output_type") == "error"
    ]
    assert errors == []
    # It says whether its labels are in Chinese (a CJK font found) or why not.
    said = "".join(o.get("text", "") for c in notebook.cells for o in c.get("outputs", []))
    assert "labels in Chinese, in Noto" in said or NO_CJK_NOTE in said
