"""The duel: players, zones, chains and life points, as verbs that log.

Each verb (`summon`, `activate`, `resolve_chain`, `declare_attack`, …) checks
what the rules allow (engine/rules.py), changes the state, records what happened
and when (engine/events.py) and appends numbered lines to `log` saying what
happened and which rule made it so. Every change of place goes through `move`,
so what leaving the field clears is cleared once, in one place (§4.3.3.6).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import battle, rules
from .cards import MONSTER, SPELL, TRAP, CardSpec, Effect
from .errors import EngineError, IllegalActionError, IllegalChainError
from .events import Timeline
from .operations import CARD_OPERATIONS, CLASSES, OPERATIONS
from .stats import ACTIVATED, CONTINUOUS, Modifier, current_value, original_value, resolve_amount

FIELD_ZONES = ("monster", "spelltrap", "field")
ZONES = ("hand", "deck", "extra", "monster", "spelltrap", "field", "gy", "banished")
MONSTER_ZONES = 5
SPELL_TRAP_ZONES = 5

__all__ = ["Card", "ChainLink", "Duel", "EngineError", "IllegalActionError", "IllegalChainError", "Player"]


@dataclass
class Card:
    """A card in the duel: a spec, where it is, and what applies to it."""

    key: str
    spec: CardSpec
    owner: str
    controller: str
    zone: str = "hand"
    face_up: bool = True
    position: str = "attack"
    modifiers: list[Modifier] = field(default_factory=list)
    effects_negated: bool = False
    equipped_to: str | None = None
    returns_at_end_phase: bool = False
    attacked: bool = False
    placed_turn: int | None = None  # the turn it was set or summoned in this situation
    position_changed_turn: int | None = None
    applying: bool = False  # a face-up continuous card whose effect has started to apply

    @property
    def on_field(self) -> bool:
        return self.zone in FIELD_ZONES

    def place(self) -> str:
        """Where it is, for telling whether a target is still 'that card' (§ 这张卡/那张卡):
        a card that leaves its zone, or moves between the monster zone and the spell &
        trap zone, is not; one that changes control or position still is."""
        return self.zone


@dataclass
class Player:
    name: str
    lp: int = 8000
    deck: int = 40  # cards left in the deck; only the count matters here


@dataclass
class ChainLink:
    number: int
    card: str
    effect: Effect
    player: str
    speed: int
    targets: list[tuple[str, str]] = field(default_factory=list)
    activation_negated: bool = False
    effect_negated: bool = False


class Duel:
    def __init__(self, cards: dict[str, CardSpec], turn_player: str = "A", lp: int = 8000) -> None:
        self.specs = cards
        self.players = {name: Player(name, lp) for name in ("A", "B")}
        self.turn = rules.Turn(player=turn_player)
        self.cards: dict[str, Card] = {}
        self.chain: list[ChainLink] = []
        self.log: list[str] = []
        self.timeline = Timeline()
        self.battle: battle.Attack | None = None
        self.step = "main"
        self.winner: str | None = None  # "A", "B" or "draw"
        self.missed: list[str] = []  # trigger effects that missed their timing
        self.pending: list[str] = []  # trigger effects that may or must start the next chain
        self.replays = 0
        self.resolved: list[str] = []  # cards in the order their chain links resolved
        self._order = 0
        self._chain_start = 0  # index in the timeline where the current chain began

    @property
    def turn_player(self) -> str:
        return self.turn.player

    # --- the state -------------------------------------------------------------

    def put(
        self, key: str, spec_name: str, player: str, zone: str, face_up: bool = True, position: str = "attack"
    ) -> Card:
        """Place a card at the start of a situation."""
        if spec_name not in self.specs:
            raise EngineError(f"unknown card {spec_name!r}")
        if zone not in ZONES:
            raise EngineError(f"unknown zone {zone!r}")
        card = Card(key, self.specs[spec_name], player, player, zone, face_up, position)
        # A face-up continuous card already on the field is already applying.
        card.applying = card.on_field and face_up
        self.cards[key] = card
        if zone == "monster":
            self._apply_own_values(card)
        return card

    def card(self, key: str) -> Card:
        if key not in self.cards:
            raise IllegalActionError(f"no card {key!r} in this duel")
        return self.cards[key]

    def atk(self, key: str) -> int:
        card = self.card(key)
        return current_value(card.spec.atk, card.modifiers, "atk")

    def defense(self, key: str) -> int:
        card = self.card(key)
        return current_value(card.spec.defense, card.modifiers, "def")

    def monsters(self, player: str) -> list[Card]:
        return [c for c in self.cards.values() if c.zone == "monster" and c.controller == player]

    def opponent(self, player: str) -> str:
        return "B" if player == "A" else "A"

    def players_named(self, who: str, controller: str) -> list[str]:
        """`opponent`, `self` or `both`, seen from `controller`."""
        return {"opponent": [self.opponent(controller)], "self": [controller], "both": ["A", "B"]}[who]

    def say(self, text: str) -> None:
        self.log.append(text)

    def _next(self) -> int:
        self._order += 1
        return self._order

    # --- the turn ------------------------------------------------------------------

    def enter_phase(self, phase: str) -> None:
        """The turn player moves on to a later phase of the turn."""
        self.require_not_over()
        if self.chain:
            raise IllegalActionError("the chain must resolve before the turn moves on")
        rules.check_phase_change(self.turn, phase)
        if phase == "end":
            self.end_phase()
            return
        self.turn.phase = phase
        self.step = "battle" if phase == "battle" else "main"
        self.say(f"{self.turn.player}'s {phase} phase")

    def end_turn(self) -> None:
        """The end phase, if not yet, then the opponent's turn begins."""
        if self.turn.phase != "end" and self.step != "end":
            self.end_phase()
        tracked = self.turn.phase is not None
        self.turn = rules.Turn(
            self.turn.number + 1, self.opponent(self.turn.player), "draw" if tracked else None
        )
        for card in self.cards.values():
            card.attacked = False
        self.step = "main"
        self.say(f"turn {self.turn.number}: {self.turn.player}'s turn")

    def end_phase(self) -> None:
        self.say("end phase:")
        for card in self.cards.values():
            if card.returns_at_end_phase and card.zone == "banished":
                card.returns_at_end_phase = False
                zone = "monster" if card.spec.kind == MONSTER else "spelltrap"
                self.move(card.key, zone, "returns to the field")
        if self.turn.phase is not None:
            self.turn.phase = "end"
        self.step = "end"

    # --- summoning and moving cards -------------------------------------------------

    def summon(self, key: str, position: str = "attack", face_up: bool = True) -> None:
        """A normal summon, or a set when face_up is False (§3.2.2.1)."""
        self.require_not_over()
        card = self.card(key)
        rules.check_normal_summon(self, card)
        self.turn.normal_summoned.add(card.controller)
        self.timeline.next_moment()
        self._to_monster_zone(key, position, face_up)
        self.say(
            f"{card.controller} normal summons 「{key}」 ({position})"
            if face_up
            else f"{card.controller} sets 「{key}」"
        )
        self.timeline.record("summoned" if face_up else "set", key)
        self.check_replay()

    def special_summon(self, key: str, position: str = "attack", controller: str | None = None) -> None:
        card = self._to_monster_zone(key, position, True, controller)
        self.say(f"「{key}」 is special summoned to {card.controller}'s field ({position})")
        self.timeline.record("special_summoned", key)

    def flip_summon(self, key: str) -> None:
        """A face-down monster is turned face-up in attack position by its controller."""
        self.require_not_over()
        card = self.card(key)
        rules.check_flip_summon(self, card)
        self.timeline.next_moment()
        card.face_up, card.position = True, "attack"
        self.say(f"{card.controller} flip summons 「{key}」")
        self.timeline.record("flip_summoned", key)
        self.timeline.record("flipped_face_up", key)
        self._start_applying(card)
        self.check_replay()

    def set_spell_trap(self, key: str) -> None:
        """A spell or trap is set face-down in the spell & trap zone (or the field zone)."""
        card = self.card(key)
        if card.zone != "hand":
            raise IllegalActionError(f"「{key}」 is not in the hand and cannot be set")
        zone = "field" if card.spec.type == "field" else "spelltrap"
        self._require_room(card.controller, zone)
        self.timeline.next_moment()
        self.move(key, zone, f"is set by {card.controller}", face_up=False)
        card.placed_turn = self.turn.number
        self.timeline.record("set", key)

    def _to_monster_zone(self, key: str, position: str, face_up: bool, controller: str | None = None) -> Card:
        card = self.card(key)
        if controller:
            card.controller = controller
        if len(self.monsters(card.controller)) >= MONSTER_ZONES and card.zone != "monster":
            raise IllegalActionError(f"{card.controller}'s monster zones are full")
        card.zone, card.position, card.face_up = "monster", position, face_up
        card.modifiers = []
        card.placed_turn = self.turn.number
        self._apply_own_values(card)
        return card

    def _apply_own_values(self, card: Card) -> None:
        # A 「?」 monster's own ability decides its original value (隆隆隆石人-黄金形态).
        for stat, value in (("atk", card.spec.own_atk), ("def", card.spec.own_def)):
            if value is not None:
                card.modifiers.append(Modifier(stat, "original", CONTINUOUS, card.key, -1, fixed=value))
        # Its own continuous raises (守墓的巫女) apply from the moment it is face up.
        if card.face_up:
            self._start_applying(card)

    def _start_applying(self, card: Card) -> None:
        card.applying = True
        for effect in card.spec.effects:
            if effect.type == "continuous" and card.spec.kind == MONSTER:
                self._apply_ops(card, effect, [card.key], link=None)

    def move(self, key: str, zone: str, reason: str, face_up: bool | None = None) -> None:
        """The one way a card changes place. Leaving the field: its continuous effects
        stop applying, what was applied to it is gone (§4.3.3.6), an equip card it
        held is destroyed, and `left_field` is recorded."""
        if zone not in ZONES:
            raise EngineError(f"unknown zone {zone!r}")
        card = self.card(key)
        was_on_field = card.on_field
        card.zone = zone
        card.face_up = face_up if face_up is not None else (zone != "banished" or card.face_up)
        card.modifiers, card.effects_negated, card.equipped_to = [], False, None
        card.controller = card.owner
        self.say(f"「{key}」 {reason}")
        if was_on_field and not card.on_field:
            self.timeline.record("left_field", key)
            self._leave_field(card)

    def _leave_field(self, card: Card) -> None:
        if card.applying and self._locks_of(card):
            self.say(f"   「{card.key}」 has left the field: its continuous effect no longer applies")
        card.applying = False
        self._end_effects_of(card.key)
        for other in self.cards.values():
            if other.equipped_to == card.key and other.on_field:
                self.send_to_gy(other.key, "is destroyed: the monster it equipped left the field")

    def destroy(self, key: str, reason: str = "is destroyed") -> None:
        card = self.card(key)
        if not card.on_field:
            raise IllegalActionError(f"「{key}」 is not on the field and cannot be destroyed")
        self.move(key, "gy", reason)
        self.timeline.record("destroyed", key)
        self.timeline.record("sent_to_gy", key)

    def send_to_gy(self, key: str, reason: str = "is sent to the GY") -> None:
        if self.card(key).zone == "gy":
            return
        self.move(key, "gy", reason)
        self.timeline.record("sent_to_gy", key)

    def return_to_hand(self, key: str, reason: str = "is returned to the hand") -> None:
        if self.card(key).zone == "hand":
            return
        self.move(key, "hand", reason)
        self.timeline.record("returned_to_hand", key)

    def banish(self, key: str, reason: str = "is banished", until: str | None = None) -> None:
        """Banished for good, or (`until: end_phase`) until the End Phase."""
        card = self.card(key)
        if card.zone == "banished":
            return
        self.move(key, "banished", reason + (" until the End Phase" if until == "end_phase" else ""))
        card.returns_at_end_phase = until == "end_phase"
        self.timeline.record("banished", key)

    def _end_effects_of(self, source: str) -> None:
        for card in self.cards.values():
            kept = [m for m in card.modifiers if not (m.source == source and m.layer == CONTINUOUS)]
            if len(kept) != len(card.modifiers):
                card.modifiers = kept
                self.say(
                    f"   its continuous effect on 「{card.key}」 stops applying (ATK {self.atk(card.key)})"
                )

    def flip_face_down(self, key: str) -> None:
        card = self.card(key)
        card.face_up, card.position = False, "defense"
        if card.modifiers:
            self.say(f"「{key}」 is turned face-down: the effects applied to it no longer apply (§4.3.3.10)")
        else:
            self.say(f"「{key}」 is turned face-down")
        card.modifiers = []
        card.applying = False
        self._end_effects_of(key)
        self.timeline.record("flipped_face_down", key)

    def flip_face_up(self, key: str) -> None:
        """Turned face-up by an effect (a flip, not a flip summon): its FLIP effect is set off."""
        card = self.card(key)
        if card.face_up:
            return
        card.face_up = True
        self.say(f"「{key}」 is turned face-up ({card.position} position)")
        self.timeline.record("flipped_face_up", key)
        self._start_applying(card)

    def change_position(self, key: str) -> None:
        card = self.card(key)
        card.position = "defense" if card.position == "attack" else "attack"
        card.position_changed_turn = self.turn.number
        self.say(f"「{key}」 changes to {card.position} position")
        self.timeline.record("position_changed", key)

    def negate_effects_of(self, key: str) -> None:
        """§4.3.3.6: a monster's own raise by its activated effect falls back when its effects are negated."""
        card = self.card(key)
        card.effects_negated = True
        if card.spec.kind != MONSTER:
            self.say(f"「{key}」's effects are negated")
            return
        before = self.atk(key)
        card.modifiers = [m for m in card.modifiers if not (m.source == key and m.from_own_effect)]
        card.modifiers = [
            m
            for m in card.modifiers
            if not (m.source == key and m.layer == CONTINUOUS and m.kind != "original")
        ]
        self.say(f"「{key}」's effects are negated (ATK {before} → {self.atk(key)})")

    def _require_room(self, player: str, zone: str) -> None:
        used = sum(1 for c in self.cards.values() if c.zone == zone and c.controller == player)
        if zone == "spelltrap" and used >= SPELL_TRAP_ZONES:
            raise IllegalActionError(f"{player}'s spell & trap zones are full")

    # --- life points -----------------------------------------------------------------

    def damage(self, players: list[str], amount: int, kind: str = "effect damage") -> None:
        """Damage to one or both players at once: both at 0 is a draw (§1.4.4)."""
        self._take(players, amount, kind, "damaged")

    def lose_lp(self, players: list[str], amount: int) -> None:
        self._take(players, amount, "LP loss (not damage)", "lost_lp")

    def _take(self, players: list[str], amount: int, how: str, event: str) -> None:
        if amount < 0:
            raise EngineError(f"{how} of {amount}: an amount is never negative")
        for player in players:
            p = self.players[player]
            p.lp = max(0, p.lp - amount)  # §1.4.1: LP never goes below 0
            self.say(f"   {player} takes {amount} {how} → LP {p.lp}")
            self.timeline.record(event, player)
        self._check_lp()

    def _check_lp(self) -> None:
        """§1.4.1 and §1.4.4: a player at 0 loses at once, even mid-chain; both at once is a draw."""
        if self.winner:
            return
        zero = [name for name, p in self.players.items() if p.lp == 0]
        if len(zero) == 2:
            self.winner = "draw"
            self.say("   both players' LP reached 0 together: the duel is a draw (§1.4.4)")
        elif zero:
            self.winner = self.opponent(zero[0])
            self.say(f"   {zero[0]}'s LP is 0: {zero[0]} loses at once (§1.4.1)")

    def draw_cards(self, player: str, count: int = 1) -> None:
        if count < 0:
            raise EngineError(f"cannot draw {count} cards")
        p = self.players[player]
        if p.deck < count:
            p.deck = 0
            self.winner = self.winner or self.opponent(player)
            self.say(f"   {player} must draw from an empty deck and loses (§1.4.2)")
            return
        p.deck -= count
        self.say(f"   {player} draws {count}")
        self.timeline.record("drew", player)

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
        if card.spec.kind != MONSTER and card.zone not in ("hand", "spelltrap", "field"):
            raise IllegalActionError(
                f"「{key}」 is in the {card.zone}: a spell or trap is activated from the hand or the field"
            )
        rules.check_activation(self, card, chosen, player)
        speed = card.spec.speed(chosen)
        self._check_chain(key, chosen, player, speed)
        if chosen.event:
            self._check_timing(key, chosen)
        for target in targets or []:
            if self.card(target).zone not in ("monster", "spelltrap", "field", "gy", "banished"):
                raise IllegalActionError(f"「{target}」 is not where it could be targeted")
        if not self.chain:
            self._chain_start = len(self.timeline.events)
        if card.spec.kind != MONSTER and card.zone == "hand" and card.spec.type != "field":
            self._require_room(player, "spelltrap")
        self._pay_costs(card, chosen, player)
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
        self.timeline.record("activated", key)
        return link

    @staticmethod
    def _effect(card: Card, number: int) -> Effect:
        # A spell or trap without a modelled effect can still be activated (卡的发动).
        effects = card.spec.effects or ([Effect(type="spell-trap")] if card.spec.kind != MONSTER else [])
        if number >= len(effects) or number < 0:
            raise IllegalActionError(f"「{card.key}」 has no effect number {number + 1}")
        return effects[number]

    def _check_chain(self, key: str, effect: Effect, player: str, speed: int) -> None:
        """§ 咒文速度 and § 同时数个效果发动: who may chain what."""
        waiting = [k for k in self.pending if k != key and self.cards[k].controller == self.turn_player]
        if not self.chain and key in self.pending and player != self.turn_player and waiting:
            raise IllegalChainError(
                f"「{key}」: the turn player's trigger effects go on the chain first, then the opponent's"
            )
        if not self.chain:
            return
        top = self.chain[-1]
        # Speed-1 triggers that happened at the same time build one chain
        # together, the turn player's first (§ 同时数个效果发动).
        together = effect.type == "trigger" and all(link.effect.type == "trigger" for link in self.chain)
        if together and player == self.turn_player and any(link.player != player for link in self.chain):
            raise IllegalChainError(
                f"「{key}」: the turn player's trigger effects go on the chain first, then the opponent's"
            )
        if speed == 1 and not together:
            raise IllegalChainError(f"「{key}」 is spell speed 1 and cannot be chained (§ 咒文速度)")
        if speed < top.speed and not together:
            raise IllegalChainError(
                f"「{key}」 is spell speed {speed} and cannot chain to 「{top.card}」 (spell speed {top.speed}): "
                "a chain link must be of equal or higher speed"
            )

    def _check_timing(self, key: str, effect: Effect) -> None:
        """An optional "when" effect (…时，可以) can only be activated if its event
        was the last thing to happen; "if" (…的场合) and mandatory effects only need
        the event to have happened since the last chain began."""
        if self.chain:
            return  # chained in response: the window is the chain itself
        found = self.timeline.matching(effect.event or "", key, self._chain_start)
        if not found:
            raise IllegalChainError(f"「{key}」 cannot be activated: {effect.event!r} has not just happened")
        if effect.optional and effect.wording == "when" and not self.timeline.is_last(found[-1]):
            raise IllegalChainError(
                f"「{key}」 misses the timing: its event is not the last thing that happened "
                f"(the last was {self.timeline.last()})"
            )

    def _pay_costs(self, card: Card, effect: Effect, player: str) -> None:
        for cost in effect.cost:
            if "pay_lp" in cost:
                amount = int(cost["pay_lp"])
                if amount > self.players[player].lp:
                    raise IllegalActionError(f"{player} cannot pay {amount} LP (§1.4.1)")
                self.players[player].lp -= amount
                self.say(
                    f"   cost: {player} pays {amount} LP → LP {self.players[player].lp} (a cost, not damage)"
                )
                self._check_lp()
            elif "banish_self_until" in cost:
                self.banish(card.key, "is banished as a cost", until=str(cost["banish_self_until"]))
            elif "discard" in cost:
                self.send_to_gy(str(cost["discard"]), "is discarded as a cost")
            elif "tribute" in cost:
                self.send_to_gy(str(cost["tribute"]), "is tributed as a cost")
            else:
                raise EngineError(f"unknown cost {cost!r}")

    def resolve_chain(self) -> None:
        """Resolve the chain last-in first-out, then what the resolution set off."""
        if not self.chain:
            raise IllegalActionError("there is no chain to resolve")
        self.say("the chain resolves:")
        while self.chain:
            link = self.chain.pop()
            self.timeline.next_moment()  # each link is a new moment, even one that changes nothing
            self._resolve_link(link)
            if self.winner:
                self.say("   the duel is over: the rest of the chain does not resolve")
                self.chain.clear()
                return
        self._report_triggers()
        self.check_replay()

    def _report_triggers(self) -> None:
        """What the chain set off: "if" and mandatory triggers may start a new chain;
        an optional "when" trigger whose event was not the last thing misses its timing."""
        self.pending = []
        for card in self.cards.values():
            for effect in card.spec.effects:
                if effect.type not in ("trigger", "flip") or not effect.event:
                    continue
                found = self.timeline.matching(effect.event, card.key, self._chain_start)
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
            self.say(f"{head} its activation was negated: nothing applies")
            if card.spec.kind != MONSTER and card.on_field:
                self._aftermath(card, "is sent to the GY (its activation was negated)")
            return
        lock = self.lock_on(card)
        negated_here = card.effects_negated and card.on_field  # its effects on the field are negated
        if link.effect_negated or lock or negated_here:
            why = (
                f"by 「{lock}」's continuous effect"
                if lock
                else ("(its effects are negated)" if negated_here else "")
            )
            self.say(f"{head} its effect is negated {why}: nothing applies".replace("  :", ":"))
            self._finish_spell_trap(card)
            return
        if card.spec.kind != MONSTER and card.spec.continuous and not card.on_field:
            self.say(
                f"{head} the card has left the field before its link resolved: its effect does not apply"
            )
            return
        targets = [key for key, place in link.targets if self.card(key).place() == place]
        for key, place in link.targets:
            if self.card(key).place() != place:
                self.say(
                    f"{head} its target 「{key}」 is no longer where it was chosen: it is not that card any more"
                )
        if link.targets and not targets:
            self.say(f"{head} no target is left: the effect does not resolve (§4.3.1)")
            self._finish_spell_trap(card)
            return
        self.say(f"{head} resolves")
        if card.spec.continuous:
            card.applying = True
        self._apply_ops(card, link.effect, targets, link=link)
        self._finish_spell_trap(card)

    def _finish_spell_trap(self, card: Card) -> None:
        if card.spec.kind != MONSTER and not card.spec.continuous and card.on_field:
            self._aftermath(card, "is sent to the GY after resolving")

    def _aftermath(self, card: Card, reason: str) -> None:
        """A spell or trap's own trip to the GY once its link is done: recorded, but
        not a later moment, so it never makes a trigger miss its timing."""
        self.move(card.key, "gy", reason)
        self.timeline.record("sent_to_gy", card.key, aftermath=True)

    # --- continuous effects ------------------------------------------------------------

    def lock_on(self, card: Card) -> str | None:
        """The face-up card whose continuous effect negates this card's effects now
        (王宫的敕命 for a spell on the field), if any."""
        for source in self.cards.values():
            if source.key == card.key or not (source.applying and source.on_field and source.face_up):
                continue
            if source.effects_negated:
                continue
            for kind in self._locks_of(source):
                if self._in_class(card, kind):
                    return source.key
        return None

    @staticmethod
    def _locks_of(card: Card) -> list[str]:
        return [
            op["target"]
            for effect in card.spec.effects
            for op in effect.ops
            if "negate_effects" in op and op.get("target") in CLASSES
        ]

    @staticmethod
    def _in_class(card: Card, kind: str) -> bool:
        if kind == "spells":
            return card.spec.kind == SPELL and card.on_field
        if kind == "traps":
            return card.spec.kind == TRAP and card.on_field
        return card.spec.kind == MONSTER and card.zone == "monster" and card.face_up

    # --- what effects do ----------------------------------------------------------------

    def _apply_ops(self, card: Card, effect: Effect, targets: list[str], link: ChainLink | None) -> None:
        """The operations of an effect: together (one moment) or, for an effect
        written with 那之后 / "then", one after another (a moment each)."""
        for number, op in enumerate(effect.ops):
            if self.winner:
                return
            if number and (effect.order == "sequential" or op.get("then")):
                self.timeline.next_moment()
            name = next(n for n in OPERATIONS if n in op)
            OPERATIONS[name](self, card, op, self._op_targets(name, op, card, targets), link)

    def _op_targets(self, name: str, op: dict, card: Card, targets: list[str]) -> list[str]:
        """The cards an operation acts on: `target:` names them (target, self,
        all_monsters, equipped, attacker, a class or a card); else the chosen
        targets, or the card itself for a monster's own effect."""
        if name not in CARD_OPERATIONS:
            return []
        value = op[name]
        who = op.get("target") or (value if name != "modify" and isinstance(value, str) else "target")
        if who == "target":
            return targets or ([card.key] if card.spec.kind == MONSTER else [])
        if who == "self":
            return [card.key]
        if who == "all_monsters":
            return [c.key for c in self.cards.values() if c.zone == "monster"]
        if who in CLASSES:
            return [c.key for c in self.cards.values() if self._in_class(c, who)]
        if who == "equipped":
            return [card.equipped_to] if card.equipped_to else targets
        if who == "attacker":
            return [self.battle.attacker] if self.battle else []
        if who in self.cards:
            return [who]
        raise EngineError(f"「{card.key}」: unknown target {who!r}")

    def modify(self, source: Card, key: str, op: dict, continuous: bool) -> None:
        """Change a face-up monster's ATK/DEF (§4.3.3.6): one Modifier per stat."""
        target = self.card(key)
        if target.zone != "monster" or not target.face_up:
            self.say(f"   「{key}」 is not a face-up monster: its ATK/DEF cannot change")
            return
        layer = CONTINUOUS if continuous else ACTIVATED
        if continuous and source.spec.kind != MONSTER and source.spec.type == "equip":
            source.equipped_to = key
        for stat in ["atk", "def"] if op["modify"] == "both" else [op["modify"]]:
            before = current_value(self._printed(target, stat), target.modifiers, stat)
            mod = self._modifier(source, target, stat, op, layer, before)
            target.modifiers.append(mod)
            after = current_value(self._printed(target, stat), target.modifiers, stat)
            self.say(f"   「{key}」 {stat.upper()} {before} → {after}: {mod.describe()} by 「{source.key}」")
            self.timeline.record(f"{stat}_changed", key)

    def _modifier(self, source: Card, target: Card, stat: str, op: dict, layer: str, before: int) -> Modifier:
        original = original_value(self._printed(target, stat), target.modifiers, stat)
        mod = Modifier(
            stat,
            "add",
            layer,
            source.key,
            self._next(),
            from_own_effect=source.key == target.key and layer == ACTIVATED,
        )
        if "by" in op:
            mod.amount = int(op["by"])
        elif "set" in op:
            mod.kind = "set"
            if layer == ACTIVATED:
                mod.fixed = resolve_amount(op["set"], before, original)
            else:
                mod.rule = str(op["set"])
        elif "original" in op:
            mod.kind = "original"
            # §4.3.3.6.2: halving or doubling a 「?」 original counts it as 0.
            base = 0 if self._printed(target, stat) is None else original
            rule = op["original"]
            mod.fixed = resolve_amount(
                f"{rule}_original" if rule in ("half", "double") else rule, before, base
            )
        return mod

    @staticmethod
    def _printed(card: Card, stat: str) -> int | None:
        return card.spec.atk if stat == "atk" else card.spec.defense

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
        battle.damage_step(self, until)

    def require_not_over(self) -> None:
        if self.winner:
            raise IllegalActionError("the duel is over")

    def state(self) -> dict[str, Any]:
        """The final state, as data."""
        return {
            "lp": {name: p.lp for name, p in self.players.items()},
            "winner": self.winner,
            "cards": {
                key: {
                    "zone": c.zone,
                    "controller": c.controller,
                    "face_up": c.face_up,
                    "position": c.position,
                    **({"atk": self.atk(key), "def": self.defense(key)} if c.spec.kind == MONSTER else {}),
                }
                for key, c in self.cards.items()
            },
            "missed": self.missed,
            "replays": self.replays,
            "resolved": self.resolved,
            "turn": self.turn.number,
            "phase": self.turn.phase,
        }
