"""What each row of the board shows: text at a column, under a style name.

:func:`row_keys` turns a :class:`~allfives_tui.table.board_geometry.BoardPlan`
into one key a row, so that equal keys draw equal rows; the board widget draws
each key in the styles its names stand for. Textual-free.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from allfives_tui.locale import N_, _
from allfives_tui.table.board_geometry import BoardPlan
from engine import End, Tile

# Style names (component classes without the "board--" prefix).
TILE, PIP, SPINNER, LAST, END, END_HL, END_OPTION, END_CURSOR, EMPTY = (
    "tile",
    "pip",
    "spinner",
    "last",
    "end",
    "end-hl",
    "end-option",
    "end-cursor",
    "empty",
)
STYLE_NAMES = (TILE, PIP, SPINNER, LAST, END, END_HL, END_OPTION, END_CURSOR, EMPTY)
MARKER_TEXT = {
    END: " {}:{} ",
    END_HL: "▸{}:{}◂",
    END_OPTION: "▹{}:{}◃",
    END_CURSOR: "▶{}:{}◀",
}
"""An open end's marker (letter, pip needed) by its role: any open end; an end the
selected tile fits; while choosing an end, one not chosen; the end chosen (⏎ plays there)."""
EMPTY_TEXT = N_("The table is empty: the first tile leads.")
"""What the board says before the lead (translated where it is drawn)."""


Run = tuple[int, str, str]
"""Text drawn on a row: (column, text, style name); a tile's digits take the pip style too."""
RowKey = tuple[Run, ...]
"""Everything drawn on one row, left to right."""


def row_keys(
    plan: BoardPlan,
    *,
    empty: bool = False,
    last: Tile | None = None,
    cursor: End | None = None,
    highlight: Sequence[End] = (),
) -> list[RowKey]:
    """What each row of ``plan`` shows: equal keys draw equal rows."""
    rows: list[list[Run]] = [[] for _ in range(plan.height)]
    if empty:
        # centred, on as many rows as the words need at this width
        lines = textwrap.wrap(_(EMPTY_TEXT), max(1, plan.width)) or [""]
        top = max(0, plan.height // 2 - (len(lines) - 1) // 2)
        for y, line in enumerate(lines[: plan.height], start=top):
            x = max(0, (plan.width - len(line)) // 2)
            rows[min(y, plan.height - 1)].append((x, line, EMPTY))
    for g in plan.glyphs:
        style = LAST if last is not None and g.tile == last else SPINNER if g.spinner else TILE
        x0, y0 = g.rect.x0, g.rect.y0
        for dy, text in enumerate(g.rows):
            rows[y0 + dy].append((x0, text, style))
    for m in plan.markers:
        if m.end is cursor:
            role = END_CURSOR
        elif m.end in highlight:
            role = END_OPTION if cursor is not None else END_HL
        else:
            role = END
        rows[m.rect.y0].append((m.rect.x0, MARKER_TEXT[role].format(m.end.value, m.value), role))
    return [tuple(sorted(row)) for row in rows]
