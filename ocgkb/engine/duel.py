"""The duel: players, zones, chains, battle and life points, as verbs that log.

Each verb (`summon`, `activate`, `resolve_chain`, `declare_attack`,
`damage_step`, …) changes the state and appends numbered lines to `log` saying
what happened and which rule made it so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import OcgkbError
from .cards import MONSTER, CardSpec, Effect
from .stats import ACTIVATED, CONTINUOUS, Modifier, current_value, original_value, resolve_amount

FIELD_ZONES = ("monster", "spelltrap", "field")
MONSTER_ZONES = 5
SPELL_TRAP_ZONES = 5


# Operations that act on cards (the others act on players or on the chain).
CARD_OPERATIONS = (
    "modify",
    "destroy",
    "banish",
    "special_summon",
    "negate_effects",
    "flip_face_down",
    "change_position",
)


class EngineError(OcgkbError):
    """Something the engine cannot do."""


class IllegalActionError(EngineError):
    """An action the rules do not allow at this point."""


class IllegalChainError(IllegalActionError):
    """A chain link the rules refuse: too slow, or out of its timing."""


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


@dataclass
class Attack:
    attacker: str
    target: str | None  # None: a direct attack
    opponents: frozenset[str]  # the opponent's monsters when it was declared
    replay: bool = False


class Duel:
    def __init__(self, cards: dict[str, CardSpec], turn_player: str = "A", lp: int = 8000) -> None:
        self.specs = cards
        self.players = {name: Player(name, lp) for name in ("A", "B")}
        self.turn_player = turn_player
        self.cards: dict[str, Card] = {}
        self.chain: list[ChainLink] = []
        self.log: list[str] = []
        self.events: list[tuple[str, str]] = []  # (event, card key), in the order they happened
        self.attack: Attack | None = None
        self.step = "main"
        self.winner: str | None = None  # "A", "B" or "draw"
        self.missed: list[str] = []  # trigger effects that missed their timing
        self.pending: list[str] = []  # trigger effects that may or must start the next chain
        self.replays = 0
        self.resolved: list[str] = []  # cards in the order their chain links resolved
        self._order = 0
        self._events_at_chain_start = 0

    # --- the state -------------------------------------------------------------

    def put(
        self, key: str, spec_name: str, player: str, zone: str, face_up: bool = True, position: str = "attack"
    ) -> Card:
        """Place a card at the start of a situation."""
        if spec_name not in self.specs:
            raise EngineError(f"unknown card {spec_name!r}")
        card = Card(key, self.specs[spec_name], player, player, zone, face_up, position)
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

    @staticmethod
    def _who(card: Card) -> str:
        return card.controller

    def say(self, text: str) -> None:
        self.log.append(text)

    def _next(self) -> int:
        self._order += 1
        return self._order

    def _event(self, name: str, key: str) -> None:
        self.events.append((name, key))

    # --- summoning and moving cards -------------------------------------------------

    def summon(self, key: str, position: str = "attack", face_up: bool = True) -> None:
        card = self._to_monster_zone(key, position, face_up)
        self.say(
            f"{self._who(card)} normal summons 「{key}」 ({position})"
            if face_up
            else f"{self._who(card)} sets 「{key}」"
        )
        self._event("summoned" if face_up else "set", key)
        self._after_change()

    def special_summon(self, key: str, position: str = "attack", controller: str | None = None) -> None:
        card = self._to_monster_zone(key, position, True, controller)
        self.say(f"「{key}」 is special summoned to {card.controller}'s field ({position})")
        self._event("special_summoned", key)

    def _to_monster_zone(self, key: str, position: str, face_up: bool, controller: str | None = None) -> Card:
        card = self.card(key)
        if controller:
            card.controller = controller
        if len(self.monsters(card.controller)) >= MONSTER_ZONES:
            raise IllegalActionError(f"{card.controller}'s monster zones are full")
        card.zone, card.position, card.face_up = "monster", position, face_up
        card.modifiers = []
        self._apply_own_values(card)
        return card

    def _apply_own_values(self, card: Card) -> None:
        # A 「?」 monster's own ability decides its original value (隆隆隆石人-黄金形态).
        for stat, value in (("atk", card.spec.own_atk), ("def", card.spec.own_def)):
            if value is not None:
                card.modifiers.append(Modifier(stat, "original", CONTINUOUS, card.key, -1, fixed=value))
        # Its own continuous raises (守墓的巫女) apply from the moment it is face up.
        for effect in card.spec.effects:
            if effect.type == "continuous" and card.face_up:
                self._apply_ops(card, effect, [card.key], continuous=True)

    def move(self, key: str, zone: str, reason: str) -> None:
        """A card leaves its place: its continuous effects stop applying, what was
        applied to it is gone, and an equip card it held is destroyed."""
        card = self.card(key)
        was_on_field = card.on_field
        card.zone, card.face_up = zone, zone != "banished" or card.face_up
        card.modifiers, card.effects_negated, card.equipped_to = [], False, None
        card.controller = card.owner
        self.say(f"「{key}」 {reason}")
        if was_on_field:
            self._event("left_field", key)
            self._end_effects_of(key)
            for other in self.cards.values():
                if other.equipped_to == key and other.on_field:
                    self.move(other.key, "gy", "is destroyed: the monster it equipped left the field")

    def destroy(self, key: str, reason: str = "is destroyed") -> None:
        card = self.card(key)
        if not card.on_field:
            raise IllegalActionError(f"「{key}」 is not on the field and cannot be destroyed")
        self.move(key, "gy", reason)
        self._event("destroyed", key)
        self._after_change()

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
        self._event("flipped_face_down", key)

    def change_position(self, key: str) -> None:
        card = self.card(key)
        card.position = "defense" if card.position == "attack" else "attack"
        self.say(f"「{key}」 changes to {card.position} position")
        self._event("position_changed", key)

    def negate_effects_of(self, key: str) -> None:
        """§4.3.3.6: a monster's own raise by its activated effect falls back when its effects are negated."""
        card = self.card(key)
        card.effects_negated = True
        before = self.atk(key)
        card.modifiers = [m for m in card.modifiers if not (m.source == key and m.from_own_effect)]
        card.modifiers = [
            m
            for m in card.modifiers
            if not (m.source == key and m.layer == CONTINUOUS and m.kind != "original")
        ]
        self.say(f"「{key}」's effects are negated (ATK {before} → {self.atk(key)})")

    # --- life points -----------------------------------------------------------------

    def damage(self, player: str, amount: int, kind: str = "effect damage") -> None:
        self._lose(player, amount, kind)

    def _lose(self, player: str, amount: int, how: str) -> None:
        p = self.players[player]
        p.lp = max(0, p.lp - amount)  # §1.4.1: LP never goes below 0
        self.say(f"   {player} takes {amount} {how} → LP {p.lp}")
        self._event("lost_lp" if how.startswith("LP loss") else "damaged", player)
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
        p = self.players[player]
        if p.deck < count:
            p.deck = 0
            self.winner = self.winner or self.opponent(player)
            self.say(f"   {player} must draw from an empty deck and loses (§1.4.2)")
            return
        p.deck -= count
        self.say(f"   {player} draws {count}")
        self._event("drew", player)

    # --- activation and chains ----------------------------------------------------------

    def activate(
        self, key: str, targets: list[str] | None = None, effect: int = 0, player: str | None = None
    ) -> ChainLink:
        """Activate a card or effect as the next chain link: its speed must match the
        chain, its cost is paid now, its targets are chosen now."""
        self._require_not_over()
        card = self.card(key)
        # A spell or trap without a modelled effect can still be activated (卡的发动).
        effects = card.spec.effects or ([Effect(type="spell-trap")] if card.spec.kind != MONSTER else [])
        if effect >= len(effects):
            raise IllegalActionError(f"「{key}」 has no effect number {effect + 1}")
        chosen = effects[effect]
        player = player or card.controller
        if card.spec.kind != MONSTER and card.zone not in ("hand", "spelltrap", "field"):
            raise IllegalActionError(
                f"「{key}」 is in the {card.zone}: a spell or trap is activated from the hand or the field"
            )
        speed = card.spec.speed(chosen)
        waiting = [k for k in self.pending if k != key and self.cards[k].controller == self.turn_player]
        if not self.chain and key in self.pending and player != self.turn_player and waiting:
            raise IllegalChainError(
                f"「{key}」: the turn player's trigger effects go on the chain first, then the opponent's"
            )
        if self.chain:
            top = self.chain[-1]
            # Speed-1 triggers that happened at the same time build one chain
            # together, the turn player's first (§ 同时数个效果发动).
            together = chosen.type == "trigger" and all(link.effect.type == "trigger" for link in self.chain)
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
        if chosen.event:
            self._check_timing(key, chosen)
        for target in targets or []:
            if self.card(target).zone not in ("monster", "spelltrap", "field", "gy", "banished"):
                raise IllegalActionError(f"「{target}」 is not where it could be targeted")
        if not self.chain:
            self._events_at_chain_start = len(self.events)
        used = sum(1 for c in self.cards.values() if c.zone == "spelltrap" and c.controller == player)
        if (
            card.spec.kind != MONSTER
            and card.zone == "hand"
            and card.spec.type != "field"
            and used >= SPELL_TRAP_ZONES
        ):
            raise IllegalActionError(f"{player}'s spell & trap zones are full")
        self._pay_costs(card, chosen, player)
        if card.spec.kind != MONSTER and card.zone in ("hand", "deck"):
            card.zone = "field" if card.spec.type == "field" else "spelltrap"
            card.face_up = True
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
        self._event("activated", key)
        return link

    def _matching_events(self, key: str, event: str, since: int) -> list[int]:
        """Indexes of the recent events an effect waits for: `self_X` is X of this very card."""
        own = event.startswith("self_")
        names = event.removeprefix("self_").split("|")
        return [
            i for i in range(since, len(self.events))
            if self.events[i][0] in names and (not own or self.events[i][1] == key)
        ]  # fmt: skip

    def _check_timing(self, key: str, effect: Effect) -> None:
        """An optional "when" effect (…时，可以) can only be activated if its event
        was the last thing to happen; "if" (…的场合) and mandatory effects only need
        the event to have happened since the last chain began."""
        if self.chain:
            return  # chained in response: the window is the chain itself
        since = self._events_at_chain_start
        found = self._matching_events(key, effect.event or "", since)
        if not found:
            raise IllegalChainError(f"「{key}」 cannot be activated: {effect.event!r} has not just happened")
        if effect.optional and effect.wording == "when" and found[-1] != len(self.events) - 1:
            raise IllegalChainError(
                f"「{key}」 misses the timing: its event is not the last thing that happened "
                f"(the last was {self._last_event()})"
            )

    def _last_event(self) -> str:
        return f"{self.events[-1][0]} of 「{self.events[-1][1]}」" if self.events else "nothing"

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
                card.zone, card.returns_at_end_phase = "banished", True
                self.say(f"   cost: 「{card.key}」 is banished until the End Phase")
            elif "discard" in cost:
                self.move(str(cost["discard"]), "gy", "is discarded as a cost")
            elif "tribute" in cost:
                self.move(str(cost["tribute"]), "gy", "is tributed as a cost")
            else:
                raise EngineError(f"unknown cost {cost!r}")

    def resolve_chain(self) -> None:
        """Resolve the chain last-in first-out, then what the resolution set off."""
        if not self.chain:
            raise IllegalActionError("there is no chain to resolve")
        self.say("the chain resolves:")
        while self.chain:
            link = self.chain.pop()
            self._resolve_link(link)
            if self.winner:
                self.say("   the duel is over: the rest of the chain does not resolve")
                self.chain.clear()
                return
        self._report_triggers()
        self._after_change()

    def _report_triggers(self) -> None:
        """What the chain set off: "if" and mandatory triggers may start a new chain;
        an optional "when" trigger whose event was not the last thing misses its timing."""
        self.pending = []
        since = self._events_at_chain_start
        for card in self.cards.values():
            for effect in card.spec.effects:
                if effect.type != "trigger" or not effect.event:
                    continue
                found = self._matching_events(card.key, effect.event, since)
                if not found:
                    continue
                if effect.optional and effect.wording == "when" and found[-1] != len(self.events) - 1:
                    self.missed.append(card.key)
                    self.say(
                        f'   「{card.key}」\'s optional "when" effect misses the timing: its event was not the last '
                        f"thing to happen (the last was {self._last_event()})"
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
                self.move(card.key, "gy", "is sent to the GY (its activation was negated)")
            return
        if link.effect_negated:
            self.say(f"{head} its effect was negated: nothing applies")
            self._finish_spell_trap(card)
            return
        if card.spec.kind != MONSTER and card.spec.continuous and not card.on_field:
            self.say(
                f"{head} the card has left the field before its link resolved: its effect does not apply"
            )
            return
        targets = [key for key, place in link.targets if self.card(key).place() == place]
        lost = [key for key, place in link.targets if self.card(key).place() != place]
        for key in lost:
            self.say(
                f"{head} its target 「{key}」 is no longer where it was chosen: it is not that card any more"
            )
        if link.targets and not targets:
            self.say(f"{head} no target is left: the effect does not resolve (§4.3.1)")
            self._finish_spell_trap(card)
            return
        self.say(f"{head} resolves")
        self._apply_ops(card, link.effect, targets, continuous=card.spec.continuous, link=link)
        self._finish_spell_trap(card)

    def _finish_spell_trap(self, card: Card) -> None:
        if card.spec.kind != MONSTER and not card.spec.continuous and card.on_field:
            self.move(card.key, "gy", "is sent to the GY after resolving")

    # --- what effects do ----------------------------------------------------------------

    def _apply_ops(
        self, card: Card, effect: Effect, targets: list[str], continuous: bool, link: ChainLink | None = None
    ) -> None:
        for op in effect.ops:
            if self.winner:
                return
            chosen = self._op_targets(op, card, targets)
            if "modify" in op:
                for key in chosen:
                    self._modify(card, key, op, continuous or effect.type == "continuous")
            elif "destroy" in op:
                for key in chosen:
                    if self.card(key).on_field:
                        self.move(key, "gy", f"is destroyed by 「{card.key}」")
                        self._event("destroyed", key)
            elif "banish" in op:
                for key in chosen:
                    self.move(key, "banished", f"is banished by 「{card.key}」")
                    self._event("banished", key)
            elif "special_summon" in op:
                for key in chosen:
                    # To its owner's field, or with `to: self` to the summoning player's.
                    controller = card.controller if op.get("to") == "self" else self.card(key).owner
                    self.special_summon(key, op.get("position", "attack"), controller=controller)
            elif "negate_activation" in op:
                below = self._link_below(link)
                below.activation_negated = True
                self._event("negated", below.card)
                self.say(f"   the activation of 「{below.card}」 (link {below.number}) is negated")
            elif "negate_effect" in op:
                below = self._link_below(link)
                below.effect_negated = True
                self._event("negated", below.card)
                self.say(f"   the effect of 「{below.card}」 (link {below.number}) is negated")
            elif "negate_effects" in op:
                for key in chosen:
                    self.negate_effects_of(key)
            elif "flip_face_down" in op:
                for key in chosen:
                    self.flip_face_down(key)
            elif "damage" in op:
                self._damage_many(self._players(op.get("to", "opponent"), card.controller), int(op["damage"]))
            elif "lose_lp" in op:
                for player in self._players(op.get("to", "opponent"), card.controller):
                    self._lose(player, int(op["lose_lp"]), "LP loss (not damage)")
            elif "draw" in op:
                self.draw_cards(card.controller, int(op["draw"]))
            elif "change_position" in op:
                for key in chosen:
                    self.change_position(key)

    def _damage_many(self, players: list[str], amount: int) -> None:
        # Damage to both players from one effect lands at once: both at 0 is a draw.
        for player in players:
            p = self.players[player]
            p.lp = max(0, p.lp - amount)
            self.say(f"   {player} takes {amount} effect damage → LP {p.lp}")
            self._event("damaged", player)
        self._check_lp()

    def _players(self, who: str, controller: str) -> list[str]:
        return {"opponent": [self.opponent(controller)], "self": [controller], "both": ["A", "B"]}[who]

    def _op_targets(self, op: dict, card: Card, targets: list[str]) -> list[str]:
        """The cards an operation acts on: `target:` names them (target, self,
        all_monsters, equipped, attacker or a card); else the chosen targets, or
        the card itself for a monster's own effect."""
        name = next((n for n in CARD_OPERATIONS if n in op), None)
        if name is None:
            return []
        value = op[name]
        who = op.get("target") or (value if name != "modify" and isinstance(value, str) else "target")
        if who == "target":
            return targets or ([card.key] if card.spec.kind == MONSTER else [])
        if who == "self":
            return [card.key]
        if who == "all_monsters":
            return [c.key for c in self.cards.values() if c.zone == "monster"]
        if who == "equipped":
            return [card.equipped_to] if card.equipped_to else targets
        if who == "attacker":
            return [self.attack.attacker] if self.attack else []
        if who in self.cards:
            return [who]
        raise EngineError(f"「{card.key}」: unknown target {who!r}")

    def _modify(self, source: Card, key: str, op: dict, continuous: bool) -> None:
        target = self.card(key)
        if target.zone != "monster" or not target.face_up:
            self.say(f"   「{key}」 is not a face-up monster: its ATK/DEF cannot change")
            return
        layer = CONTINUOUS if continuous else ACTIVATED
        if continuous and source.spec.kind != MONSTER and source.spec.type == "equip":
            source.equipped_to = key
        stats = ["atk", "def"] if op["modify"] == "both" else [op["modify"]]
        for stat in stats:
            before = current_value(self._printed(target, stat), target.modifiers, stat)
            original = original_value(self._printed(target, stat), target.modifiers, stat)
            mod = Modifier(
                stat,
                "add",
                layer,
                source.key,
                self._next(),
                from_own_effect=source.key == key and layer == ACTIVATED,
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
            target.modifiers.append(mod)
            after = current_value(self._printed(target, stat), target.modifiers, stat)
            self.say(f"   「{key}」 {stat.upper()} {before} → {after}: {mod.describe()} by 「{source.key}」")
            self._event(f"{stat}_changed", key)

    @staticmethod
    def _printed(card: Card, stat: str) -> int | None:
        return card.spec.atk if stat == "atk" else card.spec.defense

    def _link_below(self, link: ChainLink | None) -> ChainLink:
        # Resolution is last-in first-out, so the link below is still on the chain.
        below = [other for other in self.chain if link and other.number == link.number - 1]
        if not below:
            raise IllegalChainError("there is no chain link below this one to negate")
        return below[0]

    # --- battle -------------------------------------------------------------------------

    def declare_attack(self, attacker: str, target: str | None = None) -> None:
        self._require_not_over()
        card = self.card(attacker)
        if card.zone != "monster" or not card.face_up or card.position != "attack":
            raise IllegalActionError(
                f"「{attacker}」 is not a face-up attack-position monster and cannot attack"
            )
        if card.attacked:
            raise IllegalActionError(f"「{attacker}」 has already attacked this turn (§6.3.4.2)")
        defender_side = self.opponent(card.controller)
        if target is None and self.monsters(defender_side):
            raise IllegalActionError("a direct attack needs the opponent to control no monsters")
        if target is not None and self.card(target).zone != "monster":
            raise IllegalActionError(f"「{target}」 is not a monster on the field and cannot be attacked")
        card.attacked = True
        self.step = "battle"
        self.attack = Attack(attacker, target, frozenset(c.key for c in self.monsters(defender_side)))
        aim = f"「{target}」" if target else f"{defender_side} directly"
        self.say(f"{card.controller}'s 「{attacker}」 declares an attack on {aim}")
        self._event("attack_declared", attacker)

    def _after_change(self) -> None:
        """After each resolved chain or action: a replay check in the battle step (§6.3.4.2.1)."""
        if self.attack is None or self.step != "battle" or self.chain:
            return
        attacker = self.cards.get(self.attack.attacker)
        if attacker is None or attacker.zone != "monster":
            self.say("   the attacker has left the field: the attack ends, no replay")
            self.attack = None
            return
        side = self.opponent(attacker.controller)
        now = frozenset(c.key for c in self.monsters(side))
        if now != self.attack.opponents:
            self.attack.replay = True
            self.replays += 1
            self.attack.opponents = now
            self.say(
                "   the opponent's monsters changed after the attack was declared: replay (卷回, §6.3.4.2.1)"
            )

    def retarget(self, target: str | None) -> None:
        """After a replay the attacker chooses again (this is not an attack declaration)."""
        if self.attack is None or not self.attack.replay:
            raise IllegalActionError("a new attack target can only be chosen after a replay")
        self.attack.target = target
        self.attack.replay = False
        self.say(f"   「{self.attack.attacker}」 now attacks " + (f"「{target}」" if target else "directly"))

    def damage_step(self) -> None:
        """Flip a face-down defender, calculate damage, destroy at the end (§6.3.4.3)."""
        self._require_not_over()
        if self.attack is None:
            raise IllegalActionError("no attack is under way")
        if self.attack.replay:
            raise IllegalActionError(
                "a replay happened: choose the attack target again before the damage step"
            )
        self.step = "damage"
        attacker = self.card(self.attack.attacker)
        self.say("damage step:")
        if self.attack.target is None:
            amount = self.atk(attacker.key)
            self.say(f"   direct attack: {amount} battle damage")
            self._lose(self.opponent(attacker.controller), amount, "battle damage")
            self._end_battle([])
            return
        defender = self.card(self.attack.target)
        if not defender.face_up:
            defender.face_up = True
            self.say(
                f"   before damage calculation 「{defender.key}」 is turned face-up in defense position (§6.3.4.3.2)"
            )
            self._event("flipped_face_up", defender.key)
        a = self.atk(attacker.key)
        destroyed: list[str] = []
        if defender.position == "attack":
            d = self.atk(defender.key)
            self.say(f"   damage calculation: ATK {a} against ATK {d}")
            if a == d == 0:
                self.say("   0 against 0: no damage, neither monster is destroyed (§6.3.4.3.3.1)")
            elif a > d:
                destroyed = [defender.key]
                self._lose(defender.controller, a - d, "battle damage")
            elif a < d:
                destroyed = [attacker.key]
                self._lose(attacker.controller, d - a, "battle damage")
            else:
                destroyed = [attacker.key, defender.key]
                self.say("   equal ATK: both are destroyed, no damage")
        else:
            d = self.defense(defender.key)
            self.say(f"   damage calculation: ATK {a} against DEF {d}")
            if a > d:
                destroyed = [defender.key]
                self.say("   the defender is destroyed; no damage to a defense-position monster's controller")
            elif a < d:
                self._lose(attacker.controller, d - a, "battle damage")
            else:
                self.say("   equal: no damage, nothing destroyed")
        self._end_battle(destroyed)

    def _end_battle(self, destroyed: list[str]) -> None:
        if destroyed:
            self.say("   end of the damage step: monsters destroyed by battle go to the GY")
        for key in destroyed:
            self.move(key, "gy", "is destroyed by battle")
            self._event("destroyed_by_battle", key)
        self.attack = None
        self.step = "battle_end"

    # --- the end of the turn ----------------------------------------------------------

    def end_phase(self) -> None:
        self.say("end phase:")
        for card in self.cards.values():
            if card.returns_at_end_phase and card.zone == "banished":
                card.returns_at_end_phase = False
                card.zone = "monster" if card.spec.kind == MONSTER else "spelltrap"
                self.say(f"   「{card.key}」 returns to the field")
        self.step = "end"

    def _require_not_over(self) -> None:
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
        }
