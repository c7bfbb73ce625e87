"""The `ocgkb` command line: a thin skin over the library.

Every command opens the knowledge base (building it on first use), calls one
library function and prints the result, as text for a person or `--json`.
"""

from __future__ import annotations

import json
import sys

import click

from ocgkb import NotFound, OcgkbError, __version__, paths
from ocgkb.cli.options import CARD_TEXT, TEXT, OptionError, count_option, date_option, search_filters
from ocgkb.store import schema  # the kinds and limits, with no query code (--help stays fast)

# Every command that prints a view can print it as JSON instead.
_json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


def _build_progress(run):
    """Run a build with a progress bar on a terminal, and one line elsewhere; a
    build stopped by `kill` cleans up after itself."""
    import signal  # here, not at every command's start: its enums cost half a millisecond

    from ocgkb.store.door import build_steps

    signal.signal(signal.SIGTERM, _on_sigterm)
    if not sys.stderr.isatty():
        return run(lambda name: None)
    with click.progressbar(
        length=build_steps(), label="building", file=sys.stderr, item_show_func=lambda name: name
    ) as bar:
        started = []  # a step is done when the next one starts: the bar names the one running

        def step(name: str) -> None:
            bar.update(1 if started else 0, name)
            started.append(name)

        done = run(step)
        bar.update(1, "done")  # the last step ends: the bar shows 100%
        return done


def _where(ctx: click.Context) -> tuple[str | None, str | None, str | None]:
    """The knowledge base file, the sources and the curated files the options name."""
    options = ctx.find_root().obj or {}
    return options.get("db"), options.get("data_dir"), options.get("kb_dir")


def _open(ctx: click.Context):
    from ocgkb.store.door import open_kb

    def with_progress(run):
        click.echo("Building the knowledge base (first use or sources changed)…", err=True)
        return _build_progress(run)

    return open_kb(
        *_where(ctx),
        on_build=with_progress,
        on_stale_kept=lambda msg: click.secho(f"warning: {msg}", err=True, fg="yellow"),
    )


class _Group(click.Group):
    """The one path from a library error to the user: one line, the error's exit
    code (1 bad input, 2 bad usage), never a traceback. A knowledge base found
    damaged mid-query is rebuilt once from the sources and the command run again;
    any other SQLite error is about the input, and says so."""

    def main(self, *args, **kwargs):
        from ocgkb.cli import streams

        streams.tolerate_encoding()
        try:
            return super().main(*args, **kwargs)
        except OSError as exc:  # a full disk under stdout, a name too long: one line, exit 1
            if not kwargs.get("standalone_mode", True):
                raise
            streams.fail(exc)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["ocgkb.argv"] = list(args)  # to run the command again after a repair
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context):
        import sqlite3

        from ocgkb.store.door import is_damage

        try:
            try:
                return super().invoke(ctx)
            except sqlite3.DatabaseError as exc:
                if not is_damage(exc):
                    raise
                _rebuild_damaged(ctx, exc)
                with self.make_context(ctx.info_name, ctx.meta["ocgkb.argv"], parent=ctx.parent) as again:
                    return super().invoke(again)
        except OcgkbError as exc:
            error = click.ClickException(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
            error.exit_code = exc.exit_code
            raise error from None
        except sqlite3.Error as exc:
            raise click.ClickException(_sqlite_message(exc, is_damage(exc))) from None
        except KeyboardInterrupt:
            click.echo("interrupted; nothing already built was changed", err=True)
            sys.exit(130)


def _sqlite_message(exc: Exception, damaged: bool) -> str:
    from ocgkb import messages

    return f"{messages.NOT_REBUILT}: {exc}" if damaged else messages.not_damage(exc)


def _rebuild_damaged(ctx: click.Context, exc: Exception) -> None:
    from ocgkb.store.door import repair

    db, data_dir, kb_dir = _where(ctx)
    click.secho(
        f"warning: the knowledge base {db or paths.default_db_path()} is damaged ({exc}); "
        "rebuilding it from the sources",
        err=True,
        fg="yellow",
    )
    repair(db, data_dir, kb_dir, on_build=_build_progress)


def run() -> None:
    """The `ocgkb` command itself (pyproject's [project.scripts], `python -m ocgkb`):
    `main` as a standalone program, ended by `streams.exit_now`."""
    import gc

    from ocgkb.cli import streams

    # Nearly all a command makes lives to its end (modules, classes, what it read of
    # the knowledge base): a collection every 700 new objects, the default, costs a
    # question several milliseconds for nothing. Cycles are still collected, 10,000 objects apart.
    gc.set_threshold(10_000, *gc.get_threshold()[1:])
    try:
        main()
    except SystemExit as end:
        streams.exit_now(end.code)
    streams.exit_now(0)


def _colour(asked: bool | None) -> bool | None:
    """--color or --no-color when given; no colour when NO_COLOR is set to anything
    (no-color.org); otherwise None, click's default: colour on a terminal only."""
    import os

    if asked is not None:
        return asked
    return False if os.environ.get("NO_COLOR") else None


def _place_option(flag: str, envvar: str, what: str, folder: bool = True):
    """A file or folder the whole command reads, which an environment variable may name too."""
    kind = click.Path(file_okay=False) if folder else click.Path(dir_okay=False)
    return click.option(flag, type=kind, envvar=envvar, help=f"{what}; env {envvar}).")


def _on_sigterm(signum, frame):
    raise KeyboardInterrupt  # so that a build stopped by `kill` cleans up after itself


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ocgkb")  # the package's version: pyproject reads it here
@click.option(
    "--color/--no-color",
    default=None,
    help="Colour the output or not (default: on a terminal, unless NO_COLOR is set).",
)
@_place_option("--db", "OCGKB_DB", "The knowledge base file (default: the per-user cache", folder=False)
@_place_option("--data-dir", "OCGKB_DATA", "The source documents (default: the bundled rulings_data/")
@_place_option("--kb-dir", "OCGKB_KB", "The curated ontology and lists (default: the bundled kb/")
@click.pass_context
def main(
    ctx: click.Context, color: bool | None, db: str | None, data_dir: str | None, kb_dir: str | None
) -> None:
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
    ctx.color = _colour(color)
    # Spelled as pathlib would (`./kb/` is `kb`), in strings: no pathlib on a question's start.
    db, data_dir, kb_dir = (None if value is None else paths.plain(value) for value in (db, data_dir, kb_dir))
    for option, value in (("--db", db), ("--data-dir", data_dir), ("--kb-dir", kb_dir)):
        if value == ".":
            raise click.UsageError(f"{option}: an empty path")
    ctx.obj = {"db": db, "data_dir": data_dir, "kb_dir": kb_dir}


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the build report (or the check) as JSON.")
@click.option("-v", "--verbose", is_flag=True, help="List every damaged passage and unresolved reference.")
@click.option(
    "--check",
    is_flag=True,
    help="Build nothing: check the built knowledge base (SQLite integrity, built from today's sources).",
)
@click.pass_context
def build(ctx: click.Context, as_json: bool, verbose: bool, check: bool) -> None:
    """Build the knowledge base from the sources and print the build report.

    With --check, build nothing: say whether the knowledge base is sound and
    up to date (exit 1 when it is not).

    \b
    Examples:
      ocgkb build -v
      ocgkb build --check
    """
    from ocgkb.store.door import build as build_kb
    from ocgkb.store.door import check as check_kb

    if check:
        result = check_kb(*_where(ctx))
        if as_json:
            click.echo(json.dumps(result, ensure_ascii=False, indent=2))
        else:
            for key in ("path", "integrity", "up_to_date"):
                click.echo(f"{key}: {result[key]}")
            from ocgkb.cli.render_sources import origin_lines

            _echo("\n".join(origin_lines(result["sources"])))
        if not result["sound"]:
            sys.exit(1)
        return
    report = build_kb(*_where(ctx), on_build=_build_progress)
    if as_json:
        click.echo(json.dumps(report.as_dict(), ensure_ascii=False, indent=2))
        return
    from ocgkb.cli.render import render_report

    _echo(render_report(report.as_dict(), verbose))


def _filters_options(fn):
    for option in reversed(
        [
            click.option(
                "--kind", type=click.Choice(schema.PASSAGE_KINDS), help="Only passages of this kind."
            ),
            click.option(
                "--section", type=TEXT, help="Only this rulebook section and the sections below it, e.g. 4.3."
            ),
            click.option(
                "--concept", type=TEXT, help="Only passages about this concept (English or Chinese name)."
            ),
            click.option("--card", type=TEXT, help="Only passages that mention this card (any name form)."),
            click.option(
                "--since", type=TEXT, help="Only passages with a date on or after this day (YYYY-MM-DD)."
            ),
            click.option(
                "--until",
                type=TEXT,
                help="Only passages with a date on or before this day; with --since, one date inside both.",
            ),
            _json_option,
        ]
    ):
        fn = option(fn)
    return fn


def _limit_option(most: int, default: int, what: str = "How many"):
    return count_option(
        "--limit", "-n", low=1, high=most, default=default, help=f"{what} to show (at most {most})."
    )


def _question_command(argument: str, most: int, default: int):
    """A command that takes a question and the search filters (search, ask)."""

    def decorate(fn):
        for option in (click.pass_context, _limit_option(most, default), _filters_options):
            fn = option(fn)
        return main.command()(click.argument(argument, type=TEXT)(fn))

    return decorate


def _show(view: dict, as_json: bool, render: str) -> None:
    """A view as JSON, or as the terminal renderer named writes it: `render_card`
    (in cli/render.py) or `render_read.render_read` (a module of cli/ of its own),
    imported only when text is printed."""
    if as_json:
        click.echo(json.dumps(view, ensure_ascii=False))
        return
    import importlib

    module, _, function = render.rpartition(".")
    renderers = importlib.import_module(f"ocgkb.cli.{module or 'render'}")
    _echo(getattr(renderers, function)(view))


def _echo(text: str) -> None:
    """Text for a person: wrapped to the terminal's width (or `COLUMNS`), as is when piped."""
    from ocgkb.cli.wrap import fit, terminal_width

    click.echo(fit(text, terminal_width()))


@_question_command("query", schema.MOST_HITS, schema.DEFAULT_HITS)
def search(ctx, query, kind, section, concept, card, since, until, limit, as_json) -> None:
    """The passages that best answer QUERY, ranked, with their sources.

    \b
    Examples:
      ocgkb search 卷回 --section 6.3
      ocgkb search 对象 --kind ruling --since 2023-01-01 --json
    """
    from ocgkb.views.search import search_view

    filters = search_filters(kind, section, concept, card, since, until)
    _show(search_view(_open(ctx), query, filters, limit), as_json, "render_hits")


@_question_command("question", schema.MOST_CLAUSES, schema.DEFAULT_CLAUSES)
def ask(ctx, question, kind, section, concept, card, since, until, limit, as_json) -> None:
    """Answer a rules QUESTION: the clauses that settle it, with their examples and rulings.

    \b
    Examples:
      ocgkb ask "cost算不算卡片的效果"
      ocgkb ask "伤害步骤能发动什么卡" --limit 3
    """
    from ocgkb.views.answer import answer

    filters = search_filters(kind, section, concept, card, since, until)
    _show(answer(_open(ctx), question, filters, limit), as_json, "render_answer")


@main.command()
@click.argument("number", type=TEXT)
@_json_option
@click.pass_context
def section(ctx, number, as_json) -> None:
    """Show a rulebook section (4.2.2) or list the tree below one (4).

    Also accepts a ruling topic such as rulings/cost, and any passage id the tool
    cites (4.2.2/3, tournament/129), which it shows as `ocgkb show` does.
    """
    from ocgkb.views.passage import passage_view
    from ocgkb.views.section import section_view

    kb = _open(ctx)
    try:
        view, render = section_view(kb, number), "render_section"
    except NotFound:
        if "/" not in number:
            raise
        try:
            view, render = passage_view(kb, number.strip()), "render_passage"
        except NotFound:
            raise NotFound(f"no section or passage {number.strip()!r}") from None
    _show(view, as_json, render)


@main.command()
@click.argument("passage_id", metavar="ID", type=TEXT)
@_json_option
@click.pass_context
def show(ctx, passage_id, as_json) -> None:
    """Open a passage by the id the tool cites (6.3.4.3/1, rulings/调整中/4,
    tournament/129, masterrule/60): where it stands, its text and sources, the
    clause it belongs to, its sub-items, examples and notes, and the scenarios
    that replay it.

    \b
    Examples:
      ocgkb show 6.3.4.3/1
      ocgkb show tournament/129
    """
    from ocgkb.views.passage import passage_view

    _show(passage_view(_open(ctx), passage_id.strip()), as_json, "render_passage")


@main.command()
@click.argument("name", type=TEXT)
@_limit_option(schema.MOST_CARD_PASSAGES, schema.DEFAULT_CARD_PASSAGES, "Passages")
@click.option(
    "--on",
    type=TEXT,
    metavar="DATE",
    help="The Forbidden & Limited status under the lists in force on this date.",
)
@_json_option
@click.pass_context
def card(ctx, name, limit, on, as_json) -> None:
    """Find a card by NAME in any form and show its password, names in every
    language, type and stats, its Forbidden & Limited status in each region with
    its history, then the passages that mention it, newest ruling first.

    NAME may be a password, the texts' Chinese name, the official Chinese name,
    English, Japanese (kanji or kana, or the start of its reading), a nickname,
    pinyin or initials, with typos, in traditional characters or in part. A set's
    name (青眼, 元素英雄) lists the set's cards.

    \b
    Examples:
      ocgkb card 电器尾龙
      ocgkb card "maxx c"
      ocgkb card 増殖するG
      ocgkb card 强脱
      ocgkb card "qing yan bai long"
      ocgkb card 89631139 --on 2024-01-01
    """
    from ocgkb.views.card import card_view

    day = date_option("--on", on)
    try:
        view = card_view(_open(ctx), name, limit, day)
    except NotFound as exc:
        if not as_json:
            from ocgkb.messages import with_suggestions

            raise NotFound(with_suggestions(str(exc), exc.detail.get("suggestions"))) from None
        click.echo(json.dumps(exc.detail, ensure_ascii=False))
        sys.exit(exc.exit_code)
    _show(view, as_json, "render_card")


@main.command()
@click.argument("text", type=CARD_TEXT, required=False)
@click.option(
    "--file",
    "path",
    type=click.Path(dir_okay=False),
    metavar="PATH",
    help="Read the text from this file (UTF-8) instead; TEXT '-' reads standard input.",
)
@click.option(
    "--card",
    type=TEXT,
    metavar="NAME|PASSWORD",
    help="The card whose text it is: its type decides an activation.",
)
@_json_option
@click.pass_context
def read(ctx, text, path, card, as_json) -> None:
    """Read a card's effect TEXT as a judge does: its effects, each one's kind,
    spell speed, timing, condition, cost, target and once-per-turn limit, every
    conclusion with the rule passage it rests on.

    TEXT may be Chinese, in the official wording (此卡, 的情况下, 可以发动) or
    ygopro's (这张卡, 的场合, 才能发动), at most 1000 characters; a Japanese
    or English text is read as far as its own conventions allow, and the
    reading says what is not read.

    \b
    Examples:
      ocgkb read "①：这张卡召唤成功时才能发动。从卡组把1只怪兽加入手卡。"
      ocgkb read "①：以场上1张卡为对象才能发动。那张卡破坏。" --card 旋风
      ocgkb read - < card.txt
    """
    from ocgkb.views.read import read_view

    text = _card_text(text, path)
    _show(read_view(_open(ctx), text, card), as_json, "render_read.render_read")


def _card_text(text: str | None, path: str | None) -> str:
    """The text to read: the argument, standard input ('-') or a file, the
    last two read no further than a card text's limit."""
    from ocgkb.files import read_at_most, short_path
    from ocgkb.views.read import MAX_CARD_BYTES, card_text_from

    if (text is None) == (path is None):
        raise OptionError("give the card text as TEXT, '-' for standard input, or --file PATH (one of them)")
    if path is not None:
        try:
            return card_text_from(read_at_most(path, MAX_CARD_BYTES))
        except OSError as exc:
            raise OptionError(f"cannot read {short_path(path)}: {exc.strerror or exc}") from None
    if text == "-":
        return card_text_from(sys.stdin.buffer.read(MAX_CARD_BYTES + 1))
    return text


@main.command()
@click.argument("name", type=TEXT)
@_json_option
@click.pass_context
def concept(ctx, name, as_json) -> None:
    """Show a rule concept by English or Chinese name or alias: its defining
    clauses, related concepts and rulings.

    \b
    Examples:
      ocgkb concept cost
      ocgkb concept 卡时点
    """
    from ocgkb.views.concept import concept_view

    _show(concept_view(_open(ctx), name), as_json, "render_concept")


@main.command()
@click.argument("path", type=click.Path(), required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the replays as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="Only say which scenarios pass or fail.")
@click.pass_context
def replay(ctx: click.Context, path: str | None, as_json: bool, quiet: bool) -> None:
    """Replay a scenario file (or every scenario in a folder) step by step: the
    chain links as they are built and resolved, each ATK change with its layer,
    each missed timing with its reason, and the final state.

    PATH is a file, a folder, or the name of a scenario in the curated
    knowledge (kb/scenarios/, or --kb-dir's); without it, every one is replayed.
    Every file gets a line (pass, mismatch or malformed, with the reason) and a
    summary follows. Exits with the worst result: 1 when a replay ends otherwise
    than its file states (or a folder holds no scenario), 2 when a file is malformed.

    \b
    Examples:
      ocgkb replay kb/scenarios/atk_rush_then_gale.yaml
      ocgkb replay atk_rush_then_gale
      ocgkb replay -q
    """
    from ocgkb.views.replay import replay_view

    view = replay_view(path, ctx.find_root().obj["kb_dir"] or paths.kb_dir())
    if as_json:
        click.echo(json.dumps(view["outcomes"], ensure_ascii=False, indent=None))
    else:
        from ocgkb.cli.render import render_replay

        _echo(render_replay(view["outcomes"], quiet))
    sys.exit(view["exit"])


@main.command()
@click.pass_context
def mcp(ctx: click.Context) -> None:
    """Serve the knowledge base to an AI assistant: a Model Context Protocol
    server on standard input and output, one tool per command (ask, search,
    card, section, concept, replay, deck_check, read_card_text) and every
    section and passage as a resource. It only reads the knowledge base,
    building it first if needed (progress on standard error).

    Needs the mcp extra: pip install 'ocgkb[mcp]'. An MCP client runs it as
    {"command": "ocgkb", "args": ["mcp"]}.
    """
    import importlib.util

    from ocgkb.mcp import INSTALL_HINT

    if importlib.util.find_spec("mcp") is None:
        raise click.ClickException(INSTALL_HINT)
    kb = _open(ctx)
    from ocgkb.mcp.server import serve

    serve(kb, ctx.find_root().obj["kb_dir"] or paths.kb_dir())


@main.group()
def deck() -> None:
    """Check a deck (.ydk) against the deck rules and the Forbidden & Limited list."""


@deck.command("check")
@click.argument("path", type=click.Path())
@click.option("--region", default="ocg", show_default=True, type=TEXT, help="ocg or ocg-cn: whose list.")
@click.option(
    "--on", "day", type=TEXT, help="The list in force on this date (YYYY-MM-DD); default: the newest."
)
@_json_option
@click.pass_context
def deck_check(ctx: click.Context, path: str, region: str, day: str | None, as_json: bool) -> None:
    """Check a .ydk deck as a judge would: main deck 40–60, extra and side at most
    15, at most 3 of a card (alternate artworks are one card), the list's limits,
    extra-deck monsters only in the extra deck. Each problem cites its rule
    (000 §1.2, 003) and names its cards.

    Exits 0 when the deck is legal, 1 when it is not, 2 when the file is not a
    readable .ydk (nothing is written anywhere).

    \b
    Examples:
      ocgkb deck check my.ydk
      ocgkb deck check my.ydk --region ocg-cn --on 2024-01-01 --json
    """
    from ocgkb.views.deck import deck_file_view

    view = deck_file_view(_open(ctx), path, region, day)
    _show(view, as_json, "render_deck.render_deck")
    sys.exit(0 if view["legal"] else 1)


@main.group()
def cards() -> None:
    """Bring your own card texts: this project ships no card's effect text, so
    import the ygopro cards.cdb you have, and `card` and `ask` read its texts.

    The texts are kept in your own data folder (env OCGKB_TEXTS names the file),
    never in the package or the knowledge base.
    """


@cards.command("import")
@click.argument("path", type=click.Path())
def cards_import(path: str) -> None:
    """Import the card texts of a ygopro cards.cdb (read, never written),
    replacing any imported before.

    \b
    Examples:
      ocgkb cards import ~/ygopro/cards.cdb
    """
    from ocgkb.views.card_texts import import_texts

    done = import_texts(path)
    click.echo(f"imported {done['count']:,} card texts from {done['source']} into {done['path']}")


@cards.command("status")
def cards_status() -> None:
    """Say where the imported card texts are, from which file, and how many."""
    from ocgkb.views.card_texts import texts_status

    status = texts_status()
    if "problem" in status:
        raise click.ClickException(status["problem"])
    if not status["count"]:
        click.echo(
            "no card texts imported; import your ygopro cards.cdb with "
            f"`ocgkb cards import PATH/cards.cdb` (they are kept in {status['path']})"
        )
        return
    click.echo(f"{status['count']:,} card texts imported from {status['source']}, kept in {status['path']}")


@cards.command("forget")
def cards_forget() -> None:
    """Delete the imported card texts."""
    from ocgkb.views.card_texts import forget_texts

    gone = forget_texts()
    click.echo(
        f"deleted the imported card texts ({gone['path']})"
        if gone["forgot"]
        else "no card texts were imported"
    )


@main.group()
def sources() -> None:
    """Add a rulings documentation you keep (a Sphinx site's reST sources, such as
    the community OCG rulings documentation), update it, and see what changed.

    An added documentation is kept as yours, in your data folder (env
    OCGKB_SOURCES names the folder), never in the package: it is rebuilt into the
    knowledge base with the five seeds, which it never replaces, and `ask`,
    `search`, `card`, the site and the API answer from it, each ruling citing its
    document, topic, date and official FAQ link.

    \b
    Examples:
      ocgkb sources add ~/OCG-Rule-documentation       # a folder holding docs/…/*.rst
      ocgkb sources add ~/OCG-Rule-documentation       # again, later: an update, with its changes
      ocgkb changes                                    # what that update changed
      ocgkb sources list
      ocgkb sources remove ocg-rule
    """


@sources.command("add")
@click.argument("path", type=TEXT)
@click.option("--name", type=TEXT, help="The name to keep it under (default: its Sphinx project's name).")
@_json_option
@click.pass_context
def sources_add(ctx: click.Context, path: str, name: str | None, as_json: bool) -> None:
    """Add the rulings documentation at PATH (a folder holding docs/…/*.rst, or one
    .rst file), or update the one of the same name, and rebuild the knowledge base.

    An update says in one line how many rulings it adds, removes and changes
    (`ocgkb changes` lists them). A documentation that cannot be read (not UTF-8,
    not reST, empty, over the size limit) is one line, and nothing is changed.
    """
    from ocgkb.views.sources import add_source

    done = add_source(path, name, _step_line)
    report = _rebuild(ctx)
    if as_json:
        click.echo(json.dumps({**done, "build": report}, ensure_ascii=False))
        return
    from ocgkb.cli.render_sources import render_added

    _echo(render_added(done, report))


@sources.command("list")
@_json_option
def sources_list(as_json: bool) -> None:
    """List the added documentations, and whether the folder each came from is
    still there (its copy is used either way)."""
    from ocgkb.views.sources import list_sources

    listed = list_sources()
    if as_json:
        click.echo(json.dumps({"sources": listed}, ensure_ascii=False))
        return
    from ocgkb.cli.render_sources import render_list

    _echo(render_list(listed))


@sources.command("remove")
@click.argument("name", type=TEXT)
@_json_option
@click.pass_context
def sources_remove(ctx: click.Context, name: str, as_json: bool) -> None:
    """Remove an added documentation (its kept copy) and rebuild the knowledge base."""
    from ocgkb.views.sources import remove_source

    gone = remove_source(name)
    report = _rebuild(ctx)
    if as_json:
        click.echo(json.dumps({**gone, "build": report}, ensure_ascii=False))
        return
    click.echo(f"removed {gone['name']} ({gone['title']}, added from {gone['origin']})")
    click.echo(f"rebuilt the knowledge base: {report['counts'].get('passages', 0):,} passages")


def _step_line(what: str) -> None:
    """A long step said on standard error, on a terminal only (as the build's progress)."""
    if sys.stderr.isatty():
        click.echo(f"{what}…", err=True)


def _rebuild(ctx: click.Context) -> dict:
    from ocgkb.store.door import build as build_kb

    return build_kb(*_where(ctx), on_build=_build_progress).as_dict()


@main.command()
@click.argument("old", type=TEXT, required=False)
@click.argument("new", type=TEXT, required=False)
@click.option("--since", type=TEXT, metavar="DATE", help="Only the rulings dated on or after this day.")
@click.option(
    "--only", type=click.Choice(["added", "removed", "changed"]), help="List only these (the totals stay)."
)
@_json_option
def changes(old: str | None, new: str | None, since: str | None, only: str | None, as_json: bool) -> None:
    """What changed between two editions of a rulings documentation: the rulings
    added, removed and changed, matched by official FAQ id where they cite one and
    by their words otherwise, grouped by topic, each with its date and FAQ link;
    the totals first.

    OLD and NEW are folders (or .rst files, or an added source's name). NEW alone
    is compared with the added documentation it updates; with neither, the changes
    of the last `sources add` that updated one.

    \b
    Examples:
      ocgkb changes ~/docs-2025 ~/docs-2026
      ocgkb changes ~/OCG-Rule-documentation --since 2026-01-01
      ocgkb changes --only added --json
    """
    from ocgkb.views.sources import changes_view

    view = changes_view(old, new, date_option("--since", since), _step_line)
    if only:
        view = {**view, **{kind: [] for kind in ("added", "removed", "changed") if kind != only}}
    if as_json:
        click.echo(json.dumps(view, ensure_ascii=False))
        return
    from ocgkb.cli.render_sources import render_changes

    _echo(render_changes(view))


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
    type=TEXT,
    help="Only the neighbourhood of a concept, card, section or passage (cost, 卡时点, 4.2.2, 黑洞).",
)
@count_option("--depth", low=0, high=10, default=1, help="How many links out from --around.")
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
    from ocgkb.study.export import check_format, export

    check_format(fmt)  # before the knowledge base is opened (or built)
    written, nodes, edges = export(_open(ctx), fmt, output, around, depth, kinds)
    for path in written:
        click.echo(f"wrote {path} ({nodes} nodes, {edges} edges)", err=True)


def _limit_options(command):
    """`serve`'s options for the server's limits, made from their one declaration."""
    from ocgkb.web.limits import OPTIONS, Limits

    for name in reversed(Limits._fields):
        (low, high), help = OPTIONS[name]
        default = Limits._field_defaults[name]
        option = "--" + name.replace("_", "-")
        if isinstance(low, int):
            command = count_option(option, low=low, high=int(high), default=default, help=help)(command)
        else:
            kind = click.FloatRange(low, high)
            command = click.option(option, type=kind, default=default, show_default=True, help=help)(command)
    return command


@main.command()
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="The address to listen on (0.0.0.0: every one)."
)
@count_option("--port", low=1, high=65535, default=8000, help="The port.")
@count_option(
    "--workers",
    low=1,
    high=64,
    default=1,
    help="Worker processes, each with the knowledge base open read-only.",
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME",
    help="A Host name the site answers (repeatable; '*.example.org' and '*' allowed). Default: "
    "localhost, 127.0.0.1 and [::1] when listening on loopback; any host otherwise.",
)
@_limit_options
@click.option("-q", "--quiet", is_flag=True, help="Do not log every request.")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, workers: int, quiet: bool, **limits) -> None:
    """Serve the knowledge base as a web site and a JSON API (pages at /, the API
    described at /openapi.json), building it first if needed. Ctrl-C stops it.

    Needs the web extra: pip install 'ocgkb[web]'.

    \b
    Examples:
      ocgkb serve
      ocgkb serve --host 0.0.0.0 --port 8080 --workers 2 --allowed-host rules.example.org
    """
    import importlib.util

    from ocgkb.web import INSTALL_HINT

    if any(
        importlib.util.find_spec(name) is None for name in ("starlette", "jinja2", "uvicorn", "httptools")
    ):
        raise click.ClickException(INSTALL_HINT)
    from ocgkb.web.hosts import default_allowed, is_loopback
    from ocgkb.web.limits import Limits
    from ocgkb.web.server import check_port, reach_lines, run, url_of

    check_port(host, port)
    allowed = list(limits.pop("allowed_hosts")) or default_allowed(host)
    kb_path = _serve_environment(ctx, allowed)
    if not is_loopback(host):
        click.secho(
            f"warning: listening on {host}: the site is open to other machines"
            + (" and answers any Host name" if "*" in allowed else ""),
            err=True,
            fg="yellow",
        )
    click.echo(
        f"ocgkb: serving {kb_path} at {url_of(host, port)} ({workers} worker(s)); Ctrl-C stops", err=True
    )
    for line in reach_lines(host, port):
        click.echo(f"ocgkb: {line}", err=True)
    run(host, port, workers, quiet, Limits(**limits))
    click.echo("ocgkb: stopped", err=True)


def _serve_environment(ctx: click.Context, allowed: list[str]) -> str:
    """Build once here, with progress, not once in every worker; then put what the
    workers need in the environment (they are fresh processes). The knowledge base's path."""
    import os

    kb = _open(ctx)
    options = ctx.find_root().obj
    os.environ["OCGKB_DB"] = kb.path
    for name, key in (("OCGKB_DATA", "data_dir"), ("OCGKB_KB", "kb_dir")):
        if options[key]:
            os.environ[name] = os.path.realpath(options[key])
    os.environ["OCGKB_ALLOWED_HOSTS"] = ",".join(allowed)
    kb.close()
    return kb.path


if __name__ == "__main__":
    main()
