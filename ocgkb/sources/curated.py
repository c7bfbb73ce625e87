"""Reading the curated files of kb/: YAML that people edit, checked for its shape."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ocgkb import OntologyError, paths
from ocgkb.text.names import NameRules


def read_mapping(path: Path, missing_ok: bool = False) -> dict:
    """A YAML file whose top is a mapping; a one-line OntologyError when it is not."""
    from ocgkb import yamlio

    if missing_ok and not path.is_file():
        return {}
    try:
        data = yamlio.load(path.read_text(encoding="utf-8")) or {}
    except (OSError, UnicodeDecodeError, yamlio.YAMLError) as exc:
        raise OntologyError(f"cannot read {path}: {str(exc).splitlines()[0]}") from None
    if not isinstance(data, dict):
        raise OntologyError(f"{path}: expected a mapping at the top")
    return data


def _curated(kb_dir: paths.Where, name: str) -> Path:
    """A curated file of `kb_dir` (by default the bundled kb/)."""
    return Path(kb_dir or paths.kb_dir()) / name


def repairs(kb_dir: paths.Where = None) -> dict[str, str]:
    """kb/repairs.yaml: the corrupted-character table, one character to one character."""
    table = read_mapping(_curated(kb_dir, "repairs.yaml")).get("repairs") or {}
    if not isinstance(table, dict):
        raise OntologyError(f"{_curated(kb_dir, 'repairs.yaml')}: `repairs:` is not a mapping")
    return {str(k): str(v) for k, v in table.items()}


def name_rules(kb_dir: paths.Where = None, concept_terms: Iterable[str] = ()) -> NameRules:
    """kb/terms.yaml: which 「」 hold a term rather than a card, and the words around a card."""
    return NameRules.from_mapping(read_mapping(_curated(kb_dir, "terms.yaml")), concept_terms)
