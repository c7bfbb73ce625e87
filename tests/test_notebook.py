"""The study notebook runs top to bottom by the README's own command, saves its plots,
and leaves the checkout as it found it, over the small corpus's graph (the labelling and
font helpers the notebook calls are tested on their own in test_figures.py)."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from ocgkb.store.door import KnowledgeBase
from ocgkb.study.export import write
from ocgkb.study.graph import build_graph

from conftest import ROOT

pytest.importorskip("nbclient", reason="pip install '.[notebooks]' for the notebook test")

FIGURES = [
    "graph_size",
    "central_concepts",
    "cooccurrence",
    "rulings_per_year",
    "neighbourhood_miss_timing",
    "neighbourhood_cost",
]


def readme_command() -> list[str]:
    """The one command the README gives to run the notebook."""
    commands = re.findall(r"^jupyter .*notebooks/\S+\.ipynb$", (ROOT / "README.md").read_text(), re.M)
    assert len(commands) == 1, commands
    return shlex.split(commands[0])


def git_status() -> str:
    return subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT, capture_output=True, text=True
    ).stdout


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="needs a git checkout")
def test_the_readme_command_runs_the_notebook_and_leaves_git_status_clean(small_kb, tmp_path):
    # The small corpus's graph (every kind of node, rulings dated over years, both concepts
    # the notebook draws), not the user's cache: what is tested is the notebook running.
    export = tmp_path / "ocgkb.graphml"
    kb = KnowledgeBase(small_kb)
    write(build_graph(kb), "graphml", str(export))
    kb.close()
    figures = ROOT / "notebooks" / "output" / "figures"
    before, started = git_status(), max((p.stat().st_mtime for p in figures.glob("*.png")), default=0)
    command = readme_command()
    command[0] = str(Path(sys.executable).with_name(command[0]))  # this environment's jupyter
    env = {**os.environ, "OCGKB_EXPORT": str(export), "MPLBACKEND": "Agg"}
    # Jupyter's, IPython's and matplotlib's own files in the test's folder, never the user's home.
    for name in (
        "JUPYTER_CONFIG_DIR",
        "JUPYTER_DATA_DIR",
        "JUPYTER_RUNTIME_DIR",
        "IPYTHONDIR",
        "MPLCONFIGDIR",
    ):
        env[name] = str(tmp_path / name.lower())
    env.pop("OCGKB_FIGURES", None)
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    for name in FIGURES:
        png = figures / f"{name}.png"
        assert png.exists() and png.stat().st_size > 10_000 and png.stat().st_mtime >= started, name
    assert git_status() == before
