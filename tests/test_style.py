"""The code stays lint-clean: ruff runs with the tests (configured in pyproject.toml)."""

import shutil
import subprocess

import pytest

from conftest import ROOT


def test_ruff_finds_nothing():
    ruff = shutil.which("ruff") or shutil.which("ruff", path=str(ROOT / ".venv" / "bin"))
    if ruff is None:
        pytest.skip("ruff is not installed (pip install '.[test]')")
    result = subprocess.run(
        [ruff, "check", "ocgkb", "tests", "benchmarks"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
