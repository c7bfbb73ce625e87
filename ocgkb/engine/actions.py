"""The steps a scenario takes (kb/scenarios/README.md, "Actions"): each registered
once (engine/verbs.py) with the fields it may carry besides its own value and
`expect_error`, and whether it may be written bare (`- resolve`). The scenario
reader checks a step against this registry and plays it through it.

Each takes the duel, the step as written and the step's name for messages; a value
of the wrong shape is a ScenarioError naming the step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import summons
from .duel import Duel
from .errors import ScenarioError
from .rules import DAMAGE_STEP
from .verbs import ACTIONS
from .zones import PENDULUM_ZONES, Slot, parse_slot

PLAYERS = ("A", "B")
register = ACTIONS.register


def count(value: Any) -> bool:
    """A whole number, 0 or more (not a bool)."""
    return type(value) is int and value >= 0


def _card(duel: Duel, action: dict, name: str, step: str) -> str:
    key = str(action[name])
    if key not in duel.cards:
        raise ScenarioError(f"{step}: unknown card {key!r}")
    return key


def _cards_named(duel: Duel, action: dict, field_name: str, step: str) -> list[str]:
    """The card or cards an action's field names (one, or a list), each a card of the scenario."""
    raw = action.get(field_name) or []
    keys = [str(k) for k in (raw if isinstance(raw, list) else [raw])]
    for key in keys:
        if key not in duel.cards:
            what = {"target": "target", "tributes": "tribute"}.get(field_name, "material")
            raise ScenarioError(f"{step}: the {what} {key!r} is not a card of this scenario")
    return keys


@register("activate", fields=("target", "effect", "player", "as", "pendulum"))
def _activate(duel: Duel, action: dict, step: str) -> None:
    if "as" in action or "pendulum" in action:
        if action.get("as") != "pendulum_scale" or action.get("pendulum") not in PENDULUM_ZONES:
            raise ScenarioError(
                f"{step}: a Pendulum Scale is activated with `as: pendulum_scale` and `pendulum: left|right`"
            )
        duel.activate_scale(
            _card(duel, action, "activate", step), str(action["pendulum"]), action.get("player")
        )
        return
    targets = _cards_named(duel, action, "target", step)
    for t in targets:
        if duel.cards[t].zone in ("hand", "deck"):
            raise ScenarioError(f"{step}: the target {t!r} is not on the field or in a public zone")
    effect = action.get("effect", 1)
    if not count(effect) or effect < 1:
        raise ScenarioError(f"{step}: effect is the effect's number, 1 or more, not {effect!r}")
    duel.activate(_card(duel, action, "activate", step), targets, effect - 1, action.get("player"))


@register("set")
def _set(duel: Duel, action: dict, step: str) -> None:
    key = _card(duel, action, "set", step)
    if duel.cards[key].spec.kind == "monster":
        duel.summon(key, "defense", face_up=False)
    else:
        duel.set_spell_trap(key)


@register("special_summon", fields=("position", "player", "zone"))
def _special_summon(duel: Duel, action: dict, step: str) -> None:
    name = str(action["special_summon"])
    spec = duel.specs.get(name)
    duel.open_window()
    if spec is not None and spec.token:
        # A token is made as it is special summoned (one more each time).
        player = str(action.get("player") or duel.turn_player)
        duel.special_summon(duel.create_token(name, player), action.get("position", "attack"), player)
    else:
        key = _card(duel, action, "special_summon", step)
        summons.check_revivable(duel.cards[key])
        duel.special_summon(key, action.get("position", "attack"), action.get("player"), _zone(action, step))
    duel.check_replay()


@register("tribute_summon", fields=("tributes", "position", "zone"))
def _tribute_summon(duel: Duel, action: dict, step: str) -> None:
    tributes = _cards_named(duel, action, "tributes", step)
    duel.tribute_summon(
        _card(duel, action, "tribute_summon", step),
        tributes,
        action.get("position", "attack"),
        _zone(action, step),
    )


@register("attack", fields=("target",))
def _attack(duel: Duel, action: dict, step: str) -> None:
    target = action.get("target", "direct")
    if target != "direct" and target not in duel.cards:
        raise ScenarioError(f"{step}: the attack target {target!r} is not a card of this scenario")
    duel.declare_attack(_card(duel, action, "attack", step), None if target == "direct" else str(target))


@register("retarget")
def _retarget(duel: Duel, action: dict, step: str) -> None:
    target = action["retarget"]
    if target not in ("direct", None) and target not in duel.cards:
        raise ScenarioError(f"{step}: the new target {target!r} is not a card of this scenario")
    duel.retarget(None if target in ("direct", None) else str(target))


@register("damage_step", bare=True)
def _damage_step(duel: Duel, action: dict, step: str) -> None:
    timing = action.get("damage_step")
    if timing is not None and timing not in DAMAGE_STEP:
        raise ScenarioError(f"{step}: damage_step: {timing!r} is not a timing ({', '.join(DAMAGE_STEP)})")
    duel.damage_step(timing)


def _moved(verb: str) -> Callable[[Duel, dict, str], None]:
    """An action that moves one card by a rule of its own (destroy, send to the GY, …)."""

    def perform(duel: Duel, action: dict, step: str) -> None:
        key = _card(duel, action, verb, step)
        duel.open_window()
        if verb == "destroy":
            duel.destroy(key, action.get("reason", "is destroyed"))
        else:
            getattr(duel, verb)(key)
        duel.check_replay()

    return perform


def _names(value: Any, duel: Duel, step: str) -> list[str]:
    """A card or a list of cards of this scenario."""
    names = [str(v) for v in (value if isinstance(value, list) else [value] if value else [])]
    for name in names:
        if name not in duel.cards:
            raise ScenarioError(f"{step}: unknown card {name!r}")
    return names


@register("damage")
def _damage(duel: Duel, action: dict, step: str) -> None:
    spec = action["damage"]
    if not isinstance(spec, dict):
        raise ScenarioError(f"{step}: damage takes {{players: [A, B], amount: N}}, not {spec!r:.60}")
    players = [str(p) for p in spec.get("players", [spec.get("player", "B")])]
    if any(p not in PLAYERS for p in players) or not count(spec.get("amount")):
        raise ScenarioError(f"{step}: damage needs players A/B and an amount of 0 or more: {spec!r:.60}")
    duel.open_window()
    duel.damage(players, spec["amount"])


@register("draw", fields=("player",))
def _draw(duel: Duel, action: dict, step: str) -> None:
    if not count(action["draw"]):
        raise ScenarioError(f"{step}: draw takes a number of cards, 0 or more, not {action['draw']!r}")
    duel.open_window()
    duel.draw_cards(str(action.get("player", duel.turn_player)), action["draw"])


register("summon", fields=("position", "zone"))(
    lambda duel, a, step: duel.summon(
        _card(duel, a, "summon", step), a.get("position", "attack"), zone=_zone(a, step, main_only=True)
    )
)
register("flip_summon")(lambda duel, a, step: duel.flip_summon(_card(duel, a, "flip_summon", step)))
register("change_position")(
    lambda duel, a, step: duel.change_position_by_choice(_card(duel, a, "change_position", step))
)
register("resolve", bare=True)(lambda duel, a, step: duel.resolve_chain())
register("stop_attack", bare=True)(lambda duel, a, step: duel.stop_attack())
register("destroy", fields=("reason",))(_moved("destroy"))
for _verb in ("send_to_gy", "return_to_hand", "flip_face_up", "flip_face_down"):
    register(_verb)(_moved(_verb))
register("negate_effects")(
    lambda duel, a, step: duel.negate_effects_of(_card(duel, a, "negate_effects", step))
)
register("phase", fields=("unpaid",))(
    lambda duel, a, step: duel.enter_phase(str(a["phase"]), _names(a.get("unpaid"), duel, step))
)
register("end_phase", bare=True)(lambda duel, a, step: duel.end_phase())
register("end_turn", bare=True)(lambda duel, a, step: duel.end_turn())


def _zone(action: dict, step: str, main_only: bool = False) -> Slot | None:
    """An action's `zone:` (1–5, emz_left, emz_right), None when it names none."""
    if "zone" not in action:
        return None
    slot = parse_slot(action["zone"])
    if slot is None or (main_only and not isinstance(slot, int)):
        raise ScenarioError(
            f"{step}: zone is a Main Monster Zone 1–5 or emz_left|emz_right, not {action['zone']!r}"
        )
    return slot


def _by_rule(kind: str) -> Callable[[Duel, dict, str], None]:
    """A Synchro, Xyz or Link summon: the monster, its `materials`, and optionally its zone."""

    def perform(duel: Duel, action: dict, step: str) -> None:
        key = _card(duel, action, f"{kind}_summon", step)
        materials = _cards_named(duel, action, "materials", step)
        duel.summon_by_rule(
            kind, key, materials, action.get("position", "attack"), _zone(action, step), action.get("player")
        )

    return perform


for _kind in ("synchro", "xyz", "link"):
    register(f"{_kind}_summon", fields=("materials", "zone", "position", "player"))(_by_rule(_kind))


@register("pendulum_summon", fields=("zones", "player"))
def _pendulum_summon(duel: Duel, action: dict, step: str) -> None:
    keys = _names(action["pendulum_summon"], duel, step)
    zones = action.get("zones") or {}
    if not isinstance(zones, dict) or any(
        str(k) not in keys or parse_slot(v) is None for k, v in zones.items()
    ):
        raise ScenarioError(f"{step}: zones maps each summoned card to its zone (1–5, emz_left, emz_right)")
    duel.pendulum_summon(keys, {str(k): parse_slot(v) for k, v in zones.items()}, action.get("player"))
