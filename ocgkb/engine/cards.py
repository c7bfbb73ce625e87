"""What a card is to the engine: its kind, its numbers and its effects."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import OcgkbError
from .verbs import OPERATIONS

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
        "material",
        "event_from",
    }
)
# The summons a card can be used as the material of (a trigger's `material`).
MATERIAL_KINDS = ("fusion", "synchro", "xyz", "link", "ritual")
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
        # The Master Rule's monsters (kb/scenarios/README.md, "Extra Deck"):
        "frame",
        "tuner",
        "rank",
        "link",
        "arrows",
        "pendulum",
        "materials",
        "summon_condition",
    }
)
# A monster's frame: the colour of its card, which says how it comes out.
FRAMES = ("normal", "effect", "ritual", "fusion", "synchro", "xyz", "link")
# The frames that start in the Extra Deck and come out from there (§ 额外卡组).
EXTRA_FRAMES = frozenset({"fusion", "synchro", "xyz", "link"})
# A Link monster's arrows, as its controller sees them: (rows down, columns right).
ARROWS: dict[str, tuple[int, int]] = {
    "top-left": (-1, -1),
    "top": (-1, 0),
    "top-right": (-1, 1),
    "left": (0, -1),
    "right": (0, 1),
    "bottom-left": (1, -1),
    "bottom": (1, 0),
    "bottom-right": (1, 1),
}
# What each Extra Deck summon's `materials` may say (a Fusion also takes a list of names).
MATERIAL_FIELDS = {
    "fusion": frozenset({"count"}),
    "synchro": frozenset({"tuners", "non_tuners"}),
    "xyz": frozenset({"count"}),
    "link": frozenset({"count"}),
}
SUMMON_CONDITIONS = ("properly_summoned_only",)
INLINE_FIELDS = (
    "by",
    "set",
    "original",
    "to",
    "target",
    "until",
    "during",
    "position",
    "then",
    "set_again",
    "materials",
    "tributes",
    "zone",
)
# The operations an effect may name, and what each may carry besides its own value,
# `target` and `then`, are registered once with what performs them (engine/operations.py).
# How long an activated change lasts (modifiers.py `lasts`): without either, while
# the monster stays face-up on the field; the others come back in the End Phase.
DURATIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "modify": {"until": ("end_of_turn", "end_of_damage_step"), "during": ("damage_calculation",)},
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
    # A trigger waiting for `used_as_material` of one summon only (同调素材: synchro).
    material: str | None = None
    # A trigger waiting for a card to move from one zone only (从场上送去墓地: monster).
    event_from: str | None = None


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
    # A token (衍生物): not a real card; it exists only on the field (rulings/衍生物/1).
    token: bool = False
    # A maintenance cost (维持cost): LP its controller pays in each of their standby phases,
    # or the card is destroyed. It is not an effect: negating the card does not lift it.
    upkeep_lp: int | None = None
    # The Master Rule's monsters: its frame (FRAMES), a tuner, an Xyz monster's rank, a
    # Link monster's rating and arrows, a Pendulum monster's scale, what its summon
    # needs (`materials`, as written) and whether only a proper summon lets it be revived.
    frame: str = "effect"
    tuner: bool = False
    rank: int | None = None
    link: int | None = None
    arrows: tuple[str, ...] = ()
    scale: int | None = None
    materials: Any = None
    properly_summoned_only: bool = False

    @property
    def from_extra_deck(self) -> bool:
        """A Fusion, Synchro, Xyz or Link monster: it starts in the Extra Deck."""
        return self.frame in EXTRA_FRAMES

    @property
    def has_level(self) -> bool:
        """An Xyz monster has a rank and a Link monster a rating, neither a level."""
        return self.kind == MONSTER and self.frame not in ("xyz", "link")

    @property
    def revived_only_when_proper(self) -> bool:
        """苏生限制 (§3.2.1.3/3): a Ritual or Extra Deck monster, or one whose text says so,
        is special summoned by another effect only once it has been properly summoned."""
        return self.properly_summoned_only or self.from_extra_deck or self.frame == "ritual"

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
        **_master_rule_fields(name, kind, data, bool(effects)),
    )


def _master_rule_fields(name: str, kind: str, data: dict, has_effects: bool) -> dict[str, Any]:
    """frame, tuner, rank, link and arrows, pendulum scale, materials, summon condition:
    each checked, so a wrong one is a malformed file, never a guess."""
    said = [f for f in ("frame", "tuner", "rank", "link", "arrows", "pendulum", "materials") if f in data]
    if kind != MONSTER:
        if said or "summon_condition" in data:
            raise ScenarioCardError(
                f"card {name!r}: {', '.join(said or ['summon_condition'])} is for a monster"
            )
        return {}
    frame = data.get("frame", "effect" if has_effects else "normal")
    if frame not in FRAMES:
        raise ScenarioCardError(f"card {name!r}: frame is one of {', '.join(FRAMES)}, not {frame!r}")
    if not isinstance(data.get("tuner", False), bool):
        raise ScenarioCardError(f"card {name!r}: tuner is true or false, not {data['tuner']!r}")
    fields: dict[str, Any] = {"frame": frame, "tuner": bool(data.get("tuner", False))}
    if frame == "xyz":
        if "level" in data:
            raise ScenarioCardError(f"card {name!r}: an Xyz monster has a rank, not a level")
        fields["rank"] = _stat(name, "rank", data.get("rank"), 0, 13, required=True)
    elif "rank" in data:
        raise ScenarioCardError(f"card {name!r}: only an Xyz monster has a rank")
    if frame == "link":
        fields |= _link_fields(name, data)
    elif "link" in data or "arrows" in data:
        raise ScenarioCardError(f"card {name!r}: only a Link monster has a link rating and arrows")
    if "pendulum" in data:
        scale = data["pendulum"]
        if not isinstance(scale, dict) or set(scale) != {"scale"}:
            raise ScenarioCardError(f"card {name!r}: pendulum is {{scale: N}}, not {scale!r}")
        fields["scale"] = _stat(name, "pendulum scale", scale["scale"], 0, 13, required=True)
    if "materials" in data:
        fields["materials"] = _materials(name, frame, data["materials"])
    condition = data.get("summon_condition")
    if condition is not None and condition not in SUMMON_CONDITIONS:
        raise ScenarioCardError(
            f"card {name!r}: summon_condition is {', '.join(SUMMON_CONDITIONS)}, not {condition!r}"
        )
    fields["properly_summoned_only"] = condition == "properly_summoned_only"
    return fields


def _link_fields(name: str, data: dict) -> dict[str, Any]:
    """A Link monster's rating and arrows; it has no DEF and no level (masterrule 【连接怪兽】)."""
    for absent in ("def", "level"):
        if data.get(absent) is not None:
            raise ScenarioCardError(
                f"card {name!r}: a Link monster has no {absent.upper() if absent == 'def' else absent}"
            )
    rating = _stat(name, "link", data.get("link"), 1, 8, required=True)
    arrows = data.get("arrows")
    if (
        not isinstance(arrows, list)
        or any(a not in ARROWS for a in arrows)
        or len(set(arrows)) != len(arrows)
    ):
        raise ScenarioCardError(
            f"card {name!r}: arrows is a list of different arrows among {', '.join(ARROWS)}, not {arrows!r}"
        )
    if len(arrows) != rating:
        raise ScenarioCardError(
            f"card {name!r}: a link-{rating} monster has {rating} arrows, not {len(arrows)}"
        )
    return {"link": rating, "arrows": tuple(arrows)}


def _stat(name: str, what: str, value: Any, low: int, high: int, required: bool = False) -> int | None:
    if value is None and not required:
        return None
    if type(value) is not int or not low <= value <= high:
        raise ScenarioCardError(
            f"card {name!r}: {what} is a whole number from {low} to {high}, not {value!r}"
        )
    return value


def _materials(name: str, frame: str, value: Any) -> Any:
    """What the summon needs, in the texts' terms (README "Extra Deck"): a Fusion's named
    materials or a count; a Synchro's tuners and non-tuners; an Xyz's or a Link's count."""
    if frame not in MATERIAL_FIELDS:
        raise ScenarioCardError(f"card {name!r}: materials are for a Fusion, Synchro, Xyz or Link monster")
    if frame == "fusion" and isinstance(value, list):
        if not value or not all(isinstance(v, str) for v in value):
            raise ScenarioCardError(f"card {name!r}: materials is a list of card names, not {value!r}")
        return [str(v) for v in value]
    allowed = MATERIAL_FIELDS[frame]
    if not isinstance(value, dict) or not value or set(value) - allowed:
        raise ScenarioCardError(
            f"card {name!r}: a {frame} monster's materials are {{{', '.join(sorted(allowed))}}}, not {value!r}"
        )
    for key, count in value.items():
        if parse_count(count) is None:
            raise ScenarioCardError(f"card {name!r}: materials {key} is N or 'N+', not {count!r}")
    return dict(value)


def parse_count(value: Any) -> tuple[int, bool] | None:
    """A count as the texts write it: N (exactly) or 'N+' (N or more) → (N, more)."""
    if type(value) is int and value >= 1:
        return value, False
    text = str(value)
    if isinstance(value, str) and text.endswith("+") and text[:-1].isdigit() and int(text[:-1]) >= 1:
        return int(text[:-1]), True
    return None


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
    operations = OPERATIONS.fields()
    unknown = set(data) - EFFECT_FIELDS - set(operations) - set(INLINE_FIELDS)
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
        if key in operations:
            known = operations[key] | {"target", "then"}
            ops.append({key: value} | {k: v for k, v in _modifiers(data).items() if k in known})
    for op in ops:
        _check_operation(name, op, operations)
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
        material=_one_of(name, "material", data.get("material"), MATERIAL_KINDS),
        event_from=_one_of(name, "event_from", data.get("event_from"), EVENT_ORIGINS),
    )


# Where a card an event moves may come from (`event_from`): engine/state.py's zones.
EVENT_ORIGINS = ("hand", "deck", "extra", "monster", "spelltrap", "field", "gy", "banished", "material")


def _one_of(name: str, what: str, value: Any, allowed: tuple[str, ...]) -> str | None:
    if value is None:
        return None
    if value not in allowed:
        raise ScenarioCardError(f"card {name!r}: {what} is one of {', '.join(allowed)}, not {value!r}")
    return str(value)


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


def _check_operation(name: str, op: Any, operations: dict[str, frozenset[str]]) -> None:
    if not isinstance(op, dict):
        raise ScenarioCardError(f"card {name!r}: unknown operation {op!r}")
    named = [k for k in op if k in operations]
    if len(named) != 1:
        raise ScenarioCardError(f"card {name!r}: an operation names one of {', '.join(operations)}: {op!r}")
    allowed = {named[0], "target", "then"} | operations[named[0]]
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
