"""Nothing changes for users when the code is reorganised: every command's JSON
output for about 60 real inputs is byte-identical to the recorded one
(tests/golden/; re-record with `python -m tests.golden.record` only for a
deliberate change, and say which field changed)."""

from __future__ import annotations

import click
import pytest
from golden.cases import cases, load, run

from ocgkb.cli.main import main

GOLDEN = load()
# Re-recorded for issue 18: the passages' parents (every line under the parent the
# text gives it), the ranking (fusion), `nothing_fits` / `message` / `notes`, the
# cards a question names and a card's Forbidden & Limited `status`. For issue 23:
# `card` gains `effect_text` (here always the hint: no texts are imported in the tests).


def command_paths(group: click.Group, prefix: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    """Every command a user can run, a group's subcommands each on its own."""
    paths = set()
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            paths |= command_paths(command, (*prefix, name))
        else:
            paths.add((*prefix, name))
    return paths


def test_the_golden_set_covers_every_command():
    """Every command but the two servers (tested as servers: test_web_*, test_mcp)."""
    wanted = command_paths(main) - {("serve",), ("mcp",)}
    covered = {path for path in wanted for case in GOLDEN if tuple(case["args"][: len(path)]) == path}
    assert covered == wanted, sorted(wanted - covered)
    assert GOLDEN == [case for case in GOLDEN if case["args"] in cases()]  # none recorded but not asked
    assert len(GOLDEN) == len(cases()) >= 70


@pytest.mark.parametrize("case", GOLDEN, ids=lambda case: " ".join(case["args"])[:60])
def test_output_is_unchanged(kb_path, tmp_path, case):
    now = run(kb_path, list(case["args"]), tmp_path)
    assert now["exit"] == case["exit"]
    assert now["output"] == case["output"]
