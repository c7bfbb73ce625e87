"""A small, readable model of a duel that replays the rule texts' situations.

Not a card simulator: cards carry only the properties a situation needs
(`CardSpec`), effects are a handful of operations (`Effect`), and every verb of
`Duel` writes what it did, and why, to `Duel.log`.
"""

from .cards import CardSpec, Effect, ScenarioCardError
from .duel import Duel
from .errors import EngineError, IllegalActionError, IllegalChainError

__all__ = [
    "CardSpec",
    "Duel",
    "Effect",
    "EngineError",
    "IllegalActionError",
    "IllegalChainError",
    "ScenarioCardError",
]
