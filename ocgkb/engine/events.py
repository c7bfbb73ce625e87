"""What happened in a duel, and when: the record missed timing is decided from.

Every event carries the *moment* it happened. Events of one moment happened at
the same time: the operations of an effect written with 、 / "and" (destroy it
and inflict 500 damage) share a moment; those written with 那之后 / "then" each
take the next one. Each chain link that resolves is a new moment even if it
changes nothing, so a trigger set off by link 2 is no longer "the last thing
that happened" once link 1 has resolved (卡时点). A spell or trap's own trip to
the GY after it resolves is not part of its effect: it is recorded, but it is
not a later moment.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field

# What made an event happen: a card's effect, a cost, a battle, a player's own
# action (a summon, an attack), or the rules themselves (an equip losing its
# monster, a banished card coming back).
# `material`: used as the material of a summon (Cause.material says which).
CAUSES = ("effect", "cost", "battle", "action", "rule", "material")


@dataclass(frozen=True)
class Cause:
    kind: str = "rule"  # one of CAUSES
    by: str | None = None  # the card whose effect or cost it was
    player: str | None = None  # the player who activated it, paid it or acted
    material: str | None = None  # the summon a material was used for: synchro, link, fusion, ritual, xyz


@dataclass(frozen=True)
class Event:
    name: str  # summoned, destroyed, sent_to_gy, … (kb/scenarios/README.md lists them)
    subject: str  # the card key, or the player
    moment: int
    aftermath: bool = False  # a spell or trap's own trip to the GY after its link resolved
    origin: str | None = None  # the zone a card moved from, for events that move one
    cause: Cause = Cause()

    def as_dict(self) -> dict:
        found = {
            "event": self.name,
            "card": self.subject,
            "from": self.origin,
            "cause": self.cause.kind,
            "by": self.cause.by,
            "player": self.cause.player,
        }
        if self.cause.material:
            found["material"] = self.cause.material
        return found


@dataclass
class Timeline:
    events: list[Event] = field(default_factory=list)
    moment: int = 0
    cause: Cause = Cause()  # what is making things happen now

    @contextlib.contextmanager
    def caused(
        self, kind: str, by: str | None = None, player: str | None = None, material: str | None = None
    ) -> Iterator[None]:
        """Everything recorded inside happened by this cause (the innermost wins:
        an effect resolving during a player's action is the effect's doing)."""
        outer, self.cause = self.cause, Cause(kind, by, player, material)
        try:
            yield
        finally:
            self.cause = outer

    def next_moment(self) -> int:
        """Something new happens: later events are after everything recorded so far."""
        self.moment += 1
        return self.moment

    def record(self, name: str, subject: str, aftermath: bool = False, origin: str | None = None) -> Event:
        event = Event(name, subject, self.moment, aftermath, origin, self.cause)
        self.events.append(event)
        return event

    def matching(
        self, event: str, key: str, since: int = 0, material: str | None = None, origin: str | None = None
    ) -> list[Event]:
        """The events since index `since` an effect waits for: `a|b` is either, and
        `self_X` is X of this very card; `material`: used for that summon only;
        `origin`: moved from that zone only (从场上送去墓地: monster)."""
        own = event.startswith("self_")
        names = event.removeprefix("self_").split("|")
        return [
            e
            for e in self.events[since:]
            if e.name in names
            and (not own or e.subject == key)
            and (material is None or e.cause.material == material)
            and (origin is None or e.origin == origin)
        ]

    def is_last(self, event: Event) -> bool:
        """Whether nothing has happened since `event`: its moment is the latest."""
        return event.moment == self.moment

    def last(self) -> str:
        """The latest thing that happened, in words."""
        latest = [e for e in self.events if e.moment == self.moment and not e.aftermath]
        if not latest:
            return "the resolution of a chain link that changed nothing" if self.moment else "nothing"
        return ", ".join(f"{e.name} of 「{e.subject}」" for e in latest)
