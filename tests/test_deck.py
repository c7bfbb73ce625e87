"""`ocgkb deck check` and POST /api/deck/check: the .ydk reader's bad input, and
every deck rule (000 §1.2, 003, the F&L list in force), on decks written here."""

from __future__ import annotations

import json
import os

import pytest

from ocgkb.text.ydk import MAX_YDK_BYTES, Deck, DeckError, parse_ydk

# Fourteen main-deck cards no list has ever named, none with an alternate artwork.
FILLER = [
    "70000776", "70026064", "70043345", "70046172", "70050374", "70054514", "70058649",
    "70070211", "70074904", "70083592", "70083723", "70084224", "70088809", "70089580",
]  # fmt: skip
XYZ_AND_LINK = ["70514456", "70522875", "70597485", "70636044", "70709488", "70875686"]
POT_OF_GREED = "55144522"  # forbidden on every OCG list
DARK_MAGICIAN, DARK_MAGICIAN_ALT = "36996508", "46986414"  # one card, two artworks
K9_ICE = "28642461"  # limited since 2025-10-01
ROSE_WHIP = "61049315"  # forbidden from 2026-07-01 on, unlimited before
BLUE_EYES = "89631139"  # a main-deck monster


def ydk(main: list[str], extra: list[str] = (), side: list[str] = ()) -> str:
    return "\n".join(["#created by a test", "#main", *main, "#extra", *extra, "!side", *side, ""])


def forty(*cards: str) -> list[str]:
    """A main deck of 40: these cards, then filler cards three at a time."""
    filler = [card for card in FILLER for _ in range(3)]
    return [*cards, *filler][:40] if len(cards) <= 40 else list(cards)


def check(cli, tmp_path, text: str | bytes, *options: str, expect: int):
    path = tmp_path / "deck.ydk"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    result = cli("deck", "check", str(path), "--json", *options, expect=expect)
    return json.loads(result.stdout)


def rules(view: dict) -> list[str]:
    return [problem["rule"] for problem in view["problems"]]


# --- the reader -----------------------------------------------------------------------------------


def test_reader_reads_sections_comments_and_blank_lines():
    text = "#created by x\n\n#main\n089631139\n# a note\n89631139\r\n#extra\n70514456\n!side\n55144522\n"
    assert parse_ydk(text.encode()) == Deck(["89631139", "89631139"], ["70514456"], ["55144522"])


@pytest.mark.parametrize(
    "data, words",
    [
        (b"", "empty"),
        (b"\n\n  \n", "empty"),
        (b"89631139\n", "before any #main"),
        (b"#just a comment\n", "no #main, #extra or !side"),
        (b"#main\n" + b"89631139\n" * (MAX_YDK_BYTES // 9 + 1), "larger than 64 KB"),
        (b"#main\n8963\x001139\n", "binary"),
        (b"#main\n\xff\xfe89631139\n", "not UTF-8"),
        (b"#main\n89631139\n#main\n", "line 3: the section #main is given twice"),
        (b"#main\n89631139\nBlue-Eyes\n", "line 3: 'Blue-Eyes' is not a card password"),
        (b"#main\n-89631139\n", "line 2"),
        (b"#main\n12345678901234\n", "line 2"),
        ("#main\n８９６３１１３９\n".encode(), "line 2"),
    ],
)
def test_reader_refuses_what_is_not_a_ydk(data, words):
    with pytest.raises(DeckError, match=None) as caught:
        parse_ydk(data)
    message = str(caught.value)
    assert words in message and "\n" not in message
    assert DeckError.exit_code == 2 and DeckError.http_status == 400


# --- every rule -----------------------------------------------------------------------------------


def test_a_legal_deck(cli, tmp_path):
    view = check(cli, tmp_path, ydk(forty(), XYZ_AND_LINK, FILLER[-1:] * 2), expect=0)
    assert view["legal"] and view["problems"] == [] and view["cards"] == {}
    assert (view["region"], view["list_date"]) == ("ocg", "2026-07-01")
    assert view["counts"] == {"main": 40, "extra": 6, "side": 2}
    assert cli("deck", "check", str(tmp_path / "deck.ydk")).stdout.startswith("LEGAL under the OCG")


@pytest.mark.parametrize("size", [39, 61])
def test_main_deck_of_the_wrong_size(cli, tmp_path, size):
    main = [card for card in FILLER * 5][:size]
    view = check(cli, tmp_path, ydk(sorted(main)), expect=1)
    main_size = [p for p in view["problems"] if p["rule"] == "main-size"]
    assert len(main_size) == 1 and "1.2.1/2" in main_size[0]["cites"]
    assert f"holds {size} cards" in main_size[0]["message"]


def test_four_copies(cli, tmp_path):
    view = check(cli, tmp_path, ydk(forty(BLUE_EYES, BLUE_EYES, BLUE_EYES), side=[BLUE_EYES]), expect=1)
    assert rules(view) == ["copies"]
    assert view["problems"][0]["cards"] == [BLUE_EYES]
    assert "main 89631139 ×3, side 89631139 ×1" in view["problems"][0]["message"]
    assert view["cards"][BLUE_EYES]["name_en"] == "Blue-Eyes White Dragon"


def test_four_copies_through_alternate_artworks(cli, tmp_path):
    cards = (DARK_MAGICIAN, DARK_MAGICIAN, DARK_MAGICIAN_ALT, DARK_MAGICIAN_ALT)
    view = check(cli, tmp_path, ydk(forty(*cards)), expect=1)
    assert rules(view) == ["copies"]
    assert view["problems"][0]["cards"] == [DARK_MAGICIAN, DARK_MAGICIAN_ALT]
    assert "1.2.1.1/2" in view["problems"][0]["cites"]  # another artwork is the same card
    assert {view["cards"][p]["password"] for p in (DARK_MAGICIAN, DARK_MAGICIAN_ALT)} == {DARK_MAGICIAN}


def test_a_forbidden_card(cli, tmp_path):
    view = check(cli, tmp_path, ydk(forty(POT_OF_GREED)), expect=1)
    assert rules(view) == ["limit"]
    problem = view["problems"][0]
    assert problem["cards"] == [POT_OF_GREED] and "tournament/129" in problem["cites"]
    assert "forbidden under the OCG list of 2026-07-01" in problem["message"]
    assert view["cards"][POT_OF_GREED]["name_en"] == "Pot of Greed"


def test_two_of_a_limited_card(cli, tmp_path):
    assert check(cli, tmp_path, ydk(forty(K9_ICE)), expect=0)["legal"]
    view = check(cli, tmp_path, ydk(forty(K9_ICE), side=[K9_ICE]), expect=1)
    assert rules(view) == ["limit"] and "limited" in view["problems"][0]["message"]


@pytest.mark.parametrize("zone", ["extra", "side"])
def test_sixteen_in_the_extra_or_side_deck(cli, tmp_path, zone):
    sixteen = {"extra": (XYZ_AND_LINK * 3)[:16], "side": (FILLER * 2)[:16]}[zone]
    view = check(cli, tmp_path, ydk(forty(), **{zone: sixteen}), expect=1)
    assert f"{zone}-size" in rules(view)
    assert view["counts"][zone] == 16


def test_an_unknown_password_is_a_problem(cli, tmp_path):
    view = check(cli, tmp_path, ydk(forty("99999999")), expect=1)
    assert rules(view) == ["unknown-card"]
    assert view["cards"]["99999999"]["name"] is None


def test_extra_deck_monsters_only_in_the_extra_deck(cli, tmp_path):
    view = check(cli, tmp_path, ydk(forty(XYZ_AND_LINK[0]), [BLUE_EYES]), expect=1)
    assert rules(view) == ["extra-monster-in-main", "not-extra-monster"]
    assert [p["cards"] for p in view["problems"]] == [[XYZ_AND_LINK[0]], [BLUE_EYES]]


def test_legal_on_an_older_list_but_not_the_newest(cli, tmp_path):
    deck = ydk(forty(ROSE_WHIP, ROSE_WHIP, ROSE_WHIP))
    assert check(cli, tmp_path, deck, "--on", "2026-04-15", expect=0)["list_date"] == "2026-04-01"
    view = check(cli, tmp_path, deck, expect=1)
    assert rules(view) == ["limit"] and view["problems"][0]["cards"] == [ROSE_WHIP]


def test_a_partial_list_is_named_with_a_warning(cli, tmp_path):
    view = check(cli, tmp_path, ydk(forty()), "--region", "ocg-cn", "--on", "2026-02-01", expect=0)
    assert (view["region_name"], view["list_date"]) == ("OCG China", "2026-01-01")
    assert view["warnings"] and "incomplete" in view["warnings"][0]


def test_every_cited_passage_exists(kb):
    from ocgkb.store.passages import passage_hits
    from ocgkb.views.deck import CITES

    cited = sorted({pid for cites in CITES.values() for pid in cites})
    assert sorted(hit.id for hit in passage_hits(kb, cited)) == cited


def test_the_terminal_report_names_rule_cites_and_cards(cli, tmp_path):
    (tmp_path / "deck.ydk").write_text(ydk(forty(POT_OF_GREED)))
    out = cli("deck", "check", str(tmp_path / "deck.ydk"), expect=1).stdout
    assert out.startswith("NOT LEGAL under the OCG Forbidden & Limited list of 2026-07-01")
    assert "main 40 · extra 0 · side 0" in out
    assert "cites: tournament/129" in out and "55144522: 「强欲之壶」 (Pot of Greed" in out


# --- bad input: one line, exit 2, nothing written --------------------------------------------------


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda p: p.write_bytes(b""), "empty"),
        (lambda p: p.write_bytes(b"hello\n"), "before any"),
        (lambda p: p.write_bytes(b"#main\n1\n" + b"\0" * 10), "binary"),
        (lambda p: p.write_bytes(b"#main\n1\n#main\n"), "twice"),
        (lambda p: p.write_bytes(b"#main\n1\nxyz\n"), "line 3"),
        (lambda p: (p.write_bytes(b"#main\n1\n"), os.truncate(p, 100 << 20)), "larger than 64 KB"),  # 100 MB
        (lambda p: None, "No such file"),
        (lambda p: p.mkdir(), "a directory"),
        (lambda p: os.mkfifo(p), "a FIFO"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(cli, tmp_path, make, words):
    path = tmp_path / "deck.ydk"
    make(path)
    before = sorted(os.listdir(tmp_path))
    result = cli("deck", "check", str(path), expect=2)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in result.output
    assert sorted(os.listdir(tmp_path)) == before


@pytest.mark.parametrize(
    "options, words",
    [
        (("--region", "tcg"), "unknown region"),
        (("--on", "2019-01-01"), "no OCG"),
        (("--on", "x"), "not a date"),
    ],
)
def test_a_bad_region_or_date_is_exit_2(cli, tmp_path, options, words):
    (tmp_path / "deck.ydk").write_text(ydk(forty()))
    result = cli("deck", "check", str(tmp_path / "deck.ydk"), *options, expect=2)
    assert words in result.stderr


# --- the API --------------------------------------------------------------------------------------


def test_api_checks_a_posted_deck_as_the_command_does(web_client, cli, tmp_path):
    deck = ydk(forty(ROSE_WHIP))
    response = web_client.post("/api/deck/check", content=deck.encode())
    assert response.status_code == 200
    assert response.json() == check(cli, tmp_path, deck, expect=1)
    older = web_client.post("/api/deck/check", params={"on": "2026-04-01", "region": "ocg"}, content=deck)
    assert older.json()["legal"] is True


@pytest.mark.parametrize(
    "body, params, status",
    [
        (b"#main\n1\n" * (MAX_YDK_BYTES // 8 + 1), {}, 413),
        (b"", {}, 400),
        (b"\x00\x01", {}, 400),
        (b"#main\n1\n", {"region": "tcg"}, 400),
        (b"#main\n1\n", {"on": "nope"}, 400),
    ],
)
def test_api_refuses_bad_decks(web_client, body, params, status):
    response = web_client.post("/api/deck/check", params=params, content=body)
    assert response.status_code == status
    assert set(response.json()) == {"error"}


def test_api_deck_check_answers_only_post(web_client):
    assert web_client.get("/api/deck/check").status_code == 405
