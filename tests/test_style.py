"""The code stays lint-clean: ruff runs with the tests (configured in pyproject.toml)."""

import subprocess
import sys

import pytest

from conftest import ROOT


def test_ruff_finds_nothing():
    # The ruff of the interpreter running the tests, whether or not its bin/ is on PATH.
    ruff = [sys.executable, "-m", "ruff"]
    version = subprocess.run([*ruff, "--version"], cwd=ROOT, capture_output=True, text=True)
    if version.returncode != 0:
        pytest.skip(f"ruff is not installed for {sys.executable} (pip install '.[test]')")
    result = subprocess.run(
        [*ruff, "check", "ocgkb", "tests", "benchmarks"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
