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

A file is checked for shape before anything is played: every wrong shape,
unknown player, negative count or unknown verb is one ScenarioError naming the
file, the step and the field. The YAML is read with limits on size, depth and
alias expansion, so any file answers within seconds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ocgkb import yamlio
from ocgkb.engine import Duel, EngineError, IllegalActionError
from ocgkb.engine.actions import PLAYERS
from ocgkb.engine.actions import count as _count
from ocgkb.engine.cards import ScenarioCardError, parse_card
from ocgkb.engine.errors import NoScenarios, ScenarioError
from ocgkb.engine.events import CAUSES
from ocgkb.engine.rules import PHASES
from ocgkb.engine.verbs import ACTIONS
from ocgkb.engine.zones import PENDULUM_ZONES, parse_slot
from ocgkb.files import UnsafePathError, read_at_most

ZONES = ("hand", "deck", "extra", "extra_face_up", "monsters", "spelltrap", "field", "gy", "banished")
MAX_BYTES = 256 * 1024  # the longest scenario is 3 KB
MAX_DEPTH = 24
MAX_NODES = 20_000  # after aliases are expanded
TOP_FIELDS = frozenset({"title", "replays", "quote", "cards", "start", "actions", "expect"})
EXPECT_FIELDS = frozenset(
    {
        "cards",
        "lp",
        "winner",
        "replay",
        "missed",
        "resolved",
        "turn",
        "phase",
        "hand",
        "deck",
        "pending",
        "events",
        "monsters",
    }
)
EVENT_FIELDS = frozenset({"event", "card", "from", "cause", "by", "player", "material"})
CARD_STATE = frozenset(
    {
        "zone",
        "atk",
        "def",
        "level",
        "controller",
        "face_up",
        "position",
        "zone_number",
        "materials",
        "linked",
        "properly_summoned",
    }
)


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


@dataclass
class Outcome:
    """One file of a folder replay: pass, mismatch or malformed, and why."""

    file: Path
    status: str
    reason: str = ""
    replay: Replay | None = None

    EXIT = {"pass": 0, "mismatch": 1, "malformed": 2}

    def as_dict(self) -> dict[str, Any]:
        return {"file": str(self.file), "status": self.status, "reason": self.reason} | (
            self.replay.as_dict() if self.replay else {}
        )


def replay_files(files: list[Path]) -> list[Outcome]:
    """Every file replayed, each with its own verdict: one malformed file never
    hides what the others do."""
    return [_outcome(file, read_scenario) for file in files]


def replay_text(text: str, name: str = "scenario") -> Outcome:
    """A scenario given as YAML text (no file), replayed under a file's limits;
    `name` stands for the file in its messages."""
    return _outcome(Path(name), lambda path: scenario_from(parse_yaml(text.encode("utf-8"), path), path))


def _outcome(file: Path, read: Callable[[Path], Scenario]) -> Outcome:
    try:
        result = replay(read(file))
    except ScenarioError as exc:
        return Outcome(file, "malformed", str(exc))
    status = "pass" if result.passed else "mismatch"
    return Outcome(file, status, "; ".join(result.mismatches), result)


def worst_exit(outcomes: list[Outcome]) -> int:
    return max((Outcome.EXIT[o.status] for o in outcomes), default=0)


# --- reading -----------------------------------------------------------------------


def load_yaml(path: Path) -> Any:
    """YAML from a file, refused when too big, too deep or an alias bomb."""
    try:
        data = read_at_most(Path(path), MAX_BYTES)  # /dev/zero or a FIFO: refused, never read whole
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read it ({exc.strerror})") from None
    except UnsafePathError as exc:
        raise ScenarioError(f"{exc}; a scenario is a YAML file") from None
    return parse_yaml(data, path)


def parse_yaml(data: bytes, path: Path) -> Any:
    """YAML from a scenario's bytes (`path` names it in errors), under the same limits."""
    if len(data) > MAX_BYTES:
        raise ScenarioError(f"{path}: more than {MAX_BYTES:,} bytes is too big for a scenario")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ScenarioError(f"{path}: not UTF-8") from None
    try:
        _check_size(text, path)
        return yamlio.load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise ScenarioError(f"{path}: bad YAML{where}: {getattr(exc, 'problem', None) or exc}") from None


def _check_size(text: str, path: Path) -> None:
    """Walk the parser's events (no recursion, nothing built): depth, and the number
    of nodes once every alias is expanded, both bounded."""
    anchors: dict[str, int] = {}
    open_nodes: list[list] = []  # [anchor, nodes inside] for each open collection
    for event in yamlio.events(text):
        size = 0
        if isinstance(event, yaml.AliasEvent):
            size = anchors.get(event.anchor or "", 0)
        elif isinstance(event, yaml.ScalarEvent):
            size = 1
            if event.anchor:
                anchors[event.anchor] = 1
        elif isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            open_nodes.append([event.anchor, 1])
            if len(open_nodes) > MAX_DEPTH:
                raise ScenarioError(f"{path}: nested deeper than {MAX_DEPTH} levels")
            continue
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            anchor, size = open_nodes.pop()
            if anchor:
                anchors[anchor] = size
        else:
            continue
        # A closed collection counts in the one around it, so the outermost holds them all.
        if open_nodes:
            open_nodes[-1][1] += size
        if size > MAX_NODES or (open_nodes and open_nodes[-1][1] > MAX_NODES):
            raise ScenarioError(f"{path}: more than {MAX_NODES:,} values once its aliases are expanded")


def read_scenario(path: Path) -> Scenario:
    """A scenario file, checked for shape; ScenarioError names what is wrong."""
    return scenario_from(load_yaml(path), path)


def scenario_from(data: Any, path: Path) -> Scenario:
    """A scenario from its parsed YAML, checked for shape."""
    if not isinstance(data, dict):
        raise ScenarioError(f"{path}: expected a mapping with title, cards, start, actions, expect")
    missing = [k for k in ("title", "cards", "actions", "expect") if k not in data]
    if missing:
        raise ScenarioError(f"{path}: missing {', '.join(missing)}")
    unknown = set(map(str, data)) - TOP_FIELDS
    if unknown:
        raise ScenarioError(
            f"{path}: unknown field {', '.join(sorted(unknown))} (fields: {', '.join(sorted(TOP_FIELDS))})"
        )
    _expect_type(path, "cards", data["cards"], dict, "a mapping of card names")
    _expect_type(path, "actions", data["actions"], list, "a list of steps")
    _expect_type(
        path, "start", data.get("start") or {}, dict, "a mapping of the turn and each player's zones"
    )
    _expect_type(path, "expect", data["expect"] or {}, dict, "a mapping of what the text states")
    replays = data.get("replays") or []
    scenario = Scenario(
        path=Path(path),
        title=str(data["title"]),
        replays=[str(r) for r in (replays if isinstance(replays, list) else [replays])],
        cards=data["cards"],
        start=data.get("start") or {},
        actions=data["actions"],
        expect=data["expect"] or {},
        quote=str(data.get("quote") or ""),
    )
    _check_start(scenario)
    _check_expect(scenario)
    return scenario


def _expect_type(path: Path, name: str, value: Any, kind: type, what: str) -> None:
    if not isinstance(value, kind):
        raise ScenarioError(f"{path}: {name} must be {what}, not {type(value).__name__} {value!r:.60}")


def _check_start(scenario: Scenario) -> None:
    where, start = f"{scenario.path}: start", scenario.start
    unknown = set(map(str, start)) - {"turn", "phase", "duel_turn", *PLAYERS}
    if unknown:
        raise ScenarioError(f"{where}: unknown field {', '.join(sorted(unknown))} (players are A and B)")
    if "duel_turn" in start and not (_count(start["duel_turn"]) and start["duel_turn"] >= 1):
        raise ScenarioError(f"{where}.duel_turn: {start['duel_turn']!r} is not a turn number (1 or more)")
    if str(start.get("turn", "A")) not in PLAYERS:
        raise ScenarioError(f"{where}.turn: {start['turn']!r} is not a player (A or B)")
    if start.get("phase") is not None and start["phase"] not in PHASES:
        raise ScenarioError(f"{where}.phase: {start['phase']!r} is not a phase ({', '.join(PHASES)})")
    for player in PLAYERS:
        side = start.get(player) or {}
        if not isinstance(side, dict):
            raise ScenarioError(f"{where}.{player} must be a mapping of zones")
        unknown = set(map(str, side)) - set(ZONES) - {"lp", "deck"}
        if unknown:
            raise ScenarioError(f"{where}.{player}: unknown zone {', '.join(sorted(unknown))}")
        if "lp" in side and not _count(side["lp"]):
            raise ScenarioError(f"{where}.{player}.lp must be a whole number, 0 or more, not {side['lp']!r}")
        deck = side.get("deck", 40)
        if not (_count(deck) or isinstance(deck, list)):
            raise ScenarioError(
                f"{where}.{player}.deck must be a number of cards (0 or more) or a list, not {deck!r}"
            )
        for zone in ZONES:
            entries = side.get(zone) or []
            if zone != "deck" and not isinstance(entries, list):
                raise ScenarioError(f"{where}.{player}.{zone} must be a list of cards")
            for entry in entries if isinstance(entries, list) else []:
                _check_entry(f"{where}.{player}.{zone}", zone, entry)


ENTRY_FIELDS = frozenset(
    {
        "card",
        "face",
        "position",
        "owner",
        "summoned_this_turn",
        "set_this_turn",
        "attacked_this_turn",
        "zone",
        "materials",
        "pendulum",
        "properly_summoned",
    }
)


def _check_entry(where: str, zone: str, entry: Any) -> None:
    """A card placed at the start: its name, or a mapping of how it stands."""
    if isinstance(entry, str):
        return
    if not isinstance(entry, dict) or "card" not in entry:
        raise ScenarioError(f"{where}: {entry!r:.60} is neither a card nor a mapping with card")
    unknown = set(map(str, entry)) - ENTRY_FIELDS
    if unknown:
        raise ScenarioError(
            f"{where}.{entry['card']}: unknown field {', '.join(sorted(unknown))} (fields: {', '.join(sorted(ENTRY_FIELDS))})"
        )
    if entry.get("owner", "A") not in PLAYERS:
        raise ScenarioError(f"{where}.{entry['card']}.owner: {entry['owner']!r} is not a player (A or B)")
    for flag in ("summoned_this_turn", "set_this_turn", "attacked_this_turn", "properly_summoned"):
        if not isinstance(entry.get(flag, False), bool):
            raise ScenarioError(f"{where}.{entry['card']}.{flag} must be true or false")
    if "zone" in entry and (zone != "monsters" or parse_slot(entry["zone"]) is None):
        raise ScenarioError(
            f"{where}.{entry['card']}.zone: a monster's zone is 1–5, emz_left or emz_right, not {entry['zone']!r}"
        )
    if "materials" in entry and (zone != "monsters" or not isinstance(entry["materials"], list)):
        raise ScenarioError(f"{where}.{entry['card']}.materials: a list of cards under a monster")
    if "pendulum" in entry and (zone != "spelltrap" or entry["pendulum"] not in PENDULUM_ZONES):
        raise ScenarioError(f"{where}.{entry['card']}.pendulum: left or right, in the spelltrap zone")


def _check_expect(scenario: Scenario) -> None:
    check_expectation(scenario.path, "expect", scenario.expect)
    for number, action in enumerate(scenario.actions, 1):
        if isinstance(action, dict) and "expect" in action:
            if set(action) != {"expect"}:
                raise ScenarioError(f"{scenario.path}: step {number}: a checkpoint holds only expect")
            _expect_type(scenario.path, f"step {number}: expect", action["expect"], dict, "a mapping")
            check_expectation(scenario.path, f"step {number}: expect", action["expect"])


def check_expectation(path: Path, name: str, expect: dict) -> None:
    """The shape of an `expect` (the final one, or a checkpoint among the actions)."""
    where = f"{path}: {name}"
    unknown = set(map(str, expect)) - EXPECT_FIELDS
    if unknown:
        raise ScenarioError(
            f"{where}: unknown field {', '.join(sorted(unknown))} (fields: {', '.join(sorted(EXPECT_FIELDS))})"
        )
    for field_name, kind, what in (
        ("cards", dict, "a mapping of card → state"),
        ("lp", dict, "a mapping of player → LP"),
        ("hand", dict, "a mapping of player → cards in the hand"),
        ("deck", dict, "a mapping of player → cards in the deck"),
        ("missed", list, "a list of cards"),
        ("resolved", list, "a list of cards"),
        ("pending", list, "a list of cards"),
        ("events", list, "a list of events, each a mapping of event, card, from, cause, by, player"),
    ):
        if field_name in expect:
            _expect_type(path, f"{name}.{field_name}", expect[field_name], kind, what)
    for card, wanted in (expect.get("cards") or {}).items():
        _expect_type(path, f"{name}.cards.{card}", wanted, dict, "a mapping of zone, atk, def, …")
        extra = set(map(str, wanted)) - CARD_STATE
        if extra:
            raise ScenarioError(f"{where}.cards.{card}: unknown field {', '.join(sorted(extra))}")
    for counted in ("lp", "hand", "deck"):
        for player, number in (expect.get(counted) or {}).items():
            if str(player) not in PLAYERS:
                raise ScenarioError(f"{where}.{counted}: {player!r} is not a player (A or B)")
            if not _count(number):
                raise ScenarioError(f"{where}.{counted}.{player}: {number!r} is not a count (0 or more)")
    if expect.get("winner") not in (None, "A", "B", "draw"):
        raise ScenarioError(f"{where}.winner: {expect['winner']!r} is not A, B or draw")
    for i, wanted in enumerate(expect.get("events") or [], 1):
        _expect_type(
            path, f"{name}.events[{i}]", wanted, dict, "a mapping of event, card, from, cause, by, player"
        )
        extra = set(map(str, wanted)) - EVENT_FIELDS
        if extra or "event" not in wanted:
            raise ScenarioError(
                f"{where}.events[{i}]: needs `event`, takes only {', '.join(sorted(EVENT_FIELDS))}"
                + (f" (unknown: {', '.join(sorted(extra))})" if extra else "")
            )
        if wanted.get("cause") not in (None, *CAUSES):
            raise ScenarioError(
                f"{where}.events[{i}].cause: {wanted['cause']!r} is not one of {', '.join(CAUSES)}"
            )


# --- playing -----------------------------------------------------------------------


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
    duel = Duel(specs, turn_player=str(start.get("turn", "A")))
    duel.turn.phase = start.get("phase")
    duel.turn.duel_turn = start.get("duel_turn")
    try:
        _set_up(duel, start, where)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ScenarioError(f"{where}: start: {type(exc).__name__}: {exc}") from None
    except EngineError as exc:
        raise ScenarioError(f"{where}: start: {exc}") from None
    mismatches: list[str] = []
    for number, action in enumerate(scenario.actions, 1):
        mismatches += _play_step(duel, action, f"{where}: step {number}", number)
    duel.end_summon_window()  # nothing answered the last summon: it has succeeded
    state = duel.state()
    mismatches += _compare(scenario.expect, state)
    log = [f"{i:>3}. {line}" for i, line in enumerate(duel.log, 1)]
    return Replay(scenario, log, state, mismatches)


def _actor(duel: Duel, action: dict, verb: str) -> str:
    """Who takes an action: the player it names, else the controller of the card it
    names, else the turn player."""
    if action.get("player") in PLAYERS:
        return str(action["player"])
    card = duel.cards.get(str(action.get(verb)))
    return card.controller if card is not None else duel.turn_player


def _play_step(duel: Duel, action: Any, step: str, number: int) -> list[str]:
    """One action: performed, or refused as the file says it must be; a checkpoint
    (`- expect: {…}`) compares the state at that point."""
    if isinstance(action, dict) and set(action) == {"expect"}:
        return [f"step {number}: {m}" for m in _compare(action["expect"], duel.state())]
    action = _bare(action)
    verb = _check_action(action, step)
    refused = _refusal(action.get("expect_error"), step)
    try:
        if verb not in ("activate", "resolve"):
            duel.end_summon_window()  # any other action closes the window 特殊召唤之际
        with duel.timeline.caused("action", None, _actor(duel, action, verb)):
            ACTIONS[verb].run(duel, action, step)
    except IllegalActionError as exc:
        if refused is None:
            # An action the rules refuse (a chain too slow, an attack that cannot
            # be made) that the file does not mark `expect_error` is a mistake in the file.
            raise ScenarioError(f"{step}: impossible: {exc}") from None
        duel.say(f"refused, as the text says: {exc} [{exc.code}]")
        code, words = refused
        if (code and code != exc.code) or (words and words not in str(exc)):
            return [f"step {number}: refused for another reason: {exc} [{exc.code}]"]
        return []
    except EngineError as exc:
        raise ScenarioError(f"{step}: {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        # A value of the wrong shape in the file (a word where a number goes…).
        raise ScenarioError(f"{step}: cannot perform {action!r:.80}: {type(exc).__name__}: {exc}") from None
    if refused is not None:
        return [f"step {number}: the text says this is not allowed, but it was"]
    return []


def _bare(action: Any) -> Any:
    """The verbs that take nothing can be written bare (`- resolve`), with `true`
    (`- {end_turn: true, expect_error: …}`) or with only `expect_error` under them
    (`- end_turn: {expect_error: …}`)."""
    bare = [verb for verb in ACTIONS if ACTIONS[verb].bare]
    if isinstance(action, str) and action in bare:
        return {action: None}
    if not isinstance(action, dict):
        return action
    for verb in bare:
        value = action.get(verb, False)
        if value is True:
            return {**action, verb: None}
        if isinstance(value, dict) and set(value) == {"expect_error"}:
            return {**action, verb: None, "expect_error": value["expect_error"]}
    return action


def _refusal(value: Any, step: str) -> tuple[str, str] | None:
    """`expect_error`: the words of the refusal, or `{code: …, words: …}` (either or both)."""
    if value is None:
        return None
    if isinstance(value, dict):
        extra = set(map(str, value)) - {"code", "words"}
        if extra or not value:
            raise ScenarioError(
                f"{step}: expect_error takes code and words, not {', '.join(sorted(extra)) or 'nothing'}"
            )
        return str(value.get("code") or ""), str(value.get("words") or "")
    return "", str(value)


def _check_action(action: Any, step: str) -> str:
    if not isinstance(action, dict):
        raise ScenarioError(f"{step}: unknown action {action!r:.80} (known: {', '.join(sorted(ACTIONS))})")
    verbs = [k for k in action if k in ACTIONS]
    if not verbs:
        raise ScenarioError(f"{step}: unknown action {action!r:.80} (known: {', '.join(sorted(ACTIONS))})")
    if len(verbs) > 1:
        raise ScenarioError(f"{step}: one action per step, not {' and '.join(verbs)}")
    verb = verbs[0]
    extra = set(map(str, action)) - {verb, "expect_error"} - ACTIONS[verb].fields
    if extra:
        takes = sorted(ACTIONS[verb].fields | {"expect_error"})
        raise ScenarioError(
            f"{step}: {verb} has no field {', '.join(sorted(extra))} (it takes {', '.join(takes)})"
        )
    player = action.get("player")
    if player is not None and verb != "damage" and str(player) not in PLAYERS:
        raise ScenarioError(f"{step}: player {player!r} is not A or B")
    return verb


def _set_up(duel: Duel, start: dict[str, Any], where: str) -> None:
    for player in PLAYERS:
        side = start.get(player) or {}
        duel.players[player].lp = int(side.get("lp", 8000))
        deck = side.get("deck", 40)  # a number of cards, or the cards that matter
        duel.players[player].deck = len(deck) if isinstance(deck, list) else int(deck)
        for zone in ZONES:
            entries = side.get(zone) or []
            if zone == "deck" and not isinstance(entries, list):
                continue
            for entry in entries:
                key, options = (entry, {}) if isinstance(entry, str) else (entry.get("card"), entry)
                if key not in duel.specs:
                    raise ScenarioError(f"{where}: start: {player}'s {zone} names unknown card {key!r}")
                _place(duel, player, zone, str(key), options, where)


def _place(duel: Duel, player: str, zone: str, key: str, options: dict, where: str) -> None:
    """One card of the start: where it stands and what already happened to it."""
    face_up = options.get("face", "up") == "up"
    if zone in ("extra", "extra_face_up"):
        face_up = zone == "extra_face_up"  # the Extra Deck is face-down but for Pendulum monsters
    pendulum = options.get("pendulum")
    card = duel.put(
        key,
        key,
        player,
        {"monsters": "monster", "extra_face_up": "extra"}.get(zone, zone),
        face_up=face_up,
        position=options.get("position", "attack"),
        owner=options.get("owner"),
        slot=PENDULUM_ZONES[pendulum] if pendulum else parse_slot(options.get("zone")),
    )
    card.scale = pendulum is not None
    # What already happened this turn, before the situation starts.
    if options.get("summoned_this_turn") or options.get("set_this_turn"):
        card.placed_turn = duel.turn.number
    card.attacked = bool(options.get("attacked_this_turn", False))
    if "properly_summoned" in options:
        card.properly_summoned = bool(options["properly_summoned"])
    for material in options.get("materials") or []:
        if str(material) not in duel.specs:
            raise ScenarioError(f"{where}: start: 「{key}」's materials name unknown card {material!r}")
        duel.put(str(material), str(material), player, "material").attached_to = key


def _compare(expect: dict[str, Any], state: dict[str, Any]) -> list[str]:
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
        wanted, have = expect["replay"], state["replays"]
        if (isinstance(wanted, bool) and wanted != (have > 0)) or (
            not isinstance(wanted, bool) and wanted != have
        ):
            out.append(f"replay: the text says {wanted!r}, the replay gives {have}")
    if "missed" in expect and sorted(map(str, expect["missed"])) != sorted(state["missed"]):
        out.append(f"missed timing: the text says {expect['missed']}, the replay gives {state['missed']}")
    if "resolved" in expect and [str(c) for c in expect["resolved"]] != state["resolved"]:
        out.append(
            f"resolution order: the text says {expect['resolved']}, the replay gives {state['resolved']}"
        )
    for counted in ("hand", "deck"):
        for player, number in (expect.get(counted) or {}).items():
            if state[counted].get(str(player)) != number:
                have = state[counted].get(str(player))
                out.append(f"{player}'s {counted}: the text says {number} cards, the replay gives {have}")
    if "pending" in expect and sorted(map(str, expect["pending"])) != sorted(state["pending"]):
        out.append(
            f"pending triggers: the text says {expect['pending']}, the replay gives {state['pending']}"
        )
    for wanted in expect.get("events") or []:
        # An event the text states happened, with the circumstances it names.
        if not any(all(have.get(k) == v for k, v in wanted.items()) for have in state["events"]):
            out.append(f"event: the text says {wanted}, the replay records none such")
    for name in ("turn", "phase"):
        if name in expect and expect[name] != state[name]:
            out.append(f"{name}: the text says {expect[name]!r}, the replay gives {state[name]!r}")
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
        found = sorted(p for p in path.glob("*.yaml") if p.is_file())
        if not found:  # "0 passed" would read as success
            raise NoScenarios(f"{path}: no scenario files (*.yaml) in this folder")
        return found
    if not path.exists():
        raise ScenarioError(f"{path}: no such file or folder")
    return [path]
