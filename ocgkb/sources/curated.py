"""Reading the curated files of kb/: YAML that people edit, checked for its shape."""

from __future__ import annotations

from pathlib import Path

from ocgkb import OntologyError


def read_mapping(path: Path, missing_ok: bool = False) -> dict:
    """A YAML file whose top is a mapping; a one-line OntologyError when it is not."""
    from ocgkb import yamlio  # only when building, never on a query's start-up path

    if missing_ok and not path.is_file():
        return {}
    try:
        data = yamlio.load(path.read_text(encoding="utf-8")) or {}
    except (OSError, UnicodeDecodeError, yamlio.YAMLError) as exc:
        raise OntologyError(f"cannot read {path}: {str(exc).splitlines()[0]}") from None
    if not isinstance(data, dict):
        raise OntologyError(f"{path}: expected a mapping at the top")
    return data
