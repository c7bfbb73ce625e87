"""The one registration of a verb: an operation an effect may name, or an action
a scenario may take, declared once beside the function that performs it, with
what it may carry. The readers (engine/cards.py for operations, the scenario
checks for actions) and the documentation test read the registry; nothing else
lists the verbs again.

At the bottom of the engine, importing nothing: a card is read against the
operations without importing what they do (engine/__init__ imports the duel, and
with it engine/operations.py, which fills `OPERATIONS`, before any card is read).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any


class Verb:
    """A verb: its name, the fields it may carry besides its own value, whether it
    acts on cards (an operation) or takes no value (an action written bare), and
    the function that performs it."""

    __slots__ = ("name", "fields", "on_cards", "bare", "run")

    def __init__(
        self, name: str, run: Callable[..., Any], fields: frozenset[str], on_cards: bool, bare: bool
    ) -> None:
        self.name, self.run, self.fields, self.on_cards, self.bare = name, run, fields, on_cards, bare


class Registry:
    """The verbs of one kind, in the order they were registered."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._verbs: dict[str, Verb] = {}

    def register(
        self, name: str, fields: Iterable[str] = (), on_cards: bool = False, bare: bool = False
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """A decorator: the function performs the verb `name`."""

        def add(run: Callable[..., Any]) -> Callable[..., Any]:
            if name in self._verbs:
                raise ValueError(f"the {self.kind} {name!r} is registered twice")
            self._verbs[name] = Verb(name, run, frozenset(fields), on_cards, bare)
            return run

        return add

    def __getitem__(self, name: str) -> Verb:
        return self._verbs[name]

    def __contains__(self, name: object) -> bool:
        return name in self._verbs

    def __iter__(self) -> Iterator[str]:
        return iter(self._verbs)

    def __len__(self) -> int:
        return len(self._verbs)

    def fields(self) -> dict[str, frozenset[str]]:
        """Each verb's fields, by name."""
        return {name: verb.fields for name, verb in self._verbs.items()}


# What effects do (engine/operations.py registers each).
OPERATIONS = Registry("operation")
# What a scenario's steps do (engine/actions.py registers each).
ACTIONS = Registry("action")
