"""Bring your own card database (issue 23): `ocgkb cards import` of a ygopro
cards.cdb made here, with real cards' names and passwords (facts) but effect texts
written for these tests (never a real card's); the text and its reading in `card`
and `ask`; and every file that is not such a database refused in one line.

conftest points OCGKB_TEXTS at each test's own folder, so nothing here touches a
user's data folder."""

from __future__ import annotations

import html
import json
import os
import sqlite3
from pathlib import Path

import pytest

from ocgkb import paths
from ocgkb.messages import NO_CARD_TEXT
from ocgkb.text.quotes import quoted_card_texts, without_quoted_texts

from conftest import EN

MONSTER = (23434538, "增殖的G")
QUICK_PLAY = (5318639, "旋风")
COUNTER_TRAP = (41420027, "神之宣告")
NORMAL_SPELL = (53129443, "黑洞")
# Written for these tests, in the style of card texts; none is the card's own text.
TEXTS = {
    MONSTER: "这个卡名的①的效果1回合只能使用1次。①：自己主要阶段，把这张卡从手卡丢弃才能发动。自己从卡组抽1张。\r\n"
    "②：这张卡被送去墓地时，以自己墓地1只昆虫族怪兽为对象才能发动。那只怪兽加入手卡。",
    QUICK_PLAY: "①：以对方场上1张表侧表示的卡为对象才能发动。那张卡回到持有者手卡。",
    COUNTER_TRAP: "①：支付1500基本分才能发动。对方把魔法卡发动时，那个发动无效。",
    NORMAL_SPELL: "Lorem ipsum dolor sit amet.",  # no effect in it: not read
}
CDB_SCHEMA = """
CREATE TABLE datas(id INTEGER PRIMARY KEY, ot INTEGER, alias INTEGER, setcode INTEGER, type INTEGER,
    atk INTEGER, def INTEGER, level INTEGER, race INTEGER, attribute INTEGER, category INTEGER);
CREATE TABLE texts(id INTEGER PRIMARY KEY, name TEXT, desc TEXT, str1 TEXT, str2 TEXT, str3 TEXT);
"""


def make_cdb(path: Path, texts: dict[tuple[int, str], str], schema: str = CDB_SCHEMA) -> Path:
    """A ygopro card database as the client ships it: `datas` and `texts` by password;
    a card without text and a text without card are not imported."""
    with sqlite3.connect(path) as conn:
        conn.executescript(schema)
        for (password, name), text in texts.items():
            conn.execute("INSERT INTO datas (id, type) VALUES (?, 1)", (password,))
            conn.execute("INSERT INTO texts (id, name, desc) VALUES (?, ?, ?)", (password, name, text))
        if texts:
            conn.execute("INSERT INTO datas (id, type) VALUES (99999999, 1)")  # a card without text
            conn.execute("INSERT INTO texts (id, name, desc) VALUES (99999998, 'x', '①：效果。')")  # no card
    conn.close()
    return path


@pytest.fixture
def cdb(tmp_path) -> Path:
    return make_cdb(tmp_path / "cards.cdb", TEXTS)


def one_line_failure(result, code: int = 1) -> str:
    assert result.exit_code == code, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


def imported_count(cli) -> str:
    return cli("cards", "status").stdout


# Importing, importing again, forgetting


def test_import_keeps_the_texts_in_the_users_file(cli, cdb):
    result = cli("cards", "import", str(cdb))
    assert result.stdout.startswith(f"imported 4 card texts from {cdb} into {os.environ['OCGKB_TEXTS']}")
    assert "4 card texts imported from" in imported_count(cli)
    assert os.path.isfile(os.environ["OCGKB_TEXTS"])


def test_the_source_is_read_read_only(cli, cdb):
    before = (cdb.read_bytes(), cdb.stat().st_mtime_ns)
    cli("cards", "import", str(cdb))
    assert (cdb.read_bytes(), cdb.stat().st_mtime_ns) == before
    assert sorted(p.name for p in cdb.parent.iterdir() if p.name.startswith("cards.cdb")) == ["cards.cdb"]


def test_the_source_is_opened_so_that_sqlite_cannot_write_it(cdb, monkeypatch):
    from ocgkb.store import card_texts

    opened = []
    connect = sqlite3.connect

    def spy(target, *args, **kwargs):
        conn = connect(target, *args, **kwargs)
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            conn.execute("CREATE TABLE written (x)")
        opened.append(target)
        return conn

    monkeypatch.setattr(card_texts.sqlite3, "connect", spy)
    assert len(card_texts.read_cdb(str(cdb))) == 4
    assert len(opened) == 1


def test_a_second_import_replaces_the_first(cli, cdb, tmp_path):
    cli("cards", "import", str(cdb))
    other = make_cdb(tmp_path / "other.cdb", {QUICK_PLAY: TEXTS[QUICK_PLAY]})
    cli("cards", "import", str(other))
    assert f"1 card texts imported from {other}" in imported_count(cli)
    view = json.loads(cli("card", str(MONSTER[0]), "--json").stdout)
    assert view["effect_text"] == {"text": None, "hint": NO_CARD_TEXT}


def test_a_failed_or_interrupted_import_loses_nothing(cli, cdb, tmp_path, monkeypatch):
    cli("cards", "import", str(cdb))
    one_line_failure(cli("cards", "import", str(tmp_path / "missing.cdb"), expect=None))
    from ocgkb.store import card_texts

    def cut_short(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(card_texts, "_write", cut_short)
    with pytest.raises(KeyboardInterrupt):
        card_texts.write_texts([(1, "x", "①：效果。")], str(cdb), os.environ["OCGKB_TEXTS"])
    assert "4 card texts imported" in imported_count(cli)
    assert [p.name for p in tmp_path.iterdir() if ".building-" in p.name] == []


def test_forget_deletes_the_texts_and_is_fine_with_none(cli, cdb):
    assert cli("cards", "forget").stdout.strip() == "no card texts were imported"
    cli("cards", "import", str(cdb))
    assert cli("cards", "forget").stdout.startswith("deleted the imported card texts")
    assert not os.path.exists(os.environ["OCGKB_TEXTS"])
    assert imported_count(cli).startswith("no card texts imported")


# Files that are not a card database, one line each


def _damaged(tmp_path: Path) -> Path:
    path = make_cdb(
        tmp_path / "damaged.cdb", {(n, f"卡{n}"): "①：自己主要阶段才能发动。" * 60 for n in range(200)}
    )
    data = bytearray(path.read_bytes())
    data[4096 * 2 : 4096 * 3] = b"\xa5" * 4096  # a page of the texts overwritten
    path.write_bytes(bytes(data))
    return path


def _truncated(tmp_path: Path) -> Path:
    path = make_cdb(
        tmp_path / "cut.cdb", {(n, f"卡{n}"): "①：自己主要阶段才能发动。" * 60 for n in range(200)}
    )
    path.write_bytes(path.read_bytes()[: 4096 * 5])
    return path


def _file(name: str, data: bytes):
    def make(tmp_path: Path) -> Path:
        (tmp_path / name).write_bytes(data)
        return tmp_path / name

    return make


def _cdb(schema: str = CDB_SCHEMA):
    """A card database of this schema with no card in it."""
    return lambda tmp_path: make_cdb(tmp_path / "other.cdb", {}, schema)


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda tmp: tmp / "missing.cdb", "No such file"),
        (lambda tmp: tmp, "a directory"),
        (lambda tmp: Path("/dev/null"), "a character device"),
        (_file("deck.cdb", b"#main\n89631139\n"), "not an SQLite database"),
        (_file("empty.cdb", b""), "not an SQLite database"),
        (_cdb(CDB_SCHEMA.replace("TABLE texts(", "TABLE other_texts(")), "no table 'texts'"),
        (_cdb(CDB_SCHEMA.replace("TABLE datas(", "TABLE other_datas(")), "no table 'datas'"),
        (_cdb(CDB_SCHEMA.replace("desc TEXT,", "")), "table 'texts' lacks desc"),
        (_cdb(), "holds no card text"),
        (_damaged, "damaged"),
        (_truncated, "damaged"),
    ],
    ids=[
        "missing",
        "folder",
        "device",
        "text",
        "empty-file",
        "no-texts",
        "no-datas",
        "no-desc",
        "empty",
        "damaged",
        "cut",
    ],
)
def test_what_is_not_a_card_database_is_refused_in_one_line(cli, tmp_path, make, words):
    path = make(tmp_path)
    assert words in one_line_failure(cli("cards", "import", str(path), expect=None))
    assert not os.path.exists(os.environ["OCGKB_TEXTS"])


def test_an_empty_path_is_bad_usage(cli):
    assert "an empty path" in one_line_failure(cli("cards", "import", " ", expect=None), code=2)


def test_damaged_imported_texts_warn_and_import_overwrites_them(cli, cdb):
    Path(os.environ["OCGKB_TEXTS"]).write_bytes(b"SQLite format 3\x00" + b"\x00" * 500)
    view = json.loads(cli("card", MONSTER[1], "--json").stdout)
    assert view["effect_text"]["text"] is None and "damaged" in view["effect_text"]["warning"]
    assert "damaged" in one_line_failure(cli("cards", "status", expect=None))
    result = cli("ask", f"「{MONSTER[1]}」的效果能连锁吗", "--json")
    assert any("damaged" in note for note in json.loads(result.stdout)["notes"])
    cli("cards", "import", str(cdb))
    assert "4 card texts imported" in imported_count(cli)


# The text and its reading in `card`


def test_card_shows_the_imported_text_and_its_reading(cli, cdb):
    cli("cards", "import", str(cdb))
    shown = json.loads(cli("card", MONSTER[1], "--json").stdout)["effect_text"]
    assert shown["text"] == TEXTS[MONSTER].replace("\r\n", "\n") and shown["source"] == str(cdb)
    first, second = shown["reading"]["effects"]
    assert (first["kind"], first["once_per_turn"], first["cost"]) == (
        "ignition",
        "card_name",
        "把这张卡从手卡丢弃",
    )
    assert (second["kind"], second["targets"], second["can_miss_timing"]) == ("trigger", True, True)
    assert shown["reading"]["card"]["password"] == MONSTER[0]
    text = cli("card", MONSTER[1]).stdout
    assert f"Effect text (from {cdb})" in text and "can miss the timing" in text


def test_the_cards_type_decides_an_activations_speed(cli, cdb):
    cli("cards", "import", str(cdb))
    reading = json.loads(cli("card", COUNTER_TRAP[1], "--json").stdout)["effect_text"]["reading"]
    assert [(e["kind"], e["spell_speed"]) for e in reading["effects"]] == [("activation", 3)]


def test_a_text_the_reader_refuses_is_shown_with_the_reason(cli, cdb):
    cli("cards", "import", str(cdb))
    shown = json.loads(cli("card", NORMAL_SPELL[1], "--json").stdout)["effect_text"]
    assert shown["text"] == TEXTS[NORMAL_SPELL] and shown["reading"] is None
    assert "no card effect found" in shown["reason"]
    assert "Not read: no card effect found" in cli("card", NORMAL_SPELL[1]).stdout


def test_without_imported_texts_card_says_where_to_get_one(cli):
    view = json.loads(cli("card", QUICK_PLAY[1], "--json").stdout)
    assert view["effect_text"] == {"text": None, "hint": NO_CARD_TEXT}
    assert "ocgkb cards import PATH/cards.cdb" in cli("card", QUICK_PLAY[1]).stdout


# The readings in `ask`


def test_ask_reads_the_imported_text_of_a_card_it_names(cli, cdb):
    question = f"{QUICK_PLAY[1]}能在对方回合发动吗"
    assert "readings" not in json.loads(cli("ask", question, "--json").stdout)
    cli("cards", "import", str(cdb))
    (entry,) = json.loads(cli("ask", question, "--json").stdout)["readings"]
    assert entry["card"] == {"name": QUICK_PLAY[1], "password": QUICK_PLAY[0]} and entry["from"] == "imported"
    assert [(e["kind"], e["spell_speed"], e["targets"]) for e in entry["reading"]["effects"]] == [
        ("activation", 2, True)
    ]
    text = cli("ask", question).stdout
    assert f"Reading of 「{QUICK_PLAY[1]}」's text (imported):" in text and "spell speed 2" in text


def test_ask_reads_a_quoted_text(cli):
    question = (
        "「①：这张卡被战斗破坏送去墓地时，可以从卡组把1只「黑魔术师」加入手卡。」这个效果会错过时点吗？"
    )
    (entry,) = json.loads(cli("ask", question, "--json").stdout)["readings"]
    assert entry["card"] is None and entry["from"] == "quoted"  # 黑魔术师 is named by the text, not its owner
    (effect,) = entry["reading"]["effects"]
    assert (effect["kind"], effect["trigger_wording"], effect["can_miss_timing"]) == ("trigger", "when", True)
    assert "can miss the timing" in cli("ask", question).stdout


def test_a_quoted_text_is_read_and_what_is_asked_of_it_is_searched(cli):
    """The quote's own words (卡组, 加入手卡) would rank passages on adding cards
    from the deck; the passages answer the question asked about the text."""
    question = "「①：这张卡被对方破坏送去墓地时才能发动。从卡组把1只怪兽加入手卡。」这个效果会不会卡时点？"
    hits = json.loads(cli("ask", question, "--json").stdout)["hits"]
    assert "miss_timing" in hits[0]["concepts"]


@pytest.mark.parametrize(
    "question, asked",
    [
        ("「①：自己主要阶段才能发动。自己抽1张。」能连锁吗？", "能连锁吗？"),
        (
            "这个效果：①：这张卡召唤成功时才能发动。自己抽1张。那么能错过时点吗？",
            "这个效果：那么能错过时点吗？",
        ),
        ("「①：自己主要阶段才能发动。自己抽1张。」？", "「①：自己主要阶段才能发动。自己抽1张。」？"),
        ("「增殖的G」能被「灰流丽」无效吗", "「增殖的G」能被「灰流丽」无效吗"),
        # a snippet is what the question asks about: it stays
        (
            "解放的怪兽有“这张卡被送去墓地时，可以抽1张”的效果，能发吗",
            "解放的怪兽有“这张卡被送去墓地时，可以抽1张”的效果，能发吗",
        ),
    ],
)
def test_a_question_without_its_quoted_text(question, asked):
    assert without_quoted_texts(question) == asked


def test_a_quoted_text_is_read_as_the_card_named_outside_it(cli):
    question = (
        f"{COUNTER_TRAP[1]}的效果：①：支付1500基本分才能发动。对方把魔法卡发动时，那个发动无效。能被连锁吗？"
    )
    (entry,) = json.loads(cli("ask", question, "--json").stdout)["readings"]
    assert entry["card"]["password"] == COUNTER_TRAP[0]
    assert entry["reading"]["effects"][0]["spell_speed"] == 3


@pytest.mark.parametrize(
    "question, quoted",
    [
        ("「增殖的G」能被「灰流丽」无效吗", []),
        ("“①：自己主要阶段才能发动。自己抽1张。”能连锁吗？", ["①：自己主要阶段才能发动。自己抽1张。"]),
        (
            '"①：以场上1张卡为对象才能发动。那张卡破坏。" 这个算取对象吗',
            ["①：以场上1张卡为对象才能发动。那张卡破坏。"],
        ),
        (
            "这个效果：①：这张卡召唤成功时才能发动。自己抽1张。那么能错过时点吗？",
            ["①：这张卡召唤成功时才能发动。自己抽1张。"],
        ),
        ("『把1只「甲虫」送去墓地才能发动。自己抽2张。』", ["把1只「甲虫」送去墓地才能发动。自己抽2张。"]),
        ("cost是什么：就是代价", []),
    ],
)
def test_the_quoted_texts_of_a_question(question, quoted):
    assert quoted_card_texts(question) == quoted


# Where the texts live


def test_the_texts_live_in_the_users_data_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("OCGKB_TEXTS")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    if paths.sys.platform.startswith("linux"):
        assert paths.card_texts_path() == str(tmp_path / "data" / "ocgkb" / "card_texts.sqlite")
    package = os.path.dirname(paths.__file__)
    assert not paths.card_texts_path().startswith(package)
    monkeypatch.setenv("OCGKB_TEXTS", "./mine//texts.sqlite")
    assert paths.card_texts_path() == "mine/texts.sqlite"


# On the web, after an import


def test_the_card_page_and_an_answer_show_an_imported_text_read(cli, cdb, web_client):
    cli("cards", "import", str(cdb))
    page = web_client.get(f"/card/{QUICK_PLAY[0]}", headers=EN).text
    assert "以对方场上1张表侧表示的卡为对象" in page and 'href="/p/' in page
    assert "spell speed 2" in page  # read as the quick-play spell the card facts say it is
    answer = web_client.get("/ask", params={"q": f"{QUICK_PLAY[1]}能连锁吗"}, headers=EN).text
    assert "its imported text" in answer and "以对方场上1张表侧表示的卡为对象" in answer


def test_without_an_import_the_card_page_says_where_to_get_a_text(web_client):
    from ocgkb.messages import NO_CARD_TEXT

    page = html.unescape(web_client.get(f"/card/{QUICK_PLAY[0]}", headers={"Accept-Language": "en"}).text)
    assert NO_CARD_TEXT in page
    page = html.unescape(web_client.get(f"/card/{QUICK_PLAY[0]}", headers={"Accept-Language": "zh"}).text)
    assert "本项目不附带卡片效果文本" in page and "ocgkb cards import" in page
