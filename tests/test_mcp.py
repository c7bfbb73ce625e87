"""`ocgkb mcp` driven as an MCP client drives it: a real subprocess spoken to in raw
JSON-RPC over its standard input and output, one server for the whole module."""

from __future__ import annotations

import json
import queue
import subprocess
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ocgkb.store.schema import MAX_CARD_TEXT, MAX_QUERY

from conftest import SMALL, ocgkb_command

NEEDS_MCP = "the mcp extra is not installed: pip install '.[mcp]'"
TOOLS = {"ask", "search", "card", "section", "concept", "replay", "deck_check", "read_card_text"}
ANSWER_SECONDS = 60


class Client:
    """A minimal MCP client: one JSON message a line, each answer matched by its id.
    Every line the server writes on standard output must be a JSON message."""

    def __init__(self, command: list[str], stderr) -> None:
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
        self.lines: queue.Queue = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, data: bytes) -> None:
        self.process.stdin.write(data + b"\n")
        self.process.stdin.flush()

    def notify(self, method: str, params: dict | None = None) -> None:
        message = {"jsonrpc": "2.0", "method": method, **({"params": params} if params is not None else {})}
        self.send(json.dumps(message).encode())

    def request(self, method: str, params=None, raw: bytes | None = None) -> dict:
        """The answer to one request: its `result`, or its `error` as {"error": …}."""
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(raw.replace(b"$ID", str(self.next_id).encode()) if raw else json.dumps(message).encode())
        while True:
            line = self.lines.get(timeout=ANSWER_SECONDS)
            assert line is not None, "the server ended"
            answer = json.loads(line)  # nothing but protocol on standard output
            if answer.get("id") == self.next_id:
                return answer["result"] if "result" in answer else {"error": answer["error"]}

    def call(self, tool, arguments=None) -> dict:
        return self.request(
            "tools/call", {"name": tool, **({"arguments": arguments} if arguments is not None else {})}
        )


@pytest.fixture(scope="module")
def server(kb_path, tmp_path_factory):
    pytest.importorskip("mcp", reason=NEEDS_MCP)
    stderr = (tmp_path_factory.mktemp("mcp") / "stderr").open("w+b")
    client = Client([*ocgkb_command(kb_path), "mcp"], stderr)
    client.initialized = client.request(
        "initialize",
        {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}},
    )
    client.notify("notifications/initialized")
    yield client
    client.process.stdin.close()  # the client goes: the server ends
    assert client.process.wait(timeout=20) == 0
    stderr.seek(0)
    assert b"Traceback" not in stderr.read()


def test_a_first_use_builds_with_nothing_but_the_protocol_on_standard_output(tmp_path):
    """Standard output is the protocol's: the build's progress goes to standard error."""
    pytest.importorskip("mcp", reason=NEEDS_MCP)
    with (tmp_path / "stderr").open("w+b") as stderr:
        client = Client([*ocgkb_command(tmp_path / "new.sqlite", SMALL), "mcp"], stderr)
        hello = {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        }
        assert client.request("initialize", hello)["serverInfo"]["name"] == "ocgkb"
        assert "section" in {tool["name"] for tool in client.request("tools/list")["tools"]}
        client.process.stdin.close()
        assert client.process.wait(timeout=20) == 0
        assert client.lines.get(timeout=5) is None  # every line it wrote was an answer, read above
        stderr.seek(0)
        assert stderr.read().startswith(b"Building the knowledge base")


def test_without_the_extra_it_says_how_to_install_it_in_one_line(monkeypatch, tmp_path):
    import importlib.util

    from click.testing import CliRunner

    from ocgkb.cli.main import main

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "mcp" else find_spec(name, *a)
    )
    result = CliRunner().invoke(main, ["--db", str(tmp_path / "kb.sqlite"), "mcp"])
    assert (
        result.exit_code == 1
        and result.output == "Error: the MCP server needs the mcp extra: pip install 'ocgkb[mcp]'\n"
    )
    assert not (tmp_path / "kb.sqlite").exists()  # nothing built for a server that cannot run


def text_of(result: dict) -> str:
    return "\n".join(part["text"] for part in result["content"] if part["type"] == "text")


def test_initialize_names_the_server_and_what_it_offers(server):
    assert server.initialized["serverInfo"]["name"] == "ocgkb"
    assert {"tools", "resources"} <= set(server.initialized["capabilities"])
    assert "cite" in server.initialized["instructions"]


def test_every_tool_is_listed_with_its_input_schema(server):
    tools = {tool["name"]: tool for tool in server.request("tools/list")["tools"]}
    assert set(tools) == TOOLS
    for tool in tools.values():
        schema = tool["inputSchema"]
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        assert set(schema["required"]) <= set(schema["properties"])
        assert "cite" in tool["description"].lower()
    assert tools["ask"]["inputSchema"]["required"] == ["question"]
    assert tools["ask"]["inputSchema"]["properties"]["question"]["maxLength"] == MAX_QUERY
    assert tools["search"]["inputSchema"]["properties"]["kind"]["enum"][0] == "clause"
    assert tools["deck_check"]["inputSchema"]["properties"]["region"]["enum"] == ["ocg", "ocg-cn"]


def test_ask_cites_the_clause_that_settles_it(server):
    result = server.call("ask", {"question": "cost算不算卡片的效果"})
    assert not result.get("isError")
    assert result["structuredContent"]["hits"][0]["section"] == "4.2.2"
    assert text_of(result).startswith("1. [§4.2.2 cost · 4.2.2/4] ●cost不视为卡片效果。")


def test_card_by_its_english_nickname_gives_its_password(server):
    result = server.call("card", {"name": "maxx c"})
    assert result["structuredContent"]["matches"][0]["password"] == 23434538
    assert "password 23434538" in text_of(result)


def test_ask_about_a_cards_status_answers_from_the_lists(server):
    result = server.call("ask", {"question": "增殖的G现在还是禁卡吗"})
    status = result["structuredContent"]["status"]["cards"][0]["statuses"][0]
    lines = text_of(result).splitlines()
    assert lines[0] == "Forbidden & Limited (from the lists, not the rule texts):"
    assert lines[1].startswith(f"「增殖的G」 {status['status']} ({status['copies']} cop")


# One call of each tool; the scenario's YAML and the card text are written here.
SCENARIO = """
title: 一只怪兽攻击力上升
replays: [4.3.3.6.1.1/2]
cards:
  试作怪兽: {kind: monster, atk: 1000, def: 1000}
  试作强化: {kind: spell, type: quick-play, effect: {modify: atk, by: 500}}
start:
  A: {monsters: [试作怪兽], hand: [试作强化]}
actions:
  - activate: 试作强化
    target: 试作怪兽
  - resolve
expect:
  cards: {试作怪兽: {atk: 1500}}
"""
EACH_TOOL = [
    ("search", {"query": "卡时点", "kind": "ruling", "limit": 3}, "[", "hits"),
    ("section", {"number": "4.2.2"}, "§4.2.2 cost", "passages"),
    ("section", {"number": "4"}, "\n    §4.2.2 cost\n", "tree"),
    ("concept", {"name": "miss-timing"}, "Definitions:", "definitions"),
    ("replay", {"name": "atk_rush_then_gale"}, ": pass", "log"),
    ("replay", {"yaml": SCENARIO}, "一只怪兽攻击力上升: pass", "outcomes"),
    ("deck_check", {"ydk": "#main\n23434538\n23434538\n#extra\n!side\n"}, "not legal", "problems"),
    ("read_card_text", {"text": "①：以场上1张卡为对象才能发动。那张卡破坏。"}, "[", "effects"),
]


@pytest.mark.parametrize(
    "tool, arguments, said, key", EACH_TOOL, ids=[f"{t[0]}-{i}" for i, t in enumerate(EACH_TOOL)]
)
def test_each_tool_answers_with_its_view_and_a_text_to_quote(server, tool, arguments, said, key):
    result = server.call(tool, arguments)
    assert not result.get("isError"), text_of(result)
    assert key in result["structuredContent"]
    assert said in text_of(result)


def test_a_deck_problem_cites_its_rule(server):
    view = server.call("deck_check", {"ydk": "#main\n23434538\n#extra\n!side\n"})["structuredContent"]
    assert {"rule": "main-size", "cites": ["1.2.1/2", "tournament/123"]}.items() <= view["problems"][
        0
    ].items()


BAD = [
    ("ask", None, "'question' is required"),
    ("ask", {}, "'question' is required"),
    ("ask", {"question": 42}, "'question' must be a string, not a number"),
    ("ask", {"question": "cost", "limit": "3"}, "'limit' must be a whole number, not a string"),
    ("ask", {"question": "cost", "limit": 0}, "'limit' must be from 1 to"),
    ("ask", {"question": "x" * (MAX_QUERY + 1)}, f"'question' is {MAX_QUERY + 1} characters long; at most"),
    ("ask", {"question": "   "}, "'question' is empty"),
    ("ask", {"question": "cost\x00"}, "'question' holds control characters"),
    ("ask", {"question": "cost", "since": "2024-02-30"}, "'since': not a date"),
    ("ask", {"question": "cost", "since": "2024", "until": "2023"}, "'since' 2024-01-01 is after 'until'"),
    ("search", {"query": "cost", "kind": "essay"}, "'kind': 'essay' is none of clause"),
    ("search", {"query": "cost", "color": "red"}, "unknown argument 'color'"),
    (
        "card",
        {"name": "qqq白龙"},
        "no card is called anything like 'qqq白龙'; did you mean 白角龙, 青眼亚白龙?",
    ),
    ("card", {"name": "maxx c", "on": "yesterday"}, "'on': not a date"),
    ("section", {"number": "99.9"}, "no section '99.9'"),
    ("concept", {"name": "no-such-concept"}, "no concept"),
    ("replay", {}, "give either 'name'"),
    ("replay", {"name": "../../etc/passwd"}, "no scenario"),
    ("replay", {"yaml": "title: [unclosed"}, "bad YAML"),
    ("deck_check", {"ydk": "not a deck"}, "comes before any #main"),
    ("deck_check", {"ydk": "#main\n1\n", "region": "tcg"}, "'region': 'tcg' is none of ocg, ocg-cn"),
    ("read_card_text", {"text": "x" * (MAX_CARD_TEXT + 1)}, f"'text' is {MAX_CARD_TEXT + 1:,} characters"),
    ("no_such_tool", {}, "no tool 'no_such_tool'"),
]


@pytest.mark.parametrize("tool, arguments, says", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_bad_arguments_and_unknown_names_are_tool_errors_in_one_line(server, tool, arguments, says):
    result = server.call(tool, arguments)
    assert result["isError"] is True
    assert says in text_of(result) and "\n" not in text_of(result)


def test_text_that_is_not_utf8_is_a_tool_error(server):
    message = b'{"jsonrpc": "2.0", "id": $ID, "method": "tools/call", "params": {"name": "ask", "arguments": '
    for argument in (b'{"question": "cost\xff\xfe"}', b'{"question": "cost\\ud800"}'):
        result = server.request("tools/call", raw=message + argument + b"}}")
        assert result["isError"] is True and text_of(result) == "'question' is not valid UTF-8"


def test_sections_are_listed_and_passages_read_as_resources(server):
    listed = {resource["uri"] for resource in server.request("resources/list")["resources"]}
    assert {"ocgkb://section/4.2.2", "ocgkb://section/1.2.1"} <= listed
    templates = server.request("resources/templates/list")["resourceTemplates"]
    assert {t["uriTemplate"] for t in templates} == {"ocgkb://p/{id}", "ocgkb://section/{number}"}
    read = server.request("resources/read", {"uri": "ocgkb://p/4.2.2/4"})["contents"][0]
    assert json.loads(read["text"])["passage"]["text"] == "●cost不视为卡片效果。"
    section = server.request("resources/read", {"uri": "ocgkb://section/4.2.2"})["contents"][0]
    assert json.loads(section["text"])["number"] == "4.2.2"
    assert (
        "no passage 'nope'" in server.request("resources/read", {"uri": "ocgkb://p/nope"})["error"]["message"]
    )


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)
ARGUMENT_NAMES = st.sampled_from(
    [
        "question",
        "query",
        "name",
        "number",
        "limit",
        "kind",
        "card",
        "since",
        "yaml",
        "ydk",
        "region",
        "on",
        "text",
    ]
)
ARGUMENTS = (
    st.none() | JSON_VALUES | st.dictionaries(ARGUMENT_NAMES | st.text(max_size=8), JSON_VALUES, max_size=4)
)
TOOL_NAMES = st.sampled_from(sorted(TOOLS)) | st.text(max_size=12)


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(tool=TOOL_NAMES, arguments=ARGUMENTS)
def test_random_calls_never_end_the_server(server, tool, arguments):
    result = server.request("tools/call", {"name": tool, "arguments": arguments})
    assert "error" in result or isinstance(result["content"], list)
    assert server.process.poll() is None


def test_the_server_still_answers_after_them(server):
    assert server.request("ping") == {}
    assert server.call("card", {"name": "23434538"})["structuredContent"]["matches"][0]["name"] == "增殖的G"
