"""What the rules allow at a given point of the turn, each refusal naming its rule.

The turn is tracked always; the phase, and whose turn it is for activating
spells, only when a situation states where it starts (`start.phase`), so
situations written before phases existed replay as they did. Each check raises IllegalActionError with the passage that says so.
"""

from __future__ import annotations

from .cards import MONSTER, SPELL, TRAP, Effect
from .errors import illegal
from .state import Card, State, Turn
from .stats import level as level_of

PHASES = ("draw", "standby", "main1", "battle", "main2", "end")
MAIN_PHASES = ("main1", "main2")
# The damage step's five timings, in order (§6.3.4.3/7).
DAMAGE_STEP = ("start", "before_calculation", "calculation", "after_calculation", "end")


def check_phase_change(turn: Turn, phase: str) -> None:
    if phase not in PHASES:
        raise illegal(f"there is no phase {phase!r} (phases: {', '.join(PHASES)})", "§6.3", "no_such_phase")
    if turn.phase is not None and PHASES.index(phase) <= PHASES.index(turn.phase):
        raise illegal(
            f"the turn cannot go back from the {turn.phase} phase to the {phase} phase", "§6.3", "phase_order"
        )
    if phase == "battle" and turn.duel_turn == 1:
        raise illegal(
            "the player who goes first cannot conduct a battle phase in the first turn",
            "§6.3.4/2",
            "first_turn",
        )
    if phase == "main2" and turn.phase in ("draw", "standby", "main1"):
        # After main phase 1 the turn player chooses the battle phase or the end phase.
        raise illegal("main phase 2 comes only after a battle phase", "§6.3.3/3", "phase_order")


def check_normal_summon(duel: State, card: Card) -> None:
    """§3.2.2.1: in your own main phase, from the hand, once per turn."""
    player = card.controller
    if card.zone != "hand":
        raise illegal(
            f"「{card.key}」 is not in the hand: a normal summon or set is made from the hand",
            "§3.2.2.1/1",
            "not_in_hand",
        )
    if player != duel.turn.player:
        raise illegal(f"{player} cannot normal summon on the opponent's turn", "§3.2.2.1/1", "not_your_turn")
    if duel.turn.phase is not None and duel.turn.phase not in MAIN_PHASES:
        raise illegal(
            f"a normal summon is made in a main phase, not the {duel.turn.phase} phase",
            "§3.2.2.1/1",
            "wrong_phase",
        )
    if player in duel.turn.normal_summoned:
        raise illegal(f"{player} has already normal summoned or set this turn", "§3.2.2.1/2", "once_per_turn")


def tributes_needed(level: int) -> int:
    """§3.2.2.1.1/2: level 5-6 one tribute, 7 or higher two, 4 or lower none."""
    return 0 if level <= 4 else (1 if level <= 6 else 2)


def check_untributed(duel: State, card: Card) -> None:
    """§3.2.2.1/11: a level 5 or higher monster is normal summoned only by tributing."""
    need = tributes_needed(level_of(duel, card.key))
    if need:
        raise illegal(
            f"「{card.key}」 is level {level_of(duel, card.key)}: its normal summon needs {need} tribute(s)",
            "§3.2.2.1/11",
            "tributes_needed",
        )


def check_tributes(duel: State, card: Card, tributes: list[str]) -> None:
    """§3.2.2.1.1: the number its level asks for, from the monsters its player controls."""
    level = level_of(duel, card.key)
    need = tributes_needed(level)
    if not need:
        raise illegal(
            f"「{card.key}」 is level {level}: a tribute summon is of a level 5 or higher monster",
            "§3.2.2.1.1/1",
            "no_tribute_needed",
        )
    if len(set(tributes)) != need:
        raise illegal(
            f"「{card.key}」 (level {level}) is tribute summoned with {need} tribute(s), not {len(set(tributes))}",
            "§3.2.2.1.1/2",
            "tribute_count",
        )
    for key in tributes:
        other = duel.card(key)
        if other.zone != "monster" or other.controller != card.controller:
            # Face-down ones may be tributed (§3.2.2.1.1.1/2), the opponent's may not.
            raise illegal(
                f"「{key}」 is not a monster {card.controller} controls: only those can be tributed",
                "§3.2.2.1.1.1/4",
                "not_your_monster",
            )


def check_flip_summon(duel: State, card: Card) -> None:
    """A face-down monster the turn player did not set or summon this turn."""
    if card.zone != "monster" or card.face_up:
        raise illegal(f"「{card.key}」 is not a face-down monster", "§6.3.3/2", "not_face_down")
    if card.controller != duel.turn.player:
        raise illegal(
            f"{card.controller} cannot flip summon on the opponent's turn", "§6.3.3/2", "not_your_turn"
        )
    if duel.turn.phase is not None and duel.turn.phase not in MAIN_PHASES:
        raise illegal(
            f"a flip summon is made in a main phase, not the {duel.turn.phase} phase",
            "§6.3.3/2",
            "wrong_phase",
        )
    if card.placed_turn == duel.turn.number:
        raise illegal(
            f"「{card.key}」 was set or summoned this turn and cannot be flip summoned",
            "rulings/玩家意志变更表示形式/8",
            "placed_this_turn",
        )
    if card.attacked or card.position_changed_turn == duel.turn.number:
        # Attacked or changed position this turn, then turned face-down by an effect (§4.3.3.10/3).
        raise illegal(
            f"「{card.key}」 attacked or changed position this turn and cannot be flip summoned",
            "§4.3.3.10/3",
            "attacked_or_changed_position",
        )


def check_position_change(duel: State, card: Card) -> None:
    """A change of position by its player's choice (玩家意志变更表示形式): a face-up monster
    of the turn player, in a main phase, once per turn, not the turn it was summoned,
    set or flip summoned, nor after it declared an attack."""
    rule = "rulings/玩家意志变更表示形式"
    if card.spec.frame == "link":
        raise illegal(
            f"「{card.key}」 is a Link monster: it is always in attack position",
            "masterrule/172",
            "link_position",
        )
    if card.zone != "monster" or not card.face_up:
        raise illegal(
            f"「{card.key}」 is not a face-up monster (a face-down one is flip summoned)", f"{rule}/1"
        )
    if card.controller != duel.turn.player:
        raise illegal(
            f"{card.controller} cannot change positions on the opponent's turn", f"{rule}/1", "not_your_turn"
        )
    if duel.turn.phase is not None and duel.turn.phase not in MAIN_PHASES:
        raise illegal(
            f"a position is changed by choice in a main phase, not the {duel.turn.phase} phase",
            f"{rule}/1",
            "wrong_phase",
        )
    moved_this_turn = (
        (card.placed_turn == duel.turn.number, "was summoned or set", 8, "placed_this_turn"),
        (card.attacked, "declared an attack", 8, "already_attacked"),
    )
    for refused, what, clause, code in moved_this_turn:
        if refused:
            raise illegal(
                f"「{card.key}」 {what} this turn: its position cannot be changed", f"{rule}/{clause}", code
            )
    if card.chosen_position_turn == duel.turn.number:
        raise illegal(
            f"「{card.key}」's position was already changed this turn", f"{rule}/6", "once_per_turn"
        )


def check_attack(duel: State, card: Card) -> None:
    """§6.3.4.2: attacks are declared in the battle phase's battle step, on your own turn."""
    if card.controller != duel.turn.player:
        raise illegal(
            f"{card.controller} cannot attack on the opponent's turn", "§6.3.4.2/1", "not_your_turn"
        )
    if duel.turn.duel_turn == 1:
        raise illegal("the player who goes first cannot attack in the first turn", "§6.3.4/2", "first_turn")
    if duel.turn.phase is not None and duel.turn.phase != "battle":
        raise illegal(
            f"attacks are declared in the battle phase, not the {duel.turn.phase} phase",
            "§6.3.4.2/1",
            "wrong_phase",
        )


def check_activation(duel: State, card: Card, effect: Effect, player: str) -> None:
    """A card's own activation conditions: whose turn, which phase, set this turn."""
    check_zone(card, effect)
    # Whose turn it is matters once a situation says where in the turn it starts;
    # the situations written before that keep replaying as they did.
    own_turn = player == duel.turn.player or duel.turn.phase is None
    speed = card.spec.speed(effect)
    if card.spec.kind == SPELL and card.zone == "hand" and card.spec.type == "quick-play" and not own_turn:
        raise illegal(
            "a quick-play spell is activated from the hand only on its player's own turn",
            "tournament/115",
            "not_your_turn",
        )
    if card.spec.kind == SPELL and speed == 1 and not own_turn:
        raise illegal(
            f"「{card.key}」 is spell speed 1: only the turn player activates it, in a main phase",
            "§6.3.3/2",
            "not_your_turn",
        )
    if (
        card.spec.kind == SPELL
        and speed == 1
        and duel.turn.phase is not None
        and duel.turn.phase not in MAIN_PHASES
    ):
        raise illegal(
            f"「{card.key}」 is spell speed 1 and is activated in a main phase", "§6.3.3/2", "wrong_phase"
        )
    set_this_turn = card.zone == "spelltrap" and not card.face_up and card.placed_turn == duel.turn.number
    if set_this_turn and card.set_again_turn == duel.turn.number:
        raise illegal(
            f"「{card.key}」 was set again this turn when its activation was negated: it can be activated "
            "again from the next turn",
            "rulings/也当作陷阱卡使用的陷阱怪兽/12",
            "set_this_turn",
        )
    if set_this_turn and (card.spec.kind == TRAP or card.spec.type == "quick-play"):
        raise illegal(
            f"「{card.key}」 was set this turn and cannot be activated until the next turn",
            "rulings/也当作陷阱卡使用的陷阱怪兽/12",
            "set_this_turn",
        )
    if duel.battle and duel.battle.timing:
        check_damage_step(duel, card, effect, duel.battle.timing)
    _check_during(duel, card, effect)


def check_once_per_turn(duel: State, card: Card, effect: Effect, number: int, player: str) -> None:
    """1回合1次: this card's effect once per turn, again only once the card has left the
    field or been turned face-down (§5.1/6); by card name, once per turn for the player
    whichever copy (§5.1/7). A negated activation still counts (§5.1/3)."""
    if effect.once_per_turn == "name":
        if duel.used_names.get((player, card.spec.name, number)) == duel.turn.number:
            raise illegal(
                f"the effect of 「{card.spec.name}」 can be used only once per turn, and {player} has used it",
                "§5.1/7",
                "once_per_turn",
            )
    elif effect.once_per_turn and card.used_effects.get(number) == duel.turn.number:
        raise illegal(
            f"「{card.key}」's effect can be used only once per turn, and it was this turn",
            "§5.1/6",
            "once_per_turn",
        )


def mark_once_per_turn(duel: State, card: Card, effect: Effect, number: int, player: str) -> None:
    """The activation counts from now on, even if it is negated later (§5.1/3)."""
    if effect.once_per_turn == "name":
        duel.used_names[(player, card.spec.name, number)] = duel.turn.number
    elif effect.once_per_turn:
        card.used_effects[number] = duel.turn.number


def check_zone(card: Card, effect: Effect) -> None:
    """An effect that says `from: gy` (在墓地存在的时候可以发动的效果, §4.2.1.1/4) is activated
    only while its card is in the GY."""
    if effect.zone == "gy" and card.zone != "gy":
        raise illegal(
            f"「{card.key}」's effect is activated while the card is in the GY, not in the {card.zone}",
            "§4.2.1.1/4",
            "not_in_gy",
        )


def _check_during(duel: State, card: Card, effect: Effect) -> None:
    """A change that applies during that damage calculation only needs the damage
    calculation under way: it is activated at its timing (§6.3.4.3.3/2)."""
    if any(op.get("during") == "damage_calculation" for op in effect.ops):
        if not (duel.battle and duel.battle.timing == "calculation"):
            raise illegal(
                f"「{card.key}」's change applies during damage calculation only: it is activated then",
                "§6.3.4.3.3/2",
                "wrong_timing",
            )


def _check_timed(duel: State, card: Card, effect: Effect, timing: str) -> None:
    """An effect that names a damage-step timing (伤害计算时): at that timing, before its
    chain has resolved, and once per card per timing (注射天使 莉莉: 1次)."""
    name = timing.replace("_", " ")
    if effect.damage_step != timing:
        raise illegal(
            f"「{card.key}」 is activated at the damage step's {effect.damage_step.replace('_', ' ')}, not its {name}",
            "§6.3.4.3/6",
            "wrong_timing",
        )
    attack = duel.battle
    if attack and timing in attack.closed:
        raise illegal(
            f"the chain at the damage step's {name} has resolved: 「{card.key}」 can no longer be activated",
            "§6.3.4.3/6",
            "timing_passed",
        )
    if attack and (card.key, timing) in attack.used_at:
        raise illegal(
            f"「{card.key}」's effect was already activated at this {name}", "§6.3.4.3/6", "once_per_timing"
        )
    if effect.type == "trigger" and not effect.event and card.key not in duel.pending:
        # 『伤害计算后』发动的效果 is set off by its own monster's battle reaching the timing.
        raise illegal(
            f"「{card.key}」's trigger effect was not set off: its monster is not in this battle",
            "§6.3.4.3.4/2",
            "no_event",
        )
    if attack:
        attack.used_at.add((card.key, timing))


def check_damage_step(duel: State, card: Card, effect: Effect, timing: str) -> None:
    """§6.3.4.3: in the damage step only counter traps, negations, triggers, ATK/DEF
    changes (until damage calculation) and effects that name the timing."""
    if effect.damage_step:
        _check_timed(duel, card, effect, timing)
        return
    names = {name for op in effect.ops for name in op}
    if card.spec.speed(effect) == 3 or names & {"negate_activation", "negate_effect"}:
        return
    if effect.type == "flip":
        # Turned face-up before damage calculation, a FLIP effect waits until after it (§6.3.4.3.2/1).
        if DAMAGE_STEP.index(timing) >= DAMAGE_STEP.index("after_calculation"):
            return
        raise illegal(
            f"「{card.key}」's FLIP effect is activated after damage calculation",
            "§6.3.4.3.2/1",
            "flip_waits",
        )
    if effect.type == "trigger":
        return
    if "modify" in names:
        if DAMAGE_STEP.index(timing) <= DAMAGE_STEP.index("before_calculation"):
            return
        raise illegal(
            f"「{card.key}」 changes ATK/DEF, which is possible only until before damage calculation",
            "§6.3.4.3/2",
            "after_calculation",
        )
    kind = "monster effect" if card.spec.kind == MONSTER else f"{card.spec.type} {card.spec.kind}"
    raise illegal(
        f"「{card.key}」 ({kind}) cannot be activated in the damage step", "§6.3.4.3/1", "damage_step"
    )
