"""The engine's refusals."""

from __future__ import annotations

from .. import OcgkbError


class EngineError(OcgkbError):
    """Something the engine cannot do."""


class IllegalActionError(EngineError):
    """An action the rules do not allow at this point."""


class IllegalChainError(IllegalActionError):
    """A chain link the rules refuse: too slow, or out of its timing."""
