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


def illegal(what: str, rule: str, code: str = "illegal") -> IllegalActionError:
    """A refusal that names the passage refusing it, with a stable reason code.
    Here, at the bottom, so that state.py's verbs can cite their passage too."""
    return IllegalActionError(f"illegal: {what} ({rule})", code)


class IllegalChainError(IllegalActionError):
    """A chain link the rules refuse: too slow, or out of its timing."""


class ScenarioError(OcgkbError):
    """A scenario file that cannot be replayed: it names the file, the step and what is wrong."""

    exit_code = 2  # a malformed file; a replay that ends otherwise than stated exits 1
    http_status = 500  # the web replays only the curated scenarios: a malformed one is our fault


class NoScenarios(ScenarioError):
    """A folder with no scenario in it: nothing was checked, which is not a pass."""

    exit_code = 1
