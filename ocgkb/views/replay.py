"""The `replay` view: every scenario a path names, each with its verdict."""

from __future__ import annotations

from pathlib import Path

from ocgkb.engine.scenario import ScenarioError, replay_files, resolve_scenarios, worst_exit


def replay_view(path: Path | None, kb_dir: Path) -> dict:
    """`{"outcomes": [...], "exit": N}`: each file's verdict (pass, mismatch or
    malformed) with its log and final state; `exit` is the worst result. One
    malformed file named on its own is a ScenarioError."""
    outcomes = replay_files(resolve_scenarios(path, kb_dir))
    if len(outcomes) == 1 and outcomes[0].status == "malformed":
        raise ScenarioError(outcomes[0].reason)
    return {"outcomes": [o.as_dict() for o in outcomes], "exit": worst_exit(outcomes)}
