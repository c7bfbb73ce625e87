"""The `replay` view: every scenario a path names, each with its verdict; and the
scenarios that replay given passages, which answers and sections show."""

from __future__ import annotations

from pathlib import Path

from ocgkb.store.database import KnowledgeBase


def replay_view(path: Path | None, kb_dir: Path) -> dict:
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


def scenarios_replaying(kb: KnowledgeBase, passage_ids: list[str]) -> list[dict]:
    """The scenarios of kb/scenarios/ that replay any of these passages."""
    if not passage_ids:
        return []
    marks = ",".join("?" * len(passage_ids))
    rows = kb.query(
        f"""SELECT DISTINCT s.name, s.title, s.file FROM links l JOIN scenarios s ON l.src = 'scenario:' || s.name
            WHERE l.relation = 'replays' AND l.dst IN ({marks}) ORDER BY s.name""",
        [f"passage:{pid}" for pid in passage_ids],
    )
    return [{"name": r["name"], "title": r["title"], "file": f"kb/scenarios/{r['file']}"} for r in rows]


def scenario_view(kb: KnowledgeBase, name: str, kb_dir: Path) -> dict:
    """One curated scenario, by the name the knowledge base lists it under, replayed:
    its verdict, the log step by step and the final state. A name the knowledge base
    does not list is NotFound (so no path from outside ever reaches the file system)."""
    from ocgkb import NotFound

    rows = kb.query("SELECT name, file FROM scenarios WHERE name = ?", (name,))
    if not rows:
        raise NotFound(f"no scenario {name!r}")
    outcome = replay_view(Path(kb_dir) / "scenarios" / rows[0]["file"], kb_dir)["outcomes"][0]
    # Scenarios may invent cards (占位怪兽) to play a rule out: only real ones are linked.
    names = list((outcome.get("state") or {}).get("cards", {}))
    known = {
        r[0] for r in kb.query(f"SELECT name FROM cards WHERE name IN ({','.join('?' * len(names))})", names)
    }
    return {
        "name": rows[0]["name"],
        **outcome,
        "file": f"kb/scenarios/{rows[0]['file']}",
        "known_cards": [name for name in names if name in known],
    }
