"""The corpus is the seeds, byte for byte, with a manifest that says so."""

import hashlib

import pytest
import yaml

from conftest import DATA, ROOT


def test_manifest_lists_every_source_with_its_hash():
    manifest = yaml.safe_load((DATA / "manifest.yaml").read_text(encoding="utf-8"))
    files = {doc["file"]: doc for doc in manifest["documents"]}
    assert files and sorted(files) == sorted(p.name for p in DATA.glob("*.txt"))
    for name, doc in files.items():
        assert hashlib.sha256((DATA / name).read_bytes()).hexdigest() == doc["sha256"]
        assert doc["description"] and doc["title"]


def test_sources_are_the_seeds_byte_for_byte():
    seeds = ROOT.parent / "shared" / "seeds"
    if not seeds.is_dir():  # an installed copy or a machine without shared/
        pytest.skip(f"no seeds to compare with: {seeds} is not a directory")
    files = sorted(seeds.glob("*.txt"))
    assert files, f"{seeds} holds no seed (*.txt)"
    for seed in files:
        assert (DATA / seed.name).read_bytes() == seed.read_bytes(), seed.name


def test_a_new_curated_file_is_an_input_without_being_declared(tmp_path):
    """kb/ is listed, not enumerated in code: a curated file added there changes
    the fingerprint, so the next command rebuilds with it."""
    from ocgkb.sources.manifest import fingerprint, input_files, stat_signature

    data, kb = tmp_path / "data", tmp_path / "kb"
    data.mkdir()
    kb.mkdir()
    (kb / "concepts.yaml").write_text("concepts: []\n", encoding="utf-8")
    before = fingerprint(data, kb, "1"), stat_signature(data, kb, "1")
    (kb / "new_list.yaml").write_text("words: [连锁]\n", encoding="utf-8")
    assert kb / "new_list.yaml" in input_files(data, kb)
    after = fingerprint(data, kb, "1"), stat_signature(data, kb, "1")
    assert before[0] != after[0] and before[1] != after[1]
