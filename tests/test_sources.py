"""The corpus is what its manifest says, byte for byte: every file of rulings_data/
with its hash, checked in any clone; and the seeds themselves where ../shared is there.
The small corpus of the tests (tests/fixtures/small/) is held to the same manifest."""

import hashlib
import lzma

import pytest
import yaml

from conftest import DATA, ROOT, SMALL


def manifest(corpus):
    return yaml.safe_load((corpus / "manifest.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("corpus", [DATA, SMALL], ids=["rulings_data", "small"])
def test_manifest_lists_every_source_with_its_hash(corpus):
    files = {doc["file"]: doc for doc in manifest(corpus)["documents"]}
    assert files and sorted(files) == sorted(p.name for p in corpus.glob("*.txt"))
    for name, doc in files.items():
        assert hashlib.sha256((corpus / name).read_bytes()).hexdigest() == doc["sha256"], name
        assert doc["description"] and doc["title"]


@pytest.mark.parametrize("corpus", [DATA, SMALL], ids=["rulings_data", "small"])
def test_card_facts_and_limit_lists_are_the_recorded_bytes(corpus):
    """sha256 and count are of the uncompressed JSON Lines (an .xz file is compressed
    by scripts/import_shared_data.py); every file of the corpus is in the manifest."""
    listed = manifest(corpus)
    for key in ("cards", "limits"):
        entry = listed[key]
        raw = (corpus / entry["file"]).read_bytes()
        data = lzma.decompress(raw) if entry["file"].endswith(".xz") else raw
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], entry["file"]
        assert len(data.decode("utf-8").splitlines()) == entry["count"], entry["file"]
        assert entry["provenance"]
    named = {doc["file"] for doc in listed["documents"]} | {listed[k]["file"] for k in ("cards", "limits")}
    assert named | {"manifest.yaml"} == {p.name for p in corpus.iterdir()}


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
    from ocgkb.sources.inputs import fingerprint, input_files, stat_signature

    data, kb = tmp_path / "data", tmp_path / "kb"
    data.mkdir()
    kb.mkdir()
    (kb / "concepts.yaml").write_text("concepts: []\n", encoding="utf-8")
    before = fingerprint(data, kb, "1"), stat_signature(data, kb, "1")
    (kb / "new_list.yaml").write_text("words: [连锁]\n", encoding="utf-8")
    assert str(kb / "new_list.yaml") in input_files(data, kb)
    after = fingerprint(data, kb, "1"), stat_signature(data, kb, "1")
    assert before[0] != after[0] and before[1] != after[1]
