"""The Forbidden & Limited lists: the shared data byte for byte, stored at build
time, and a card's status read under the newest list of each region."""

from __future__ import annotations

import hashlib
import lzma

import yaml

from ocgkb.query.limits import limit_lists, list_in_force, newest_statuses, statuses
from ocgkb.sources.limits import LimitList, _mark_partial, read_limit_lists

from conftest import DATA


def test_the_limit_lists_are_the_shared_data_byte_for_byte():
    manifest = yaml.safe_load((DATA / "manifest.yaml").read_text(encoding="utf-8"))
    raw = lzma.decompress((DATA / manifest["limits"]["file"]).read_bytes())
    assert hashlib.sha256(raw).hexdigest() == manifest["limits"]["sha256"]
    assert raw.count(b"\n") == manifest["limits"]["count"] == 40
    assert "yaml-yugi-limit-regulation" in manifest["limits"]["provenance"]


def test_a_list_far_shorter_than_its_neighbours_is_partial():
    lists = read_limit_lists(DATA / "limit_regulation.jsonl.xz")
    partial = [(lst.region, lst.effective) for lst in lists if lst.partial]
    assert partial == [("ocg-cn", "2026-01-01")]  # 26 cards against 70–99 around it


def test_partial_is_judged_by_the_neighbours_alone():
    sizes = [80, 82, 20, 85, 90]
    lists = [
        LimitList("x", f"2026-0{i + 1}-01", {pw: "limited" for pw in range(n)}) for i, n in enumerate(sizes)
    ]
    assert [lst.partial for lst in _mark_partial(lists)] == [False, False, True, False, False]


def test_the_build_stores_every_list_and_its_cards(kb):
    lists = limit_lists(kb)
    assert len(lists) == 40
    assert {lst.region for lst in lists} == {"ocg", "ocg-cn"}
    assert list_in_force(kb, "ocg").effective == "2026-07-01"
    assert list_in_force(kb, "ocg-cn", "2026-02-15").effective == "2026-01-01"
    assert list_in_force(kb, "ocg-cn", "2026-02-15").partial


def test_a_status_names_the_newest_list_of_each_region(kb):
    rows = newest_statuses(kb, ["强欲之壶", "增殖的G", "黑魔术师"])
    by = {(r["card"], r["region"]): r for r in rows}
    assert by[("强欲之壶", "ocg")]["status"] == "forbidden"
    assert by[("强欲之壶", "ocg")]["copies"] == 0
    assert by[("强欲之壶", "ocg")]["effective"] == "2026-07-01"
    assert by[("增殖的G", "ocg")]["status"] == "limited"
    assert by[("增殖的G", "ocg-cn")]["status"] == "semi-limited"
    assert by[("增殖的G", "ocg-cn")]["region_name"] == "OCG China"
    assert by[("黑魔术师", "ocg")]["status"] == "unlimited"  # not on the list: three copies
    assert by[("黑魔术师", "ocg")]["copies"] == 3


def test_a_status_under_an_older_list(kb):
    lst = list_in_force(kb, "ocg", "2025-12-31")
    assert lst.effective == "2025-10-01"
    assert statuses(kb, ["增殖的G"], lst) == {"增殖的G": "semi-limited"}
