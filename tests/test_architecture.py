"""The layering ARCHITECTURE.md states, checked: a module imports only from its
own layer or those below it (lazy imports inside functions included), and no
function grows past about 60 lines."""

from __future__ import annotations

import ast
import re

import pytest

from conftest import ROOT

# Lowest first. A module may import its own layer and those below. The store's
# schema is the database's shape, declared with no import: the sources (its
# version is in the fingerprint) and the build (the writer) read it too.
LAYERS = [
    ("ocgkb", "ocgkb.paths", "ocgkb.store.schema"),
    ("ocgkb.text", "ocgkb.engine"),
    ("ocgkb.sources",),
    ("ocgkb.build",),
    ("ocgkb.store",),
    ("ocgkb.query",),
    ("ocgkb.views", "ocgkb.study"),
    ("ocgkb.cli", "ocgkb.web", "ocgkb.mcp", "ocgkb.__main__"),
]
MAX_FUNCTION_LINES = 60


def layer_of(module: str) -> int:
    matches = [
        (len(prefix), index)
        for index, prefixes in enumerate(LAYERS)
        for prefix in prefixes
        if module == prefix or module.startswith(prefix + ".")
    ]
    return max(matches)[1]


def modules() -> list[tuple[str, ast.Module]]:
    found = []
    for path in sorted((ROOT / "ocgkb").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found.append((name, ast.parse(path.read_text(encoding="utf-8"))))
    return found


def is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports_of(name: str, tree: ast.Module) -> set[str]:
    package = name if name.count(".") == 0 else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            if base == "ocgkb" or base.startswith("ocgkb."):
                # `from ocgkb.store import schema` imports the module ocgkb.store.schema
                found |= {
                    f"{base}.{alias.name}" if is_module(f"{base}.{alias.name}") or base == "ocgkb" else base
                    for alias in node.names
                }
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("ocgkb")}
    return found


@pytest.mark.parametrize("name, tree", modules(), ids=lambda value: value if isinstance(value, str) else "")
def test_a_module_imports_only_its_layer_and_below(name, tree):
    own = layer_of(name)
    upward = sorted(target for target in imports_of(name, tree) if layer_of(target) > own)
    assert not upward, f"{name} (layer {own}) imports {upward}"


def test_the_check_catches_an_upward_import():
    tree = ast.parse("from ocgkb.cli.main import main\nfrom ocgkb.store.database import open_kb\n")
    assert imports_of("ocgkb.engine.duel", tree) == {"ocgkb.cli.main", "ocgkb.store.database"}
    assert layer_of("ocgkb.cli.main") > layer_of("ocgkb.engine.duel")
    assert layer_of("ocgkb.store.database") > layer_of("ocgkb.sources.card_facts")


def test_the_schema_imports_nothing():
    """So it may stand at the lowest layer, and --help reads it without sqlite."""
    tree = dict(modules())["ocgkb.store.schema"]
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.Import)]
    assert {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)} == {"__future__"}


def test_no_function_is_longer_than_about_60_lines():
    long = [
        f"{name}.{node.name}: {node.end_lineno - node.lineno + 1} lines"
        for name, tree in modules()
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert not long, long


def test_no_module_of_the_package_is_ignored_by_git():
    """An ignored module is missing from a clone and from the wheel (`build/` in
    .gitignore once hid ocgkb/build/)."""
    import shutil
    import subprocess

    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    files = [str(p.relative_to(ROOT)) for p in (ROOT / "ocgkb").rglob("*.py")]
    ignored = subprocess.run(
        ["git", "check-ignore", "--no-index", *files], cwd=ROOT, capture_output=True, text=True
    ).stdout.split()
    assert not ignored, ignored


FRONT_ENDS = ("ocgkb.cli", "ocgkb.web", "ocgkb.mcp")
# What a front end may import: the views (and study/: an export is a view of the
# graph), the one door to the store, the typed search filters a front end fills
# from its own parameters (a plain value, no query code), and layer 0 (the errors,
# paths, messages).
FRONT_END_REACH = ("ocgkb.views", "ocgkb.study", "ocgkb.store.door", "ocgkb.query.filters")


def reach_of(name: str, tree: ast.Module) -> set[str]:
    """What a front end imports beyond its own package, the views, the door and layer 0."""
    return {
        target
        for target in imports_of(name, tree)
        if not target.startswith((*FRONT_ENDS, *FRONT_END_REACH)) and layer_of(target) > 0
    }


@pytest.mark.parametrize(
    "name, tree",
    [m for m in modules() if m[0].startswith(FRONT_ENDS)],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_front_ends_go_through_the_views_and_the_door(name, tree):
    """The command line and the web site render views and open the knowledge base
    through the door: no SQL of their own, and nothing of the store's insides, the
    build, the query layer, the readers, the text pipeline or the engine."""
    sql = [
        node.value[:40]
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "SELECT " in node.value.upper()
    ]
    assert not sql, f"{name} holds SQL: {sql}"
    assert not reach_of(name, tree), f"{name} reaches {reach_of(name, tree)}"


def test_the_front_end_check_catches_a_reach_past_the_door():
    tree = ast.parse(
        "from ocgkb.store.database import KnowledgeBase\nfrom ocgkb.build.pipeline import build\n"
        "from ocgkb.store.door import open_kb\nfrom ocgkb import NotFound\nfrom ocgkb.views.card import card_view\n"
    )
    assert reach_of("ocgkb.web.app", tree) == {"ocgkb.store.database", "ocgkb.build.pipeline"}


# The store owns the database's shape and its reads, the build writes it: SQL
# stands nowhere else (the views, the query layer, the graph and the front ends
# call named reads of ocgkb.store).
SQL_OWNERS = ("ocgkb.store", "ocgkb.build")
SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE|CREATE|PRAGMA)\b", re.I)
SQL_SHAPE = re.compile(r"\b(FROM|INTO|SET|TABLE|INDEX|WHERE)\b|\w+\(", re.I)


def sql_in(tree: ast.Module) -> list[str]:
    return [
        node.value[:50]
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and SQL.search(node.value)
        and SQL_SHAPE.search(node.value)
        and any(word.isupper() for word in SQL.findall(node.value))  # SQL keywords in capitals
    ]


def test_sql_stands_only_in_the_store_and_the_build():
    found = {name: sql_in(tree) for name, tree in modules() if not name.startswith(SQL_OWNERS)}
    assert not {name: sql for name, sql in found.items() if sql}


def test_the_sql_check_sees_a_statement():
    assert sql_in(ast.parse('rows = kb.query("SELECT id FROM passages WHERE kind = ?")'))
    assert sql_in(ast.parse('q = f"""SELECT count(*)\n FROM dates"""'))
    assert sql_in(ast.parse('conn.execute("PRAGMA integrity_check(5)")'))
    assert not sql_in(ast.parse('help = "Select a card from the list"'))


def test_web_templates_are_autoescaped():
    """Every template is .html, so Jinja2 escapes everything user-given in it."""
    templates = ROOT / "ocgkb" / "web" / "templates"
    assert templates.is_dir()
    assert {p.suffix for p in templates.iterdir()} == {".html"}
    assert not [p.name for p in templates.iterdir() if "|safe" in p.read_text(encoding="utf-8")]


def engine_imports(name: str, tree: ast.Module, names: set[str]) -> set[str]:
    """The engine modules `name` imports, anywhere in it (inside functions and under
    TYPE_CHECKING too): `from . import battle` is the module battle, not the package."""
    package = name if name == "ocgkb.engine" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in names else base)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return (found & names) - {name}


def import_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle of the graph, as the modules along it, or [] when there is none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(node: str, path: list[str]) -> list[str]:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [node, nxt] if nxt in path else [node, nxt]
            if nxt not in state and (found := visit(nxt, path + [node])):
                return found
        state[node] = 2
        return []

    for start in sorted(graph):
        if start not in state and (found := visit(start, [])):
            return found
    return []


def test_the_engine_modules_import_no_circle():
    """State at the bottom, rules/operations/battle on it, the Duel on top: no module of
    engine/ may import, even lazily, one that imports it back."""
    engine = {
        name: tree for name, tree in modules() if name == "ocgkb.engine" or name.startswith("ocgkb.engine.")
    }
    graph = {name: engine_imports(name, tree, set(engine)) for name, tree in engine.items()}
    assert graph["ocgkb.engine.duel"] >= {"ocgkb.engine.state", "ocgkb.engine.battle"}
    assert not import_cycle(graph), " → ".join(import_cycle(graph))


def test_the_cycle_check_catches_a_lazy_or_type_only_import():
    names = {"ocgkb.engine.duel", "ocgkb.engine.battle", "ocgkb.engine.state"}
    lazy = ast.parse("def f():\n    from .duel import Duel\n")
    typing_only = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import duel\n")
    assert engine_imports("ocgkb.engine.battle", lazy, names) == {"ocgkb.engine.duel"}
    assert engine_imports("ocgkb.engine.state", typing_only, names) == {"ocgkb.engine.duel"}
    graph = {
        "ocgkb.engine.duel": {"ocgkb.engine.battle"},
        "ocgkb.engine.battle": {"ocgkb.engine.duel"},
        "ocgkb.engine.state": set(),
    }
    assert import_cycle(graph) == ["ocgkb.engine.battle", "ocgkb.engine.duel", "ocgkb.engine.battle"]
    assert not import_cycle({"a": {"b"}, "b": set()})


def architecture_rows() -> dict[str, str]:
    """ARCHITECTURE.md's table of packages: each package's row by its name (`web`, `ocgkb`)."""
    rows = {}
    for line in (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8").splitlines():
        cells = line.split("|")
        if len(cells) > 3 and cells[1].strip().isdigit():
            for package in re.findall(r"`(\w+)/?`", cells[2]):
                rows[package] = rows.get(package, "") + line
    return rows


def unnamed_modules(rows: dict[str, str], text: str) -> list[str]:
    """The modules of the package that ARCHITECTURE.md does not name: neither by their
    path (`web/offload.py`) nor in their package's row (`offload.py`, `offload`)."""
    unnamed = []
    for path in sorted((ROOT / "ocgkb").rglob("*.py")):
        parts = path.relative_to(ROOT / "ocgkb").parts
        package, stem = (parts[0], path.stem) if len(parts) > 1 else ("ocgkb", path.stem)
        if stem == "__init__" and package != "ocgkb":
            continue  # a package is named by its row
        row = rows.get(package, "") + rows.get(stem, "")  # __main__ has a row of its own
        named_in_row = re.search(rf"`{stem}(\.py)?`|\b{stem}\.py\b", row)
        if not named_in_row and f"{'/'.join(parts)}" not in text:
            unnamed.append("/".join(parts))
    return unnamed


def test_every_module_is_named_in_the_architecture():
    """As datasette's test_docs checks that every setting is documented."""
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    assert unnamed_modules(architecture_rows(), text) == []


def test_the_architecture_check_sees_a_module_it_does_not_name():
    rows = {package: row.replace("`offload.py`", "") for package, row in architecture_rows().items()}
    assert unnamed_modules(rows, "") == ["web/offload.py"]


def literal_limits(tree: ast.Module) -> list[str]:
    """Numbers a module passes to a call (limit=60, a view's count): a page's limits
    must come from the schema's declared ones, by name."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            values = [*node.args, *(keyword.value for keyword in node.keywords)]
            found += [
                ast.unparse(node)
                for value in values
                if isinstance(value, ast.Constant) and type(value.value) in (int, float)
            ]
    return found


@pytest.mark.parametrize("module", ["pages", "api"])
def test_every_limit_a_page_or_endpoint_uses_is_a_declared_one(module):
    tree = ast.parse((ROOT / "ocgkb" / "web" / f"{module}.py").read_text(encoding="utf-8"))
    assert literal_limits(tree) == []


def test_the_limit_check_sees_a_number():
    assert literal_limits(ast.parse("card_view(kb, name, limit=60)")) == ["card_view(kb, name, limit=60)"]
