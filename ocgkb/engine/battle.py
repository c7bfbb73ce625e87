"""Battle (§6.3.4): the attack declaration, replay and the damage step's five timings.

The damage step runs timing by timing (rules.DAMAGE_STEP): start, before damage
calculation, damage calculation (its 伤害计算时 effects first, then the
calculation as the step moves on), after damage calculation, end. A scenario may
stop at any of them to activate what §6.3.4.3 allows there; `damage_step` with
no timing runs all that remain. When the attack target has left the field before
damage calculation, no damage is calculated and the battle ends (§6.3.4.3.3/4);
there is no replay in the damage step (§6.3.4.2.1/10).
"""

from __future__ import annotations

from . import rules, stats
from .errors import IllegalActionError
from .state import Attack, State


def declare_attack(duel: State, attacker: str, target: str | None) -> None:
    duel.require_not_over()
    card = duel.card(attacker)
    if duel.chain:
        raise IllegalActionError("the chain must resolve before an attack is declared", code="chain_open")
    if duel.battle is not None and duel.battle.replay and duel.battle.attacker != attacker:
        # After a replay, attacking with another monster gives up the first one's attack (guide/结束步骤/6).
        duel.say(
            f"   「{duel.battle.attacker}」 gives up its attack; it has still attacked this battle phase"
        )
        duel.battle = None
    if duel.battle is not None:
        # The next attack is declared in the battle step, once this one's damage step is over.
        raise rules.illegal(
            f"「{duel.battle.attacker}」's attack is still under way: the next attack is declared "
            "in the battle step after its damage step",
            "§6.3.4.3.5/4",
            "attack_under_way",
        )
    if card.zone != "monster" or not card.face_up or card.position != "attack":
        raise IllegalActionError(
            f"「{attacker}」 is not a face-up attack-position monster and cannot attack (§6.3.4.2/3)",
            code="cannot_attack",
        )
    rules.check_attack(duel, card)
    if card.attacked:
        raise IllegalActionError(
            f"「{attacker}」 has already attacked this turn (§6.3.4.2/2)", code="already_attacked"
        )
    defender_side = duel.opponent(card.controller)
    if target is None and duel.monsters(defender_side):
        raise IllegalActionError(
            "a direct attack needs the opponent to control no monsters (§6.3.4.2/3)", code="no_direct_attack"
        )
    if target is not None and duel.card(target).zone != "monster":
        raise IllegalActionError(
            f"「{target}」 is not a monster on the field and cannot be attacked (§6.3.4.2/3)",
            code="not_attackable",
        )
    card.attacked = True
    duel.step = "battle"
    duel.open_window()
    opponents = frozenset(c.key for c in duel.monsters(defender_side))
    duel.battle = Attack(
        attacker, target, opponents, target_place=duel.card(target).place() if target else None
    )
    aim = f"「{target}」" if target else f"{defender_side} directly"
    duel.say(f"{card.controller}'s 「{attacker}」 declares an attack on {aim}")
    duel.record("attack_declared", attacker)


def check_replay(duel: State) -> None:
    """A replay when the opponent's monsters changed during the battle step (§6.3.4.2.1)."""
    attack = duel.battle
    if attack is None or attack.timing is not None or duel.step != "battle" or duel.chain:
        return
    attacker = duel.cards.get(attack.attacker)
    if attacker is None or attacker.zone != "monster":
        duel.say("   the attacker has left the field: the attack ends, no replay")
        duel.battle = None
        return
    if not attacker.face_up or attacker.position != "attack":
        # §6.3.4.2/6: it can no longer battle; no damage step, no calculation.
        duel.say("   the attacker is no longer face-up in attack position: its attack ends (§6.3.4.2/6)")
        duel.battle = None
        return
    now = frozenset(c.key for c in duel.monsters(duel.opponent(attacker.controller)))
    if now != attack.opponents:
        attack.replay = True
        duel.replays += 1
        attack.opponents = now
        duel.say(
            "   the opponent's monsters changed after the attack was declared: replay (卷回, §6.3.4.2.1)"
        )


def retarget(duel: State, target: str | None) -> None:
    """After a replay the attacker chooses again (this is not an attack declaration,
    §6.3.4.2.1/6): a monster, or the player directly if they control none."""
    attack = duel.battle
    if attack is None or not attack.replay:
        raise IllegalActionError(
            "a new attack target can only be chosen after a replay (§6.3.4.2.1/4)", code="no_replay"
        )
    attacker = duel.card(attack.attacker)
    side = duel.opponent(attacker.controller)
    if target is None and duel.monsters(side):
        raise IllegalActionError(
            f"{side} controls monsters: the attack cannot become a direct attack (§6.3.4.2.1/4)",
            code="no_direct_attack",
        )
    if target is not None and duel.card(target).zone != "monster":
        raise IllegalActionError(
            f"「{target}」 is not a monster on the field and cannot be attacked (§6.3.4.2/3)",
            code="not_attackable",
        )
    attack.target, attack.replay = target, False
    attack.target_place = duel.card(target).place() if target else None
    duel.say(f"   「{attack.attacker}」 now attacks " + (f"「{target}」" if target else "directly"))


def stop_attack(duel: State) -> None:
    """After a replay the attacker may stop: it still counts as having attacked (§6.3.4.2.1/5)."""
    attack = duel.battle
    if attack is None or not attack.replay:
        raise IllegalActionError(
            "an attack can only be stopped when a replay lets the attacker choose again (§6.3.4.2.1/5)",
            code="no_replay",
        )
    duel.say(f"   「{attack.attacker}」 stops its attack; it has still attacked this turn (§6.3.4.2.1/5)")
    duel.battle = None


def damage_step(duel: State, until: str | None = None) -> None:
    """Run the damage step's timings from where it stands up to `until` (all when None)."""
    duel.require_not_over()
    attack = duel.battle
    if attack is None:
        raise IllegalActionError("no attack is under way (§6.3.4.2/6)", code="no_attack")
    if attack.replay:
        raise IllegalActionError(
            "a replay happened: choose the attack target again before the damage step (§6.3.4.2.1/4)",
            code="replay_pending",
        )
    if duel.chain:
        raise IllegalActionError("the chain must resolve before the damage step moves on", code="chain_open")
    if until is not None and until not in rules.DAMAGE_STEP:
        raise IllegalActionError(f"the damage step has no timing {until!r} ({', '.join(rules.DAMAGE_STEP)})")
    done = rules.DAMAGE_STEP.index(attack.timing) + 1 if attack.timing else 0
    last = rules.DAMAGE_STEP.index(until) if until else len(rules.DAMAGE_STEP) - 1
    if last < done:
        raise IllegalActionError(
            f"the damage step is already past its {until.replace('_', ' ')} (§6.3.4.3/7)", code="phase_order"
        )
    for timing in rules.DAMAGE_STEP[done : last + 1]:
        attack.timing = timing
        duel.open_window()
        TIMINGS[timing](duel, attack)
        if duel.winner:
            return
        _set_off(duel, attack, timing)
        if duel.battle is None:
            return


def _set_off(duel: State, attack: Attack, timing: str) -> None:
    """A trigger effect that names this timing and no event (『伤害计算后』发动的效果) is set
    off by its monster's battle reaching it: it waits as a pending trigger, to be chained
    with the others set off at once, turn player's first (§6.3.4.3.4/2, §6.3.4.3.5/2)."""
    if timing == "after_calculation" and not attack.calculated:
        return  # no damage calculation, so no "after damage calculation" (§6.3.4.3.3/4)
    for key in (attack.attacker, attack.target):
        card = duel.cards.get(key or "")
        if card is None or card.zone != "monster" or not card.face_up or key in duel.pending:
            continue
        if any(e.type == "trigger" and e.damage_step == timing and not e.event for e in card.spec.effects):
            duel.pending.append(card.key)
            duel.say(f"   「{card.key}」's trigger effect at this timing is set off (§6.3.4.3.4/2)")


def _start(duel: State, attack: Attack) -> None:
    duel.step = "damage"
    duel.say("damage step: start (§6.3.4.3.1)")


def _before_calculation(duel: State, attack: Attack) -> None:
    duel.say("   before damage calculation (§6.3.4.3.2)")
    defender = duel.cards.get(attack.target) if attack.target else None
    if defender and _still_there(duel, attack) and not defender.face_up:
        defender.face_up = True
        duel.say(
            f"   「{defender.key}」 is turned face-up in defense position (§6.3.4.3.2); its FLIP effect waits"
        )
        duel.record("flipped_face_up", defender.key)


def _calculation(duel: State, attack: Attack) -> None:
    """The timing of damage calculation: effects that say 伤害计算时 are activated
    and resolved first (§6.3.4.3.3/2); the calculation itself follows as the
    damage step moves on (`_calculate`)."""
    duel.say("   damage calculation (§6.3.4.3.3): 伤害计算时 effects first, then the calculation")


def _calculate(duel: State, attack: Attack) -> None:
    with duel.timeline.caused("battle", attack.attacker, duel.card(attack.attacker).controller):
        _calculate_now(duel, attack)


def _calculate_now(duel: State, attack: Attack) -> None:
    attacker = duel.card(attack.attacker)
    if attacker.zone != "monster" or (attack.target is not None and not _still_there(duel, attack)):
        gone = attack.attacker if attacker.zone != "monster" else attack.target
        duel.say(f"   「{gone}」 has left the field: no damage calculation, the battle ends (§6.3.4.3.3/4)")
        return
    attack.calculated = True
    a = stats.atk(duel, attacker.key)
    if attack.target is None:
        duel.say(f"   direct attack: {a} battle damage")
        duel.damage([duel.opponent(attacker.controller)], a, "battle damage")
        return
    defender = duel.card(attack.target)
    if defender.position == "attack":
        _attack_position(duel, attack, a, stats.atk(duel, defender.key))
    else:
        _defense_position(duel, attack, a, stats.defense(duel, defender.key))
    _spare_indestructible(duel, attack)


def _spare_indestructible(duel: State, attack: Attack) -> None:
    """A monster that cannot be destroyed by battle is not: it stays on the field,
    and the battle damage calculated stands (masterrule/79)."""
    for key in list(attack.destroyed):
        if stats.indestructible(duel, key, "battle"):
            attack.destroyed.remove(key)
            duel.say(f"   「{key}」 cannot be destroyed by battle: it stays on the field (masterrule/79)")


def _attack_position(duel: State, attack: Attack, a: int, d: int) -> None:
    attacker, defender = duel.card(attack.attacker), duel.card(attack.target or "")
    duel.say(f"   ATK {a} against ATK {d}")
    if a == d == 0:
        duel.say("   0 against 0: no damage, neither monster is destroyed (§6.3.4.3.3.1)")
    elif a > d:
        attack.destroyed = [defender.key]
        duel.damage([defender.controller], a - d, "battle damage")
    elif a < d:
        attack.destroyed = [attacker.key]
        duel.damage([attacker.controller], d - a, "battle damage")
    else:
        attack.destroyed = [attacker.key, defender.key]
        duel.say("   equal ATK: both are destroyed, no damage")


def _defense_position(duel: State, attack: Attack, a: int, d: int) -> None:
    attacker = duel.card(attack.attacker)
    duel.say(f"   ATK {a} against DEF {d}")
    if a > d:
        attack.destroyed = [attack.target or ""]
        duel.say("   the defender is destroyed; no damage to a defense-position monster's controller")
    elif a < d:
        duel.damage([attacker.controller], d - a, "battle damage")
    else:
        duel.say("   equal: no damage, nothing destroyed")


def _after_calculation(duel: State, attack: Attack) -> None:
    _calculate(duel, attack)
    duel.expire_changes("damage_calculation")  # `during: damage_calculation`: that calculation only
    if duel.winner or not attack.calculated:
        return
    duel.say("   after damage calculation (§6.3.4.3.4)")
    defender = duel.cards.get(attack.target) if attack.target else None
    if defender and any(e.type == "flip" for e in defender.spec.effects):
        duel.pending.append(defender.key)
        duel.say(f"   「{defender.key}」's FLIP effect is activated now (§6.3.4.3.4/2)")


def _end(duel: State, attack: Attack) -> None:
    with duel.timeline.caused("battle", attack.attacker, duel.card(attack.attacker).controller):
        _end_now(duel, attack)


def _end_now(duel: State, attack: Attack) -> None:
    if attack.destroyed:
        duel.say("   end of the damage step: monsters destroyed by battle go to the GY (§6.3.4.3.5)")
    for key in attack.destroyed:
        if duel.card(key).zone == "monster":
            duel.move(key, "gy", "is destroyed by battle")
            duel.record("destroyed_by_battle", key)
            duel.record("destroyed", key)
            duel.record("sent_to_gy", key)
    duel.battle = None
    duel.step = "battle_end"
    duel.damage_step_over = True


def _still_there(duel: State, attack: Attack) -> bool:
    target = duel.cards.get(attack.target or "")
    return target is not None and target.zone == "monster" and target.place() == attack.target_place


TIMINGS = {
    "start": _start,
    "before_calculation": _before_calculation,
    "calculation": _calculation,
    "after_calculation": _after_calculation,
    "end": _end,
}
