"""What a card is to the engine: its kind, its numbers and its effects."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import OcgkbError

MONSTER, SPELL, TRAP = "monster", "spell", "trap"
# The damage step's timings an effect may name (§6.3.4.3/7); rules.DAMAGE_STEP orders them.
DAMAGE_STEP_TIMINGS = ("start", "before_calculation", "calculation", "after_calculation", "end")
# Spell and trap types; monsters use "normal" or "effect".
SPELL_TYPES = ("normal", "quick-play", "continuous", "equip", "field", "ritual")
TRAP_TYPES = ("normal", "continuous", "counter")
# Monster effect types (§ 咒文速度: ignition and trigger are speed 1, quick speed 2).
EFFECT_TYPES = ("ignition", "trigger", "quick", "continuous", "flip")
# What an effect may say besides its operations (kb/scenarios/README.md).
EFFECT_FIELDS = frozenset(
    {
        "type",
        "do",
        "cost",
        "speed",
        "event",
        "optional",
        "wording",
        "targets",
        "order",
        "text",
        "damage_step",
        "from",
        "indestructible",
        "once_per_turn",
    }
)
# What a card may say about itself (anything else is a malformed file, never ignored).
CARD_FIELDS = frozenset(
    {
        "name",
        "kind",
        "type",
        "atk",
        "def",
        "level",
        "effect",
        "effects",
        "own_atk",
        "own_def",
        "made_up",
        "token",
        "password",
        "upkeep",
    }
)
INLINE_FIELDS = ("by", "set", "original", "to", "target", "until", "during", "position", "then", "set_again")
# The operations an effect may name, each with what it may carry besides its own
# value, `target` and `then` (operations.py implements each; a test keeps the two
# lists equal). Kept here, at the bottom, so reading a card imports no verb.
OPERATION_FIELDS: dict[str, frozenset[str]] = {
    "modify": frozenset({"by", "set", "original", "until", "during"}),
    "destroy": frozenset(),
    "banish": frozenset({"until"}),
    "send_to_gy": frozenset(),
    "return_to_hand": frozenset(),
    "special_summon": frozenset({"position", "to"}),
    "negate_activation": frozenset({"set_again"}),
    "negate_effect": frozenset(),
    "negate_effects": frozenset(),
    "flip_face_down": frozenset(),
    "flip_face_up": frozenset(),
    "change_position": frozenset(),
    "damage": frozenset({"to"}),
    "lose_lp": frozenset({"to"}),
    "draw": frozenset(),
    "token": frozenset({"position", "to"}),
    "take_control": frozenset({"until"}),
}
# How long an activated change lasts (modifiers.py `lasts`): without either, while
# the monster stays face-up on the field; the others come back in the End Phase.
DURATIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "modify": {"until": ("end_of_turn", "end_of_damage_step"), "during": ("damage_calculation",)},
}
# Operations that act on cards (the others act on players or on the chain).
CARD_OPERATIONS = frozenset(OPERATION_FIELDS) - {
    "negate_activation",
    "negate_effect",
    "damage",
    "lose_lp",
    "draw",
    "token",
}
# Whole classes of cards a continuous effect can negate while its card is face-up.
CLASSES = {
    "spells": "spell cards on the field",
    "traps": "trap cards on the field",
    "monsters": "face-up monsters",
}


class ScenarioCardError(OcgkbError):
    """A card described in a way the engine cannot use."""


@dataclass
class Effect:
    """One effect of a card: what activating or applying it does.

    `ops` are applied in order at resolution (or for as long as the card is face
    up, for a continuous effect); `cost` is paid at activation and never refunded.
    A trigger effect names its `event`, whether it is `optional`, and its
    `wording`: "when" (…时，可以: misses its timing unless its event was the last
    thing to happen) or "if" (…的场合: does not). `order` says whether its
    operations happen at once or in turn (see `_order`).
    """

    type: str = "ignition"
    ops: list[dict[str, Any]] = field(default_factory=list)
    cost: list[dict[str, Any]] = field(default_factory=list)
    speed: int | None = None
    event: str | None = None
    optional: bool = True
    wording: str = "when"
    targets: int = 0
    # "simultaneous" (、 / and: one moment, the default, §4.3.2) or "sequential" (那之后 / then: a moment each).
    order: str = "simultaneous"
    damage_step: str | None = None  # the damage-step timing it is activated at (伤害计算时)
    zone: str | None = None  # `from: gy`: activated while its card is in the GY (None: as its kind says)
    # A continuous property (不会被战斗/效果破坏, §4.3.3.4.3): "battle", "effect" or "both".
    indestructible: str | None = None
    # 1回合1次: True for this card's effect, "name" for every card with this name.
    once_per_turn: bool | str = False


@dataclass
class CardSpec:
    name: str
    kind: str
    type: str = "normal"
    atk: int | None = None  # None: the card says 「?」
    defense: int | None = None
    level: int | None = None
    effects: list[Effect] = field(default_factory=list)
    # A 「?」 monster's own ability that decides its original ATK/DEF (黄金形态: 4000).
    own_atk: int | None = None
    own_def: int | None = None
    # A card invented for the situation (某怪兽, 甲怪兽), not a real card.
    made_up: bool = False
    # Which real card it is (its password), where the name alone does not say.
    password: int | None = None
    # A token (衍生物): not a real card; it exists only on the field (rulings/衍生物/3).
    token: bool = False
    # A maintenance cost (维持cost): LP its controller pays in each of their standby phases,
    # or the card is destroyed. It is not an effect: negating the card does not lift it.
    upkeep_lp: int | None = None

    @property
    def continuous(self) -> bool:
        """Whether its effects apply while it is face up rather than once at resolution."""
        return self.kind in (SPELL, TRAP) and self.type in ("continuous", "equip", "field")

    def speed(self, effect: Effect) -> int:
        """Spell speed (§ 咒文速度): counter traps 3; quick-play spells, traps and
        quick effects 2; everything else 1."""
        if effect.speed:
            return effect.speed
        if effect.zone == "gy" and self.kind in (SPELL, TRAP):
            # Every effect of a spell in the GY is speed 1, of a trap speed 2 (rulings/咒文速度/11, /18).
            return 1 if self.kind == SPELL else 2
        if self.kind == TRAP:
            return 3 if self.type == "counter" else 2
        if self.kind == SPELL:
            return 2 if self.type == "quick-play" else 1
        return 2 if effect.type == "quick" else 1


def parse_card(name: str, data: Any) -> CardSpec:
    """A card from its scenario description; ScenarioCardError says what is wrong."""
    if not isinstance(data, dict):
        raise ScenarioCardError(f"card {name!r}: expected a mapping of its properties")
    unknown = set(map(str, data)) - CARD_FIELDS
    if unknown:
        raise ScenarioCardError(
            f"card {name!r}: no field {', '.join(sorted(unknown))} (a card has {', '.join(sorted(CARD_FIELDS))})"
        )
    kind = data.get("kind")
    if kind not in (MONSTER, SPELL, TRAP):
        raise ScenarioCardError(f"card {name!r}: kind must be monster, spell or trap, not {kind!r}")
    card_type = str(data.get("type", "normal" if kind != MONSTER else "effect"))
    allowed = {SPELL: SPELL_TYPES, TRAP: TRAP_TYPES, MONSTER: ("normal", "effect")}[kind]
    if card_type not in allowed:
        raise ScenarioCardError(f"card {name!r}: a {kind} is {', '.join(allowed)}, not {card_type!r}")
    raw_effects = data.get("effects", [data["effect"]] if "effect" in data else [])
    if not isinstance(raw_effects, list):
        raise ScenarioCardError(f"card {name!r}: effects must be a list")
    effects = [_parse_effect(name, kind, card_type, e) for e in raw_effects]
    made_up = data.get("made_up", False)
    if not isinstance(made_up, bool):
        raise ScenarioCardError(f"card {name!r}: made_up must be true or false, not {made_up!r}")
    password = data.get("password")
    if password is not None and (type(password) is not int or password <= 0):
        raise ScenarioCardError(f"card {name!r}: password must be a card's number, not {password!r}")
    if made_up and password is not None:
        raise ScenarioCardError(f"card {name!r}: a made-up card has no password")
    if not isinstance(data.get("token", False), bool) or (data.get("token") and kind != MONSTER):
        raise ScenarioCardError(f"card {name!r}: token is true or false, and only for a monster")
    return CardSpec(
        name=name,
        kind=kind,
        type=card_type,
        atk=_number(name, data.get("atk")),
        defense=_number(name, data.get("def")),
        level=data.get("level"),
        effects=effects,
        own_atk=data.get("own_atk"),
        own_def=data.get("own_def"),
        made_up=made_up,
        password=password,
        token=bool(data.get("token", False)),
        upkeep_lp=_upkeep(name, data.get("upkeep")),
    )


def _upkeep(name: str, value: Any) -> int | None:
    """`upkeep: {pay_lp: N}`: the LP paid each standby phase to keep the card."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"pay_lp"} or type(value["pay_lp"]) is not int:
        raise ScenarioCardError(f"card {name!r}: upkeep is {{pay_lp: N}}, not {value!r}")
    if value["pay_lp"] < 0:
        raise ScenarioCardError(f"card {name!r}: upkeep pay_lp is 0 or more, not {value['pay_lp']!r}")
    return int(value["pay_lp"])


def _number(name: str, value: Any) -> int | None:
    if value is None or value == "?":
        return None
    if isinstance(value, int) and value >= 0:
        return value
    raise ScenarioCardError(f"card {name!r}: ATK/DEF must be a number or '?', not {value!r}")


def _parse_effect(name: str, kind: str, card_type: str, data: Any) -> Effect:
    if not isinstance(data, dict):
        raise ScenarioCardError(f"card {name!r}: an effect must be a mapping")
    unknown = set(data) - EFFECT_FIELDS - set(OPERATION_FIELDS) - set(INLINE_FIELDS)
    if unknown:
        raise ScenarioCardError(
            f"card {name!r}: an effect has no field {', '.join(sorted(map(str, unknown)))}"
        )
    default_type = (
        "continuous" if kind != MONSTER and card_type in ("continuous", "equip", "field") else "ignition"
    )
    effect_type = data.get("type", default_type if kind == MONSTER else "spell-trap")
    if kind == MONSTER and effect_type not in EFFECT_TYPES:
        raise ScenarioCardError(f"card {name!r}: unknown effect type {effect_type!r}")
    ops = data.get("do", [])
    ops = list(ops) if isinstance(ops, list) else [ops]
    # An operation written inline (`modify: atk, by: 700`) takes the fields it knows.
    for key, value in data.items():
        if key in OPERATION_FIELDS:
            known = OPERATION_FIELDS[key] | {"target", "then"}
            ops.append({key: value} | {k: v for k, v in _modifiers(data).items() if k in known})
    for op in ops:
        _check_operation(name, op, OPERATION_FIELDS, OPERATION_FIELDS)
    cost = data.get("cost", [])
    damage_step = data.get("damage_step")
    if damage_step is not None and damage_step not in DAMAGE_STEP_TIMINGS:
        raise ScenarioCardError(
            f"card {name!r}: damage_step is one of {', '.join(DAMAGE_STEP_TIMINGS)}, not {damage_step!r}"
        )
    if data.get("from", "gy") != "gy":
        raise ScenarioCardError(
            f"card {name!r}: from is gy (an effect activated in the GY), not {data['from']!r}"
        )
    wording = str(data.get("wording", "when" if effect_type != "flip" else "if"))
    if wording not in ("when", "if"):
        raise ScenarioCardError(f"card {name!r}: wording is when or if, not {wording!r}")
    return Effect(
        type=effect_type,
        ops=ops,
        cost=cost if isinstance(cost, list) else [cost],
        speed=data.get("speed"),
        # A FLIP effect is set off by its own card being turned face-up.
        event=data.get("event", "self_flipped_face_up" if effect_type == "flip" else None),
        optional=bool(data.get("optional", True)),
        wording=wording,
        targets=int(data.get("targets", 0)),
        order=_order(name, data),
        damage_step=damage_step,
        zone=data.get("from"),
        indestructible=_indestructible(name, effect_type, data.get("indestructible")),
        once_per_turn=_once_per_turn(name, effect_type, data.get("once_per_turn", False)),
    )


def _indestructible(name: str, effect_type: str, value: Any) -> str | None:
    """`indestructible: battle|effect|both` on a monster's continuous effect."""
    if value is None:
        return None
    if value not in ("battle", "effect", "both") or effect_type != "continuous":
        raise ScenarioCardError(
            f"card {name!r}: indestructible is battle, effect or both, on a continuous effect, not {value!r}"
        )
    return str(value)


def _once_per_turn(name: str, effect_type: str, value: Any) -> bool | str:
    """`once_per_turn: true` (this card's effect) or `name` (every card of this name)."""
    if value not in (True, False, "name") or (value and effect_type == "continuous"):
        raise ScenarioCardError(
            f"card {name!r}: once_per_turn is true or name, on an activated effect, not {value!r}"
        )
    return "name" if value == "name" else bool(value)


def _check_operation(name: str, op: Any, operations: dict, fields: dict) -> None:
    if not isinstance(op, dict):
        raise ScenarioCardError(f"card {name!r}: unknown operation {op!r}")
    named = [k for k in op if k in operations]
    if len(named) != 1:
        raise ScenarioCardError(f"card {name!r}: an operation names one of {', '.join(operations)}: {op!r}")
    allowed = {named[0], "target", "then"} | fields.get(named[0], frozenset())
    extra = set(op) - allowed
    if extra:
        raise ScenarioCardError(
            f"card {name!r}: {named[0]} has no field {', '.join(sorted(map(str, extra)))}"
            f" (it takes {', '.join(sorted(allowed - {named[0]}))})"
        )
    for key, allowed in DURATIONS.get(named[0], {"until": ("end_phase",)}).items():
        if key in op and op[key] not in allowed:
            raise ScenarioCardError(f"card {name!r}: {key} is {' or '.join(allowed)}, not {op[key]!r}")
    if "until" in op and "during" in op:
        raise ScenarioCardError(f"card {name!r}: a change lasts until a moment or during one, not both")


def _order(name: str, data: dict) -> str:
    """Whether an effect's operations happen at once or in turn: as `order` says,
    else as its `text` is worded (那之后 / then: in turn). An effect with neither is
    simultaneous: §4.3.2, one card's effect happens at once unless it says otherwise."""
    order = data.get("order")
    if order is not None:
        if order not in ("simultaneous", "sequential"):
            raise ScenarioCardError(f"card {name!r}: order is simultaneous or sequential, not {order!r}")
        return str(order)
    text = data.get("text")
    if text is None:
        return "simultaneous"
    return "sequential" if ("那之后" in str(text) or " then" in str(text).lower()) else "simultaneous"


def _modifiers(data: dict) -> dict:
    """The keys that qualify an operation written inline (`modify: atk, by: 700`)."""
    return {k: data[k] for k in INLINE_FIELDS if k in data}
