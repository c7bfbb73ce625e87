"""The state of a duel, at the bottom of the engine: the cards and where they are,
the players, the turn, the chain, the attack under way and the record of events.

Its verbs only change places and life points (move, destroy, banish, damage, …)
and log it; they decide nothing a rule decides. Values (ATK, DEF, level, whether
an effect is negated) are never stored here: engine/stats.py computes them from
this state when they are read. rules, operations and battle read and change the
state; engine/duel.py conducts the duel from above them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import MONSTER, SPELL, TRAP, CardSpec, Effect
from .errors import EngineError, IllegalActionError, illegal
from .events import Event, Timeline
from .modifiers import CONTINUOUS, Modifier
from .zones import (
    EXTRA_MONSTER_ZONES,
    MAIN_ZONES,
    SPELL_TRAP_ZONES,
    Slot,
    is_extra_monster_zone,
    pointed,
)

FIELD_ZONES = ("monster", "spelltrap", "field")
# "gone": a token that has left the field (it disappears, rulings/衍生物/1), or is not yet made.
# "material": an Xyz material, under its Xyz monster, not on the field (masterrule/16, /26).
# "summoning": a monster summoned by the rules, in the window 特殊召唤之际: not yet on the
# field (masterrule/60), its materials already used.
ZONES = (
    "hand",
    "deck",
    "extra",
    "monster",
    "spelltrap",
    "field",
    "gy",
    "banished",
    "gone",
    "material",
    "summoning",
)
MONSTER_ZONES = len(MAIN_ZONES)
# Events that move a card: they record the zone it came from.
MOVING_EVENTS = frozenset(
    {
        "summoned",
        "set",
        "special_summoned",
        "destroyed",
        "destroyed_by_battle",
        "sent_to_gy",
        "tributed",
        "returned_to_hand",
        "banished",
        "left_field",
    }
)


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
    modifiers: list[Modifier] = field(default_factory=list)  # activated changes only (stats.py)
    effects_negated: bool = False
    equipped_to: str | None = None
    returns_at_end_phase: bool = False
    control_returns_to: str | None = None  # whose control it goes back to in the End Phase
    returns_to: str | None = None  # the player whose field a temporarily banished card returns to
    attacked: bool = False
    placed_turn: int | None = None  # the turn it was set or summoned in this situation
    position_changed_turn: int | None = None
    came_from: str | None = None  # the zone it was in before its last move
    set_again_turn: int | None = None  # the turn its activation was negated and it was set again
    chosen_position_turn: int | None = None  # the turn its player last changed its position by choice
    # 1回合1次 (`once_per_turn: true`): effect number → the turn it was activated; forgotten
    # when the card moves or is turned face-down, as it is then a new card (§5.1/6).
    used_effects: dict[int, int] = field(default_factory=dict)
    applying: bool = False  # a face-up continuous card whose effect has started to apply
    since: int = 0  # when it last arrived face-up on the field or started applying (stats.py orders by it)
    chosen: list[tuple[str, str]] = field(
        default_factory=list
    )  # a continuous card's targets and their places
    slot: Slot | None = None  # which zone of its row (engine/zones.py), on the field only
    attached_to: str | None = None  # the Xyz monster it is a material of (zone "material")
    properly_summoned: bool = False  # by its own procedure (苏生限制, §3.2.1.3)
    scale: bool = False  # activated or placed as a Pendulum Scale (masterrule/19)

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
    hand_drawn: int = 0  # cards drawn into the hand that the situation does not name


@dataclass
class ChainLink:
    number: int
    card: str
    effect: Effect
    player: str
    speed: int
    targets: list[tuple[str, str]] = field(default_factory=list)
    activation_negated: bool = False
    set_again: bool = False  # its activation negated, the card is set face-down again (红色重启)
    effect_negated: bool = False


@dataclass
class Turn:
    number: int = 1
    player: str = "A"
    phase: str | None = None  # None: the situation does not say, so phases are not checked
    normal_summoned: set[str] = field(default_factory=set)  # players who used their normal summon
    pendulum_summoned: set[str] = field(default_factory=set)  # players who pendulum summoned (masterrule/57)
    duel_turn: int | None = None  # the turn of the duel, when the situation says (the first has no battle)


@dataclass
class SummonWindow:
    """A summon by the rules under way (特殊召唤之际, masterrule/60): its monsters are
    announced and its materials used, the monsters are not yet on the field, and only
    an effect that negates the summon may start a chain."""

    kind: str  # synchro, xyz, link, pendulum
    keys: list[str]
    player: str
    since: int  # the index of the first event of the summon, for the triggers it sets off
    negated: bool = False


@dataclass
class Attack:
    attacker: str
    target: str | None  # None: a direct attack
    opponents: frozenset[str]  # the opponent's monsters when it was declared
    replay: bool = False
    timing: str | None = None  # the damage-step timing reached, None before the damage step
    target_place: str | None = None  # where the target was when it was chosen
    destroyed: list[str] = field(default_factory=list)  # destroyed by battle, sent to the GY at the end
    calculated: bool = False
    closed: set[str] = field(default_factory=set)  # timings whose chain has resolved (§6.3.4.3/6)
    used_at: set[tuple[str, str]] = field(
        default_factory=set
    )  # (card, timing) a timed effect was activated at


class State:
    """Everything a duel holds, and the verbs that move cards and change LP."""

    def __init__(self, cards: dict[str, CardSpec], turn_player: str = "A", lp: int = 8000) -> None:
        self.specs = cards
        self.players = {name: Player(name, lp) for name in ("A", "B")}
        self.turn = Turn(player=turn_player)
        self.cards: dict[str, Card] = {}
        self.chain: list[ChainLink] = []
        self.log: list[str] = []
        self.timeline = Timeline()
        self.battle: Attack | None = None
        self.summoning: SummonWindow | None = None
        self.step = "main"
        self.winner: str | None = None  # "A", "B" or "draw"
        self.missed: list[str] = []  # trigger effects that missed their timing
        self.pending: list[str] = []  # trigger effects that may or must start the next chain
        self.replays = 0
        self.resolved: list[str] = []  # cards in the order their chain links resolved
        self._order = 0
        self.window_start = 0  # index of the first event the open window responds to (§6.3.4.2/4)
        # 「卡名」的这个效果1回合只能使用1次: (player, card name, effect number) → turn (§5.1/7).
        self.used_names: dict[tuple[str, str, int], int] = {}
        self.destroyed_now: dict[str, bool] = {}  # whether the resolving effect's destroy destroyed each card
        # The damage step has reached its end, but what lasts until then still applies
        # until all activations and resolutions there are done (§6.3.4.3.5/3).
        self.damage_step_over = False

    @property
    def turn_player(self) -> str:
        return self.turn.player

    def record(self, name: str, subject: str, aftermath: bool = False) -> Event:
        """An event, with its circumstances: the timeline's current cause, and for an
        event that moves a card, the zone it came from."""
        card = self.cards.get(subject)
        origin = card.came_from if card is not None and name in MOVING_EVENTS else None
        if aftermath:  # a spell or trap's own trip to the GY is the rules', not its effect's
            with self.timeline.caused("rule"):
                return self.timeline.record(name, subject, aftermath, origin)
        return self.timeline.record(name, subject, aftermath, origin)

    def put(
        self,
        key: str,
        spec_name: str,
        player: str,
        zone: str,
        face_up: bool = True,
        position: str = "attack",
        owner: str | None = None,
        slot: Slot | None = None,
    ) -> Card:
        """Place a card at the start of a situation (`owner`: when another player owns
        it; `slot`: the monster or spell & trap zone it stands in, else the leftmost free)."""
        if spec_name not in self.specs:
            raise EngineError(f"unknown card {spec_name!r}")
        if zone not in ZONES:
            raise EngineError(f"unknown zone {zone!r}")
        if self.specs[spec_name].token and zone not in ("monster", "gone"):
            raise EngineError(f"「{key}」 is a token: it exists only on the field (rulings/衍生物/1)")
        card = Card(key, self.specs[spec_name], owner or player, player, "hand", face_up, position)
        if zone == "monster":
            if slot is not None and self.occupant(player, slot) is not None:
                raise EngineError(
                    f"{player}'s zone {slot} already holds 「{self.occupant(player, slot).key}」"
                )
            free = self.free_main_zones(player)
            if slot is None and not free:
                raise EngineError(f"{player}'s Main Monster Zones are full (5 zones)")
            card.slot = slot if slot is not None else free[0]
        elif zone == "spelltrap":
            card.slot = self.free_spell_trap_zone(player, slot if isinstance(slot, int) else None)
        card.zone = zone
        self.cards[key] = card
        # A face-up card already on the field is already applying.
        if card.on_field and face_up:
            self.start_applying(card)
        if zone == "monster":
            self._apply_own_values(card)
            card.properly_summoned = True  # on the field at the start: it came out as it should
        return card

    def card(self, key: str) -> Card:
        if key not in self.cards:
            raise IllegalActionError(f"no card {key!r} in this duel")
        return self.cards[key]

    def monsters(self, player: str) -> list[Card]:
        return [c for c in self.cards.values() if c.zone == "monster" and c.controller == player]

    def opponent(self, player: str) -> str:
        return "B" if player == "A" else "A"

    def players_named(self, who: str, controller: str) -> list[str]:
        """`opponent`, `self` or `both`, seen from `controller`."""
        return {"opponent": [self.opponent(controller)], "self": [controller], "both": ["A", "B"]}[who]

    def say(self, text: str) -> None:
        self.log.append(text)

    def next_order(self) -> int:
        """A number later than every one given before: the order things started applying in."""
        self._order += 1
        return self._order

    def open_window(self) -> None:
        """Something new happens outside a chain: a later moment, and the window for
        "when …" effects now responds to it alone (the previous one has closed)."""
        self.timeline.next_moment()
        if not self.chain:
            self.window_start = len(self.timeline.events)
            self.pending = []  # triggers not activated in the window that set them off are gone

    def require_not_over(self) -> None:
        if self.winner:
            raise IllegalActionError("the duel is over")

    def start_applying(self, card: Card) -> None:
        """From now on its continuous effects apply (stats.py reads `applying` and `since`)."""
        card.applying = True
        card.since = self.next_order()

    @staticmethod
    def in_class(card: Card, kind: str) -> bool:
        if kind == "spells":
            return card.spec.kind == SPELL and card.on_field
        if kind == "traps":
            return card.spec.kind == TRAP and card.on_field
        return card.spec.kind == MONSTER and card.zone == "monster" and card.face_up

    # --- places ---------------------------------------------------------------------

    def to_monster_zone(
        self,
        key: str,
        position: str,
        face_up: bool,
        controller: str | None = None,
        slot: Slot | None = None,
    ) -> Card:
        """A monster arrives in a monster zone: `slot` when the situation names one,
        else the first the Master Rule lets it go to (zones.py, `choose_monster_slot`)."""
        card = self.card(key)
        if card.spec.frame == "link" and (position != "attack" or not face_up):
            raise illegal(
                f"「{key}」 is a Link monster: it is always face-up in attack position",
                "masterrule/172",
                "link_position",
            )
        if controller:
            card.controller = controller
        if card.zone != "monster":
            card.slot = self.choose_monster_slot(card, card.controller, slot)
        card.came_from = card.zone
        if card.zone != "monster":
            card.used_effects = {}  # arriving on the field, it is a new card (§5.1/6)
        card.zone, card.position, card.face_up = "monster", position, face_up
        card.modifiers = []
        card.placed_turn = self.turn.number
        card.applying = False
        if face_up:
            self.start_applying(card)
        self._apply_own_values(card)
        return card

    # --- the Master Rule's zones (engine/zones.py) ------------------------------------

    def occupant(self, player: str, slot: Slot) -> Card | None:
        """The card in a monster zone: one of `player`'s Main Monster Zones, or an Extra
        Monster Zone (whoever controls it)."""
        for card in self.cards.values():
            if card.zone in ("monster", "summoning") and card.slot == slot:
                if is_extra_monster_zone(slot) or card.controller == player:
                    return card
        return None

    def free_main_zones(self, player: str) -> list[int]:
        """`player`'s Main Monster Zones no card stands in, leftmost first."""
        return [n for n in MAIN_ZONES if self.occupant(player, n) is None]

    def linked_zones(self, player: str) -> set[Slot]:
        """`player`'s Main Monster Zones a Link monster's arrow points to (连接区, masterrule/18),
        whoever controls the Link monster, and the Extra Monster Zones their own Link
        monsters point to."""
        found: set[Slot] = set()
        for card in self.cards.values():
            if card.zone != "monster" or card.spec.frame != "link" or card.slot is None:
                continue
            for owner, slot in pointed(card.controller, card.slot, card.spec.arrows):
                if owner == player or (owner is None and card.controller == player):
                    found.add(slot)
        return found

    def extra_zone_of(self, player: str) -> Slot | None:
        """The Extra Monster Zone `player` uses, if they have a monster in one."""
        for card in self.cards.values():
            if (
                card.zone in ("monster", "summoning")
                and card.controller == player
                and is_extra_monster_zone(card.slot)
            ):
                return card.slot
        return None

    def choose_monster_slot(self, card: Card, player: str, wanted: Slot | None) -> Slot:
        """Where a monster may arrive (Master Rule 2020, masterrule/18, /51, /172): a
        monster from the Extra Deck to any free Main Monster Zone or an Extra Monster
        Zone, but a Link monster, or a Pendulum monster from the face-up Extra Deck, to
        a Main Monster Zone only where a Link monster points; any other only to a Main
        Monster Zone. Without `wanted`, the leftmost zone allowed."""
        from_extra = card.zone == "extra"
        linked_only = from_extra and (
            card.spec.frame == "link" or (card.face_up and card.spec.scale is not None)
        )
        linked = self.linked_zones(player) if linked_only else set()
        if wanted is not None:
            if is_extra_monster_zone(wanted):
                self._check_extra_zone(card, player, wanted, from_extra)
                return wanted
            if self.occupant(player, wanted) is not None:
                raise illegal(
                    f"{player}'s Main Monster Zone {wanted} is taken", "masterrule/18", "zone_taken"
                )
            if linked_only and wanted not in linked:
                raise illegal(
                    f"「{card.key}」 comes from the Extra Deck to a Main Monster Zone only where a Link monster points; "
                    f"{player}'s zone {wanted} is not linked",
                    "masterrule/51",
                    "zone_not_linked",
                )
            return wanted
        free = self.free_main_zones(player)
        allowed = [n for n in free if not linked_only or n in linked]
        if allowed:
            return allowed[0]
        if from_extra:
            for slot in EXTRA_MONSTER_ZONES:
                if self.occupant(player, slot) is None and self.extra_zone_of(player) in (None, slot):
                    return slot
        if free:
            raise illegal(
                f"「{card.key}」 comes from the Extra Deck to an Extra Monster Zone or a linked zone, and {player} has neither free",
                "masterrule/51",
                "zone_not_linked",
            )
        raise illegal(f"{player}'s monster zones are full (5 zones)", "masterrule/18", "zones_full")

    def _check_extra_zone(self, card: Card, player: str, slot: Slot, from_extra: bool) -> None:
        if not from_extra:
            raise illegal(
                f"「{card.key}」 does not come from the Extra Deck: it goes to a Main Monster Zone, not {slot}",
                "masterrule/18",
                "zone_not_allowed",
            )
        if self.occupant(player, slot) is not None:
            raise illegal(f"the Extra Monster Zone {slot} is taken", "masterrule/18", "zone_taken")
        used = self.extra_zone_of(player)
        # The other one only while the player's own Link monster points to it (exlink, masterrule/18).
        if used not in (None, slot) and slot not in self.linked_zones(player):
            raise illegal(
                f"{player} already uses the Extra Monster Zone {used}: a player uses one of the two",
                "masterrule/18",
                "emz_in_use",
            )

    def free_spell_trap_zone(self, player: str, wanted: int | None = None) -> int:
        """A Spell & Trap Zone for a card arriving there: `wanted`, or the leftmost free."""
        taken = {c.slot for c in self.cards.values() if c.zone == "spelltrap" and c.controller == player}
        if wanted is not None:
            if wanted in taken:
                raise illegal(
                    f"{player}'s Spell & Trap Zone {wanted} is taken", "masterrule/18", "zone_taken"
                )
            return wanted
        free = [n for n in SPELL_TRAP_ZONES if n not in taken]
        if not free:
            raise illegal(f"{player}'s spell & trap zones are full", "tournament/137", "zones_full")
        return free[0]

    def materials_of(self, key: str) -> list[str]:
        """The Xyz materials under a monster, in the order they were attached."""
        return [c.key for c in self.cards.values() if c.zone == "material" and c.attached_to == key]

    def field_monsters(self, player: str) -> int:
        """How many monsters `player` has on the field (an Xyz material is none, masterrule/61)."""
        return len(self.monsters(player))

    def _apply_own_values(self, card: Card) -> None:
        # A 「?」 monster's own ability decides its original value (隆隆隆石人-黄金形态).
        for stat, value in (("atk", card.spec.own_atk), ("def", card.spec.own_def)):
            if value is not None:
                card.modifiers.append(Modifier(stat, "original", CONTINUOUS, card.key, -1, fixed=value))

    def special_summon(
        self, key: str, position: str = "attack", controller: str | None = None, slot: Slot | None = None
    ) -> None:
        card = self.to_monster_zone(key, position, True, controller, slot)
        self.say(f"「{key}」 is special summoned to {card.controller}'s field ({position})")
        self.record("special_summoned", key)

    def move(
        self, key: str, zone: str, reason: str, face_up: bool | None = None, from_field: bool = True
    ) -> None:
        """The one way a card changes place. Leaving the field: its continuous effects
        stop applying, what was applied to it is gone (§4.3.3.6), an equip card it
        held is sent to the GY, its Xyz materials go to the GY, and `left_field` is
        recorded. A Pendulum monster that would go from the field to the GY goes
        face-up to the Extra Deck instead (§3.2.1.5/4), unless the move does not
        count as from the field (`from_field`: a negated Pendulum Scale, §3.2.1.5/6).
        An Extra Deck monster sent to the hand or the deck goes back to the Extra
        Deck (masterrule/40)."""
        if zone not in ZONES:
            raise EngineError(f"unknown zone {zone!r}")
        card = self.card(key)
        was_on_field, origin = card.on_field, card.zone
        if card.spec.token and zone not in FIELD_ZONES:
            zone, reason = "gone", reason + ": a token leaving the field disappears (rulings/衍生物/1)"
        if zone in ("hand", "deck") and card.spec.from_extra_deck:
            zone, face_up = "extra", False
            reason += ": an Extra Deck monster goes back to the Extra Deck instead (masterrule/40)"
        if zone == "gy" and was_on_field and from_field and card.spec.scale is not None:
            zone, face_up = "extra", True
            reason += ": a Pendulum monster goes face-up to the Extra Deck instead of the GY (§3.2.1.5/4)"
        if zone != card.zone:
            card.used_effects = {}
        if zone == "monster" and origin != "monster":
            card.slot = self.choose_monster_slot(card, card.owner, None)
        elif zone == "spelltrap" and origin != "spelltrap":
            card.slot = self.free_spell_trap_zone(card.owner)
        elif zone not in FIELD_ZONES:
            card.slot, card.scale = None, False
        if zone in ("hand", "deck", "extra"):
            card.properly_summoned = False  # back where it started: a new card (苏生限制)
        card.came_from, card.zone, card.attached_to = origin, zone, None
        card.face_up = face_up if face_up is not None else (zone != "banished" or card.face_up)
        card.modifiers, card.effects_negated, card.equipped_to, card.chosen = [], False, None, []
        card.controller, card.control_returns_to = card.owner, None
        self.say(f"「{key}」 {reason}")
        if was_on_field and not card.on_field:
            if zone != "material":  # becoming an Xyz material is not leaving the field (masterrule/26)
                self.record("left_field", key)
            self._leave_field(card)
            if zone == "extra":
                self.record("to_extra_face_up", key)
        elif card.on_field and not was_on_field and card.face_up and card.spec.kind == MONSTER:
            self.start_applying(card)
            self._apply_own_values(card)

    def _leave_field(self, card: Card) -> None:
        was_applying, card.applying = card.applying, False
        if was_applying:
            self._lift_locks_of(card)
        self._lose_equips(card, "left the field")
        self._lose_materials(card)

    def _lose_materials(self, card: Card) -> None:
        """An Xyz monster leaving the field: its materials go to the GY by the rules,
        not from the field (masterrule/16, /27, /29: a Pendulum material goes to the GY too)."""
        with self.timeline.caused("rule"):
            for key in self.materials_of(card.key):
                self.move(
                    key,
                    "gy",
                    f"(an Xyz material of 「{card.key}」) goes to the GY by the rules (masterrule/27)",
                )
                self.record("sent_to_gy", key)

    def attach(self, key: str, xyz: str, reason: str) -> None:
        """A card becomes an Xyz material under `xyz`: not on the field any more."""
        self.move(key, "material", reason, face_up=True)
        self.card(key).attached_to = xyz
        self.record("attached", key)

    def _lose_equips(self, card: Card, why: str) -> None:
        """An equip card whose monster leaves or is turned face-down is destroyed by
        the rules, having lost its target (masterrule/83, guide/装备怪物/1)."""
        for other in self.cards.values():
            if other.equipped_to == card.key and other.on_field:
                self.destroy(other.key, f"is destroyed: the monster it equipped {why} (masterrule/83)")

    def _lift_locks_of(self, card: Card) -> None:
        """A lock that leaves: the continuous effects it negated start applying again
        from now (a field spell activated under 王宫的敕命 applies once it is gone)."""
        kinds = locks_of(card)
        for other in self.cards.values():
            if other.applying and other.on_field and any(self.in_class(other, k) for k in kinds):
                other.since = self.next_order()
        if kinds:
            self.say(f"   「{card.key}」 has left the field: its continuous effect no longer applies")

    def destroy(self, key: str, reason: str = "is destroyed") -> None:
        card = self.card(key)
        if not card.on_field:
            raise IllegalActionError(f"「{key}」 is not on the field and cannot be destroyed")
        self.move(key, "gy", reason)
        self.record("destroyed", key)
        if (
            card.zone == "gy"
        ):  # a token is never sent to the GY (§4.2.2.3/6), a Pendulum monster goes to the Extra Deck
            self.record("sent_to_gy", key)

    def send_to_gy(self, key: str, reason: str = "is sent to the GY") -> None:
        if self.card(key).zone == "gy":
            return
        if self.card(key).spec.token:
            raise IllegalActionError(
                f"illegal: 「{key}」 is a token: it cannot be sent to the GY (§4.2.2.3/6)", code="token"
            )
        self.move(key, "gy", reason)
        if self.card(key).zone == "gy":
            self.record("sent_to_gy", key)

    def tribute(self, key: str, reason: str = "is tributed") -> None:
        """Tributed: sent from the field to the GY (§3.2.2.1.1.1/1); a token is not,
        it disappears (§3.2.2.1.1.1/5)."""
        if self.card(key).spec.token:
            self.move(key, "gone", reason)
        else:
            self.send_to_gy(key, reason)
        self.record("tributed", key)

    def return_to_hand(self, key: str, reason: str = "is returned to the hand") -> None:
        if self.card(key).zone == "hand":
            return
        self.move(key, "hand", reason)
        if self.card(key).zone == "hand":  # an Extra Deck monster went back to the Extra Deck
            self.record("returned_to_hand", key)

    def banish(self, key: str, reason: str = "is banished", until: str | None = None) -> None:
        """Banished for good, or (`until: end_phase`) until the End Phase, when it
        returns to the field of the player who controlled it (§4.3.3.4.4.1)."""
        card = self.card(key)
        if card.zone == "banished":
            return
        controller = card.controller
        self.move(key, "banished", reason + (" until the End Phase" if until == "end_phase" else ""))
        card.returns_at_end_phase = until == "end_phase"
        card.returns_to = controller if until == "end_phase" else None
        self.record("banished", key)

    def flip_face_down(self, key: str) -> None:
        card = self.card(key)
        if card.spec.frame == "link":
            raise illegal(
                f"「{key}」 is a Link monster and cannot be turned face-down",
                "masterrule/172",
                "link_position",
            )
        if card.spec.token:
            raise IllegalActionError(
                f"illegal: 「{key}」 is a token and cannot be turned face-down (§4.3.3.10/5)", code="token"
            )
        card.face_up, card.position, card.used_effects = False, "defense", {}
        if card.modifiers:
            self.say(f"「{key}」 is turned face-down: the effects applied to it no longer apply (§4.3.3.10)")
        else:
            self.say(f"「{key}」 is turned face-down")
        card.modifiers = []
        if card.applying:
            self._lift_locks_of(card)
        card.applying = False
        self.record("flipped_face_down", key)
        # §4.3.3.10/2: a face-down monster is no longer the target of a continuous card.
        for other in self.cards.values():
            other.chosen = [(k, place) for k, place in other.chosen if k != key]
        self._lose_equips(card, "was turned face-down")

    def flip_face_up(self, key: str) -> None:
        """Turned face-up by an effect (a flip, not a flip summon): its FLIP effect is set off."""
        card = self.card(key)
        if card.face_up:
            return
        card.face_up = True
        self.say(f"「{key}」 is turned face-up ({card.position} position)")
        self.record("flipped_face_up", key)
        self.start_applying(card)

    def set_again(self, key: str) -> None:
        """A spell or trap whose activation was negated is set face-down again where it is,
        instead of going to the GY: it is still that card (rulings/文本的阅读方法/17), set
        this turn, so it cannot be activated again until the next turn."""
        card = self.card(key)
        card.face_up, card.applying, card.chosen = False, False, []
        card.placed_turn = card.set_again_turn = self.turn.number
        self.say(f"「{key}」 is set face-down again instead of going to the GY")
        self.record("set", key)

    def take_control(self, key: str, player: str, until: str | None = None) -> None:
        """`player` takes control of a monster: it moves to their monster zone, its owner
        stays (§4.3.3.4.7); `until: end_phase` gives it back then. A zone that is full
        when control moves destroys it (§4.3.3.4.7/3)."""
        card = self.card(key)
        if card.zone != "monster" or card.controller == player:
            self.say(f"   「{key}」 is not a monster the other player controls: its control does not change")
            return
        free = self.free_main_zones(player)
        if not free:
            self.destroy(key, f"is destroyed: {player}'s monster zones are full (§4.3.3.4.7/3)")
            return
        previous, card.controller, card.slot = card.controller, player, free[0]
        card.control_returns_to = previous if until == "end_phase" else None
        self.say(
            f"   {player} takes control of 「{key}」 (owner {card.owner})"
            + (" until the End Phase" if until else "")
        )
        self.record("control_changed", key)

    def create_token(self, name: str, controller: str) -> str:
        """A new token, not yet on the field: its key is its name, numbered after the first."""
        key, number = name, 1
        while key in self.cards:
            number += 1
            key = f"{name} {number}"
        self.put(key, name, controller, "gone")
        return key

    def change_position(self, key: str) -> None:
        """A change of battle position that names none: attack ↔ defense, and a
        face-down defense monster becomes face-up attack (002's list under
        『表示形式变更』), which also turns it face-up."""
        card = self.card(key)
        if card.spec.frame == "link":
            self.say(f"「{key}」 is a Link monster: it stays in attack position (masterrule/172)")
            return
        card.position = "defense" if card.position == "attack" else "attack"
        card.position_changed_turn = self.turn.number
        self.say(f"「{key}」 changes to {card.position} position")
        self.record("position_changed", key)
        if not card.face_up:
            self.flip_face_up(key)

    def expire_changes(self, *when: str) -> None:
        """Activated changes that last until a moment (modifiers.py `lasts`) end now."""
        for card in self.cards.values():
            ending = [m for m in card.modifiers if m.lasts in when]
            if ending:
                card.modifiers = [m for m in card.modifiers if m not in ending]
                sources = ", ".join(dict.fromkeys(f"「{m.source}」" for m in ending))
                self.say(
                    f"   the change {sources} made to 「{card.key}」 ends ({ending[0].lasts.replace('_', ' ')})"
                )

    def require_room(self, player: str, zone: str) -> None:
        used = sum(1 for c in self.cards.values() if c.zone == zone and c.controller == player)
        if zone == "spelltrap" and used >= len(SPELL_TRAP_ZONES):
            # A spell is placed in the zone to be activated, so five cards there stop it too.
            raise illegal(
                f"{player}'s spell & trap zones are full: no spell or trap can be placed there to be activated or set",
                "tournament/137",
                "zones_full",
            )

    # --- life points and the deck ----------------------------------------------------

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
            self.record(event, player)
        self.check_lp()

    def check_lp(self) -> None:
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
        p.hand_drawn += count
        self.say(f"   {player} draws {count}")
        self.record("drew", player)

    def hand_size(self, player: str) -> int:
        """The cards in a player's hand: those the situation names and those drawn."""
        named = sum(1 for c in self.cards.values() if c.zone == "hand" and c.owner == player)
        return named + self.players[player].hand_drawn


def locks_of(card: Card) -> list[str]:
    """The classes of cards whose effects this card's continuous effect negates (王宫的敕命: spells)."""
    return [
        op["target"]
        for effect in card.spec.effects
        for op in effect.ops
        if "negate_effects" in op and op.get("target") in ("spells", "traps", "monsters")
    ]
