"""YAML read safely and fast: libyaml's C parser when PyYAML was built with it
(the pure-Python one spends seconds of every build on kb/). sources/ is on
the query path too, so its readers import this inside their functions: a question's
start-up never loads YAML (tests/test_cli.py checks what `ask` imports)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import yaml

SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
YAMLError = yaml.YAMLError


def load(text: str) -> Any:
    return yaml.load(text, Loader=SafeLoader)  # noqa: S506 - a safe loader


def events(text: str) -> Iterator[yaml.Event]:
    """The parser's events, nothing built: for checking a document's shape first."""
    return yaml.parse(text, Loader=SafeLoader)
