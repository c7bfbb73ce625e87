"""ATK, DEF and level changes, and the layer order of §4.3.3.6 that combines them.

Every change to a monster's ATK/DEF is a `Modifier`, kept in the order it was
applied. There are five kinds:

- `add` from an activated effect (突进 +700) or from a continuous one
  (守墓的巫女's own +200, 废铁工厂): `layer` says which;
- `set` from an activated effect (黑羽-疾风之盖尔: half of the current value,
  fixed when it applies) or from a continuous one (巨大化: twice the original,
  computed for as long as it applies);
- `original`: the original value becomes a number (收缩: half the original);
  for a 「?」 monster the original counts as 0 (§4.3.3.6.2).

The value is the original (the latest `original` change, else the printed
number), then each activated add and each set in the order applied: a set
replaces what came before it. Continuous adds are added last, except those an
activated set absorbed (§4.3.3.6.1.2: they are not calculated again after it).
"""

from __future__ import annotations

from dataclasses import dataclass

ACTIVATED, CONTINUOUS = "activated", "continuous"


@dataclass
class Modifier:
    stat: str  # "atk" or "def"
    kind: str  # "add", "set" or "original"
    layer: str  # ACTIVATED or CONTINUOUS
    source: str  # the card instance whose effect it is
    order: int  # when it was applied
    amount: int = 0  # for add
    fixed: int | None = None  # for an activated set, and an original change: the value
    rule: str = ""  # for a continuous set: "double" or "half" of the original, or a number
    from_own_effect: bool = False  # the monster's own activated effect raised itself (§4.3.3.6)
    # When an activated change ends (end_of_turn, end_of_damage_step, damage_calculation);
    # None: while the monster stays face-up on the field.
    lasts: str | None = None

    def describe(self) -> str:
        how_long = f", {LASTS[self.lasts]}" if self.lasts else ""
        if self.kind == "add":
            return f"{'+' if self.amount >= 0 else ''}{self.amount} ({self.layer}{how_long})"
        if self.kind == "set":
            return f"becomes {self.fixed if self.layer == ACTIVATED else self.rule} ({self.layer}{how_long})"
        return f"original becomes {self.fixed}{how_long}"


LASTS = {
    "end_of_turn": "until the end of the turn",
    "end_of_damage_step": "until the end of the damage step",
    "damage_calculation": "during that damage calculation only",
}


def original_value(printed: int | None, modifiers: list[Modifier], stat: str) -> int:
    """The original ATK/DEF: the latest original change, else the printed value
    (a 「?」 counts as 0)."""
    changes = [m for m in modifiers if m.stat == stat and m.kind == "original"]
    if changes:
        return max(changes, key=lambda m: m.order).fixed or 0
    return printed or 0


def continuous_set(rule: str, original: int) -> int:
    if rule == "double":
        return original * 2
    if rule == "half":
        return original // 2
    return int(rule)


def current_value(printed: int | None, modifiers: list[Modifier], stat: str) -> int:
    """The ATK or DEF a monster has now, never below 0."""
    mods = sorted((m for m in modifiers if m.stat == stat), key=lambda m: m.order)
    original = original_value(printed, mods, stat)
    value = original
    for m in mods:
        if m.kind == "add" and m.layer == ACTIVATED:
            value += m.amount
        elif m.kind == "set" and m.layer == ACTIVATED:
            value = m.fixed or 0
        elif m.kind == "set":
            value = continuous_set(m.rule, original)
    last_activated_set = max((m.order for m in mods if m.kind == "set" and m.layer == ACTIVATED), default=-1)
    for m in mods:
        if m.kind == "add" and m.layer == CONTINUOUS and m.order > last_activated_set:
            value += m.amount
    return max(value, 0)


def resolve_amount(spec: str | int, current: int, original: int) -> int:
    """The value an activated `set` fixes: half or double of the current value, or a number."""
    if spec == "half":
        return current // 2
    if spec == "double":
        return current * 2
    if spec == "half_original":
        return original // 2
    if spec == "double_original":
        return original * 2
    return int(spec)
