"""The commands whose JSON output must not change when the code is reorganised:
about 75 real inputs over every command but `serve` and `mcp` (each tested as a
server). `python -m tests.golden.record` (from the repository root) writes their
output to outputs.json; tests/test_golden.py checks it.

An argument may name a file the case writes first (`<TMP>/deck.ydk`) or a fixture
(`<ROOT>/…`); what differs between runs (the temporary folder, the knowledge base's
path, a build's seconds, the moment a documentation was added) is replaced in the
output by a placeholder."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from ocgkb.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
OUTPUTS = Path(__file__).with_name("outputs.json")

ASK = [
    "cost算不算卡片的效果",
    "伤害步骤能发动什么卡",
    "先攻第一回合能不能抽卡",
    "同名卡最多能放几张",
    "盖着的怪兽能被解放吗",
    "被康了还能发动吗",
    "Can I chain a quick effect to a counter trap?",
    "What happens when the attack target leaves the field after the attack declaration?",
    "卡时点是什么意思",
    "今天天气怎么样",
]
SEARCH = [
    ["卷回"],
    ["卷回", "--section", "6.3"],
    ["对象", "--kind", "ruling", "--since", "2023-01-01"],
    ["破坏", "--card", "黑洞"],
    ["cost", "--concept", "cost", "--limit", "3"],
    ["missing the timing"],
    ["电子龙三型 电子龙 卡组"],
    ["速攻魔法 手卡 发动"],
    ["额外怪兽区域 连接"],
    ["伤害计算时 栗子球"],
    ["替代破坏"],
    ["X素材 取除"],
]
SECTION = ["4.2.2", "4", "rulings/cost", "6.3.4.3", "1.2.1", "3.2.2.1.1", "99.9"]
CARD = [
    "电气尾龙",
    "maxx c",
    "増殖するG",
    "强脱",
    "qing yan bai long",
    "突近",
    "连锁",
    "dark magican",
    "黑洞",
    "No.39 希望皇 霍普",
]
CONCEPT = ["cost", "卡时点", "chain", "spell speed", "damage step", "replay", "不存在的概念"]
REPLAY = [
    "atk_rush_then_gale",
    "chain_five_links_black_hole",
    "miss_timing_goblindbergh_bottomless_trap_hole",
    "replay_dimensional_prison_chained_call_of_the_haunted",
    "battle_face_down_defender_flipped",
    "cost_kept_cosmic_blazar_dragon_solemn_strike",
]
EXPORT = [
    ["--format", "json", "--around", "卷回", "--depth", "1"],
    ["--format", "graphml", "--around", "cost", "--depth", "1"],
    ["--format", "dot", "--around", "卡时点", "--depth", "1"],
    ["--format", "csv", "--around", "黑洞", "--depth", "1"],
    ["--format", "gexf", "--around", "replay", "--depth", "1"],
]

SHOW = ["4.2.2/4", "tournament/129", "rulings/调整中/4", "masterrule/60"]
# A card text written for these cases, in a real card's style; never Konami's.
CARD_TEXT = (
    "这个卡名的①的效果1回合只能使用1次。①：把手卡1只怪兽送去墓地，以对方场上1张卡为对象才能发动。"
    "那张卡破坏。②：这张卡被战斗破坏送去墓地时才能发动。从自己卡组把1只4星以下的怪兽加入手卡。"
)
# A deck of 40 with a forbidden card (强欲之壶) and four of a kind; filler by password.
FILLER = ["70000776", "70026064", "70043345", "70046172", "70050374", "70054514", "70058649",
          "70070211", "70074904", "70083592", "70083723", "70084224", "70088809"]  # fmt: skip
DECK = "\n".join(["#main", "55144522", *(["89631139"] * 4), *[c for c in FILLER for _ in range(3)][:35],
                  "#extra", "!side", ""])  # fmt: skip
# A ygopro cards.cdb of two cards (real passwords, texts written for these cases).
CDB_TEXTS = {
    (89631139, "青眼白龙"): "①：这张卡召唤成功时才能发动。自己从卡组抽1张。",
    (55144522, "强欲之壶"): "①：支付1000基本分才能发动。自己从卡组抽2张。",
}
RST = "<ROOT>/tests/fixtures/rst"
SMALL = ROOT / "tests" / "fixtures" / "small" / "rulings_data"
OTHERS = [
    *(["show", pid, "--json"] for pid in SHOW),
    ["read", CARD_TEXT, "--json"],
    ["read", CARD_TEXT, "--card", "青眼白龙", "--json"],
    ["deck", "check", "<TMP>/deck.ydk", "--json"],
    ["deck", "check", "<TMP>/deck.ydk", "--region", "ocg-cn", "--on", "2024-01-01", "--json"],
    ["build", "--check", "--json"],
    ["cards", "status"],
    ["cards", "import", "<TMP>/cards.cdb"],
    ["cards", "forget"],
    ["changes", f"{RST}/edition_2025", f"{RST}/edition_2026", "--json"],
    ["changes", f"{RST}/edition_2025", f"{RST}/edition_2026", "--only", "changed", "--since", "2026-01-01"],
    ["sources", "list", "--json"],
    ["sources", "remove", "never-added"],
    # Added to a knowledge base of the small corpus, in a folder of its own: the
    # session's knowledge base never changes under the other tests.
    ["sources", "add", f"{RST}/edition_2025", "--name", "golden", "--json"],
]


# What a case needs done first: texts to forget.
BEFORE = {("cards", "forget"): ["cards", "import", "<TMP>/cards.cdb"]}


def write_inputs(tmp: Path) -> None:
    """The files the cases name under <TMP>."""
    (tmp / "deck.ydk").write_text(DECK, encoding="utf-8")
    cdb = tmp / "cards.cdb"
    cdb.unlink(missing_ok=True)
    with sqlite3.connect(cdb) as conn:
        conn.execute("CREATE TABLE datas(id INTEGER PRIMARY KEY, type INTEGER)")
        conn.execute("CREATE TABLE texts(id INTEGER PRIMARY KEY, name TEXT, desc TEXT)")
        for (password, name), text in CDB_TEXTS.items():
            conn.execute("INSERT INTO datas VALUES (?, 1)", (password,))
            conn.execute("INSERT INTO texts VALUES (?, ?, ?)", (password, name, text))
    conn.close()


def cases() -> list[list[str]]:
    runs = [["ask", q, "--json"] for q in ASK]
    runs += [["search", *args, "--json"] for args in SEARCH]
    runs += [["section", s, "--json"] for s in SECTION]
    runs += [["card", c, "--json"] for c in CARD]
    runs += [["concept", c, "--json"] for c in CONCEPT]
    runs += [["replay", r, "--json"] for r in REPLAY]
    runs += [["export", *args] for args in EXPORT]
    return runs + OTHERS


def run(db: Path, args: list[str], tmp: Path) -> dict:
    """One command's exit code and output, with paths that differ between
    machines replaced; an export is recorded by the hash of what it wrote."""
    write_inputs(tmp)
    recorded = args
    args = [arg.replace("<TMP>", str(tmp)).replace("<ROOT>", str(ROOT)) for arg in args]
    if args[0] == "export":
        out = tmp / ("export-" + hashlib.sha256(" ".join(args).encode()).hexdigest()[:12])
        args = [*args, "--output", str(out)]
    # Piped text as a script reads it: a COLUMNS in the recorder's environment would wrap it.
    # Each case's card texts in its own folder, never the user's.
    env = {"COLUMNS": None, "OCGKB_TEXTS": str(tmp / "card_texts.sqlite")}
    where = ["--db", str(db)]
    if before := BEFORE.get(tuple(recorded[:2])):
        CliRunner(env=env).invoke(main, [*where, *(arg.replace("<TMP>", str(tmp)) for arg in before)])
    if args[:2] == ["sources", "add"]:
        env["OCGKB_SOURCES"] = str(tmp / "sources")
        where = ["--db", str(tmp / "small.sqlite"), "--data-dir", str(SMALL)]
    result = CliRunner(env=env).invoke(main, [*where, *args])
    text = result.stdout
    if args[0] == "export":
        files = sorted(out.iterdir()) if out.is_dir() else [out] if out.exists() else []
        names = out.is_dir()  # a folder's files by name; a single file by its bytes alone
        text = hashlib.sha256(
            b"".join((f.name.encode() if names else b"") + f.read_bytes() for f in files)
        ).hexdigest()
    text = text.replace(str(db), "<DB>").replace(str(tmp), "<TMP>").replace(str(ROOT), "<ROOT>")
    text = re.sub(r'"file": "[^"]*/kb/scenarios/', '"file": "kb/scenarios/', text)
    text = re.sub(r'"seconds": [0-9.e-]+', '"seconds": 0', text)
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:[+-]\d\d:\d\d|Z)?", "<TIME>", text)
    return {"args": recorded, "exit": result.exit_code, "output": text}


def record(db: Path, tmp: Path) -> list[dict]:
    """Every case's output, each run in a folder of its own as a test is."""
    outputs = []
    for number, args in enumerate(cases()):
        (tmp / str(number)).mkdir()
        outputs.append(run(db, args, tmp / str(number)))
    return outputs


def load() -> list[dict]:
    return json.loads(OUTPUTS.read_text(encoding="utf-8"))
