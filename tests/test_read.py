"""`ocgkb read` (issue 23): the card-text reader on texts written here in the
style of card texts (never a real card's), the citations against the built
knowledge base, and the command with --card and bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import NamedTuple

import pytest
from click.testing import CliRunner

from ocgkb.cli.main import main
from ocgkb.store.passages import passage, passage_hits
from ocgkb.text.card_text import CITES, language_of, read_card_text
from ocgkb.text.card_text_en import MARKERS as ENGLISH_MARKERS
from ocgkb.text.card_text_ja import MARKERS as JAPANESE_MARKERS
from ocgkb.text.card_text_markers import read_marked

QUICK_PLAY = "5318639"  # 旋风, a quick-play spell
COUNTER_TRAP = "神之宣告"  # a counter trap, named by its name


def effects(text: str, card_kind: str | None = None) -> list[dict]:
    return read_card_text(text, card_kind)["effects"]


def first(text: str, card_kind: str | None = None) -> dict:
    return effects(text, card_kind)[0]


# Written here in the style of card texts (never a real card's), each with its
# card kind and the reading of every effect, field by field.
ANY = object()


class E(NamedTuple):
    """An effect's expected reading; ANY leaves a field unchecked."""

    kind: str
    spell_speed: int | None = None
    optional: bool | None = None
    trigger_wording: str | None = None
    can_miss_timing: bool | None = None
    targets: bool = False
    once_per_turn: str = "none"
    cost: object = None
    condition: object = ANY
    n: object = ANY


TRIGGER_WHEN = E("trigger", 1, True, "when", True)
TRIGGER_IF = E("trigger", 1, True, "if", False)
IGNITION = E("ignition", 1, True)
QUICK = E("quick", 2, True)
CONTINUOUS = E("continuous")

# fmt: off
CHINESE = [
    # Ignition effects: one's own main phase, a cost, a target, old wordings with 可以.
    ("①：自己主要阶段才能发动。从卡组把1只战士族怪兽加入手卡。", "monster", [IGNITION._replace(condition="自己主要阶段")]),
    ("①：支付800基本分才能发动。自己抽1张。", "monster", [IGNITION._replace(cost="支付800基本分", condition=None)]),
    ("①：以对方场上1张卡为对象才能发动。那张卡破坏。", "monster", [IGNITION._replace(targets=True, condition=None)]),
    ("①：把自己场上1只怪兽解放，以对方场上1只怪兽为对象才能发动。那只怪兽除外。", "monster", [IGNITION._replace(targets=True, cost="把自己场上1只怪兽解放")]),
    ("可以把手卡1张卡丢弃，这张卡的攻击力上升500。", None, [IGNITION._replace(cost="把手卡1张卡丢弃", n=1)]),
    ("1回合1次，自己主要阶段可以把对方场上1只怪兽破坏。", None, [IGNITION._replace(once_per_turn="this_card", condition="自己主要阶段", n=1)]),
    ("只要这张卡在场上表侧表示存在，可以通过把手卡1只怪兽送去墓地，从自己墓地选1只怪兽特殊召唤。", None, [IGNITION._replace(cost="把手卡1只怪兽送去墓地")]),
    ("①：自己场上没有怪兽存在的场合才能发动。从手卡把1只怪兽特殊召唤。", "monster", [IGNITION]),
    ("自己主要阶段才能发动。从卡组把1只怪兽送去墓地。这个效果1回合只能使用1次。", None, [IGNITION._replace(once_per_turn="this_card", n=1)]),
    # Triggers: when and if, optional and mandatory, in both wordings.
    ("①：这张卡召唤成功时才能发动。从卡组把1只鸟兽族怪兽加入手卡。", "monster", [TRIGGER_WHEN]),
    ("①：此卡特殊召唤成功时可以发动。自己抽1张。", "monster", [TRIGGER_WHEN]),
    ("①：这张卡被送去墓地的场合才能发动。自己抽1张。", "monster", [TRIGGER_IF]),
    ("①：此卡被战斗破坏的情况下可以发动。从卡组把1只怪兽特殊召唤。", "monster", [TRIGGER_IF]),
    ("①：这张卡被破坏时发动。给与对方500伤害。", "monster", [E("trigger", 1, False, "when", False)]),
    ("①：这张卡从场上离开的场合发动。对方抽1张。", "monster", [E("trigger", 1, False, "if", False)]),
    ("这张卡被战斗破坏送去墓地时，可以从卡组把1只水属性怪兽加入手卡。", None, [TRIGGER_WHEN._replace(n=1)]),
    ("这张卡被战斗破坏时，给与对方800伤害。", None, [E("trigger", 1, False, "when", False, n=1)]),
    ("这张卡召唤成功时，对方受到500伤害。此外，这张卡被破坏时，可以从卡组把1只怪兽加入手卡。", None, [E("trigger", 1, False, "when", False, n=1), TRIGGER_WHEN._replace(n=2)]),
    ("①：自己准备阶段发动。自己失去500基本分。", "monster", [E("trigger", 1, False)]),
    ("①：自己·对方的准备阶段才能发动。自己回复500基本分。", "monster", [E("trigger", 1, True)]),
    ("①：这张卡在墓地存在的场合，对方把怪兽召唤时才能发动。这张卡加入手卡。", "monster", [TRIGGER_WHEN]),
    # 002 反转怪兽: the modern wording of a flip effect (反转： in old texts).
    ("①：这张卡反转的场合才能发动。自己抽1张。", "monster", [TRIGGER_IF._replace(kind="flip")]),
    ("①：这张卡和对方怪兽进行战斗的伤害计算后发动。那只对方怪兽破坏。", "monster", [E("trigger", 1, False)]),
    ("①：这张卡和对方怪兽进行战斗的伤害步骤开始时才能发动。那只对方怪兽除外。", "monster", [TRIGGER_WHEN]),
    ("①：这张卡被除外的场合，以自己墓地1只怪兽为对象才能发动。那只怪兽加入手卡。", "monster", [TRIGGER_IF._replace(targets=True, condition="这张卡被除外的场合")]),
    # Quick effects: the opponent's turn, both turns, damage calculation, a chain response.
    ("①：对方主要阶段，把这张卡从手卡丢弃才能发动。对方场上1只怪兽破坏。", "monster", [QUICK._replace(cost="把这张卡从手卡丢弃", condition="对方主要阶段")]),
    ("①：自己·对方回合，以场上1只怪兽为对象才能发动。那只怪兽回到手卡。", "monster", [QUICK._replace(targets=True)]),
    ("①：以场上1张魔法卡为对象才能发动。那张卡破坏。这个效果在对方回合也能发动。", "monster", [QUICK._replace(targets=True)]),
    ("①：对方把怪兽的效果发动时，把这张卡从手卡送去墓地才能发动。那个发动无效。", "monster", [QUICK._replace(cost="把这张卡从手卡送去墓地")]),
    ("①：这张卡和对方怪兽进行战斗的伤害计算时才能发动。这张卡的攻击力上升1000。", "monster", [QUICK]),
    ("①：自己怪兽进行战斗的伤害计算前，把这张卡从手卡送去墓地才能发动。那只怪兽的攻击力上升800。", "monster", [QUICK._replace(cost="把这张卡从手卡送去墓地")]),
    ("①：战斗阶段，把这张卡解放才能发动。对方场上的怪兽全部变成守备表示。", "monster", [QUICK._replace(cost="把这张卡解放")]),
    ("①：对方把怪兽特殊召唤之际，把这张卡解放才能发动。那次特殊召唤无效。", "monster", [QUICK._replace(cost="把这张卡解放")]),
    ("①：1回合1次，对方把魔法·陷阱卡发动时才能发动。那个发动无效。", "monster", [QUICK._replace(once_per_turn="this_card")]),
    ("①：以这张卡为对象的对方的效果发动时，把这张卡解放才能发动。那个发动无效。", "monster", [QUICK._replace(cost="把这张卡解放")]),
    # A condition that is a state, not an event: no trigger.
    ("①：对方场上的怪兽比自己场上的怪兽多的场合才能发动。这张卡从手卡特殊召唤。", "monster", [IGNITION._replace(condition="对方场上的怪兽比自己场上的怪兽多的场合")]),
    # Costs: from a place, returned to the deck, revealed, an Xyz material detached.
    ("①：自己主要阶段，从手卡丢弃1只怪兽才能发动。自己抽2张。", "monster", [IGNITION._replace(cost="从手卡丢弃1只怪兽", condition="自己主要阶段")]),
    ("①：从自己墓地把1只怪兽除外才能发动。自己抽1张。", "monster", [IGNITION._replace(cost="从自己墓地把1只怪兽除外")]),
    ("①：让墓地的这张卡回到卡组才能发动。自己抽1张。", "monster", [IGNITION._replace(cost="让墓地的这张卡回到卡组")]),
    ("①：把手卡1只怪兽给对方观看才能发动。自己抽1张。", "monster", [IGNITION._replace(cost="把手卡1只怪兽给对方观看")]),
    ("①：1回合1次，这张卡1个超量素材取除，以对方场上1只怪兽为对象才能发动。那只怪兽破坏。", "monster", [IGNITION._replace(cost="这张卡1个超量素材取除", targets=True, once_per_turn="this_card", condition=None)]),
    # A replacement is applied, not activated.
    ("自己场上的怪兽被效果破坏的场合，可以作为代替把墓地的这张卡除外。", None, [CONTINUOUS]),
    # The official wording's mandatory 会发动; the eighth period's 选择 targets, 选 does not.
    ("①：此卡被破坏的情况下会发动。给与对方500伤害。", "monster", [E("trigger", 1, False, "if", False)]),
    ("①：此卡被战斗破坏时会发动。对方抽1张。", "monster", [E("trigger", 1, False, "when", False)]),
    ("1回合1次，选择对方场上1只怪兽才能发动。选择的怪兽破坏。", None, [IGNITION._replace(targets=True, once_per_turn="this_card", condition=None)]),
    ("1回合1次，可以选择场上1张卡破坏。", None, [IGNITION._replace(targets=True, once_per_turn="this_card")]),
    ("①：自己主要阶段才能发动。从卡组选1只怪兽加入手卡。", "monster", [IGNITION]),
    ("①：这张卡被选择作为攻击对象时才能发动。那次攻击无效。", "monster", [TRIGGER_WHEN]),
    # Continuous effects and summon conditions.
    ("①：只要这张卡在怪兽区域存在，自己场上的怪兽的攻击力上升300。", "monster", [CONTINUOUS]),
    ("这张卡不会被战斗破坏。", None, [CONTINUOUS]),
    ("这张卡可以直接攻击。", None, [CONTINUOUS]),
    ("只要自己墓地有怪兽3只以上存在，这张卡的攻击力上升500。", None, [CONTINUOUS._replace(n=1)]),
    ("①：只要这张卡在怪兽区域存在，对方不能把魔法卡发动。", "monster", [CONTINUOUS]),
    ("①：自己场上没有怪兽存在的场合，这张卡可以从手卡特殊召唤。②：这张卡召唤成功时才能发动。自己抽1张。", "monster", [E("summon_condition", n=1), TRIGGER_WHEN._replace(n=2)]),
    ("①：装备怪兽的攻击力上升500。②：装备怪兽被破坏让这张卡被送去墓地时才能发动。自己抽1张。", "equip_spell", [E("activation", 1, True, n=0), CONTINUOUS._replace(n=1), E("other", 1, True, "when", True, n=2)]),
    ("这张卡可以用1只怪兽解放作上级召唤。", None, [CONTINUOUS]),
    ("①：只要这张卡在怪兽区域存在，这张卡不会成为对方的效果的对象。", "monster", [CONTINUOUS]),
    ("这张卡不能通常召唤。把自己墓地3只暗属性怪兽除外的场合才能特殊召唤。①：1回合1次，自己主要阶段才能发动。自己抽1张。", "monster", [E("summon_condition", n=0), IGNITION._replace(once_per_turn="this_card", n=1)]),
    ("调整＋调整以外的怪兽1只以上\n①：这张卡同调召唤成功的场合才能发动。自己抽1张。", "monster", [E("summon_condition", n=0), TRIGGER_IF._replace(n=1)]),
    ("4星怪兽×2\n①：1回合1次，把这张卡1个超量素材取除才能发动。自己抽1张。", "monster", [E("summon_condition", n=0), IGNITION._replace(once_per_turn="this_card", cost="把这张卡1个超量素材取除", n=1)]),
    ("这个卡名的①的效果在决斗中只能使用1次。①：自己主要阶段才能发动。自己抽2张。", "monster", [IGNITION._replace(n=1)]),
    ("←4 【灵摆】 4→\n【怪兽效果】\n①：这张卡召唤成功时才能发动。自己抽1张。", "monster", [TRIGGER_WHEN._replace(n=1)]),
    ("「秘仪的祭坛」降临。这张卡不用仪式召唤不能特殊召唤。①：这张卡仪式召唤成功的场合才能发动。自己抽1张。", "monster", [E("summon_condition", n=0), TRIGGER_IF._replace(n=1)]),
    ("这张卡的卡名在规则上也当作「星灯」卡使用。①：自己主要阶段才能发动。自己抽1张。", "monster", [IGNITION._replace(n=1)]),
    # Flip effects.
    ("反转：对方场上1只怪兽破坏。", "monster", [E("flip", 1, False, can_miss_timing=False)]),  # activated, mandatory
    ("反转：以场上1张卡为对象，那张卡回到持有者手卡。", "monster", [E("flip", 1, False, can_miss_timing=False, targets=True)]),
    ("反转：可以从卡组把1只怪兽加入手卡。", "monster", [E("flip", 1, True, can_miss_timing=False)]),
    # Old wordings: a state and what holds in it is continuous; a cost after 可以; 「X」的效果 limits by name.
    ("这张卡没有超量素材的场合，这张卡不能攻击。", "monster", [E("continuous")]),
    (
        "这张卡被破坏时，可以把自己墓地1只怪兽除外，从卡组把1只怪兽加入手卡。",
        "monster",
        [E("trigger", 1, True, "when", True, cost="把自己墓地1只怪兽除外", condition="这张卡被破坏时")],
    ),
    (
        "这张卡召唤成功时，可以从卡组把1张魔法卡加入手卡。「炎翼巡卫」的效果1回合只能使用1次。",
        "monster",
        [E("trigger", 1, True, "when", True, once_per_turn="card_name")],
    ),
    (
        "只要这张卡在场上存在，自己场上的怪兽攻击力上升300。可以把这张卡送去墓地，自己抽1张卡。",
        "continuous_spell",
        [E("activation", 1, True, n=0), E("continuous", n=1), E("other", 1, True, cost="把这张卡送去墓地", n=2)],
    ),
    # The target said between 可以 and 发动; 才可以发动.
    ("①：自己主要阶段可以以场上1张卡为对象发动。那张卡破坏。", "monster", [E("ignition", 1, True, targets=True, condition="自己主要阶段")]),
    ("①：把手卡1张丢弃才能以场上1张卡为对象发动。那张卡破坏。", "monster", [E("ignition", 1, True, targets=True, cost="把手卡1张丢弃")]),
    ("①：这张卡召唤成功时才可以发动。自己抽1张。", "monster", [E("trigger", 1, True, "when", True, condition="这张卡召唤成功时")]),
    ("①：把这张卡的超量素材取除1个才能发动。自己抽1张。", "monster", [E("ignition", 1, True, cost="把这张卡的超量素材取除1个")]),
    # A name pasted above the text and a ritual spell's monster line are layout; 每次…发动 is another card's activation.
    ("「雷鸣祭坛」\n①：以对方场上1张卡为对象才能发动。那张卡破坏。", "quick_play_spell", [E("activation", 2, True, targets=True, n=1)]),
    ("「X」的降临必需。①：从手卡把1只仪式怪兽仪式召唤。", "ritual_spell", [E("activation", 1, True, n=1)]),
    (
        "①：每次对方把魔法卡发动，给这张卡放置1个指示物。②：只要这张卡在场上存在，自己怪兽的攻击力上升这张卡的指示物数量×100。",
        "continuous_spell",
        [E("activation", 1, True, n=0), E("continuous", n=1), E("continuous", n=2)],
    ),
    # Once per turn, by card name or for this card.
    ("这个卡名的①的效果1回合只能使用1次。①：自己主要阶段才能发动。自己抽1张。", "monster", [IGNITION._replace(once_per_turn="card_name")]),
    ("这个卡名的②的效果1回合只能使用1次。①：自己主要阶段才能发动。自己抽1张。②：这张卡被送去墓地的场合才能发动。自己抽1张。", "monster", [IGNITION, TRIGGER_IF._replace(once_per_turn="card_name")]),
    ("此卡名的①效果每回合只能使用1次。①：自己主要阶段可以发动。自己抽1张。", "monster", [IGNITION._replace(once_per_turn="card_name")]),
    ("①：自己主要阶段才能发动。自己抽1张。这个卡名的这个效果1回合只能使用1次。②：这张卡被送去墓地的场合才能发动。自己抽1张。", "monster", [IGNITION._replace(once_per_turn="card_name"), TRIGGER_IF]),
    ("①：每回合1次，自己主要阶段可以发动。自己抽1张。", "monster", [IGNITION._replace(once_per_turn="this_card")]),
    ("①：１回合１次，自己主要阶段才能发动。自己抽１张。", "monster", [IGNITION._replace(once_per_turn="this_card")]),
    # Spells: activations by card type, effects other than the activation.
    ("①：以场上1张卡为对象才能发动。那张卡破坏。", "normal_spell", [E("activation", 1, True, targets=True, n=1)]),
    ("①：以场上1张魔法·陷阱卡为对象才能发动。那张卡破坏。", "quick_play_spell", [E("activation", 2, True, targets=True)]),
    ("①：自己场上1只怪兽的攻击力上升800。②：把墓地的这张卡除外才能发动。自己抽1张。", "quick_play_spell", [E("activation", 2, True), E("other", 1, True, cost="把墓地的这张卡除外")]),
    ("①：从自己的手卡·场上把等级合计直到变成和仪式怪兽相同为止的怪兽解放，从手卡把1只仪式怪兽仪式召唤。", "ritual_spell", [E("activation", 1, True)]),
    ("①：只要这张卡在魔法与陷阱区域存在，自己场上的怪兽的攻击力上升300。", "continuous_spell", [E("activation", 1, True, n=0), CONTINUOUS._replace(n=1)]),
    ("这个卡名的卡在1回合只能发动1张。①：只要这张卡在场地区域存在，自己的龙族怪兽的攻击力上升300。②：1回合1次，自己主要阶段才能发动。自己抽1张。", "field_spell", [E("activation", 1, True, once_per_turn="card_name", n=0), CONTINUOUS, E("other", 1, True, once_per_turn="this_card")]),
    ("①：作为这张卡的发动时的效果处理，可以从卡组把1只植物族怪兽加入手卡。②：只要这张卡在场地区域存在，自己的植物族怪兽的攻击力上升200。", "field_spell", [E("activation", 1, True, n=1), CONTINUOUS]),
    ("以自己场上1只怪兽为对象才能把这张卡发动。那只怪兽的攻击力上升500。", "equip_spell", [E("activation", 1, True, targets=True, n=0), CONTINUOUS._replace(n=1)]),
    # No card named, but the text says which type of card it is.
    ("①：只要这张卡在场地区域存在，自己场上的怪兽的攻击力上升200。", None, [E("activation", 1, True, n=0), CONTINUOUS._replace(n=1)]),
    ("①：装备怪兽的攻击力上升700。", None, [E("activation", 1, True, n=0), CONTINUOUS._replace(n=1)]),
    ("①：这张卡发动后变成效果怪兽（恶魔族·暗·4星·攻1800/守1000）在怪兽区域特殊召唤。这张卡也当作陷阱卡使用。", None, [E("activation", 2, True, n=1)]),
    ("①：1回合1次，可以把这张卡当作装备卡使用给自己场上的机械族怪兽装备。装备怪兽的攻击力上升500。", None, [IGNITION._replace(once_per_turn="this_card", n=1)]),
    # Traps: activations, counter traps, effects from the graveyard.
    ("①：对方怪兽的攻击宣言时才能发动。那只攻击怪兽破坏。", "normal_trap", [E("activation", 2, True, "when", True)]),
    ("①：对方把怪兽特殊召唤的场合才能发动。那只怪兽除外。", "normal_trap", [E("activation", 2, True, "if", False)]),
    ("①：对方把魔法·陷阱卡发动时，支付1000基本分才能发动。那个发动无效并破坏。", "counter_trap", [E("activation", 3, True, cost="支付1000基本分")]),
    ("①：对方把怪兽召唤之际才能发动。那次召唤无效，那只怪兽破坏。", "counter_trap", [E("activation", 3, True)]),
    ("①：以自己墓地1只怪兽为对象才能发动。那只怪兽攻击表示特殊召唤。", "continuous_trap", [E("activation", 2, True, targets=True)]),
    ("①：只要这张卡在魔法与陷阱区域存在，对方不能攻击。②：1回合1次，以场上1张卡为对象才能发动。那张卡破坏。", "continuous_trap", [E("activation", 2, True, n=0), CONTINUOUS, E("other", 2, True, targets=True, once_per_turn="this_card")]),
    ("①：自己场上1只怪兽破坏。②：把墓地的这张卡除外，以对方场上1张卡为对象才能发动。那张卡回到手卡。", "normal_trap", [E("activation", 2, True), E("other", 2, True, targets=True, cost="把墓地的这张卡除外")]),
]

JAPANESE = [
    ("①：自分メインフェイズに発動できる。デッキからカードを１枚ドローする。", "monster", [IGNITION._replace(condition="自分メインフェイズに")]),
    ("①：このカードが召喚に成功した時に発動できる。デッキから鳥獣族モンスター１体を手札に加える。", "monster", [TRIGGER_WHEN]),
    ("①：このカードが墓地へ送られた場合に発動できる。自分はデッキから１枚ドローする。", "monster", [TRIGGER_IF]),
    ("①：このカードが破壊された時に発動する。相手に５００ダメージを与える。", "monster", [E("trigger", 1, False, "when", False)]),
    ("①：このカードが除外された場合に発動する。相手は１枚ドローする。", "monster", [E("trigger", 1, False, "if", False)]),
    ("①：手札を１枚捨て、フィールドのカード１枚を対象として発動できる。そのカードを破壊する。", "monster", [IGNITION._replace(targets=True, cost="手札を1枚捨て")]),
    ("①：相手がモンスターの効果を発動した時、このカードを手札から捨てて発動できる。その発動を無効にする。", "monster", [QUICK._replace(cost="このカードを手札から捨てて")]),
    ("①：フィールドのモンスター１体を対象として発動できる。そのモンスターを手札に戻す。この効果は相手ターンでも発動できる。", "monster", [QUICK._replace(targets=True)]),
    ("①：１ターンに１度、自分メインフェイズに発動できる。自分は１枚ドローする。", "monster", [IGNITION._replace(once_per_turn="this_card")]),
    ("このカード名の①の効果は１ターンに１度しか使用できない。①：このカードが特殊召喚に成功した場合に発動できる。自分は１枚ドローする。", "monster", [TRIGGER_IF._replace(once_per_turn="card_name")]),
    ("①：このカードが相手モンスターと戦闘を行うダメージ計算時に、このカードを手札から捨てて発動できる。その戦闘で発生する自分への戦闘ダメージは０になる。", "monster", [QUICK._replace(cost="このカードを手札から捨てて")]),
    ("①：自分フィールドにモンスターが存在しない場合に発動できる。このカードを手札から特殊召喚する。", "monster", [IGNITION]),
    ("①：１０００ＬＰを払って発動できる。自分はデッキから２枚ドローする。", "monster", [IGNITION._replace(cost="1000ＬＰを払って", condition=None)]),
    ("①：自分の墓地のモンスター１体を除外して発動できる。自分は１枚ドローする。", "monster", [IGNITION._replace(cost="自分の墓地のモンスター1体を除外して", condition=None)]),
    ("このカード名の①の効果はデュエル中に１度しか使用できない。①：自分メインフェイズに発動できる。自分は２枚ドローする。", "monster", [IGNITION._replace(n=1)]),
    ("①：相手メインフェイズに、このカードをリリースして発動できる。相手フィールドのカード１枚を破壊する。", "monster", [QUICK._replace(cost="このカードをリリースして", condition="相手メインフェイズに")]),
    ("リバース：フィールドのモンスター１体を対象としてそのモンスターを破壊する。", "monster", [E("flip", 1, False, can_miss_timing=False, targets=True)]),
    ("リバース：自分はデッキから１枚ドローできる。", "monster", [E("flip", 1, True, can_miss_timing=False)]),
    ("①：このカードがモンスターゾーンに存在する限り、自分フィールドのモンスターの攻撃力は３００アップする。", "monster", [CONTINUOUS]),
    ("①：このカードの発動時の効果処理として、デッキから植物族モンスター１体を手札に加える事ができる。②：自分フィールドの植物族モンスターの攻撃力は２００アップする。", "field_spell", [E("activation", 1, True, n=1), CONTINUOUS._replace(n=2)]),
    ("このカード名のカードは１ターンに１枚しか発動できない。①：フィールドのカード１枚を対象として発動できる。そのカードを破壊する。", "quick_play_spell", [E("activation", 2, True, targets=True, once_per_turn="card_name")]),
    ("①：相手が魔法カードを発動した時に発動できる。その発動を無効にし破壊する。", "counter_trap", [E("activation", 3, True)]),
]

ENGLISH = [
    ("During your Main Phase: You can draw 1 card.", "monster", [IGNITION._replace(condition="During your Main Phase")]),
    ("When this card is Normal Summoned: You can add 1 Winged Beast monster from your Deck to your hand.", "monster", [TRIGGER_WHEN]),
    ("If this card is sent to the GY: You can draw 1 card.", "monster", [TRIGGER_IF]),
    ("When this card is destroyed: Inflict 500 damage to your opponent.", "monster", [E("trigger", 1, False, "when", False)]),
    ("If this card is banished: Your opponent draws 1 card.", "monster", [E("trigger", 1, False, "if", False)]),
    ("You can discard 1 card, then target 1 card on the field; destroy it.", "monster", [IGNITION._replace(targets=True, cost="discard 1 card", condition=None)]),
    ("(Quick Effect): You can Tribute this card, then target 1 monster your opponent controls; banish it.", "monster", [QUICK._replace(targets=True, cost="Tribute this card")]),
    ("Once per turn: You can pay 1000 LP; draw 1 card.", "monster", [IGNITION._replace(once_per_turn="this_card", cost="pay 1000 LP")]),
    ('You can only use this effect of "Lantern Keeper" once per turn. If this card is Special Summoned: You can draw 1 card.', "monster", [TRIGGER_IF._replace(once_per_turn="card_name")]),
    ('You can only use the 2nd effect of "Lantern Keeper" once per turn. During your Main Phase: You can draw 1 card. If this card is sent to the GY: You can draw 1 card.', "monster", [IGNITION, TRIGGER_IF._replace(once_per_turn="card_name")]),
    ("You can Tribute this card; Special Summon 1 monster from your hand. You cannot Special Summon from the Extra Deck for the rest of this turn.", "monster", [IGNITION._replace(cost="Tribute this card", condition=None)]),
    ('You can only use this effect of "Lantern Keeper" once per Duel. During your Main Phase: You can draw 2 cards.', "monster", [IGNITION._replace(n=1)]),
    ("FLIP: Target 1 card on the field; destroy it.", "monster", [E("flip", 1, False, can_miss_timing=False, targets=True)]),
    ("FLIP: You can draw 1 card.", "monster", [E("flip", 1, True, can_miss_timing=False)]),
    # A translation's own numbers: (1) and (2) kept, a sentence without one carries on.
    (
        'You can only use each effect of "Lantern Sage" once per turn. (1) If this card is Normal Summoned: '
        "You can draw 1 card. Then discard 1 card. (2) During your opponent's turn (Quick Effect): "
        "You can discard 1 card, then target 1 card on the field; destroy it.",
        "monster",
        [
            E("trigger", 1, True, "if", False, once_per_turn="card_name", n=1, condition="If this card is Normal Summoned"),
            E("quick", 2, True, targets=True, once_per_turn="card_name", cost="discard 1 card", n=2),
        ],
    ),
    ("When this card is activated: You can add 1 Plant monster from your Deck to your hand. Plant monsters you control gain 200 ATK.", "field_spell", [E("activation", 1, True, n=1), CONTINUOUS._replace(n=2)]),
    ("Cannot be Normal Summoned/Set. Monsters you control gain 300 ATK.", "monster", [E("summon_condition", n=0), CONTINUOUS._replace(n=1)]),
    ("During damage calculation (Quick Effect): You can discard this card; you take no battle damage from that battle.", "monster", [QUICK._replace(cost="discard this card")]),
    ('You can only activate 1 "Lantern Gale" per turn. Target 1 card on the field; destroy it.', "quick_play_spell", [E("activation", 2, True, targets=True, once_per_turn="card_name")]),
    ("When your opponent activates a Spell Card: Negate the activation, and if you do, destroy it.", "counter_trap", [E("activation", 3, True)]),
]
# fmt: on


def assert_read(reading: dict, expected: list[E]) -> None:
    """Every effect's fields as expected, ANY left unchecked, and each conclusion cited."""
    got = [{field: effect[field] for field in E._fields} for effect in reading["effects"]]
    want = [{f: got[i][f] if v is ANY else v for f, v in e._asdict().items()} for i, e in enumerate(expected)]
    assert got == want
    assert all(
        effect["cites"] and set(effect["cites"]) <= set(CITES.values()) for effect in reading["effects"]
    )


@pytest.mark.parametrize("text, card_kind, expected", CHINESE, ids=[t for t, _, _ in CHINESE])
def test_chinese_texts(text, card_kind, expected):
    assert len(read_card_text(text, card_kind)["effects"]) == len(expected)
    assert_read(read_card_text(text, card_kind), expected)


@pytest.mark.parametrize("text, card_kind, expected", JAPANESE, ids=[t for t, _, _ in JAPANESE])
def test_japanese_texts(text, card_kind, expected):
    reading = read_marked(text, card_kind, JAPANESE_MARKERS)
    assert (language_of(text), len(reading["effects"])) == ("ja", len(expected))
    assert_read(reading, expected)
    assert reading["notes"][0].startswith("Japanese: read from its markers")


@pytest.mark.parametrize("text, card_kind, expected", ENGLISH, ids=[t for t, _, _ in ENGLISH])
def test_english_texts(text, card_kind, expected):
    reading = read_marked(text, card_kind, ENGLISH_MARKERS)
    assert (language_of(text), len(reading["effects"])) == ("en", len(expected))
    assert_read(reading, expected)
    assert reading["notes"][0].startswith("English: read as Problem-Solving Card Text")


def test_every_cited_passage_exists(kb):
    missing = [pid for pid in CITES.values() if passage(kb, pid) is None]
    assert missing == []


@pytest.mark.parametrize("speed", [1, 2, 3])
def test_each_spell_speed_cites_the_passage_that_lists_it(kb, speed):
    """An id that exists is not enough: speed 3 once cited a bullet of speed 1's list."""
    (hit,) = passage_hits(kb, [CITES[f"speed_{speed}"]])
    assert f"咒文速度{speed}" in hit.text


# Numbering: ①②③ keep their number, a summon condition is 0, an unnumbered text counts 1, 2 …


def test_numbered_effects_keep_their_number():
    text = "这张卡不能通常召唤。用自己墓地2只龙族怪兽除外的方法才能特殊召唤。①：这张卡特殊召唤成功时才能发动。自己抽1张。③：自己主要阶段才能发动。对方场上1张卡破坏。"
    assert [(e["n"], e["kind"]) for e in effects(text)] == [
        (0, "summon_condition"),
        (1, "trigger"),
        (3, "ignition"),
    ]


def test_an_unnumbered_text_is_cut_where_a_new_effect_opens():
    text = (
        "这张卡召唤成功时，可以从卡组把1只昆虫族怪兽加入手卡。那之后，选1张手卡丢弃。"
        "只要这张卡在场上表侧表示存在，对方不能选择其他怪兽作为攻击对象。"
        "1回合1次，自己主要阶段才能发动。对方场上1只怪兽破坏。"
    )
    read = effects(text)
    assert [(e["n"], e["kind"]) for e in read] == [(1, "trigger"), (2, "continuous"), (3, "ignition")]
    assert read[0]["text"].endswith("选1张手卡丢弃。")  # a resolution sentence stays with its effect


def test_a_resolution_sentence_referring_back_does_not_open_an_effect():
    text = "自己主要阶段才能发动。从卡组抽1张。那个场合，这个回合自己不能特殊召唤。"
    assert len(effects(text)) == 1


# Kinds and spell speeds


@pytest.mark.parametrize(
    "text, kind, speed",
    [
        ("①：自己主要阶段才能发动。从卡组把1只怪兽加入手卡。", "ignition", 1),
        ("①：这张卡被送去墓地的场合才能发动。自己抽1张。", "trigger", 1),
        ("①：自己·对方回合，以场上1只怪兽为对象才能发动。那只怪兽除外。", "quick", 2),
        ("①：以场上1只怪兽为对象才能发动。那只怪兽破坏。这个效果在对方回合也能发动。", "quick", 2),
        ("①：对方把怪兽的效果发动时，把这张卡从手卡丢弃才能发动。那个发动无效。", "quick", 2),
        ("①：只要这张卡在怪兽区域存在，自己场上的怪兽的攻击力上升300。", "continuous", None),
        ("反转：对方场上1只怪兽破坏。", "flip", 1),
        ("①：对方主要阶段，把这张卡从手卡丢弃才能发动。对方场上1只怪兽破坏。", "quick", 2),
        ("①：战斗阶段，把这张卡解放才能发动。对方场上1只怪兽破坏。", "quick", 2),
        ("①：自己准备阶段发动。自己受到500伤害。", "trigger", 1),
        ("①：这张卡反转的场合才能发动。自己抽1张。", "flip", 1),
        ("这张卡不会被战斗破坏。", "continuous", None),
    ],
)
def test_kinds_and_speeds_of_monster_effects(text, kind, speed):
    effect = first(text, "monster")
    assert (effect["kind"], effect["spell_speed"]) == (kind, speed)


@pytest.mark.parametrize(
    "card_kind, speed",
    [
        ("normal_spell", 1),
        ("quick_play_spell", 2),
        ("normal_trap", 2),
        ("counter_trap", 3),
        ("continuous_trap", 2),
    ],
)
def test_an_activation_takes_its_speed_from_the_card_type(card_kind, speed):
    effect = first("①：以场上1张卡为对象才能发动。那张卡破坏。", card_kind)
    assert (effect["kind"], effect["spell_speed"], effect["optional"]) == ("activation", speed, True)


def test_a_graveyard_effect_of_a_spell_is_not_its_activation():
    read = effects(
        "①：自己场上1只怪兽的攻击力上升800。②：把墓地的这张卡除外才能发动。自己抽1张。", "quick_play_spell"
    )
    assert [(e["kind"], e["spell_speed"]) for e in read] == [("activation", 2), ("other", 1)]


def test_a_continuous_traps_activation_is_its_first_activated_effect_without_a_limit():
    lasting = "①：只要这张卡在魔法与陷阱区域存在，对方不能攻击。②：1回合1次，以场上1张卡为对象才能发动。那张卡破坏。"
    # 000 §4.2.1: its activation is still there, n = 0, with no effect of its own.
    assert [(e["n"], e["kind"]) for e in effects(lasting, "continuous_trap")] == [
        (0, "activation"),
        (1, "continuous"),
        (2, "other"),
    ]
    revive = "①：以自己墓地1只怪兽为对象才能发动。那只怪兽特殊召唤。"
    assert (first(revive, "continuous_trap")["kind"], first(revive, "continuous_trap")["spell_speed"]) == (
        "activation",
        2,
    )


def test_a_field_spell_activation_is_the_effect_that_says_so():
    text = "①：作为这张卡的发动时的效果处理，可以从卡组把1只植物族怪兽加入手卡。②：只要这张卡在场地区域存在，自己的植物族怪兽的攻击力上升200。"
    assert [e["kind"] for e in effects(text, "field_spell")] == ["activation", "continuous"]


def test_without_the_card_the_reading_says_what_the_text_cannot_decide():
    reading = read_card_text("①：对方怪兽的攻击宣言时才能发动。那只怪兽破坏。")
    assert any("name the card" in note for note in reading["notes"])
    assert reading["effects"][0]["spell_speed"] == 1  # read as a monster's trigger


# Optional, when / if, miss-timing, in both wordings


@pytest.mark.parametrize(
    "text, optional, wording, misses",
    [
        ("①：这张卡召唤成功时才能发动。自己抽1张。", True, "when", True),
        ("①：此卡召唤成功时可以发动。自己抽1张。", True, "when", True),
        ("①：这张卡召唤成功的场合才能发动。自己抽1张。", True, "if", False),
        ("①：此卡召唤成功的情况下可以发动。自己抽1张。", True, "if", False),
        ("①：这张卡被破坏时发动。对方受到500伤害。", False, "when", False),
        ("①：这张卡被破坏的场合发动。对方受到500伤害。", False, "if", False),
        ("此卡被战斗破坏送去墓地时，可以从卡组把1只怪兽特殊召唤。", True, "when", True),
        ("这张卡被战斗破坏时，对方受到800伤害。", False, "when", False),
    ],
)
def test_triggers_optional_or_mandatory_when_or_if(text, optional, wording, misses):
    effect = first(text)
    assert effect["kind"] == "trigger"
    assert (effect["optional"], effect["trigger_wording"], effect["can_miss_timing"]) == (
        optional,
        wording,
        misses,
    )


def test_a_mandatory_when_trigger_notes_where_001_and_000_disagree():
    reading = read_card_text("①：这张卡被破坏时发动。对方受到500伤害。")
    assert any("masterrule/133" in note and "narrower" in note for note in reading["notes"])


def test_a_state_before_the_event_is_not_the_event():
    effect = first("①：这张卡在墓地存在的场合，对方把怪兽召唤时才能发动。这张卡加入手卡。")
    assert (effect["trigger_wording"], effect["can_miss_timing"]) == ("when", True)
    assert first("①：自己场上没有怪兽存在的场合才能发动。自己抽1张。")["kind"] == "ignition"


def test_an_activation_waiting_on_a_when_event_can_miss_the_timing():
    effect = first("①：对方把攻击力2000以上的怪兽特殊召唤时才能发动。那只怪兽破坏。", "normal_trap")
    assert (effect["kind"], effect["trigger_wording"], effect["can_miss_timing"]) == (
        "activation",
        "when",
        True,
    )


@pytest.mark.parametrize(
    "text", ["①：对方把魔法卡发动时才能发动。那个发动无效。", "①：对方把怪兽召唤之际才能发动。那次召唤无效。"]
)
def test_chain_response_timings_are_not_triggers(text):
    effect = first(text, "counter_trap")
    assert (effect["trigger_wording"], effect["can_miss_timing"]) == (None, None)
    assert CITES["chain_response"] in effect["cites"]


# Condition, cost and target


def test_condition_cost_and_target_split_as_002_reads_them():
    effect = first("②：自己主要阶段把墓地的这张卡除外，以场上1张魔法·陷阱卡为对象才能发动。那张卡破坏。")
    assert (effect["condition"], effect["cost"], effect["targets"]) == (
        "自己主要阶段",
        "把墓地的这张卡除外",
        True,
    )
    roles = [role for role, _ in effect["parts"]]
    assert roles[:3] == ["condition", "cost", "text"] and "target" in roles


@pytest.mark.parametrize(
    "text, cost",
    [
        ("①：支付1000基本分才能发动。自己抽2张。", "支付1000基本分"),
        ("①：丢弃1张手卡才能发动。自己抽2张。", "丢弃1张手卡"),
        ("①：把这张卡解放才能发动。从卡组把1只怪兽特殊召唤。", "把这张卡解放"),
        (
            "①：把自己场上1只怪兽送去墓地，支付500基本分才能发动。自己抽1张。",
            "把自己场上1只怪兽送去墓地，支付500基本分",
        ),
        ("①：自己主要阶段才能发动。自己抽1张。", None),
    ],
)
def test_costs(text, cost):
    effect = first(text)
    assert effect["cost"] == cost
    assert effect["targets"] is False


def test_a_cost_after_the_target():
    effect = first("①：对方回合，以对方场上1只怪兽为对象，把这张卡从手卡送去墓地才能发动。那只怪兽破坏。")
    assert (effect["condition"], effect["cost"], effect["targets"]) == (
        "对方回合",
        "把这张卡从手卡送去墓地",
        True,
    )
    assert [role for role, _ in effect["parts"]] == ["condition", "text", "target", "text", "cost", "text"]


def test_a_cost_with_a_condition_notes_001s_broader_reading():
    reading = read_card_text("①：对方回合，把手卡1只怪兽送去墓地才能发动。自己抽1张。")
    effect = reading["effects"][0]
    assert (effect["condition"], effect["cost"]) == ("对方回合", "把手卡1只怪兽送去墓地")
    assert any("masterrule/115" in note for note in reading["notes"])


def test_being_a_target_is_not_targeting():
    effect = first("①：只要这张卡在怪兽区域存在，这张卡不会成为对方的效果的对象。")
    assert effect["targets"] is False


# Once per turn


@pytest.mark.parametrize(
    "text, once",
    [
        ("这个卡名的①的效果1回合只能使用1次。①：自己主要阶段才能发动。自己抽1张。", "card_name"),
        ("①：自己主要阶段才能发动。自己抽1张。这个卡名的①的效果1回合只能使用1次。", "card_name"),
        ("①：1回合1次，自己主要阶段才能发动。自己抽1张。", "this_card"),
        ("1回合1次，可以把对方场上1只怪兽破坏。", "this_card"),
        ("①：自己主要阶段才能发动。自己抽1张。", "none"),
        ("此卡名的①效果每回合只能使用1次。①：自己主要阶段可以发动。自己抽1张。", "card_name"),
        ("①：每回合1次，自己主要阶段可以发动。自己抽1张。", "this_card"),
    ],
)
def test_once_per_turn(text, once):
    assert first(text)["once_per_turn"] == once


def test_a_header_names_the_effects_it_limits():
    text = "这个卡名的②的效果1回合只能使用1次。①：自己主要阶段才能发动。自己抽1张。②：这张卡被送去墓地的场合才能发动。自己抽1张。"
    assert [e["once_per_turn"] for e in effects(text)] == ["none", "card_name"]


def test_a_limit_on_activating_the_card_is_its_activations_alone():
    text = "这个卡名的卡在1回合只能发动1张。①：以场上1张卡为对象才能发动。那张卡破坏。②：把墓地的这张卡除外才能发动。自己抽1张。"
    assert [e["once_per_turn"] for e in effects(text, "quick_play_spell")] == ["card_name", "none"]


def test_every_conclusion_cites_a_known_passage():
    text = "这个卡名的①②的效果1回合只能使用1次。①：这张卡召唤成功时才能发动。自己抽1张。②：丢弃1张手卡，以场上1张卡为对象才能发动。那张卡破坏。"
    for effect in effects(text):
        assert effect["cites"] and set(effect["cites"]) <= set(CITES.values())
        assert all(c["cite"] in effect["cites"] for c in effect["conclusions"])


# The command


def test_read_with_a_quick_play_spell(cli):
    text = "①：以场上1张魔法·陷阱卡为对象才能发动。那张卡破坏。"
    view = json.loads(cli("read", text, "--card", QUICK_PLAY, "--json").stdout)
    assert view["card"]["kind"] == "quick_play_spell"
    assert (view["effects"][0]["kind"], view["effects"][0]["spell_speed"]) == ("activation", 2)
    assert set(view["sources"]) == set(view["effects"][0]["cites"])
    out = cli("read", text, "--card", QUICK_PLAY).stdout
    assert "[target: 以场上1张魔法·陷阱卡为对象]" in out and "① spell speed 2 (rulings/咒文速度/14)" in out


def test_read_with_a_counter_trap(cli):
    text = "①：对方把魔法·陷阱卡发动时，支付1000基本分才能发动。那个发动无效并破坏。"
    view = json.loads(cli("read", text, "--card", COUNTER_TRAP, "--json").stdout)
    effect = view["effects"][0]
    assert (view["card"]["kind"], effect["spell_speed"], effect["cost"]) == (
        "counter_trap",
        3,
        "支付1000基本分",
    )


def test_read_in_the_terminal_says_each_conclusion_with_its_citation(cli):
    out = cli("read", "②：这张卡被送去墓地时才能发动。自己抽1张。").stdout
    assert "② can miss the timing: an optional 'when' trigger (§3.2.2.1.1/5)" in out


@pytest.mark.parametrize(
    "args, code, message",
    [
        (["read", "   "], 2, "the card text is empty"),
        (["read", "抽" * 1001], 2, "at most 1000 are read"),
        (["read", "今天天气很好，我们去公园散步吧。"], 2, "no card effect found in the text"),
        (["read", "hello there"], 2, "no card effect found in the text"),
        (["read"], 2, "give the card text as TEXT"),
        (["read", "①：自己抽1张。", "--file", "x.txt"], 2, "give the card text as TEXT"),
        (["read", "--file", "/nonexistent/card.txt"], 2, "cannot read /nonexistent/card.txt"),
        (["read", "--file", "/dev/null"], 1, "not a regular file"),
        (["read", "①：自己抽1张。", "--card", "qqqqzzzzxxxx"], 1, "no card is called"),
        (["read", "①：\udcff自己抽1张。"], 1, "not valid UTF-8"),  # bytes the shell could not decode
    ],
)
def test_bad_input_is_one_line(cli, args, code, message):
    result = cli(*args, expect=code)
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_a_summon_procedure_is_part_of_the_summon_condition():
    text = "这张卡不能通常召唤。把自己墓地2只光属性怪兽除外的场合才能特殊召唤。①：1回合1次，自己主要阶段才能发动。自己抽1张。"
    read = effects(text)
    assert [(e["n"], e["kind"]) for e in read] == [(0, "summon_condition"), (1, "ignition")]
    assert read[1]["parts"][0] == ["limit", "1回合1次"]


@pytest.mark.parametrize(
    "data, message",
    [
        (b"", "the card text is empty"),
        (b" \n\t ", "the card text is empty"),
        (b"\x00\x01\x02binary", "binary data"),
        (b"\xff\xfe\xb5\xc0 not utf-8", "not valid UTF-8"),
        ("抽".encode() * 2000, "at most 1000 are read"),
        (b"x" * 1_000_000, "longer than 1000 characters"),
    ],
)
def test_bad_standard_input_or_file_is_one_line(cli, kb_path, tmp_path, data, message):
    result = CliRunner().invoke(main, ["--db", str(kb_path), "read", "-"], input=data)
    assert result.exit_code == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    (tmp_path / "card.txt").write_bytes(data)
    result = cli("read", "--file", str(tmp_path / "card.txt"), expect=2)
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_a_text_from_standard_input_or_a_file_is_read(cli, kb_path, tmp_path):
    text = "①：这张卡召唤成功时才能发动。自己抽1张。"
    args = ["--db", str(kb_path), "read", "-", "--json"]
    from_stdin = json.loads(CliRunner().invoke(main, args, input=text.encode()).stdout)
    (tmp_path / "card.txt").write_text(text, encoding="utf-8")
    from_file = json.loads(cli("read", "--file", str(tmp_path / "card.txt"), "--json").stdout)
    assert from_stdin["effects"] == from_file["effects"]
    assert (from_file["language"], from_file["effects"][0]["can_miss_timing"]) == ("zh", True)


def test_a_megabyte_on_standard_input_is_one_line_in_a_real_process(kb_path):
    result = subprocess.run(
        [sys.executable, "-m", "ocgkb", "--db", str(kb_path), "read", "-"],
        input="抽".encode() * 350_000,
        capture_output=True,
        timeout=60,
    )
    assert result.returncode == 2 and b"Traceback" not in result.stderr
    assert len(result.stderr.decode().strip().splitlines()) == 1


def test_japanese_and_english_are_read_by_the_command(cli):
    ja = json.loads(
        cli("read", "①：このカードが召喚に成功した時に発動できる。自分は１枚ドローする。", "--json").stdout
    )
    en = json.loads(cli("read", "If this card is sent to the GY: You can draw 1 card.", "--json").stdout)
    assert (ja["language"], ja["effects"][0]["can_miss_timing"]) == ("ja", True)
    assert (en["language"], en["effects"][0]["trigger_wording"]) == ("en", "if")


@pytest.mark.parametrize(
    "text, kind, cite",
    [
        (
            "①：这张卡进行战斗的伤害计算时，把这张卡从手卡丢弃才能发动。那次战斗伤害变成0。",
            "quick",
            "6.3.4.3.3/2",
        ),
        ("①：自己怪兽进行战斗的伤害计算前才能发动。那只怪兽的攻击力上升500。", "quick", "6.3.4.3.2/2/sub1"),
        ("①：这张卡进行战斗的伤害计算后才能发动。自己抽1张。", "trigger", "6.3.4.3.4/2"),
    ],
)
def test_the_damage_steps_times_cite_000(text, kind, cite):
    effect = first(text, "monster")
    assert (effect["kind"], effect["trigger_wording"], effect["can_miss_timing"]) == (kind, None, None)
    assert cite in effect["cites"]


@pytest.mark.parametrize(
    "text, language",
    [
        ("①：自己・对方回合才能发动。自己抽1张。", "zh"),
        ("①：自分メインフェイズに発動できる。", "ja"),
        ("During your Main Phase: You can draw 1 card.", "en"),
    ],
)
def test_the_language_is_told_by_its_script(text, language):
    assert language_of(text) == language


def test_every_conclusion_is_said_in_english_and_in_chinese():
    for text, card_kind, _ in CHINESE:
        for effect in read_card_text(text, card_kind)["effects"]:
            for conclusion in effect["conclusions"]:
                assert conclusion["says"] and re.search(r"[\u4e00-\u9fff]", conclusion["says_zh"]), conclusion


def test_every_note_is_said_in_chinese_too():
    readings = [read_card_text(text, kind) for text, kind, _ in CHINESE]
    readings += [read_marked(text, kind, JAPANESE_MARKERS) for text, kind, _ in JAPANESE]
    readings += [read_marked(text, kind, ENGLISH_MARKERS) for text, kind, _ in ENGLISH]
    readings.append(
        read_card_text("①：这张卡在场地区域存在，自己场上的怪兽攻击力上升300。")
    )  # a guessed type
    assert any(r["notes"] for r in readings)
    for reading in readings:
        assert len(reading["notes_zh"]) == len(reading["notes"])
        assert all(re.search(r"[\u4e00-\u9fff]", note) for note in reading["notes_zh"])


@pytest.mark.parametrize(
    "limit",
    [
        "此卡名的效果1回合仅可使用1次。",
        "这个卡名的效果1回合只可使用1次。",
        "这个卡名的效果一回合只能使用一次。",
    ],
)
def test_a_community_wording_of_the_card_name_limit_reads_as_the_official_one(limit):
    """此卡名的效果1回合仅可使用1次 (a community translation) is 这个卡名的效果1回合只能使用1次."""
    reading = read_card_text("①：此卡召唤成功时才能发动。从卡组把1只怪兽加入手卡。" + limit)
    assert reading["effects"][0]["once_per_turn"] == "card_name"


@pytest.mark.parametrize(
    "header, limits",
    [
        # One of the two per turn, under the card's name (a community wording).
        ("此卡名的①②的效果1回合1次只能使用其中任意1个。", ["card_name", "card_name"]),
        # Limits on this card's effects, not its name.
        ("①②的效果1回合各能使用1次。", ["this_card", "this_card"]),
        ("这张卡的①的效果1回合只能使用1次。", ["this_card", "none"]),
    ],
)
def test_a_header_limit_reaches_the_effects_it_numbers(header, limits):
    body = "①：此卡召唤成功时才能发动。从卡组把1只怪兽加入手卡。\n②：此卡被破坏的场合才能发动。自己抽1张。"
    reading = read_card_text(header + "\n" + body)
    assert [e["once_per_turn"] for e in reading["effects"]] == limits


def test_a_flip_effect_in_either_wording_is_a_flip_effect_that_cannot_miss_the_timing():
    for text in ("反转：选择场上1张卡破坏。", "①：这张卡反转的场合才能发动。从卡组把1只怪兽加入手卡。"):
        effect = read_card_text(text, "monster")["effects"][0]
        assert effect["kind"] == "flip" and effect["can_miss_timing"] is False, text


def test_an_old_phase_effect_is_a_mandatory_trigger():
    effect = read_card_text("自己的准备阶段时，给与对方基本分300分伤害。", "monster")["effects"][0]
    assert (effect["kind"], effect["optional"], effect["trigger_wording"]) == ("trigger", False, "when")
    assert effect["condition"] == "自己的准备阶段时"


def test_detaching_written_first_is_a_cost():
    text = "①：取除这张卡1个超量素材才能发动。自己抽1张。"
    effect = read_card_text(text, "monster")["effects"][0]
    assert effect["cost"] == "取除这张卡1个超量素材" and effect["condition"] is None


def test_a_continuous_traps_effect_paid_with_itself_is_not_its_activation():
    text = "只要这张卡在场上存在，自己场上的怪兽的攻击力上升300。对方怪兽的攻击宣言时，可以把这张卡送去墓地，那次攻击无效。"
    effects = read_card_text(text, "continuous_trap")["effects"]
    assert [(e["n"], e["kind"]) for e in effects] == [(0, "activation"), (1, "continuous"), (2, "other")]


def test_an_old_texts_sentence_about_this_card_after_a_resolved_effect_is_an_effect_of_its_own():
    text = "这张卡召唤成功时，可以从自己墓地把1张魔法卡加入手卡。这张卡不能攻击。"
    assert [(e["n"], e["kind"]) for e in effects(text, "monster")] == [(1, "trigger"), (2, "continuous")]
    # After 发动。 the next sentence is the resolution, and one that refers back stays too.
    for text in (
        "这张卡被送去墓地时，可以发动。这张卡加入手卡。",
        "这张卡召唤成功时，可以把对方场上1只怪兽破坏。这张卡的攻击力上升那只怪兽的攻击力数值。",
    ):
        assert len(effects(text, "monster")) == 1, text


def test_a_mandatory_trigger_on_the_opponents_summon_is_a_trigger():
    effect = effects("①：对方把怪兽特殊召唤的场合发动。自己回复500基本分。", "monster")[0]
    assert (effect["kind"], effect["optional"], effect["trigger_wording"]) == ("trigger", False, "if")
    # 把X发动 as the event of a continuous effect is still no activation of this card.
    lock = effects("①：每次对方把魔法卡发动，给与对方300伤害。", "monster")[0]
    assert lock["kind"] == "continuous"


def test_a_summon_procedure_with_a_note_in_brackets_is_a_summon_condition():
    text = "「甲」＋「乙」\n把自己场上的上记的卡送去墓地的场合才能从额外卡组特殊召唤（不需要「融合」）。\n①：这张卡特殊召唤的场合才能发动。自己抽1张。"
    assert [(e["n"], e["kind"]) for e in effects(text, "monster")] == [
        (0, "summon_condition"),
        (1, "trigger"),
    ]


def test_an_equip_spells_restriction_is_said_of_its_activation():
    text = "「甲」怪兽才能装备。①：装备怪兽的攻击力上升500。"
    assert [(e["n"], e["kind"]) for e in effects(text, "equip_spell")] == [
        (0, "activation"),
        (1, "continuous"),
    ]


def test_a_quick_effect_in_the_opponents_turn_in_either_wording():
    for wording in ("这个效果在对方回合也能发动。", "此效果在对方回合也可以发动。"):
        text = "①：1回合1次，以场上1张卡为对象才能发动。那张卡破坏。" + wording
        effect = effects(text, "monster")[0]
        assert (effect["kind"], effect["spell_speed"]) == ("quick", 2), wording


def test_an_old_event_after_its_limit_is_a_trigger_with_the_limit():
    text = "只要这张卡在场上存在，自己场上的怪兽的守备力上升300。1回合1次，自己场上的怪兽被选择作为攻击对象时，可以让那次攻击无效。"
    read = effects(text, "continuous_trap")
    last = read[-1]
    assert (last["n"], last["trigger_wording"], last["optional"]) == (2, "when", True)
    assert last["condition"] == "自己场上的怪兽被选择作为攻击对象时" and last["once_per_turn"] == "this_card"
    assert read[0]["kind"] == "activation"  # the limited effect is not the card's activation
