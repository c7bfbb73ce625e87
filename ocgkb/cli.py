"""The `ocgkb` command line: a thin skin over the library.

Every command opens the knowledge base (building it on first use), calls one
library function and prints the result, as text for a person or `--json`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from . import OcgkbError, __version__

KIND_CHOICES = ("clause", "subitem", "example", "ruling", "note", "paragraph")


def _open(ctx: click.Context):
    from . import store

    options = ctx.find_root().obj

    def with_progress(run):
        from .build import BUILD_STEPS

        click.echo("Building the knowledge base (first use or sources changed)…", err=True)
        with click.progressbar(length=len(BUILD_STEPS), label="building", file=sys.stderr) as bar:
            return run(lambda name: bar.update(1))

    return store.open_kb(
        options["db"],
        options["data_dir"],
        options["kb_dir"],
        on_build=with_progress,
        on_stale_kept=lambda msg: click.secho(f"warning: {msg}", err=True, fg="yellow"),
    )


class _Group(click.Group):
    """Turns library errors into one-line messages and Ctrl-C into a clean exit."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except OcgkbError as exc:
            raise click.ClickException(str(exc)) from None
        except KeyboardInterrupt:
            click.echo("interrupted; nothing already built was changed", err=True)
            sys.exit(130)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ocgkb")
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar="OCGKB_DB",
    help="The knowledge base file (default: the per-user cache; env OCGKB_DB).",
)
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="OCGKB_DATA",
    help="The source documents (default: the bundled rulings_data/; env OCGKB_DATA).",
)
@click.option(
    "--kb-dir",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="OCGKB_KB",
    help="The curated ontology and lists (default: the bundled kb/; env OCGKB_KB).",
)
@click.pass_context
def main(ctx: click.Context, db: Path | None, data_dir: Path | None, kb_dir: Path | None) -> None:
    """A rulings knowledge base for the Yu-Gi-Oh! OCG, over the Chinese rule texts.

    \b
    Examples:
      ocgkb ask "cost算不算卡片的效果"
      ocgkb search 卡时点 --kind ruling --since 2020-01-01
      ocgkb section 4.2.2
      ocgkb card qybl
      ocgkb concept miss-timing

    The knowledge base is built on first use and rebuilt when a source changes.
    """
    ctx.obj = {"db": db, "data_dir": data_dir, "kb_dir": kb_dir}


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the build report as JSON.")
@click.option("-v", "--verbose", is_flag=True, help="List every damaged passage and unresolved reference.")
@click.pass_context
def build(ctx: click.Context, as_json: bool, verbose: bool) -> None:
    """Build the knowledge base from the sources and print the build report.

    \b
    Example:
      ocgkb build -v
    """
    from .build import BUILD_STEPS
    from .build import build as run_build

    options = ctx.find_root().obj
    with click.progressbar(length=len(BUILD_STEPS), label="building", file=sys.stderr) as bar:
        report = run_build(options["db"], options["data_dir"], options["kb_dir"], lambda name: bar.update(1))
    if as_json:
        click.echo(json.dumps(report.as_dict(), ensure_ascii=False, indent=2))
        return
    from .render import render_report

    click.echo(render_report(report.as_dict(), verbose))


def _filters_options(fn):
    for option in reversed(
        [
            click.option("--kind", type=click.Choice(KIND_CHOICES), help="Only passages of this kind."),
            click.option("--section", help="Only this rulebook section and the sections below it, e.g. 4.3."),
            click.option("--concept", help="Only passages about this concept (English or Chinese name)."),
            click.option("--card", help="Only passages that mention this card (typos allowed)."),
            click.option("--since", help="Only rulings dated on or after this day (YYYY-MM-DD)."),
            click.option("--until", help="Only rulings dated on or before this day (YYYY-MM-DD)."),
            click.option("--limit", "-n", type=click.IntRange(1, 200), default=10, show_default=True),
            click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text."),
        ]
    ):
        fn = option(fn)
    return fn


def _filters(kind, section, concept, card, since, until):
    from .search import Filters, parse_date

    return Filters(
        kind,
        section,
        concept,
        card,
        parse_date(since) if since else None,
        parse_date(until) if until else None,
    )


@main.command()
@click.argument("query")
@_filters_options
@click.pass_context
def search(ctx, query, kind, section, concept, card, since, until, limit, as_json) -> None:
    """The passages that best answer QUERY, ranked, with their sources.

    \b
    Examples:
      ocgkb search 卷回 --section 6.3
      ocgkb search 对象 --kind ruling --since 2023-01-01 --json
    """
    from .search import search as run_search

    filters = _filters(kind, section, concept, card, since, until)
    kb = _open(ctx)
    hits = run_search(kb, query, filters, limit)
    if as_json:
        click.echo(json.dumps({"query": query, "hits": [h.as_dict() for h in hits]}, ensure_ascii=False))
        return
    from .render import render_hits

    click.echo(render_hits(kb, query, hits))


@main.command()
@click.argument("question")
@_filters_options
@click.pass_context
def ask(ctx, question, kind, section, concept, card, since, until, limit, as_json) -> None:
    """Answer a rules QUESTION: the clauses that settle it, with their examples and rulings.

    \b
    Examples:
      ocgkb ask "cost算不算卡片的效果"
      ocgkb ask "伤害步骤能发动什么卡" --limit 3
    """
    from .answer import answer

    filters = _filters(kind, section, concept, card, since, until)
    kb = _open(ctx)
    result = answer(kb, question, filters, min(limit, 10) if not as_json else limit)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False))
        return
    from .render import render_answer

    click.echo(render_answer(kb, result))


@main.command()
@click.argument("number")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def section(ctx, number, as_json) -> None:
    """Show a rulebook section (4.2.2) or list the tree below one (4).

    Also accepts a ruling topic such as rulings/cost.
    """
    from .sections import section_view

    view = section_view(_open(ctx), number)
    if as_json:
        click.echo(json.dumps(view, ensure_ascii=False))
        return
    from .render import render_section

    click.echo(render_section(view))


@main.command()
@click.argument("name")
@click.option(
    "--limit", "-n", type=click.IntRange(1, 200), default=20, show_default=True, help="Rulings to show."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def card(ctx, name, limit, as_json) -> None:
    """Find a card by NAME in any form and show its password, names in every
    language, type and stats, then the passages that mention it, newest ruling first.

    NAME may be the texts' Chinese name, the official Chinese name, English,
    Japanese (kanji or kana), a nickname, pinyin or initials, with typos, in
    traditional characters or in part.

    \b
    Examples:
      ocgkb card 电器尾龙
      ocgkb card "maxx c"
      ocgkb card 増殖するG
      ocgkb card 强脱
      ocgkb card "qing yan bai long"
    """
    from .cards import card_view

    view = card_view(_open(ctx), name, limit)
    if as_json:
        click.echo(json.dumps(view, ensure_ascii=False))
        if not view["matches"]:
            sys.exit(1)
        return
    if not view["matches"]:
        hint = f"; did you mean {', '.join(view['suggestions'])}?" if view.get("suggestions") else ""
        raise click.ClickException(f"no card is called anything like {name!r}{hint}")
    from .render import render_card

    click.echo(render_card(view))


@main.command()
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def concept(ctx, name, as_json) -> None:
    """Show a rule concept by English or Chinese name or alias: its defining
    clauses, related concepts and rulings.

    \b
    Examples:
      ocgkb concept cost
      ocgkb concept 卡时点
    """
    from .concepts import concept_view

    view = concept_view(_open(ctx), name)
    if as_json:
        click.echo(json.dumps(view, ensure_ascii=False))
        return
    from .render import render_concept

    click.echo(render_concept(view))


@main.command()
@click.argument("path", type=click.Path(path_type=Path), required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the replays as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="Only say which scenarios pass or fail.")
def replay(path: Path | None, as_json: bool, quiet: bool) -> None:
    """Replay a scenario file (or every scenario in a folder) step by step: the
    chain links as they are built and resolved, each ATK change with its layer,
    each missed timing with its reason, and the final state.

    PATH is a file, a folder, or the name of a bundled scenario; without it,
    every bundled scenario is replayed. Exits 1 when a replay ends otherwise
    than its file states, 2 when a file is malformed.

    \b
    Examples:
      ocgkb replay kb/scenarios/atk_rush_then_gale.yaml
      ocgkb replay atk_rush_then_gale
      ocgkb replay -q
    """
    from . import paths
    from .scenario import ScenarioError, read_scenario, scenario_files
    from .scenario import replay as run

    bundled = paths.kb_dir() / "scenarios"
    if path is None:
        path = bundled
    elif not path.exists() and (bundled / f"{path.name.removesuffix('.yaml')}.yaml").exists():
        path = bundled / f"{path.name.removesuffix('.yaml')}.yaml"
    try:
        results = [run(read_scenario(file)) for file in scenario_files(path)]
    except ScenarioError as exc:
        click.echo(f"Error: {exc}", err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps([r.as_dict() for r in results], ensure_ascii=False, indent=None))
    else:
        from .render import render_replay

        click.echo(render_replay(results, quiet))
    if any(not r.passed for r in results):
        sys.exit(1)


@main.command()
@click.option(
    "--format",
    "fmt",
    default="graphml",
    show_default=True,
    help="graphml, gexf, json (node-link), dot or csv.",
)
@click.option(
    "--output",
    "-o",
    default="-",
    show_default=True,
    help="A file (a folder for csv), or - for standard output.",
)
@click.option(
    "--around",
    help="Only the neighbourhood of a concept, card, section or passage (cost, 卡时点, 4.2.2, 黑洞).",
)
@click.option(
    "--depth",
    type=click.IntRange(0, 10),
    default=1,
    show_default=True,
    help="How many links out from --around.",
)
@click.option(
    "--kinds", help="Only these node kinds, comma-separated (concept,clause,ruling,card,section,…)."
)
@click.pass_context
def export(ctx, fmt: str, output: str, around: str | None, depth: int, kinds: str | None) -> None:
    """Export the knowledge graph for study: GraphML and GEXF (Gephi, Cytoscape),
    node-link JSON (networkx, d3), DOT (Graphviz), CSV (nodes.csv and edges.csv).

    \b
    Examples:
      ocgkb export --format graphml --output ocgkb.graphml
      ocgkb export --format json --around cost --depth 2 -o cost.json
      ocgkb export --format csv --kinds concept,clause -o graph-csv/
    """
    from .export import FORMATS, ExportError, keep_kinds, neighbourhood, write
    from .graph import build_graph

    if fmt not in FORMATS:
        click.echo(f"Error: unknown format {fmt!r} (one of {', '.join(FORMATS)})", err=True)
        sys.exit(2)
    kb = _open(ctx)
    graph = build_graph(kb)
    try:
        if around:
            graph = neighbourhood(kb, graph, around, depth)
        if kinds:
            graph = keep_kinds(graph, [k.strip() for k in kinds.split(",") if k.strip()])
        written = write(graph, fmt, output)
    except ExportError as exc:
        click.echo(f"Error: {exc}", err=True)
        sys.exit(2)
    for path in written:
        click.echo(
            f"wrote {path} ({graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges)", err=True
        )


if __name__ == "__main__":
    main()
