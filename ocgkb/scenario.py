"""Replayable situations: a YAML file in kb/scenarios/ that names the cards, the
starting state, the actions in order and the outcome the source text states,
and cites the clause or ruling it replays by its knowledge-base id.

    title: 突进 then 黑羽-疾风之盖尔 on 电气尾龙
    replays: [4.3.3.6.1.1/2, 4.3.3.6.1.1/2/ex1]
    cards:
      电气尾龙: {kind: monster, atk: 2500, def: 1000}
      突进: {kind: spell, type: quick-play, effect: {modify: atk, by: 700}}
      黑羽-疾风之盖尔: {kind: monster, atk: 1300, def: 400, effect: {modify: atk, set: half}}
    start:
      A: {monsters: [电气尾龙], hand: [突进]}
      B: {monsters: [黑羽-疾风之盖尔]}
    actions:
      - activate: 突进
        target: 电气尾龙
      - resolve
      - activate: 黑羽-疾风之盖尔
        target: 电气尾龙
      - resolve
    expect:
      cards: {电气尾龙: {atk: 1600}}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from . import OcgkbError
from .engine import Duel, EngineError, IllegalActionError
from .engine.cards import ScenarioCardError, parse_card

ZONES = ("hand", "deck", "extra", "monsters", "spelltrap", "field", "gy", "banished")
ACTIONS = (
    "summon", "set", "special_summon", "activate", "resolve", "attack", "retarget", "damage_step",
    "destroy", "flip_face_down", "negate_effects", "end_phase", "damage", "draw",
)  # fmt: skip


class ScenarioError(OcgkbError):
    """A scenario file that cannot be replayed: it names the file, the step and what is wrong."""

    exit_code = 2  # a malformed file; a replay that ends otherwise than stated exits 1


@dataclass
class Scenario:
    path: Path
    title: str
    replays: list[str]
    cards: dict[str, Any]
    start: dict[str, Any]
    actions: list[dict[str, Any]]
    expect: dict[str, Any]
    quote: str = ""


@dataclass
class Replay:
    scenario: Scenario
    log: list[str]
    state: dict[str, Any]
    mismatches: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.mismatches

    def as_dict(self) -> dict[str, Any]:
        return {
            "file": str(self.scenario.path),
            "title": self.scenario.title,
            "replays": self.scenario.replays,
            "passed": self.passed,
            "log": self.log,
            "state": self.state,
            "mismatches": self.mismatches,
        }


def read_scenario(path: Path) -> Scenario:
    """A scenario file, checked for shape; ScenarioError names what is wrong."""
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read it ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise ScenarioError(f"{path}: not UTF-8") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise ScenarioError(f"{path}: bad YAML{where}: {getattr(exc, 'problem', exc)}") from None
    if not isinstance(data, dict):
        raise ScenarioError(f"{path}: expected a mapping with title, cards, start, actions, expect")
    missing = [k for k in ("title", "cards", "actions", "expect") if k not in data]
    if missing:
        raise ScenarioError(f"{path}: missing {', '.join(missing)}")
    if not isinstance(data["cards"], dict) or not isinstance(data["actions"], list):
        raise ScenarioError(f"{path}: cards must be a mapping and actions a list")
    replays = data.get("replays") or []
    return Scenario(
        path=Path(path),
        title=str(data["title"]),
        replays=[str(r) for r in (replays if isinstance(replays, list) else [replays])],
        cards=data["cards"],
        start=data.get("start") or {},
        actions=data["actions"],
        expect=data["expect"] or {},
        quote=str(data.get("quote") or ""),
    )


def replay(scenario: Scenario) -> Replay:
    """Play a scenario; the result says where it differs from what the text states."""
    where = str(scenario.path)
    try:
        specs = {
            key: parse_card(str(value.get("name", key)) if isinstance(value, dict) else key, value)
            for key, value in scenario.cards.items()
        }
    except ScenarioCardError as exc:
        raise ScenarioError(f"{where}: {exc}") from None
    start = scenario.start
    duel = Duel({key: spec for key, spec in specs.items()}, turn_player=str(start.get("turn", "A")))
    try:
        _set_up(duel, start, where)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ScenarioError(f"{where}: start: {type(exc).__name__}: {exc}") from None
    except EngineError as exc:
        raise ScenarioError(f"{where}: start: {exc}") from None
    mismatches: list[str] = []
    for number, action in enumerate(scenario.actions, 1):
        step = f"{where}: step {number}"
        if isinstance(action, str) and action in ("resolve", "damage_step", "end_phase"):
            action = {action: None}  # the verbs that take nothing can be written bare
        if not isinstance(action, dict) or not any(k in ACTIONS for k in action):
            raise ScenarioError(f"{step}: unknown action {action!r} (known: {', '.join(ACTIONS)})")
        refused = action.get("expect_error")
        try:
            _perform(duel, action, step)
        except IllegalActionError as exc:
            if refused is None:
                # An action the rules refuse (a chain too slow, an attack that cannot
                # be made) that the file does not mark `expect_error` is a mistake
                # in the file.
                raise ScenarioError(f"{step}: impossible: {exc}") from None
            duel.say(f"refused, as the text says: {exc}")
            if str(refused) and str(refused) not in str(exc):
                mismatches.append(f"step {number}: refused for another reason: {exc}")
            continue
        except EngineError as exc:
            raise ScenarioError(f"{step}: {exc}") from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            # A value of the wrong shape in the file (a word where a number goes…).
            raise ScenarioError(f"{step}: cannot perform {action!r}: {type(exc).__name__}: {exc}") from None
        if refused is not None:
            mismatches.append(f"step {number}: the text says this is not allowed, but it was")
    state = duel.state()
    mismatches += _compare(scenario.expect, duel, state)
    log = [f"{i:>3}. {line}" for i, line in enumerate(duel.log, 1)]
    return Replay(scenario, log, state, mismatches)


def _set_up(duel: Duel, start: dict[str, Any], where: str) -> None:
    for player in ("A", "B"):
        side = start.get(player) or {}
        if not isinstance(side, dict):
            raise ScenarioError(f"{where}: start.{player} must be a mapping of zones")
        duel.players[player].lp = int(side.get("lp", 8000))
        deck = side.get("deck", 40)  # a number of cards, or the cards that matter
        duel.players[player].deck = len(deck) if isinstance(deck, list) else int(deck)
        for zone in ZONES:
            entries = side.get(zone) or []
            if zone == "deck" and not isinstance(entries, list):
                continue
            if not isinstance(entries, list):
                raise ScenarioError(f"{where}: start.{player}.{zone} must be a list of cards")
            for entry in entries:
                key, options = (entry, {}) if isinstance(entry, str) else (entry.get("card"), entry)
                if key not in duel.specs:
                    raise ScenarioError(f"{where}: start: {player}'s {zone} names unknown card {key!r}")
                duel.put(
                    str(key),
                    str(key),
                    player,
                    "monster" if zone == "monsters" else zone,
                    face_up=options.get("face", "up") == "up",
                    position=options.get("position", "attack"),
                )
        unknown = set(side) - set(ZONES) - {"lp", "deck"}
        if unknown:
            raise ScenarioError(f"{where}: start.{player}: unknown zone {', '.join(sorted(unknown))}")


def _perform(duel: Duel, action: dict[str, Any], step: str) -> None:
    def card(name: str) -> str:
        key = str(action[name])
        if key not in duel.cards:
            raise ScenarioError(f"{step}: unknown card {key!r}")
        return key

    if "activate" in action:
        raw = action.get("target") or []
        targets = [str(t) for t in (raw if isinstance(raw, list) else [raw])]
        for t in targets:
            if t not in duel.cards:
                raise ScenarioError(f"{step}: the target {t!r} is not a card of this scenario")
            if duel.cards[t].zone in ("hand", "deck"):
                raise ScenarioError(f"{step}: the target {t!r} is not on the field or in a public zone")
        duel.activate(card("activate"), targets, int(action.get("effect", 1)) - 1, action.get("player"))
    elif "resolve" in action:
        duel.resolve_chain()
    elif "summon" in action:
        duel.summon(card("summon"), action.get("position", "attack"))
    elif "set" in action:
        key = card("set")
        if duel.cards[key].spec.kind == "monster":
            duel.summon(key, "defense", face_up=False)
        else:
            duel.cards[key].zone, duel.cards[key].face_up = "spelltrap", False
            duel.say(f"{duel.cards[key].controller} sets 「{key}」")
    elif "special_summon" in action:
        duel.special_summon(card("special_summon"), action.get("position", "attack"), action.get("player"))
        duel._after_change()
    elif "attack" in action:
        target = action.get("target", "direct")
        if target != "direct" and target not in duel.cards:
            raise ScenarioError(f"{step}: the attack target {target!r} is not a card of this scenario")
        duel.declare_attack(card("attack"), None if target == "direct" else str(target))
    elif "retarget" in action:
        target = action["retarget"]
        duel.retarget(None if target in ("direct", None) else str(target))
    elif "damage_step" in action:
        duel.damage_step()
    elif "destroy" in action:
        duel.destroy(card("destroy"), action.get("reason", "is destroyed"))
    elif "flip_face_down" in action:
        duel.flip_face_down(card("flip_face_down"))
    elif "negate_effects" in action:
        duel.negate_effects_of(card("negate_effects"))
    elif "end_phase" in action:
        duel.end_phase()
    elif "damage" in action:
        spec = action["damage"]
        players = spec.get("players", [spec.get("player", "B")])
        duel._damage_many([str(p) for p in players], int(spec["amount"]))
    elif "draw" in action:
        duel.draw_cards(str(action.get("player", duel.turn_player)), int(action["draw"]))


def _compare(expect: dict[str, Any], duel: Duel, state: dict[str, Any]) -> list[str]:
    """Where the final state differs from what the text states."""
    out = []
    for key, wanted in (expect.get("cards") or {}).items():
        if key not in state["cards"]:
            out.append(f"expect: no card {key!r} in this scenario")
            continue
        have = state["cards"][key]
        for attr, value in wanted.items():
            if attr not in have or have[attr] != value:
                out.append(f"「{key}」 {attr}: the text says {value!r}, the replay gives {have.get(attr)!r}")
    for player, lp in (expect.get("lp") or {}).items():
        if state["lp"].get(player) != lp:
            out.append(f"{player}'s LP: the text says {lp}, the replay gives {state['lp'].get(player)}")
    if "winner" in expect and (expect["winner"] or None) != state["winner"]:
        out.append(f"winner: the text says {expect['winner']!r}, the replay gives {state['winner']!r}")
    if "replay" in expect:
        wanted = expect["replay"]
        have = state["replays"]
        if (isinstance(wanted, bool) and wanted != (have > 0)) or (
            not isinstance(wanted, bool) and wanted != have
        ):
            out.append(f"replay: the text says {wanted!r}, the replay gives {have}")
    if "missed" in expect and sorted(expect["missed"]) != sorted(state["missed"]):
        out.append(f"missed timing: the text says {expect['missed']}, the replay gives {state['missed']}")
    if "resolved" in expect and list(expect["resolved"]) != state["resolved"]:
        out.append(
            f"resolution order: the text says {expect['resolved']}, the replay gives {state['resolved']}"
        )
    return out


def resolve_scenarios(path: Path | None, kb_dir: Path) -> list[Path]:
    """The scenario files a `replay` argument means: a file, a folder, or the name
    of a scenario in the curated knowledge (`kb_dir/scenarios/`); none: them all."""
    curated = Path(kb_dir) / "scenarios"
    if path is None:
        return scenario_files(curated)
    named = curated / f"{Path(path).name.removesuffix('.yaml')}.yaml"
    if not Path(path).exists() and named.exists():
        return [named]
    return scenario_files(path)


def scenario_files(path: Path) -> list[Path]:
    """The scenario files of a folder (sorted), or the one file given."""
    path = Path(path)
    if path.is_dir():
        return sorted(p for p in path.glob("*.yaml") if p.is_file())
    if not path.exists():
        raise ScenarioError(f"{path}: no such file or folder")
    return [path]
