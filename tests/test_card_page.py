"""A card as a judge checks it (issue 22): its Forbidden & Limited status in each
region with its history, on any date; and lookups that never mislead: by password,
by the start of a kana reading, a set's name as a set, a guess said to be one."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from ocgkb.query.lookup import look_up_card

from conftest import EN


def regions(view: dict) -> dict[str, dict]:
    return {r["region"]: r for r in view["status"]["regions"]}


def test_pot_of_greed_by_password_is_forbidden_under_the_newest_ocg_list(cli_json):
    view = cli_json("card", "55144522")
    assert view["matches"][0]["name"] == "强欲之壶"
    assert view["matches"][0]["how"] == "password"
    ocg = regions(view)["ocg"]
    assert (ocg["status"], ocg["copies"], ocg["effective"]) == ("forbidden", 0, "2026-07-01")
    assert "newest in the data" in ocg["says"] and "not known here" in ocg["says"]


def test_a_limited_card_has_its_history(cli_json):
    ocg = regions(cli_json("card", "增殖的G"))["ocg"]
    assert ocg["status"] == "limited"
    assert [(h["status"], h["since"]) for h in ocg["history"]] == [
        ("unlimited", "2021-01-01"),
        ("semi-limited", "2024-10-01"),
        ("limited", "2026-01-01"),
    ]
    assert ocg["history_says"].endswith("semi-limited since 2024-10-01, limited since 2026-01-01")


def test_a_card_on_no_list_is_unlimited_under_a_named_list(cli_json):
    ocg = regions(cli_json("card", "黑魔术师"))["ocg"]
    assert (ocg["status"], ocg["copies"], ocg["effective"]) == ("unlimited", 3, "2026-07-01")
    assert ocg["history_says"] == "on no OCG list from 2021-01-01 to 2026-07-01"


def test_on_a_past_date_gives_the_list_then_in_force(cli_json, cli):
    view = cli_json("card", "增殖的G", "--on", "2025-05-01")
    ocg = regions(view)["ocg"]
    assert (ocg["effective"], ocg["status"]) == ("2025-04-01", "semi-limited")
    assert ocg["history"][-1] == {
        "status": "semi-limited",
        "since": "2024-10-01",
        "until": "2025-04-01",
        "partial": False,
    }
    assert "in force on 2025-05-01" in ocg["says"]
    assert (
        "semi-limited (2 copies) under the OCG list of 2025-04-01"
        in cli("card", "增殖的G", "--on", "2025-5-1").output
    )


def test_a_date_before_any_list_says_there_was_none(cli_json):
    ocg = regions(cli_json("card", "增殖的G", "--on", "2019-06-01"))["ocg"]
    assert ocg["effective"] is None and ocg["status"] is None
    assert ocg["says"] == "no OCG list was in force on 2019-06-01: the first in the data is 2021-01-01"


def test_a_partial_list_in_force_is_shown_with_its_warning(cli_json):
    view = cli_json("card", "增殖的G", "--on", "2026-02-01")
    assert regions(view)["ocg-cn"]["partial"]
    assert any("OCG China list of 2026-01-01" in w for w in view["status"]["warnings"])


@pytest.mark.parametrize("on", ["soon", ""])
def test_a_bad_date_is_one_line(cli, on):
    result = cli("card", "增殖的G", "--on", on, expect=None)
    assert result.exit_code != 0 and "--on" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("password", "name"), [("89631139", "青眼白龙"), ("46986414", "黑魔术师"), ("36996508", "黑魔术师")]
)
def test_a_password_or_an_alternate_one_is_its_card(cli_json, password, name):
    view = cli_json("card", password)
    assert view["matches"][0]["name"] == name and view["confidence"] == "high"


@pytest.mark.parametrize("number", ["12345678", "9" * 30])
def test_a_number_that_is_no_password_is_no_card_in_one_line(cli, number):
    result = cli("card", number, expect=1)
    assert "no card is called anything like" in result.output and "Traceback" not in result.output


def test_the_start_of_a_kana_reading_finds_blue_eyes(kb, cli_json):
    assert "青眼白龙" in look_up_card(kb, "ブルーアイズ").set_cards
    view = cli_json("card", "ブルーアイズ")
    assert view["cards"] and all(c["names"]["ja_reading"].startswith("ブルーアイズ") for c in view["cards"])


def test_a_unique_start_of_a_reading_is_a_card_not_a_typo(kb):
    best = look_up_card(kb, "ごうよくなつ").scored[0]
    assert (best.name, best.how) == ("强欲之壶", "part") and best.score > 60


def test_a_set_name_lists_its_cards_not_no_card(cli_json, cli):
    view = cli_json("card", "青眼")
    assert view["set"] == "青眼" and view["count"] == len(view["cards"]) >= 15
    assert view["cards"][0]["name"] == "青眼白龙"
    begins = [c["name"].startswith("青眼") for c in view["cards"]]
    assert begins == sorted(begins, reverse=True)  # the names it begins first
    text = cli("card", "青眼").output
    assert "names a set" in text and "no card" not in text


def test_a_typo_is_flagged_low_confidence(cli_json, cli):
    view = cli_json("card", "dark magican")
    assert view["matches"][0]["name"] == "黑魔术师"
    assert view["confidence"] == "low" and "did you mean" in view["message"]
    assert "did you mean 「黑魔术师」?" in cli("card", "dark magican").output
    assert cli_json("card", "Dark Magician")["confidence"] == "high"


def test_the_web_shows_the_same(web_client, cli_json):
    page = web_client.get("/card/89631139", headers=EN).text
    assert "Blue-Eyes White Dragon" in page and "Forbidden &amp; Limited" in page
    assert "names a set" in web_client.get("/card/" + quote("青眼"), headers=EN).text
    assert "did you mean" in web_client.get("/card/dark%20magican", headers=EN).text
    api = web_client.get("/api/card", params={"q": "55144522", "on": "2024-01-01"}).json()
    assert api == cli_json("card", "55144522", "--on", "2024-01-01")
    assert regions(api)["ocg"]["effective"] == "2024-01-01"  # a list is in force from its own date
    assert web_client.get("/api/card", params={"q": "55144522", "on": "soon"}).status_code == 400
    assert "2024-01-01" in web_client.get("/card/55144522", params={"on": "2024-01-01"}).text


def test_a_status_from_a_list_that_looks_incomplete_is_marked_in_the_history(cli_json):
    """OCG China's list of 2026-01-01 holds 26 cards against 70-99 around it: what it
    says of a card stands apart in the history, marked, never merged with its neighbours."""
    china = next(r for r in cli_json("card", "55144522")["status"]["regions"] if r["region"] == "ocg-cn")
    partial = [run for run in china["history"] if run["partial"]]
    assert [run["since"] for run in partial] == ["2026-01-01"]
    assert "2026-01-01 (on a list that looks incomplete upstream)" in china["history_says"]
