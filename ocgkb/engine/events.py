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

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Event:
    name: str  # summoned, destroyed, sent_to_gy, … (kb/scenarios/README.md lists them)
    subject: str  # the card key, or the player
    moment: int
    aftermath: bool = False  # a spell or trap's own trip to the GY after its link resolved


@dataclass
class Timeline:
    events: list[Event] = field(default_factory=list)
    moment: int = 0

    def next_moment(self) -> int:
        """Something new happens: later events are after everything recorded so far."""
        self.moment += 1
        return self.moment

    def record(self, name: str, subject: str, aftermath: bool = False) -> Event:
        event = Event(name, subject, self.moment, aftermath)
        self.events.append(event)
        return event

    def matching(self, event: str, key: str, since: int = 0) -> list[Event]:
        """The events since index `since` an effect waits for: `a|b` is either, and
        `self_X` is X of this very card."""
        own = event.startswith("self_")
        names = event.removeprefix("self_").split("|")
        return [e for e in self.events[since:] if e.name in names and (not own or e.subject == key)]

    def is_last(self, event: Event) -> bool:
        """Whether nothing has happened since `event`: its moment is the latest."""
        return event.moment == self.moment

    def last(self) -> str:
        """The latest thing that happened, in words."""
        latest = [e for e in self.events if e.moment == self.moment and not e.aftermath]
        if not latest:
            return "the resolution of a chain link that changed nothing" if self.moment else "nothing"
        return ", ".join(f"{e.name} of 「{e.subject}」" for e in latest)
