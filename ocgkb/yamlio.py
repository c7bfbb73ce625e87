"""YAML read safely and fast: libyaml's C parser when PyYAML was built with it
(the pure-Python one spends seconds of every build on kb/). Import it inside
functions: the query path never reads YAML."""

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
