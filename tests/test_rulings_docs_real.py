"""The two real editions of the community rulings documentation, where they lie
(../shared/data/rulings-docs, the user's material: read there, never copied into
the project). Skipped, saying why, where they are not."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ocgkb.sources.changes import compare
from ocgkb.sources.rst_docs import read_docs

from conftest import ROOT

DOCS = ROOT.parent / "shared" / "data" / "rulings-docs"
OLD, NEW = DOCS / "2025-05-16", DOCS / "2026-08-14"
pytestmark = pytest.mark.skipif(
    not (OLD.is_dir() and NEW.is_dir()),
    reason=f"the two editions of the rulings documentation are not at {DOCS}",
)


def faq_ids(folder: Path) -> set[int]:
    """Every FAQ id the files link to, by a pattern over their raw text (not the reader)."""
    return {
        int(m) for path in folder.rglob("*.rst") for m in re.findall(r"fid=(\d+)", path.read_text("utf-8"))
    }


@pytest.fixture(scope="module")
def editions():
    return read_docs(OLD), read_docs(NEW)


def test_the_current_edition_is_read_whole_with_every_faq_id(editions):
    _, new = editions
    assert new.name == "ocg-rule" and len(new.files) == 40  # every .rst but links.rst (targets only)
    cited = {c["fid"] for p in new.passages for c in p.citations if c.get("fid")}
    assert cited == faq_ids(NEW) and len(cited) > 1300
    # The undated examples come from mail replies, as its preface says.
    assert sum(1 for p in new.passages if p.source_note == "mail") > 1000
    assert new.newest == "2026-08-07"


def test_changes_find_the_faq_ids_added_and_removed(editions):
    changed = compare(*editions)
    truth = {"added": faq_ids(NEW) - faq_ids(OLD), "removed": faq_ids(OLD) - faq_ids(NEW)}
    assert 80 <= len(truth["added"]) <= 100 and 1250 <= len(truth["removed"]) <= 1350
    for kind, true in truth.items():
        found = {r["fid"] for r in changed[kind] if r["fid"]}
        precision, recall = len(found & true) / len(found), len(found & true) / len(true)
        assert precision >= 0.97 and recall >= 0.97, (kind, precision, recall)
    assert changed["totals"]["faq_ids"]["changed"] > 0
