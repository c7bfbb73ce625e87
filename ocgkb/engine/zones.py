"""The monster zones as a grid, and where a Link monster's arrows point (Master Rule
2020, 001 【怪兽区域】 and 【连接怪兽】).

Seen from player A: A's Main Monster Zones 1–5 are the bottom row, left to right;
B's are the top row, numbered from B's own left (so B's zone 1 is above A's zone 5);
the two Extra Monster Zones sit between them, `emz_left` above A's zone 2 (below B's
zone 4) and `emz_right` above A's zone 4 (below B's zone 2). An arrow is read from its
monster's controller: B's "bottom" points up the grid, towards A.

Pure geometry, importing only the cards' arrows: the state (engine/state.py) asks it
which zones a monster may go to.
"""

from __future__ import annotations

from .cards import ARROWS

MAIN_ZONES = (1, 2, 3, 4, 5)
SPELL_TRAP_ZONES = (1, 2, 3, 4, 5)
EXTRA_MONSTER_ZONES = ("emz_left", "emz_right")
# The Spell & Trap Zones a Pendulum Scale stands in (`pendulum: left|right`).
PENDULUM_ZONES = {"left": 1, "right": 5}
Slot = int | str  # a zone number 1–5, or an Extra Monster Zone's name
_EMZ_COLUMN = {"emz_left": 2, "emz_right": 4}


def position(player: str, slot: Slot) -> tuple[int, int]:
    """Where a monster zone is on the grid: (row, column), A's row 2, B's row 0."""
    if slot in _EMZ_COLUMN:
        return 1, _EMZ_COLUMN[str(slot)]
    number = int(slot)
    return (2, number) if player == "A" else (0, 6 - number)


def zone_at(row: int, column: int) -> tuple[str | None, Slot] | None:
    """The zone at a place of the grid: (its player, its slot); an Extra Monster
    Zone belongs to no one by itself (player None). None: off the grid."""
    if row == 2 and 1 <= column <= 5:
        return "A", column
    if row == 0 and 1 <= column <= 5:
        return "B", 6 - column
    if row == 1:
        for name, at in _EMZ_COLUMN.items():
            if at == column:
                return None, name
    return None


def pointed(controller: str, slot: Slot, arrows: tuple[str, ...]) -> list[tuple[str | None, Slot]]:
    """The zones a Link monster in `slot` points to with its arrows."""
    row, column = position(controller, slot)
    sign = 1 if controller == "A" else -1  # B faces A: its arrows are turned round
    found = []
    for arrow in arrows:
        down, right = ARROWS[arrow]
        zone = zone_at(row + sign * down, column + sign * right)
        if zone is not None:
            found.append(zone)
    return found


def is_extra_monster_zone(slot: Slot | None) -> bool:
    return slot in _EMZ_COLUMN


def parse_slot(value: object) -> Slot | None:
    """A zone as a scenario writes it: 1–5 or emz_left|emz_right; None when it is neither."""
    if type(value) is int and value in MAIN_ZONES:
        return value
    if value in EXTRA_MONSTER_ZONES:
        return str(value)
    return None
