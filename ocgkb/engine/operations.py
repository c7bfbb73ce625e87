"""What effects do: one function per operation, registered once under its name
(engine/verbs.py) with what it may carry besides `target` and `then` and whether it
acts on cards; anything else is a malformed scenario (engine/cards.py checks).

Each takes the duel, the card whose effect it is, the operation as written (`{destroy:
target}`), the cards it acts on and the chain link resolving (None for a continuous
effect).
"""

from __future__ import annotations

from collections.abc import Callable

from . import stats
from .cards import CLASSES, MONSTER
from .errors import IllegalChainError
from .modifiers import ACTIVATED, Modifier, resolve_amount
from .state import Card, ChainLink, State
from .verbs import OPERATIONS

Operation = Callable[[State, Card, dict, list[str], "ChainLink | None"], None]
__all__ = ["CLASSES", "OPERATIONS", "modify", "negate_effects_of"]
register = OPERATIONS.register


@register("modify", fields=("by", "set", "original", "until", "during"), on_cards=True)
def _modify(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    if link is None or source.spec.continuous:
        # A continuous change is not stored: stats.py finds it while its card applies.
        if source.spec.type == "equip" and chosen:
            source.equipped_to = chosen[0]
        return
    for key in chosen:
        modify(duel, source, key, op)


def modify(duel: State, source: Card, key: str, op: dict) -> None:
    """An activated effect changes a face-up monster's ATK/DEF/level (§4.3.3.6): the
    change is fixed now and kept on the card until it leaves the field."""
    target = duel.card(key)
    if target.zone != "monster" or not target.face_up:
        duel.say(f"   「{key}」 is not a face-up monster: its ATK/DEF cannot change")
        return
    for stat in ["atk", "def"] if op["modify"] == "both" else [op["modify"]]:
        before = stats.value(duel, key, stat)
        mod = Modifier(stat, "add", ACTIVATED, source.key, duel.next_order())
        mod.from_own_effect = source.key == key
        mod.lasts = op.get("until") or op.get("during")
        if "by" in op:
            mod.amount = int(op["by"])
        elif "set" in op:
            mod.kind, mod.fixed = "set", resolve_amount(op["set"], before, stats.original(duel, key, stat))
        elif "original" in op:
            mod.kind = "original"
            # §4.3.3.6.2: halving or doubling a 「?」 original counts it as 0.
            base = 0 if stats.printed(target, stat) is None else stats.original(duel, key, stat)
            rule = op["original"]
            mod.fixed = resolve_amount(
                f"{rule}_original" if rule in ("half", "double") else rule, before, base
            )
        target.modifiers.append(mod)
        after = stats.value(duel, key, stat)
        duel.say(f"   「{key}」 {stat.upper()} {before} → {after}: {mod.describe()} by 「{source.key}」")
        duel.record(f"{stat}_changed", key)


def negate_effects_of(duel: State, key: str) -> None:
    """The card's effects are negated; a monster's own raise by its activated effect
    falls back (§4.3.3.6), and its continuous effects stop applying (stats.py)."""
    card = duel.card(key)
    before = stats.atk(duel, key) if card.spec.kind == MONSTER and card.zone == "monster" else None
    card.effects_negated = True
    if before is None:
        duel.say(f"「{key}」's effects are negated")
        return
    card.modifiers = [m for m in card.modifiers if not (m.source == key and m.from_own_effect)]
    duel.say(f"「{key}」's effects are negated (ATK {before} → {stats.atk(duel, key)})")


@register("destroy", on_cards=True)
def _destroy(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    for key in chosen:
        destroyed = duel.card(key).on_field
        if destroyed and stats.indestructible(duel, key, "effect"):
            # Not destroyed, so a "destroy and banish" banishes nothing either (§4.3.3.4.1/5).
            duel.say(f"   「{key}」 cannot be destroyed by effects: it stays (masterrule/79)")
            destroyed = False
        if destroyed:
            duel.destroy(key, f"is destroyed by 「{source.key}」")
        duel.destroyed_now[key] = destroyed


def _not_destroyed(duel: State, key: str, what: str) -> bool:
    """§4.3.3.4.1/5: "destroy and banish" / "destroy and send": what could not be destroyed is not."""
    if duel.destroyed_now.get(key) is False:
        duel.say(f"   「{key}」 could not be destroyed, so it is not {what} either (§4.3.3.4.1/5)")
        return True
    return False


@register("banish", fields=("until",), on_cards=True)
def _banish(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    for key in chosen:
        if not _not_destroyed(duel, key, "banished"):
            duel.banish(key, f"is banished by 「{source.key}」", until=op.get("until"))


@register("send_to_gy", on_cards=True)
def _send_to_gy(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    for key in chosen:
        if duel.card(key).spec.token:
            duel.say(f"   「{key}」 is a token: it cannot be sent to the GY (§4.2.2.3/6)")
        elif not _not_destroyed(duel, key, "sent to the GY"):
            duel.send_to_gy(key, f"is sent to the GY by 「{source.key}」")


@register("return_to_hand", on_cards=True)
def _return_to_hand(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    for key in chosen:
        duel.return_to_hand(key, f"is returned to the hand by 「{source.key}」")


@register("special_summon", fields=("position", "to", "zone"), on_cards=True)
def _special_summon(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    for key in chosen:
        card = duel.card(key)
        if card.spec.revived_only_when_proper and not card.properly_summoned and not card.on_field:
            duel.say(
                f"   「{key}」 was not properly summoned first: it cannot be special summoned (§3.2.1.3/3)"
            )
            continue
        # To its owner's field, or with `to: self` to the summoning player's.
        controller = source.controller if op.get("to") == "self" else card.owner
        duel.special_summon(key, op.get("position", "attack"), controller=controller, slot=op.get("zone"))


@register("fusion_summon", fields=("materials", "zone", "position"), on_cards=True)
def _fusion_summon(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    for key in chosen:
        duel.summon_by_effect(
            "fusion", key, [str(m) for m in op.get("materials") or []], source.controller, op
        )


@register("ritual_summon", fields=("tributes", "zone", "position"), on_cards=True)
def _ritual_summon(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    for key in chosen:
        duel.summon_by_effect(
            "ritual", key, [str(m) for m in op.get("tributes") or []], source.controller, op
        )


@register("negate_summon")
def _negate_summon(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    """神之宣告 against a summon by the rules: it is negated and its monsters destroyed;
    they were never on the field (masterrule/92), and what their materials would set
    off once the summon succeeded is not set off (rulings/X素材/8, /13)."""
    window = duel.summoning
    if window is None or window.negated:
        duel.say("   there is no summon under way to negate")
        return
    window.negated = True
    for key in window.keys:
        if duel.card(key).zone == "summoning":
            materials = duel.materials_of(key)
            duel.record("summon_negated", key)
            duel.move(key, "gy", "is destroyed: its summon was negated (masterrule/92)")
            duel.record("destroyed", key)
            duel.record("sent_to_gy", key)
            for material in materials:  # the Xyz materials go with it (rulings/X素材/10)
                duel.move(
                    material,
                    "gy",
                    f"(an Xyz material of 「{key}」) goes to the GY with it (rulings/X素材/10)",
                )
                duel.record("sent_to_gy", material)


@register("attach", fields=("to",), on_cards=True)
def _attach(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    """Cards become Xyz materials of the effect's own Xyz monster, or of `to:`."""
    xyz = duel.card(str(op.get("to") or source.key))
    if xyz.zone != "monster" or xyz.spec.frame != "xyz":
        duel.say(f"   「{xyz.key}」 is not an Xyz monster on the field: nothing is attached")
        return
    for key in chosen:
        if duel.card(key).spec.token:
            duel.say(f"   「{key}」 is a token: it cannot be an Xyz material (rulings/衍生物/1)")
        elif key != xyz.key:
            duel.attach(key, xyz.key, f"becomes an Xyz material of 「{xyz.key}」")


@register("token", fields=("position", "to"))
def _token(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    """A new token special summoned (`to: opponent` for the other player's field)."""
    controller = duel.opponent(source.controller) if op.get("to") == "opponent" else source.controller
    key = duel.create_token(str(op["token"]), controller)
    duel.special_summon(key, op.get("position", "attack"), controller=controller)


@register("take_control", fields=("until",), on_cards=True)
def _take_control(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    for key in chosen:
        duel.take_control(key, source.controller, op.get("until"))


@register("flip_face_down", on_cards=True)
def _flip_face_down(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    for key in chosen:
        if duel.card(key).spec.token:
            duel.say(f"   「{key}」 is a token: it cannot be turned face-down (§4.3.3.10/5)")
        elif duel.card(key).spec.frame == "link":
            duel.say(f"   「{key}」 is a Link monster: it cannot be turned face-down (masterrule/172)")
        else:
            duel.flip_face_down(key)


@register("negate_activation", fields=("set_again",))
def _negate_activation(
    duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None
) -> None:
    below = _link_below(duel, link)
    below.activation_negated = True
    below.set_again = bool(op.get("set_again"))
    duel.record("negated", below.card)
    again = ": the card will be set face-down again" if below.set_again else ""
    duel.say(f"   the activation of 「{below.card}」 (link {below.number}) is negated{again}")


@register("negate_effect")
def _negate_effect(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    below = _link_below(duel, link)
    below.effect_negated = True
    duel.record("negated", below.card)
    duel.say(f"   the effect of 「{below.card}」 (link {below.number}) is negated")


@register("negate_effects", on_cards=True)
def _negate_effects(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    if op.get("target") in CLASSES:
        # A lock (王宫的敕命: spell effects on the field are negated) applies for as
        # long as its card is face-up: Duel.lock_on decides at each resolution.
        duel.say(
            f"   from now on, while 「{source.key}」 is face-up, the effects of {CLASSES[op['target']]} are negated"
        )
        return
    for key in chosen:
        negate_effects_of(duel, key)


def _each(verb: str) -> Operation:
    """An operation that applies one duel verb to each card it acts on."""

    def apply(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
        for key in chosen:
            getattr(duel, verb)(key)

    return apply


@register("damage", fields=("to",))
def _damage(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    duel.damage(duel.players_named(op.get("to", "opponent"), source.controller), int(op["damage"]))


@register("lose_lp", fields=("to",))
def _lose_lp(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    duel.lose_lp(duel.players_named(op.get("to", "opponent"), source.controller), int(op["lose_lp"]))


@register("draw")
def _draw(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    duel.draw_cards(source.controller, int(op["draw"]))


def _link_below(duel: State, link: ChainLink | None) -> ChainLink:
    # Resolution is last-in first-out, so the link below is still on the chain.
    below = [other for other in duel.chain if link and other.number == link.number - 1]
    if not below:
        raise IllegalChainError("there is no chain link below this one to negate")
    return below[0]


register("flip_face_up", on_cards=True)(_each("flip_face_up"))
register("change_position", on_cards=True)(_each("change_position"))
