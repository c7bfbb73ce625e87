"""The engine's refusals."""

from __future__ import annotations

from .. import OcgkbError


class EngineError(OcgkbError):
    """Something the engine cannot do."""


class IllegalActionError(EngineError):
    """An action the rules do not allow at this point. `code` is a stable name for
    the reason (timing_passed, wrong_phase, …) that a scenario can expect whatever
    the wording; kb/scenarios/README.md lists them."""

    def __init__(self, message: str, code: str = "illegal") -> None:
        super().__init__(message)
        self.code = code


class IllegalChainError(IllegalActionError):
    """A chain link the rules refuse: too slow, or out of its timing."""
