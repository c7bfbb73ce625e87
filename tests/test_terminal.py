"""The terminal: text wrapped to its width with hanging indents (East Asian wide
characters two columns, colour codes none), NO_COLOR and --color/--no-color,
--version; piped text left as it is."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from ocgkb.cli.main import main
from ocgkb.cli.wrap import display_width, fit

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")

# Invented texts in the style of the rule texts.
RULE = "●发动卡的效果时作为cost支付的基本分不视为卡片的效果，这一点在任何场合都相同。"
MIXED = "The cost of 「银河守卫者」 is paid before the chain link is built, 而不是在效果处理时。"


def visible(text: str) -> str:
    return ANSI.sub("", text)


def test_width_counts_wide_characters_twice_and_colour_codes_not_at_all():
    assert display_width("cost") == 4
    assert display_width("卡时点") == 6
    assert display_width("「A」") == 5
    assert display_width(click.style("卡时点", fg="yellow", bold=True)) == 6


@pytest.mark.parametrize("width", [12, 20, 33, 40])
@pytest.mark.parametrize("text", [RULE, MIXED, "   " + RULE * 3, "2. " + MIXED * 2])
def test_no_wrapped_line_is_wider_than_the_width(text, width):
    lines = fit(text, width).split("\n")
    assert len(lines) > 1
    assert all(display_width(line) <= width for line in lines)
    # Nothing is lost but the spaces a break replaced.
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


def test_a_continuation_hangs_under_its_lines_text():
    indented = fit("   " + RULE * 2, 30).split("\n")
    assert all(line.startswith("   ") and line[3] != " " for line in indented)
    numbered = fit("12. " + MIXED, 30).split("\n")
    assert all(line.startswith("    ") and line[4] != " " for line in numbered[1:])
    marked = fit("     ↳ " + RULE, 30).split("\n")
    assert all(line.startswith(" " * 7) for line in marked[1:])
    at_the_margin = fit(RULE, 30).split("\n")
    assert all(line.startswith("  ") for line in at_the_margin[1:])


def test_latin_words_are_cut_only_when_wider_than_the_line():
    words = fit("the chain link is built before the cost is paid", 12).split("\n")
    assert all(
        word in "the chain link is built before the cost is paid".split() for w in words for word in w.split()
    )
    ident = "[000_10f134482f0c174e.txt:258/https://example.org/a/very/long/path]"
    lines = fit(f"1. §4.2.2 {ident} clause", 30).split("\n")
    assert all(display_width(line) <= 30 for line in lines), lines
    assert "".join(line.strip() for line in lines[1:]).startswith(ident)  # cut, nothing lost, in order


def test_a_word_wider_than_the_line_is_cut_and_leaves_no_blank_line():
    ident = "000_10f134482f0c174e.txt:258"
    for text in (f"   ab {ident} cd", f"   {ident} 卡时点", click.style(f"   {ident} x", fg="red")):
        lines = fit(text, 20).split("\n")
        assert all(visible(line).strip() for line in lines), lines
        assert all(display_width(line) <= 20 for line in lines), lines
        assert ident in "".join(visible(line).strip() for line in lines)


def test_closing_marks_never_start_a_line_and_opening_marks_never_end_one():
    text = "效果处理，「甲乙丙丁」。" * 6
    for width in range(8, 30):
        for line in fit(text, width).split("\n"):
            body = line.strip()
            assert body[0] not in "，。、」）" and body[-1] not in "「（", (width, line)


def test_colours_end_at_a_break_and_resume_after_the_indent():
    text = "   " + "卡的效果" + click.style("作为cost支付的基本分" * 3, fg="yellow") + "不视为效果。"
    lines = fit(text, 24).split("\n")
    assert all(display_width(line) <= 24 for line in lines)
    assert lines[0].endswith("\x1b[0m")
    assert lines[1].startswith("   \x1b[33m")
    assert visible("".join(lines)).replace(" ", "") == visible(text).replace(" ", "")


def test_nothing_is_wrapped_without_a_width():
    text = "1. " + RULE * 5
    assert fit(text, None) is text
    assert fit("short line", 80) == "short line"


def _on_a_terminal(args: list[str], **env: str) -> tuple[int, str]:
    """Run `python -m ocgkb ARGS` on a pseudo-terminal: its exit code and what it showed."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: standard output is the terminal
        os.execve(sys.executable, [sys.executable, "-m", "ocgkb", *args], {**os.environ, **env})
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the terminal closes when the child ends
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(fd)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), b"".join(chunks).decode().replace("\r\n", "\n")


@pytest.mark.parametrize(
    "args",
    [
        ["ask", "cost算不算卡片的效果"],
        ["ask", "对方发动的效果能不能卡时点"],  # replay paths wider than the line: cut
        ["concept", "卡时点"],
        ["section", "4"],
        ["section", "4.2.2"],
        ["card", "maxx c"],
        ["search", "卡时点", "--kind", "ruling"],
        [
            "read",
            "①：这张卡召唤成功时才能发动。从自己卡组把1只4星以下的怪兽加入手卡，那之后选自己1张手卡丢弃。",
        ],
        ["replay", "atk_rush_then_gale"],
    ],
)
def test_columns_80_and_no_color_on_a_terminal(kb_path, args):
    code, shown = _on_a_terminal(["--db", str(kb_path), *args], COLUMNS="80", NO_COLOR="1")
    assert code == 0, shown
    assert "\x1b[" not in shown
    lines = shown.splitlines()
    assert max(display_width(line) for line in lines) <= 80
    unwrapped = subprocess.run(
        [sys.executable, "-m", "ocgkb", "--db", str(kb_path), *args],
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "COLUMNS"},
    ).stdout
    if max(map(display_width, unwrapped.splitlines())) > 80:  # what is wider when piped…
        assert len(lines) > len(unwrapped.splitlines())  # …is wrapped on the terminal
    assert "".join(shown.split()) == "".join(unwrapped.split())  # and lost nothing
    assert_hanging(unwrapped.splitlines(), lines)


def assert_hanging(long_lines: list[str], wrapped: list[str]) -> None:
    """Each line wrapped into several: its continuations start indented, at least as
    far as the line's own text, never at column 0."""
    at = 0
    for line in long_lines:
        pieces = [wrapped[at]]
        at += 1
        while "".join(" ".join(pieces).split()) != "".join(line.split()):
            pieces.append(wrapped[at])
            at += 1
        indent = len(line) - len(line.lstrip(" "))
        for continuation in pieces[1:]:
            assert continuation.startswith(" " * max(indent, 1)), (line, continuation)
    assert at == len(wrapped)


def test_the_first_build_shows_its_steps_on_a_terminal_and_nothing_when_piped(tmp_path):
    from conftest import KB, SMALL

    where = ["--data-dir", str(SMALL), "--kb-dir", str(KB)]
    code, shown = _on_a_terminal(["--db", str(tmp_path / "a.sqlite"), *where, "concept", "cost"])
    assert code == 0, shown
    assert "building" in shown and "names" in shown and "100%" in shown
    piped = subprocess.run(
        [sys.executable, "-m", "ocgkb", "--db", str(tmp_path / "b.sqlite"), *where, "concept", "cost"],
        capture_output=True,
        text=True,
    )
    assert piped.returncode == 0
    assert piped.stderr == "Building the knowledge base (first use or sources changed)…\n"


def test_a_terminal_is_coloured_unless_told_not_to(kb_path):
    args = ["--db", str(kb_path), "concept", "cost"]
    assert "\x1b[" in _on_a_terminal(args, COLUMNS="80")[1]
    assert "\x1b[" not in _on_a_terminal(["--no-color", *args], COLUMNS="80")[1]
    assert "\x1b[" in _on_a_terminal(["--color", *args], COLUMNS="80", NO_COLOR="1")[1]


def test_color_forces_colour_into_a_pipe_and_columns_wraps_it(cli, kb_path):
    plain = cli("concept", "卡时点").output
    assert "\x1b[" not in plain and max(map(display_width, plain.splitlines())) > 80
    coloured = cli("--color", "concept", "卡时点").output
    assert "\x1b[" in coloured and visible(coloured) == plain
    wrapped = CliRunner(env={"COLUMNS": "60"}).invoke(main, ["--db", str(kb_path), "concept", "卡时点"])
    assert max(map(display_width, wrapped.output.splitlines())) <= 60


def test_version_is_the_installed_packages(cli):
    """pyproject takes the version from ocgkb/__init__.py, which --version prints
    without reading the package's metadata (140 ms of importlib.metadata)."""
    from importlib import metadata

    assert cli("--version").output == f"ocgkb, version {metadata.version('ocgkb')}\n"
