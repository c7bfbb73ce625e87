"""The duel, at the top of the engine: it conducts turns, summons, chains and battle.

Each verb (`summon`, `activate`, `resolve_chain`, `declare_attack`, …) checks
what the rules allow (engine/rules.py), changes the state (engine/state.py, the
layer below, where every change of place goes through `move`), records what
happened and when (engine/events.py) and appends numbered lines to `log` saying
what happened and which rule made it so — including which values a change of
state changed, as engine/stats.py computes them. It keeps the windows "when …"
effects answer (§6.3.4.2/4) and reports what each chain or damage-step timing
set off.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from . import battle, rules, stats, summons
from .cards import CLASSES, MONSTER, CardSpec, Effect
from .errors import EngineError, IllegalActionError, IllegalChainError
from .operations import negate_effects_of
from .state import Card, ChainLink, Player, State, SummonWindow, Turn
from .verbs import OPERATIONS
from .zones import PENDULUM_ZONES, Slot

TRIGGERS = ("trigger", "flip")  # the effect types set off by something that happened
__all__ = ["Card", "ChainLink", "Duel", "EngineError", "IllegalActionError", "IllegalChainError", "Player"]


class Duel(State):
    """The conductor: turns and phases, summons, activation, chains and battle,
    each verb checked by rules.py and carried out on the state below it."""

    def __init__(self, cards: dict[str, CardSpec], turn_player: str = "A", lp: int = 8000) -> None:
        super().__init__(cards, turn_player, lp)
        self._chain_start = 0  # index in the timeline where the current chain began
        self._watching = 0  # how deep in changes whose effect on values is reported

    # --- the turn ------------------------------------------------------------------

    def enter_phase(self, phase: str, unpaid: list[str] | None = None) -> None:
        """The turn player moves on to a later phase of the turn; leaving the draw phase
        passes through the standby phase, where maintenance costs are paid (`unpaid`:
        the cards whose cost the player chooses not to pay)."""
        self.require_not_over()
        self.require_settled()
        rules.check_phase_change(self.turn, phase)
        if unpaid and self.turn.phase != "draw":
            raise rules.illegal("maintenance costs are paid in the standby phase", "§6.3.2/2", "wrong_phase")
        self.open_window()
        if self.turn.phase == "draw":
            self._maintain(unpaid or [])
        if phase == "end":
            self.end_phase()
            return
        self.turn.phase = phase
        self.step = "battle" if phase == "battle" else "main"
        self.say(f"{self.turn.player}'s {phase} phase")

    def _maintain(self, unpaid: list[str]) -> None:
        """The standby phase: the turn player pays each maintenance cost of the face-up cards
        they control, or the card is destroyed — even when its effects are negated, since
        the cost is not an effect (rulings/维持cost/1, §5/4/sub2)."""
        player = self.players[self.turn.player]
        kept = [
            c
            for c in self.cards.values()
            if c.spec.upkeep_lp is not None and c.on_field and c.face_up and c.controller == player.name
        ]
        if kept:
            self.say(f"   {player.name}'s standby phase: maintenance costs (§6.3.2/2)")
        for card in kept:
            amount = card.spec.upkeep_lp or 0
            if card.key in unpaid or amount > player.lp:
                why = (
                    "is not paid"
                    if card.key in unpaid
                    else f"cannot be paid ({player.name} has {player.lp} LP)"
                )
                self.destroy(
                    card.key, f"is destroyed: its maintenance cost of {amount} LP {why} (rulings/维持cost/1)"
                )
                continue
            player.lp -= amount
            self.say(
                f"   maintenance: {player.name} pays {amount} LP to keep 「{card.key}」 → LP {player.lp}"
            )
            self.check_lp()

    def end_turn(self) -> None:
        """The end phase, if not yet, then the opponent's turn begins."""
        self.require_settled()
        if self.turn.phase != "end" and self.step != "end":
            self.end_phase()
        # 『回合结束时』 is after the End Phase has ended too (002: 结束阶段…也有无数个时点).
        self.expire_changes("end_of_turn", "end_of_damage_step", "damage_calculation")
        tracked = self.turn.phase is not None
        duel_turn = self.turn.duel_turn + 1 if self.turn.duel_turn else None
        self.turn = Turn(self.turn.number + 1, self.opponent(self.turn.player), "draw" if tracked else None)
        self.turn.duel_turn = duel_turn
        for card in self.cards.values():
            card.attacked = False
        self.step = "main"
        self.say(f"turn {self.turn.number}: {self.turn.player}'s turn")

    def require_settled(self) -> None:
        """§6.3/2: a phase or step ends only once the chain has resolved and no
        mandatory trigger is still waiting to be activated."""
        if self.chain:
            raise rules.illegal("the chain must resolve before the turn moves on", "§6.3/2", "chain_open")
        waiting = [key for key in self.pending if self._mandatory(key)]
        if waiting:
            raise rules.illegal(
                f"「{waiting[0]}」's mandatory trigger effect must be activated before the turn moves on",
                "§6.3/2",
                "trigger_pending",
            )

    def _mandatory(self, key: str) -> bool:
        card = self.card(key)
        return any(
            e.type in TRIGGERS
            and not e.optional
            and (self._matching(e, key) if e.event else bool(e.damage_step))
            for e in card.spec.effects
        )

    def end_phase(self) -> None:
        self.require_settled()
        self.open_window()
        self.say("end phase:")
        for card in self.cards.values():
            if card.returns_at_end_phase and card.zone == "banished":
                card.returns_at_end_phase = False
                self._return_from_banishment(card)
            if card.control_returns_to and card.zone == "monster":
                self.take_control(card.key, card.control_returns_to)  # 直到结束阶段: control goes back
        if self.turn.phase is not None:
            self.turn.phase = "end"
        self.step = "end"

    def _return_from_banishment(self, card: Card) -> None:
        """§4.3.3.4.4.1: back to the field of the player who controlled it when it was
        banished; a monster finding five monsters there is sent to the GY instead."""
        controller = card.returns_to or card.owner
        zone = "monster" if card.spec.kind == MONSTER else "spelltrap"
        if zone == "monster" and not self.free_main_zones(controller):
            self.move(
                card.key, "gy", "cannot return: the monster zones are full; sent to the GY (§4.3.3.4.4.1/4)"
            )
            return
        self.move(card.key, zone, "returns to the field")
        card.controller = controller

    # --- summoning and moving cards -------------------------------------------------

    def summon(
        self, key: str, position: str = "attack", face_up: bool = True, zone: Slot | None = None
    ) -> None:
        """A normal summon, or a set when face_up is False (§3.2.2.1)."""
        self.require_not_over()
        card = self.card(key)
        rules.check_normal_summon(self, card)
        rules.check_untributed(self, card)
        self.turn.normal_summoned.add(card.controller)
        self.open_window()
        self._place_summoned(key, position, face_up, zone)

    def tribute_summon(
        self, key: str, tributes: list[str], position: str = "attack", zone: Slot | None = None
    ) -> None:
        """A tribute summon (上级召唤, §3.2.2.1.1), or a tribute set in defense position:
        the tributes go first, then the summon is processed; it is the turn's normal summon."""
        self.require_not_over()
        card = self.card(key)
        rules.check_normal_summon(self, card)
        rules.check_tributes(self, card, tributes)
        self.turn.normal_summoned.add(card.controller)
        self.open_window()
        for other in tributes:
            self.tribute(other, f"is tributed for the tribute summon of 「{key}」 (§3.2.2.1.1.1/1)")
        # The summon is still to be processed after the tributes (§3.2.2.1.1/5): a later
        # moment, so an optional "when sent to the GY" effect of a tribute misses its timing.
        self.timeline.next_moment()
        self._place_summoned(key, position, position != "defense", zone)

    def _place_summoned(self, key: str, position: str, face_up: bool, zone: Slot | None = None) -> None:
        card = self.card(key)
        with self._recomputed(f"「{key}」 has arrived: what applies is recomputed"):
            self.to_monster_zone(key, position, face_up, slot=zone)
            self.say(
                f"{card.controller} normal summons 「{key}」 ({position})"
                if face_up
                else f"{card.controller} sets 「{key}」"
            )
        self.record("summoned" if face_up else "set", key)
        self.check_replay()

    def _allowed(self, key: str, check: Callable[[State, Card], None]) -> Card:
        """The card of an action the rules allow now; a window left open closes first."""
        self.require_not_over()
        card = self.card(key)
        check(self, card)
        self.open_window()
        return card

    def flip_summon(self, key: str) -> None:
        """A face-down monster is turned face-up in attack position by its controller."""
        card = self._allowed(key, rules.check_flip_summon)
        self.say(f"{card.controller} flip summons 「{key}」")
        with self._recomputed(f"「{key}」 is face-up: what applies is recomputed"):
            card.face_up, card.position = True, "attack"
            card.placed_turn = self.turn.number  # flip summoned: no change of position this turn
            self.start_applying(card)
        self.record("flip_summoned", key)
        self.record("flipped_face_up", key)
        self.check_replay()

    def change_position_by_choice(self, key: str) -> None:
        """The turn player changes a face-up monster's position (rulings/玩家意志变更表示形式)."""
        card = self._allowed(key, rules.check_position_change)
        card.chosen_position_turn = self.turn.number
        self.change_position(key)

    def set_spell_trap(self, key: str) -> None:
        """A spell or trap is set face-down in the spell & trap zone (or the field zone)."""
        card = self.card(key)
        if card.zone != "hand":
            raise IllegalActionError(f"「{key}」 is not in the hand and cannot be set")
        zone = "field" if card.spec.type == "field" else "spelltrap"
        self.require_room(card.controller, zone)
        self.open_window()
        self.move(key, zone, f"is set by {card.controller}", face_up=False)
        card.placed_turn = self.turn.number
        self.record("set", key)

    # --- the Master Rule's summons (engine/summons.py) -----------------------------------

    def summon_by_rule(
        self,
        kind: str,
        key: str,
        materials: list[str],
        position: str = "attack",
        slot: Slot | None = None,
        player: str | None = None,
    ) -> None:
        """A Synchro, Xyz or Link summon (不入连锁的特殊召唤, masterrule/55, /56, /58): the
        monster is announced, its materials used, and the window 特殊召唤之际 opens
        (`end_summon_window` closes it: the summon succeeds unless it was negated)."""
        self.require_not_over()
        card = self.card(key)
        player = player or card.controller
        self.end_summon_window()
        self._require_own_main_phase(player, summons.RULE[kind])
        summons.check_summoned(self, card, kind)
        if kind == "link" and position != "attack":
            raise rules.illegal(
                f"「{key}」 is a Link monster: it is always in attack position",
                "masterrule/172",
                "link_position",
            )
        summons.check_materials(self, card, kind, materials, player)
        chosen = self._slot_without(materials, card, player, slot)
        self.open_window()
        since = len(self.timeline.events)
        summons.use_materials(self, card, kind, materials, player)
        self._announce(SummonWindow(kind, [key], player, since), {key: chosen}, position)

    def pendulum_summon(self, keys: list[str], slots: dict[str, Slot], player: str | None = None) -> None:
        """A pendulum summon (masterrule/57): all at once, from the hand to Main Monster
        Zones, from the face-up Extra Deck to the zones a monster from the Extra Deck may
        go to; a summon by the rules, with its window 特殊召唤之际."""
        self.require_not_over()
        player = player or self.turn_player
        self.end_summon_window()
        self._require_own_main_phase(player, summons.RULE["pendulum"])
        summons.check_pendulum(self, player, keys, self.turn.pendulum_summoned)
        chosen: dict[str, Slot] = {}
        origins = {key: self.card(key).zone for key in keys}
        try:  # each takes its zone in turn, so the next one sees it taken
            for key in keys:
                chosen[key] = self.choose_monster_slot(self.card(key), player, slots.get(key))
                self.card(key).zone, self.card(key).slot = "summoning", chosen[key]
        finally:
            for key, zone in origins.items():
                self.card(key).zone = zone
        self.turn.pendulum_summoned.add(player)
        self.open_window()
        self._announce(
            SummonWindow("pendulum", list(keys), player, len(self.timeline.events)), chosen, "attack"
        )

    def _require_own_main_phase(self, player: str, rule: str) -> None:
        """A summon by the rules is made by the turn player in a main phase, no chain open."""
        if self.chain:
            raise rules.illegal("a summon is made while no chain is open", rule, "chain_open")
        if player != self.turn_player:
            raise rules.illegal(f"{player} summons only in their own main phase", rule, "not_your_turn")
        if self.turn.phase is not None and self.turn.phase not in rules.MAIN_PHASES:
            raise rules.illegal(
                f"a summon is made in a main phase, not the {self.turn.phase} phase", rule, "wrong_phase"
            )

    def _slot_without(self, materials: list[str], card: Card, player: str, slot: Slot | None) -> Slot:
        """The zone the monster will take once its materials have left theirs."""
        zones = {key: self.card(key).zone for key in materials}
        try:
            for key in materials:
                self.card(key).zone = "material"
            return self.choose_monster_slot(card, player, slot)
        finally:
            for key, zone in zones.items():
                self.card(key).zone = zone

    def _announce(self, window: SummonWindow, slots: dict[str, Slot], position: str) -> None:
        for key in window.keys:
            card = self.card(key)
            card.came_from, card.zone, card.slot = card.zone, "summoning", slots[key]
            card.controller, card.position, card.face_up = window.player, position, True
        names = "、".join(f"「{k}」" for k in window.keys)
        self.summoning = window
        self.say(
            f"{window.player} {window.kind} summons {names}: 特殊召唤之际, the monster is not yet on the field; "
            "only an effect that negates the summon may start a chain now (masterrule/60)"
        )

    def end_summon_window(self) -> None:
        """The window 特殊召唤之际 closes: the summon succeeds unless it was negated, and
        what it set off (特殊召唤成功时, the materials' triggers) may start a chain."""
        window = self.summoning
        if window is None or self.chain:
            return
        self.summoning = None
        if window.negated:
            return
        with self.timeline.caused("action", None, window.player):
            with self._recomputed("a summon succeeded: what applies is recomputed"):
                for key in window.keys:
                    self._arrive(self.card(key), window.kind)
        self.say(f"   the {window.kind} summon succeeds")
        self._report_triggers(window.since)
        self.check_replay()

    def _arrive(self, card: Card, kind: str) -> None:
        card.zone, card.modifiers, card.used_effects = "monster", [], {}
        card.placed_turn = self.turn.number
        # Its own procedure (苏生限制); a pendulum summon is the procedure of none of the Extra Deck's frames.
        card.properly_summoned = kind != "pendulum" or not card.spec.from_extra_deck
        self.start_applying(card)
        self._apply_own_values(card)
        self.record("special_summoned", card.key)
        self.record(f"{kind}_summoned", card.key)

    def summon_by_effect(self, kind: str, key: str, materials: list[str], player: str, op: dict) -> None:
        """A Fusion or Ritual summon while an effect resolves (入连锁的特殊召唤, masterrule/54,
        /53, /62): no window 特殊召唤之际, so nothing can negate the summon itself."""
        card = self.card(key)
        if card.zone in ("monster", "gy", "banished"):
            self.say(f"   「{key}」 is no longer where it could be {kind} summoned from: nothing is summoned")
            return
        summons.check_summoned(self, card, kind)
        summons.check_materials(self, card, kind, materials, player)
        chosen = self._slot_without(materials, card, player, op.get("zone"))
        summons.use_materials(self, card, kind, materials, player)
        with self._recomputed(f"「{key}」 has arrived: what applies is recomputed"):
            self.to_monster_zone(key, op.get("position", "attack"), True, player, chosen)
        self.say(f"   {player} {kind} summons 「{key}」 ({op.get('position', 'attack')})")
        card.properly_summoned = True
        self.record("special_summoned", key)
        self.record(f"{kind}_summoned", key)

    def activate_scale(self, key: str, side: str, player: str | None = None) -> ChainLink:
        """A Pendulum monster activated from the hand as a Pendulum Scale: a spell card's
        activation (speed 1), placed in the Spell & Trap Zone 1 (`left`) or 5 (`right`)
        (masterrule/19)."""
        self.require_not_over()
        card = self.card(key)
        player = player or card.controller
        if card.spec.scale is None or card.zone != "hand":
            raise rules.illegal(
                f"「{key}」 is not a Pendulum monster in the hand: only one is activated as a Pendulum Scale",
                "masterrule/19",
                "wrong_zone",
            )
        if side not in PENDULUM_ZONES:
            raise EngineError(f"pendulum is left or right, not {side!r}")
        self.end_summon_window()
        if self.chain:
            raise IllegalChainError(
                f"illegal: 「{key}」 is activated as a spell, speed 1: it cannot be chained (masterrule/19, § 咒文速度)",
                code="spell_speed",
            )
        scale_card = Effect(type="spell-trap", speed=1)
        self._require_own_main_phase(player, "masterrule/19")
        slot = self.free_spell_trap_zone(player, PENDULUM_ZONES[side])
        self._chain_start = len(self.timeline.events)
        self.move(
            key, "spelltrap", f"is placed in {player}'s {side} Pendulum Zone (Spell & Trap Zone {slot})"
        )
        card.slot, card.scale, card.controller = slot, True, player
        link = ChainLink(len(self.chain) + 1, key, scale_card, player, 1)
        self.chain.append(link)
        self.say(
            f"chain link {link.number}: {player} activates 「{key}」 as a Pendulum Scale (spell speed 1)"
        )
        self.record("activated", key)
        return link

    def negate_effects_of(self, key: str) -> None:
        with self._recomputed(f"「{key}」's effects are negated: what applies is recomputed"):
            negate_effects_of(self, key)

    # --- values (engine/stats.py) --------------------------------------------------------

    def atk(self, key: str) -> int:
        return stats.atk(self, key)

    def defense(self, key: str) -> int:
        return stats.defense(self, key)

    def lock_on(self, card: Card) -> str | None:
        return stats.lock_on(self, card)

    # --- activation and chains ----------------------------------------------------------

    def activate(
        self, key: str, targets: list[str] | None = None, effect: int = 0, player: str | None = None
    ) -> ChainLink:
        """Activate a card or effect as the next chain link: its speed must match the
        chain, its cost is paid now, its targets are chosen now."""
        self.require_not_over()
        card = self.card(key)
        chosen = self._effect(card, effect)
        player = player or card.controller
        if (
            card.spec.kind != MONSTER
            and card.zone not in ("hand", "spelltrap", "field")
            and chosen.zone != "gy"
        ):
            raise rules.illegal(
                f"「{key}」 is in the {card.zone}: a spell or trap is activated from the hand or the field, "
                "or in the GY by an effect that says so",
                # Card activation turns it face-up on the field (§4.2.1/2); in the GY only
                # an effect that says so is activated (§4.2.1.1/4).
                "§4.2.1/2, §4.2.1.1/4",
                "wrong_zone",
            )
        self._check_summon_window(chosen)
        rules.check_activation(self, card, chosen, player)
        rules.check_once_per_turn(self, card, chosen, effect, player)
        self._check_summons_of(chosen, targets or [], player)
        speed = card.spec.speed(chosen)
        self._check_chain(key, chosen, player, speed)
        if chosen.event:
            self._check_timing(key, chosen)
        self._check_targets(targets or [])
        if not self.chain:
            self._chain_start = len(self.timeline.events)
        if card.spec.kind != MONSTER and card.zone == "hand" and card.spec.type != "field":
            self.require_room(player, "spelltrap")
        self._pay_costs(card, chosen, player)
        rules.mark_once_per_turn(self, card, chosen, effect, player)
        if card.spec.kind != MONSTER and card.zone in ("hand", "deck"):
            self.move(
                key, "field" if card.spec.type == "field" else "spelltrap", "is placed on the field face-up"
            )
        elif card.spec.kind != MONSTER and not card.face_up:
            card.face_up = True
        if key in self.pending:
            self.pending.remove(key)
        link = ChainLink(
            len(self.chain) + 1,
            key,
            chosen,
            player,
            speed,
            [(t, self.card(t).place()) for t in targets or []],
        )
        self.chain.append(link)
        aimed = f" targeting {', '.join('「' + t + '」' for t in targets or [])}" if targets else ""
        self.say(f"chain link {link.number}: {player} activates 「{key}」{aimed} (spell speed {speed})")
        self.record("activated", key)
        return link

    def _check_summon_window(self, effect: Effect) -> None:
        """In the window 特殊召唤之际 only an effect that negates the summon starts a chain;
        anything else closes it first (the summon succeeds). Outside it, an effect that
        negates a summon has nothing to negate (masterrule/60, /62)."""
        negates = any("negate_summon" in op for op in effect.ops)
        # Only the chain's first link answers the summon; a later one answers an activation (rulings/时点/17).
        if negates and (self.summoning is None or self.summoning.negated or self.chain):
            raise rules.illegal(
                "no summon is under way: the window 特殊召唤之际 in which a summon can be negated has passed",
                "masterrule/60, masterrule/62",
                "timing_passed",
            )
        if not negates and not self.chain:
            self.end_summon_window()

    def _check_summons_of(self, effect: Effect, targets: list[str], player: str) -> None:
        """What an effect will summon, checked as it is activated: a revived monster
        must have been properly summoned (苏生限制), a Fusion's or Ritual's materials fit."""
        for op in effect.ops:
            if "special_summon" in op and op.get("target", "target") == "target":
                for key in targets:
                    summons.check_revivable(self.card(key))
            for kind in ("fusion", "ritual"):
                name = op.get(f"{kind}_summon")
                if name is not None and str(name) in self.cards:
                    materials = [
                        str(m) for m in op.get("materials" if kind == "fusion" else "tributes") or []
                    ]
                    summons.check_summoned(self, self.card(str(name)), kind)
                    summons.check_materials(self, self.card(str(name)), kind, materials, player)

    def _check_targets(self, targets: list[str]) -> None:
        for target in targets:
            if self.card(target).zone not in ("monster", "spelltrap", "field", "gy", "banished"):
                raise IllegalActionError(
                    f"「{target}」 is not where it could be targeted", code="not_targetable"
                )
            if self.battle and target in self.battle.destroyed:
                raise rules.illegal(
                    f"「{target}」 is destroyed by this battle and cannot be targeted until it is sent to the GY",
                    "§6.3.4.3.3/5",
                    "destroyed_by_battle",
                )

    @staticmethod
    def _effect(card: Card, number: int) -> Effect:
        # A spell or trap without a modelled effect can still be activated (卡的发动).
        effects = card.spec.effects or ([Effect(type="spell-trap")] if card.spec.kind != MONSTER else [])
        if number >= len(effects) or number < 0:
            # No rule text fits: a card without that effect is a mistake of the file, not a rule.
            raise IllegalActionError(f"「{card.key}」 has no effect number {number + 1}")
        return effects[number]

    def _check_chain(self, key: str, effect: Effect, player: str, speed: int) -> None:
        """§ 咒文速度 and § 同时数个效果发动: who may chain what."""
        waiting = [k for k in self.pending if k != key and self.cards[k].controller == self.turn_player]
        if not self.chain and key in self.pending and player != self.turn_player and waiting:
            raise IllegalChainError(
                f"「{key}」: the turn player's trigger effects go on the chain first, then the opponent's (guide/其他规则/1)",
                code="turn_player_first",
            )
        if not self.chain:
            return
        top = self.chain[-1]
        # Speed-1 triggers that happened at the same time build one chain
        # together, the turn player's first (§ 同时数个效果发动).
        # A FLIP effect is a trigger effect too (§6.3.4.3.4/2: 『反转时发动』的效果 chains with them).
        together = effect.type in TRIGGERS and all(link.effect.type in TRIGGERS for link in self.chain)
        if together and player == self.turn_player and any(link.player != player for link in self.chain):
            raise IllegalChainError(
                f"「{key}」: the turn player's trigger effects go on the chain first, then the opponent's (guide/其他规则/1)",
                code="turn_player_first",
            )
        if speed == 1 and not together:
            raise IllegalChainError(
                f"「{key}」 is spell speed 1 and cannot be chained (§ 咒文速度)", code="spell_speed"
            )
        if speed < top.speed and not together:
            raise IllegalChainError(
                f"「{key}」 is spell speed {speed} and cannot chain to 「{top.card}」 (spell speed {top.speed}): "
                "a chain link must be of equal or higher speed (§ 咒文速度)",
                code="spell_speed",
            )

    def _check_timing(self, key: str, effect: Effect) -> None:
        """A "when X" effect responds only to the window X opened: the events since the
        last action, or of the chain that just resolved (§6.3.4.2/4). Chained, it needs
        X in the window the chain responds to; starting a chain, an optional "when"
        effect (…时，可以) also needs X to be the last thing that happened (卡时点)."""
        if key in self.pending and self._matching(effect, key):
            return  # reported as set off by what just happened; it waits for its chain
        found = self._matching(effect, key, self.window_start)
        if not found:
            earlier = self._matching(effect, key)
            if earlier and effect.type == "trigger" and effect.optional and effect.wording == "when":
                raise IllegalChainError(
                    f"「{key}」 misses the timing (卡时点, masterrule/133): its event is not the last thing "
                    f"that happened (the last was {self.timeline.last()})",
                    code="missed_timing",
                )
            if earlier:
                raise IllegalChainError(
                    f"「{key}」 cannot be activated: {effect.event!r} happened, but its window has closed "
                    "— a later action or chain came since (§6.3.4.2/4)",
                    code="timing_passed",
                )
            raise IllegalChainError(
                f"「{key}」 cannot be activated: {effect.event!r} has not just happened", code="no_event"
            )
        if self.chain or not (effect.optional and effect.wording == "when"):
            return
        if not self.timeline.is_last(found[-1]):
            raise IllegalChainError(
                f"「{key}」 misses the timing (卡时点, masterrule/133): its event is not the last thing "
                f"that happened (the last was {self.timeline.last()})",
                code="missed_timing",
            )

    def _matching(self, effect: Effect, key: str, since: int = 0) -> list:
        """The events since index `since` that set this effect off."""
        return self.timeline.matching(effect.event or "", key, since, effect.material, effect.event_from)

    def _pay_costs(self, card: Card, effect: Effect, player: str) -> None:
        with self.timeline.caused("cost", card.key, player):
            self._pay_each_cost(card, effect, player)

    def _pay_each_cost(self, card: Card, effect: Effect, player: str) -> None:
        for cost in effect.cost:
            if "pay_lp" in cost:
                amount = int(cost["pay_lp"])
                if amount > self.players[player].lp:
                    raise IllegalActionError(f"{player} cannot pay {amount} LP (§1.4.1)", code="cannot_pay")
                self.players[player].lp -= amount
                self.say(
                    f"   cost: {player} pays {amount} LP → LP {self.players[player].lp} (a cost, not damage)"
                )
                self.check_lp()
            elif "banish_self" in cost:
                self.banish(card.key, f"is banished from the {card.zone} as a cost")
            elif "banish_self_until" in cost:
                self.banish(card.key, "is banished as a cost", until=str(cost["banish_self_until"]))
            elif "discard" in cost:
                self.send_to_gy(str(cost["discard"]), "is discarded as a cost")
            elif "tribute" in cost:
                self.send_to_gy(str(cost["tribute"]), "is tributed as a cost")
            elif "detach" in cost:
                self._detach(card, int(cost["detach"]))
            else:
                raise EngineError(f"unknown cost {cost!r}")

    def _detach(self, card: Card, count: int) -> None:
        """An Xyz monster's materials detached as a cost: sent to the GY, not from the field."""
        materials = self.materials_of(card.key)
        if len(materials) < count:
            raise rules.illegal(
                f"「{card.key}」 has {len(materials)} Xyz material(s), not the {count} to detach",
                "rulings/X素材/3",
                "cannot_pay",
            )
        for key in materials[:count]:
            self.move(key, "gy", f"is detached from 「{card.key}」 as a cost")
            self.record("detached", key)
            self.record("sent_to_gy", key)

    def resolve_chain(self) -> None:
        """Resolve the chain last-in first-out, then what the resolution set off."""
        if not self.chain:
            raise IllegalActionError("there is no chain to resolve")
        self.say("the chain resolves:")
        while self.chain:
            link = self.chain.pop()
            self.timeline.next_moment()  # each link is a new moment, even one that changes nothing
            with self.timeline.caused("effect", link.card, link.player):
                self._resolve_link(link)
            if self.winner:
                self.say("   the duel is over: the rest of the chain does not resolve")
                self.chain.clear()
                return
        # The window now is what this chain did: the one it responded to has closed.
        self.window_start = self._chain_start
        if self.battle and self.battle.timing:
            # §6.3.4.3/6: an effect that names this timing cannot be activated again after this chain.
            self.battle.closed.add(self.battle.timing)
        self._report_triggers(self._chain_start)
        self._close_damage_step()
        self.end_summon_window()  # a chain in the window 特殊召唤之际 has resolved: the summon is done
        self.check_replay()

    def _report_triggers(self, since: int, keep: bool = False) -> None:
        """What the events since `since` set off: "if" and mandatory triggers may start a
        new chain; an optional "when" trigger whose event was not the last thing misses
        its timing. `keep`: add to the triggers already waiting (a FLIP effect)."""
        if not keep:
            self.pending = []
        for card in self.cards.values():
            for effect in card.spec.effects:
                if effect.type not in TRIGGERS or not effect.event or card.key in self.pending:
                    continue
                if effect.zone == "gy" and card.zone != "gy":
                    continue  # an effect of a card in the GY is not set off while it is elsewhere
                found = self._matching(effect, card.key, since)
                if not found:
                    continue
                if effect.optional and effect.wording == "when" and not self.timeline.is_last(found[-1]):
                    self.missed.append(card.key)
                    self.say(
                        f'   「{card.key}」\'s optional "when" effect misses the timing: its event was not the last '
                        f"thing to happen (the last was {self.timeline.last()})"
                    )
                else:
                    kind = "must" if not effect.optional else "may"
                    self.pending.append(card.key)
                    self.say(
                        f"   「{card.key}」's trigger effect {kind} be activated now, starting a new chain"
                    )

    def _resolve_link(self, link: ChainLink) -> None:
        card = self.card(link.card)
        self.resolved.append(link.card)
        head = f"  link {link.number} 「{link.card}」:"
        if link.activation_negated:
            self._negated_link(card, link, head)
            return
        if (
            card.spec.kind != MONSTER
            and card.spec.continuous
            and not card.on_field
            and link.effect.zone != "gy"
        ):
            self.say(
                f"{head} the card has left the field before its link resolved: its effect does not apply"
            )
            return
        targets = self._targets_left(link, head)
        if link.targets and not targets:
            self.say(f"{head} no target is left: the effect does not resolve (§4.3.1)")
            self._finish_spell_trap(card)
            return
        lock = self.lock_on(card)
        negated_here = card.effects_negated and card.on_field  # its effects on the field are negated
        if card.spec.continuous and not link.effect_negated and (lock or negated_here):
            # Its activation resolved: it starts to apply the moment nothing negates it (§4.3.3.8).
            self._begin_continuous(card, link, targets)
            self.say(
                f"{head} resolves, but its effect is negated for now" + (f" by 「{lock}」" if lock else "")
            )
            return
        if link.effect_negated or lock or negated_here:
            why = (
                f"by 「{lock}」's continuous effect"
                if lock
                else ("(its effects are negated)" if negated_here else "")
            )
            self.say(f"{head} its effect is negated {why}: nothing applies".replace("  :", ":"))
            self._finish_spell_trap(card)
            return
        self.say(f"{head} resolves")
        if card.spec.continuous:
            with self._recomputed(f"「{card.key}」's continuous effect applies"):
                self._begin_continuous(card, link, targets)
                self._apply_ops(card, link.effect, targets, link=link)
        else:
            self._apply_ops(card, link.effect, targets, link=link)
        self._finish_spell_trap(card)

    def _negated_link(self, card: Card, link: ChainLink, head: str) -> None:
        """A link whose activation was negated: nothing applies; its spell or trap is
        set again (红色重启) or sent to the GY, a Pendulum Scale to the GY too."""
        self.say(f"{head} its activation was negated: nothing applies")
        if card.spec.kind != MONSTER and card.on_field and link.set_again:
            self.set_again(card.key)
        elif card.spec.kind != MONSTER and card.on_field:
            self._aftermath(card, "is sent to the GY (its activation was negated)")
        elif card.scale and card.on_field:
            # Not sent from the field: it goes to the GY like any other card (§3.2.1.5/6).
            self.move(
                card.key,
                "gy",
                "is sent to the GY: its activation as a Pendulum Scale was negated (§3.2.1.5/6)",
                from_field=False,
            )
            self.record("sent_to_gy", card.key, aftermath=True)

    def _targets_left(self, link: ChainLink, head: str) -> list[str]:
        """The targets still where they were chosen (§ 这张卡/那张卡)."""
        for key, place in link.targets:
            if self.card(key).place() != place:
                self.say(
                    f"{head} its target 「{key}」 is no longer where it was chosen: it is not that card any more"
                )
        return [key for key, place in link.targets if self.card(key).place() == place]

    def _begin_continuous(self, card: Card, link: ChainLink, targets: list[str]) -> None:
        card.chosen = [(key, place) for key, place in link.targets if key in targets]
        if card.spec.type == "equip" and targets:
            card.equipped_to = targets[0]
        self.start_applying(card)

    def _values(self) -> dict[str, tuple[int, int]]:
        """ATK and DEF of every face-up monster, to tell what a change of state changed."""
        return {
            c.key: (stats.atk(self, c.key), stats.defense(self, c.key))
            for c in self.cards.values()
            if c.zone == "monster" and c.face_up
        }

    def _report_values(self, before: dict[str, tuple[int, int]], why: str) -> None:
        for key, now in self._values().items():
            arrived = key not in before
            if arrived:
                # Just turned face-up or arrived: what applies to it, against its printed values
                # (logged only: arriving is not a change of ATK/DEF).
                spec = self.card(key).spec
                printed = (spec.atk, spec.defense)
                was = tuple(p if p is not None else n for p, n in zip(printed, now, strict=True))
            else:
                was = before[key]
            for stat, old, new in zip(("atk", "def"), was, now, strict=True):
                if old != new:
                    self.say(f"   「{key}」 {stat.upper()} {old} → {new}: {why}")
                    if not arrived:
                        self.record(f"{stat}_changed", key)

    @contextmanager
    def _recomputed(self, why: str) -> Iterator[None]:
        """Say which values a change of state changed (only the outermost change says it)."""
        self._watching += 1
        before = self._values() if self._watching == 1 else {}
        try:
            yield
        finally:
            self._watching -= 1
        if self._watching == 0:
            self._report_values(before, why)

    def move(
        self, key: str, zone: str, reason: str, face_up: bool | None = None, from_field: bool = True
    ) -> None:
        with self._recomputed(f"「{key}」 has moved: what applies is recomputed"):
            super().move(key, zone, reason, face_up, from_field)

    def special_summon(
        self, key: str, position: str = "attack", controller: str | None = None, slot: Slot | None = None
    ) -> None:
        with self._recomputed(f"「{key}」 has arrived: what applies is recomputed"):
            super().special_summon(key, position, controller, slot)

    def flip_face_up(self, key: str) -> None:
        with self._recomputed(f"「{key}」 is face-up: what applies is recomputed"):
            super().flip_face_up(key)

    def flip_face_down(self, key: str) -> None:
        with self._recomputed(f"「{key}」 is face-down: what applies is recomputed"):
            super().flip_face_down(key)

    def _finish_spell_trap(self, card: Card) -> None:
        if card.spec.kind != MONSTER and not card.spec.continuous and card.on_field:
            self._aftermath(card, "is sent to the GY after resolving")

    def _aftermath(self, card: Card, reason: str) -> None:
        """A spell or trap's own trip to the GY once its link is done: recorded, but
        not a later moment, so it never makes a trigger miss its timing."""
        self.move(card.key, "gy", reason)
        self.record("sent_to_gy", card.key, aftermath=True)

    # --- what effects do ----------------------------------------------------------------

    def _apply_ops(self, card: Card, effect: Effect, targets: list[str], link: ChainLink | None) -> None:
        """The operations of an effect: together (one moment) or, for an effect
        written with 那之后 / "then", one after another (a moment each)."""
        self.destroyed_now = {}  # what this effect's destroy reached: "destroy and banish" (§4.3.3.4.1/5)
        for number, op in enumerate(effect.ops):
            if self.winner:
                return
            if number and (effect.order == "sequential" or op.get("then")):
                self.timeline.next_moment()
            name = next(n for n in OPERATIONS if n in op)
            OPERATIONS[name].run(self, card, op, self._op_targets(name, op, card, targets), link)
        self.destroyed_now = {}

    def _op_targets(self, name: str, op: dict, card: Card, targets: list[str]) -> list[str]:
        """The cards an operation acts on: `target:` names them (target, self,
        all_monsters, equipped, attacker, a class or a card); else the chosen
        targets, or the card itself for a monster's own effect."""
        if not OPERATIONS[name].on_cards:
            return []
        value = op[name]
        who = op.get("target") or (value if name != "modify" and isinstance(value, str) else "target")
        if who == "target":
            return targets or ([card.key] if card.spec.kind == MONSTER else [])
        if who == "self":
            return [card.key]
        if who == "all_monsters":
            return [c.key for c in self.cards.values() if c.zone == "monster"]
        if who in ("own_monsters", "opponent_monsters"):
            return [
                c.key
                for c in self.monsters(
                    card.controller if who == "own_monsters" else self.opponent(card.controller)
                )
            ]
        if who in CLASSES:
            return [c.key for c in self.cards.values() if self.in_class(c, who)]
        if who == "equipped":
            return [card.equipped_to] if card.equipped_to else targets
        if who == "attacker":
            return [self.battle.attacker] if self.battle else []
        if who in self.cards:
            return [who]
        raise EngineError(f"「{card.key}」: unknown target {who!r}")

    # --- battle (engine/battle.py) -------------------------------------------------------

    def declare_attack(self, attacker: str, target: str | None = None) -> None:
        battle.declare_attack(self, attacker, target)

    def check_replay(self) -> None:
        """After each resolved chain or action: a replay check in the battle step (§6.3.4.2.1)."""
        battle.check_replay(self)

    def retarget(self, target: str | None) -> None:
        battle.retarget(self, target)

    def stop_attack(self) -> None:
        battle.stop_attack(self)

    def damage_step(self, until: str | None = None) -> None:
        """Run the damage step (engine/battle.py), then collect what its last timing set
        off: triggers of the damage step go on a chain turn player first (§6.3.4.3.5/2)."""
        battle.damage_step(self, until)
        self._report_triggers(self.window_start, keep=True)
        self._close_damage_step()

    def _close_damage_step(self, force: bool = False) -> None:
        """What applies 『直到伤害步骤结束时』 ends once every activation and resolution at
        the end of the damage step is done (§6.3.4.3.5/3): no chain and no trigger left
        waiting, or (`force`) the next action, which gives up the triggers still waiting."""
        if self.damage_step_over and not self.chain and (force or not self.pending):
            self.damage_step_over = False
            self.expire_changes("end_of_damage_step")

    def open_window(self) -> None:
        if not self.chain:
            self._close_damage_step(force=True)
        super().open_window()

    def expire_changes(self, *when: str) -> None:
        with self._recomputed("a change has ended: what applies is recomputed"):
            super().expire_changes(*when)

    def state(self) -> dict[str, Any]:
        """The final state, as data."""
        return {
            "lp": {name: p.lp for name, p in self.players.items()},
            "winner": self.winner,
            "cards": {key: self._card_state(c) for key, c in self.cards.items()},
            "missed": self.missed,
            "pending": self.pending,
            "hand": {name: self.hand_size(name) for name in self.players},
            "deck": {name: p.deck for name, p in self.players.items()},
            "monsters": {name: self.field_monsters(name) for name in self.players},
            "replays": self.replays,
            "resolved": self.resolved,
            "turn": self.turn.number,
            "phase": self.turn.phase,
            "events": [event.as_dict() for event in self.timeline.events],
        }

    def _card_state(self, card: Card) -> dict[str, Any]:
        """Where a card is and, for a monster, its values; the Master Rule's zones
        (an Extra Monster Zone, the face-up Extra Deck, an Xyz material) by name."""
        zone = card.zone
        if zone == "monster" and card.slot in ("emz_left", "emz_right"):
            zone = "emz"
        elif zone == "extra" and card.face_up:
            zone = "extra_face_up"
        found: dict[str, Any] = {
            "zone": zone,
            "controller": card.controller,
            "face_up": card.face_up,
            "position": card.position,
        }
        if card.spec.kind == MONSTER:
            found |= {
                "atk": self.atk(card.key),
                "def": self.defense(card.key) if card.spec.frame != "link" else None,
                "level": stats.level(self, card.key) if card.spec.has_level else None,
            }
        if card.slot is not None:
            found["zone_number"] = card.slot
        if card.spec.frame == "xyz" or self.materials_of(card.key):
            found["materials"] = self.materials_of(card.key)
        if card.zone == "monster":
            found["linked"] = card.slot in self.linked_zones(card.controller)
        if card.spec.revived_only_when_proper:
            found["properly_summoned"] = card.properly_summoned
        return found
