"""The commands whose JSON output must not change when the code is reorganised:
about 60 real inputs over every command. `python -m tests.golden.record` (from the
repository root) writes their output to outputs.json; tests/test_golden.py checks it."""

from __future__ import annotations

import hashlib
import json
import re
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


def cases() -> list[list[str]]:
    runs = [["ask", q, "--json"] for q in ASK]
    runs += [["search", *args, "--json"] for args in SEARCH]
    runs += [["section", s, "--json"] for s in SECTION]
    runs += [["card", c, "--json"] for c in CARD]
    runs += [["concept", c, "--json"] for c in CONCEPT]
    runs += [["replay", r, "--json"] for r in REPLAY]
    runs += [["export", *args] for args in EXPORT]
    return runs


def run(db: Path, args: list[str], tmp: Path) -> dict:
    """One command's exit code and output, with paths that differ between
    machines replaced; an export is recorded by the hash of what it wrote."""
    if args[0] == "export":
        out = tmp / ("export-" + hashlib.sha256(" ".join(args).encode()).hexdigest()[:12])
        args = [*args, "--output", str(out)]
    # Piped text as a script reads it: a COLUMNS in the recorder's environment would wrap it.
    result = CliRunner(env={"COLUMNS": None}).invoke(main, ["--db", str(db), *args])
    text = result.stdout
    if args[0] == "export":
        files = sorted(out.iterdir()) if out.is_dir() else [out] if out.exists() else []
        names = out.is_dir()  # a folder's files by name; a single file by its bytes alone
        text = hashlib.sha256(
            b"".join((f.name.encode() if names else b"") + f.read_bytes() for f in files)
        ).hexdigest()
    text = text.replace(str(ROOT), "<ROOT>")
    text = re.sub(r'"file": "[^"]*/kb/scenarios/', '"file": "kb/scenarios/', text)
    return {"args": args[:-2] if args[0] == "export" else args, "exit": result.exit_code, "output": text}


def record(db: Path, tmp: Path) -> list[dict]:
    return [run(db, args, tmp) for args in cases()]


def load() -> list[dict]:
    return json.loads(OUTPUTS.read_text(encoding="utf-8"))
