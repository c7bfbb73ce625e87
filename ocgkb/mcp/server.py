"""The MCP server: the tools of `tools.py` and the texts as resources, over stdio,
on the SDK's low-level `Server` (the input schemas are ours, from `arguments.py`).

A call never ends the server: an argument refused, a card not found or any other
`OcgkbError` is a tool error (`isError`) in one line; anything else is logged on
standard error in one line and answered the same way. Standard output is the
protocol's alone."""

from __future__ import annotations

import io
import json
import sys
from typing import Any
from urllib.parse import quote, unquote

import anyio
import mcp_types as types
from mcp.server import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

from ocgkb import NotFound, OcgkbError, __version__
from ocgkb.mcp.arguments import ArgumentError, checked, input_schema
from ocgkb.mcp.tools import ALL, TOOLS, Where
from ocgkb.views.home import home_view
from ocgkb.views.passage import passage_view
from ocgkb.views.section import section_view

INSTRUCTIONS = (
    "Rulings of the Yu-Gi-Oh! OCG from the Chinese rule texts (the rulebook, the master rule notes, "
    "the dated rulings). Call `ask` before saying anything about a ruling, `card` for a card's password, "
    "names and Forbidden & Limited status. Quote the passages as given and cite each by its § number "
    "or ruling topic and date, and its passage id; when the answer says the texts do not answer, say so."
)
PASSAGE, SECTION = "ocgkb://p/", "ocgkb://section/"


def tool_list() -> list[types.Tool]:
    """Every tool with its input schema; all of them only read."""
    return [
        types.Tool(
            name=tool.name,
            title=tool.title,
            description=tool.description,
            input_schema=input_schema(tool.params),
            annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
        )
        for tool in ALL
    ]


def call(where: Where, name: str, arguments: Any) -> types.CallToolResult:
    """A tool's answer: the view's JSON as structured content and the text to quote."""
    try:
        tool = TOOLS.get(name)
        if tool is None:
            raise ArgumentError(f"no tool {name!r:.60}; the tools are {', '.join(TOOLS)}")
        view = tool.run(where, checked(tool.params, arguments))
        text = tool.quote(view)
    except OcgkbError as exc:
        return _failed(str(exc) or type(exc).__name__)
    except Exception as exc:  # a fault of ours: logged, answered, and the server goes on
        print(f"ocgkb mcp: {name!r:.60} failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return _failed(f"ocgkb failed on this call ({type(exc).__name__}); the server goes on")
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=view)


def _failed(message: str) -> types.CallToolResult:
    line = message.splitlines()[0] if message else "failed"
    return types.CallToolResult(content=[types.TextContent(type="text", text=line)], is_error=True)


def section_resources(where: Where) -> list[types.Resource]:
    """Every section of every document, listed (the passages, thousands, by template)."""
    return [
        types.Resource(
            uri=SECTION + quote(section["number"], safe="/."),
            name=section["number"],
            title=f"§{section['number']} {section['title']}",
            mime_type="application/json",
        )
        for document in home_view(where.kb)["documents"]
        for section in document["sections"]
    ]


TEMPLATES = [
    types.ResourceTemplate(
        uri_template=PASSAGE + "{id}",
        name="passage",
        description="A passage by its id (4.2.2/4, rulings/cost/31): its text, source, parent and examples.",
        mime_type="application/json",
    ),
    types.ResourceTemplate(
        uri_template=SECTION + "{number}",
        name="section",
        description="A rulebook section (4.2.2) or ruling topic: its passages and what is linked to it.",
        mime_type="application/json",
    ),
]


def read(where: Where, uri: str) -> str:
    """A resource's JSON: a passage's or a section's view. An unknown one is an error."""
    try:
        if uri.startswith(PASSAGE):
            view = passage_view(where.kb, unquote(uri.removeprefix(PASSAGE)))
        elif uri.startswith(SECTION):
            view = section_view(where.kb, unquote(uri.removeprefix(SECTION)))
        else:
            raise NotFound(f"no resource {uri!r:.80}: ocgkb serves {PASSAGE}<id> and {SECTION}<number>")
    except OcgkbError as exc:
        raise MCPError(types.INVALID_PARAMS, str(exc).splitlines()[0]) from None
    return json.dumps(view, ensure_ascii=False)


def make_server(where: Where) -> Server:
    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tool_list())

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        return call(where, params.name, params.arguments)

    async def list_resources(ctx, params) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=section_resources(where))

    async def list_templates(ctx, params) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=TEMPLATES)

    async def read_resource(ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        text = read(where, params.uri)
        contents = [types.TextResourceContents(uri=params.uri, mime_type="application/json", text=text)]
        return types.ReadResourceResult(contents=contents)

    return Server(
        "ocgkb",
        version=__version__,
        title="ocgkb: Yu-Gi-Oh! OCG rulings",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
    )


# Every surrogate code point, each to U+FFFD (json.loads pairs the valid ones first).
LONE_SURROGATES = dict.fromkeys(range(0xD800, 0xE000), "\ufffd")


def without_lone_surrogates(line: str) -> str:
    """A message whose strings hold a lone surrogate (JSON's "\\ud800", no character)
    with each made U+FFFD, as a byte that is not UTF-8 already is: the SDK drops
    such a message unanswered, and the arguments' check refuses U+FFFD in one line."""
    if "\\u" not in line:
        return line
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return line  # not JSON, or nested past Python's depth: the SDK answers it
    return json.dumps(message, ensure_ascii=False).translate(LONE_SURROGATES)


class _Lines:
    """Standard input as UTF-8 lines (a byte that is not UTF-8 made U+FFFD), repaired."""

    def __init__(self) -> None:
        self.file = anyio.wrap_file(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))

    async def __aiter__(self):
        async for line in self.file:
            yield without_lone_surrogates(line)


def serve(kb: Any, kb_dir: str) -> None:
    """Answer over stdio until the client closes standard input."""
    server = make_server(Where(kb, kb_dir))

    async def run() -> None:
        async with stdio_server(stdin=_Lines()) as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(run)
