"""The `replay` view: every scenario a path names, each with its verdict; and the
scenarios that replay given passages, which answers and sections show."""

from __future__ import annotations

import os

from ocgkb.paths import StrPath, Where
from ocgkb.store import cards, scenarios
from ocgkb.store.database import KnowledgeBase


def replay_view(path: Where, kb_dir: StrPath) -> dict:
    """`{"outcomes": [...], "exit": N}`: each file's verdict (pass, mismatch or
    malformed) with its log and final state; `exit` is the worst result. One
    malformed file named on its own is a ScenarioError."""
    # The engine and its YAML reader only when a replay is asked for: answers
    # import this module for `scenarios_replaying`.
    from ocgkb.engine.scenario import ScenarioError, replay_files, resolve_scenarios, worst_exit

    outcomes = replay_files(resolve_scenarios(path, kb_dir))
    if len(outcomes) == 1 and outcomes[0].status == "malformed":
        raise ScenarioError(outcomes[0].reason)
    return {"outcomes": [o.as_dict() for o in outcomes], "exit": worst_exit(outcomes)}


def replay_text_view(text: str) -> dict:
    """`replay_view` of a scenario given as YAML text rather than a file, read and
    played under a file's limits; malformed, it is a ScenarioError."""
    from ocgkb.engine.scenario import ScenarioError, replay_text, worst_exit

    outcome = replay_text(text)
    if outcome.status == "malformed":
        raise ScenarioError(outcome.reason)
    return {"outcomes": [outcome.as_dict()], "exit": worst_exit([outcome])}


def most_scenario_bytes() -> int:
    """The most bytes a scenario's YAML may hold (the engine's limit)."""
    from ocgkb.engine.scenario import MAX_BYTES

    return MAX_BYTES


def scenarios_replaying(kb: KnowledgeBase, passage_ids: list[str]) -> list[dict]:
    """The scenarios of kb/scenarios/ that replay any of these passages, by name."""
    return scenarios_replaying_groups(kb, [passage_ids])[0]


def scenarios_replaying_groups(kb: KnowledgeBase, groups: list[list[str]]) -> list[list[dict]]:
    """For each group of passages, the scenarios that replay any of them, by name:
    one read for every group (an answer's hits, each with its clause)."""
    each = scenarios.scenarios_replaying_each(kb, [pid for group in groups for pid in group])
    shown = []
    for group in groups:
        rows = {row["name"]: row for pid in group for row in each.get(pid, [])}
        shown.append(
            [
                {"name": row["name"], "title": row["title"], "file": f"kb/scenarios/{row['file']}"}
                for _, row in sorted(rows.items())
            ]
        )
    return shown


def scenario_view(kb: KnowledgeBase, name: str, kb_dir: StrPath) -> dict:
    """One curated scenario, by the name the knowledge base lists it under, replayed:
    its verdict, the log step by step and the final state. A name the knowledge base
    does not list is NotFound (so no path from outside ever reaches the file system)."""
    from ocgkb import NotFound

    row = scenarios.scenario(kb, name)
    if row is None:
        raise NotFound(f"no scenario {name!r}")
    outcome = replay_view(os.path.join(kb_dir, "scenarios", row["file"]), kb_dir)["outcomes"][0]
    # Scenarios may invent cards (占位怪兽) to play a rule out: only real ones are linked.
    names = list((outcome.get("state") or {}).get("cards", {}))
    known = cards.known_cards(kb, names)
    return {
        "name": row["name"],
        **outcome,
        "file": f"kb/scenarios/{row['file']}",
        "known_cards": [name for name in names if name in known],
    }
