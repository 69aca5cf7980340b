"""The board plan: where an engine :class:`~engine.Layout`'s tiles and end markers go.

Pure layout arithmetic on a grid of cells, Textual-free. The main line runs
west-east through the spinner (or the lead, before a spinner), the spinner's
arms run north and south. Doubles lie crosswise and the spinner has a double
border. Every open end carries a marker such as ``W:5`` (the end's letter and
the pip it needs). A line that would leave the space bends round a corner,
pinwheel fashion (west turns south, south turns east, east turns north, north
turns west); if even that cannot fit, the canvas grows, so a tile is never cut.

From one move to the next the tiles stay where they are: the new plan keeps
the previous one's centre, and every tile on both boards keeps its cells;
when a line no longer fits so, the centre tile (the spinner, or the lead)
still keeps its cell and the lines bend anew around it; only when nothing
fits around that cell does it move, as little as will do (a new size or a
new hand is planned afresh).

:func:`plan_board` makes a :class:`BoardPlan`; :func:`row_keys` turns it into
one key a row (what is drawn where, under which style name), so that equal
keys draw equal rows.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from allfives_tui.locale import N_, _
from allfives_tui.table.glyphs import (
    H_HEIGHT,
    H_WIDTH,
    V_HEIGHT,
    V_WIDTH,
    Border,
    horizontal_glyph,
    vertical_glyph,
)
from engine import End, Layout, Tile

# Directions: L(eft) is west, R(ight) east, U(p) north, D(own) south.
_TURN = {"L": "D", "D": "R", "R": "U", "U": "L"}
_START = {End.W: "L", End.E: "R", End.N: "U", End.S: "D"}
MARKER_WIDTH = 5

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


@dataclass(frozen=True, slots=True)
class Rect:
    """A rectangle of cells: ``x0 <= x < x1`` and ``y0 <= y < y1``."""

    x0: int
    y0: int
    x1: int
    y1: int

    def overlaps(self, other: Rect) -> bool:
        """True when the two share a cell."""
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and (
            other.y0 < self.y1
        )

    def shifted(self, dx: int, dy: int) -> Rect:
        """The same rectangle moved by ``(dx, dy)``."""
        return Rect(self.x0 + dx, self.y0 + dy, self.x1 + dx, self.y1 + dy)

    def contains(self, x: int, y: int) -> bool:
        """True when cell ``(x, y)`` is inside."""
        return self.x0 <= x < self.x1 and self.y0 <= y < self.y1


@dataclass(frozen=True, slots=True)
class PlacedGlyph:
    """One tile as drawn: where, its rows of text and its style."""

    rect: Rect
    rows: tuple[str, ...]
    tile: Tile
    spinner: bool = False


@dataclass(frozen=True, slots=True)
class EndMarker:
    """An open end's marker on the board."""

    end: End
    value: int
    rect: Rect


@dataclass(frozen=True)
class BoardPlan:
    """Where every tile and end marker goes on a canvas of ``width`` x ``height``.

    The centre tile (the spinner, else the lead) comes first in ``glyphs``.
    ``request`` is the size asked for, and ``centre``, ``turns`` and
    ``large`` how the plan was made: :func:`plan_board` reuses them to keep
    the tiles in place when the next move comes.
    """

    width: int
    height: int
    glyphs: tuple[PlacedGlyph, ...] = ()
    markers: tuple[EndMarker, ...] = ()
    bent: bool = False
    request: tuple[int, int] = (0, 0)
    centre: tuple[int, int] = (0, 0)
    turns: int = 0
    large: bool = False

    def end_at(self, x: int, y: int) -> End | None:
        """The end whose marker covers cell ``(x, y)``, if any."""
        for m in self.markers:
            if m.rect.contains(x, y):
                return m.end
        return None

    def marker(self, end: End) -> EndMarker | None:
        """The marker of ``end``, if it is open."""
        for m in self.markers:
            if m.end is end:
                return m
        return None

    def cells(self) -> dict[Tile, Rect]:
        """Where each tile is drawn."""
        return {g.tile: g.rect for g in self.glyphs}


class _NoFit(Exception):
    pass


Arm = list[tuple[Tile, int, int]]
Parts = tuple[tuple[Tile, bool, bool], dict[End, Arm]]


def _chains(layout: Layout) -> Parts:
    """The centre tile (tile, is_spinner, vertical) and each arm outward as (tile, inner, outer)."""
    line = layout.main_line()
    assert layout.lead is not None
    if layout.spinner_at is None:
        idx = len(layout.west)
        centre = (layout.lead, False, False)
    else:
        idx = len(layout.west) + layout.spinner_at
        centre = (line[idx][0], True, True)
    west = [(t, e, w) for (t, w, e) in reversed(line[:idx])]
    east = [(t, w, e) for (t, w, e) in line[idx + 1 :]]
    north = [(p.tile, p.inner, p.outer) for p in layout.north]
    south = [(p.tile, p.inner, p.outer) for p in layout.south]
    return centre, {End.W: west, End.E: east, End.N: north, End.S: south}


@dataclass(frozen=True)
class Geometry:
    """Tile sizes in cells: horizontal ``hw`` x ``hh``, vertical ``vw`` x ``vh``."""

    large: bool
    hw: int
    hh: int
    vw: int
    vh: int

    def dims(self, d: str, tile: Tile) -> tuple[int, int]:
        """(along, across) of ``tile`` on a segment going ``d`` (doubles lie crosswise)."""
        if d in "LR":
            return (self.vw, self.vh) if tile.is_double else (self.hw, self.hh)
        return (self.hh, self.hw) if tile.is_double else (self.vh, self.vw)


NORMAL = Geometry(False, H_WIDTH, H_HEIGHT, V_WIDTH, V_HEIGHT)
LARGE = Geometry(True, 9, 3, 5, 5)


def _piece_rect(d: str, axis: int, cursor: int, along: int, across: int) -> Rect:
    lo = axis - across // 2
    if d == "R":
        return Rect(cursor, lo, cursor + along, lo + across)
    if d == "L":
        return Rect(cursor - along, lo, cursor, lo + across)
    if d == "D":
        return Rect(lo, cursor, lo + across, cursor + along)
    return Rect(lo, cursor - along, lo + across, cursor)


def _advance(d: str, rect: Rect) -> int:
    return {"R": rect.x1, "L": rect.x0, "D": rect.y1, "U": rect.y0}[d]


def _turn(nd: str, last: Rect) -> tuple[int, int]:
    """(axis, cursor) of a new segment going ``nd`` round the corner after ``last``.

    The new line runs on from the last piece's middle, so it lines up with it.
    """
    mid_x = (last.x0 + last.x1 - 1) // 2
    mid_y = (last.y0 + last.y1 - 1) // 2
    if nd == "D":
        return mid_x, last.y1
    if nd == "U":
        return mid_x, last.y0
    if nd == "L":
        return mid_y, last.x0
    return mid_y, last.x1


def _glyph_rows(
    d: str, tile: Tile, inner: int, outer: int, border: Border, large: bool = False
) -> tuple[str, ...]:
    """The rows of a tile on a segment going ``d``."""
    horizontal_seg = d in "LR"
    if horizontal_seg == tile.is_double:
        top, bottom = (outer, inner) if d == "U" else (inner, outer)
        return vertical_glyph(top, bottom, border, large=large)
    left, right = (outer, inner) if d == "L" else (inner, outer)
    return horizontal_glyph(left, right, border, large=large)


def _try_plan(
    layout: Layout,
    parts: Parts,
    width: int | None,
    height: int | None,
    cx: int,
    cy: int,
    max_turns: int = 1,
    g: Geometry = NORMAL,
) -> BoardPlan:
    """Place everything with the centre tile at (cx, cy); raise _NoFit if it cannot."""
    (ctile, is_spinner, cvertical), chains = parts
    occupied: list[Rect] = []
    glyphs: list[PlacedGlyph] = []
    markers: list[EndMarker] = []
    bent = False

    def fits(r: Rect, marker: bool = False) -> bool:
        if marker:
            # keep a blank cell between two ends' markers, so each reads on its own
            wide = Rect(r.x0 - 1, r.y0 - 1, r.x1 + 1, r.y1 + 1)
            if any(wide.overlaps(m.rect) for m in markers):
                return False
        if r.x0 < 0 or r.y0 < 0:
            return False
        if width is not None and r.x1 > width:
            return False
        if height is not None and r.y1 > height:
            return False
        return not any(r.overlaps(o) for o in occupied)

    if cvertical:
        x0, y0 = cx - g.vw // 2, cy - g.vh // 2
        crect = Rect(x0, y0, x0 + g.vw, y0 + g.vh)
        rows = vertical_glyph(ctile.high, ctile.low, "double", large=g.large)
    else:
        x0, y0 = cx - g.hw // 2, cy - g.hh // 2
        crect = Rect(x0, y0, x0 + g.hw, y0 + g.hh)
        rows = horizontal_glyph(ctile.low, ctile.high, "plain", large=g.large)
    if not fits(crect):
        raise _NoFit
    occupied.append(crect)
    glyphs.append(PlacedGlyph(crect, rows, ctile, spinner=is_spinner))
    starts = {
        End.W: (cy, crect.x0),
        End.E: (cy, crect.x1),
        End.N: (cx, crect.y0),
        End.S: (cx, crect.y1),
    }
    for end in (End.W, End.E, End.N, End.S):
        pieces = chains[end]
        value = layout.ends[end.slot]
        if not pieces and value < 0:
            continue
        d = _START[end]
        axis, cursor = starts[end]
        last: Rect | None = None
        turns = 0
        items: list[tuple[Tile, int, int] | None] = [*pieces]
        if value >= 0:
            items.append(None)  # the end marker
        for item in items:
            placed = False
            for _attempt in range(3):
                if item is None:
                    along, across = (MARKER_WIDTH, 1) if d in "LR" else (1, MARKER_WIDTH)
                else:
                    along, across = g.dims(d, item[0])
                r = _piece_rect(d, axis, cursor, along, across)
                if fits(r, marker=item is None):
                    placed = True
                    break
                if last is None or turns >= max_turns:
                    raise _NoFit
                turns += 1
                d = _TURN[d]
                axis, cursor = _turn(d, last)
                bent = True
            if not placed:
                raise _NoFit
            occupied.append(r)
            if item is None:
                markers.append(EndMarker(end, value, r))
            else:
                tile, inner, outer = item
                rows = _glyph_rows(d, tile, inner, outer, "plain", g.large)
                glyphs.append(PlacedGlyph(r, rows, tile))
            cursor = _advance(d, r)
            last = r
    return BoardPlan(
        width or 0,
        height or 0,
        tuple(glyphs),
        tuple(markers),
        bent,
        centre=(cx, cy),
        turns=max_turns,
        large=g.large,
    )


def _spiral(centre: int, lo: int, hi: int, step: int = 1) -> Iterable[int]:
    yield centre
    k = step
    while centre - k >= lo or centre + k <= hi:
        if centre - k >= lo:
            yield centre - k
        if centre + k <= hi:
            yield centre + k
        k += step


def _fit(plan: BoardPlan, width: int, height: int) -> BoardPlan:
    """Centre the contents on a canvas at least ``width`` x ``height``, cropped to them."""
    rects = [g.rect for g in plan.glyphs] + [m.rect for m in plan.markers]
    x0 = min(r.x0 for r in rects)
    y0 = min(r.y0 for r in rects)
    w = max(r.x1 for r in rects) - x0
    h = max(r.y1 for r in rects) - y0
    cw, ch = max(w, width), max(h, height)
    dx, dy = (cw - w) // 2 - x0, (ch - h) // 2 - y0
    return BoardPlan(
        cw,
        ch,
        tuple(PlacedGlyph(g.rect.shifted(dx, dy), g.rows, g.tile, g.spinner) for g in plan.glyphs),
        tuple(EndMarker(m.end, m.value, m.rect.shifted(dx, dy)) for m in plan.markers),
        plan.bent,
        request=(width, height),
        centre=(plan.centre[0] + dx, plan.centre[1] + dy),
        turns=plan.turns,
        large=plan.large,
    )


def _arm_length(pieces: Sequence[tuple[Tile, int, int]], horizontal: bool, g: Geometry) -> int:
    d = "R" if horizontal else "D"
    return sum(g.dims(d, t)[0] for t, _, _ in pieces) + (MARKER_WIDTH if horizontal else 1)


LARGE_FROM = (100, 30)
"""A board at least this big (columns, rows) draws large tiles when they fit."""


def plan_board(
    layout: Layout, width: int, height: int, *, previous: BoardPlan | None = None
) -> BoardPlan:
    """Lay ``layout`` out on ``width`` x ``height`` cells, bending lines to fit.

    The result may be larger than asked (the board then scrolls) when the
    lines cannot fit even with bends; it is never cut.

    With ``previous`` (the plan on show), the board stays put:

    1. every tile on both boards keeps its cells when that still fits (the
       centre stays, or moves with the old centre tile when a spinner has just
       taken the middle);
    2. else the centre tile (the spinner, or the lead) keeps its cell and the
       lines bend anew around it;
    3. else, and only then, the centre tile moves: to the nearest cell around
       which the layout fits (within :data:`NEAR` of the board), else wherever
       a plan afresh puts it, as without ``previous``.

    The centre tile *must* move (step 3) when no plan with it on its cell fits
    (:func:`fits_around` gives None): on the canvas asked for, in the tiles'
    size on show (large tiles may give way to the usual size), with at most one
    bend a line for large tiles and two for the usual ones. A board of another
    size, or of a new hand, is planned afresh (:func:`same_board`).
    """
    width, height = max(width, 12), max(height, 7)
    if previous is not None and layout.lead is not None and same_board(previous, width, height):
        kept = _keep_in_place(layout, width, height, previous)
        if kept is not None:
            return kept
        centre = _kept_centre(layout, previous)
        if centre is not None:
            steady = fits_around(layout, width, height, centre, large=previous.large)
            if steady is None:
                steady = _nearest(layout, width, height, centre, previous.large)
            if steady is not None:
                return steady
    return _fresh_plan(layout, width, height)


NEAR = 1 / 3
"""How far (a share of the board's width and height) a centre tile that must move is
looked for a new cell, nearest first, before the board is planned afresh."""


@lru_cache(maxsize=64)
def _nearest(
    layout: Layout, width: int, height: int, centre: tuple[int, int], large: bool
) -> BoardPlan | None:
    """The plan of ``layout`` on the canvas asked for whose centre tile is nearest to
    ``centre`` (a row counting as two columns), within :data:`NEAR` of the board."""
    x, y = centre
    reach_x, reach_y = max(1, int(width * NEAR)), max(1, int(height * NEAR))
    cells = [
        (cx, cy)
        for cx in range(max(1, x - reach_x), min(width - 1, x + reach_x + 1))
        for cy in range(max(1, y - reach_y), min(height - 1, y + reach_y + 1))
        if (cx, cy) != centre
    ]
    cells.sort(key=lambda c: (abs(c[0] - x) + 2 * abs(c[1] - y), abs(c[1] - y), c))
    for cell in cells:
        plan = fits_around(layout, width, height, cell, large=large)
        if plan is not None:
            return plan
    return None


def same_board(previous: BoardPlan, width: int, height: int) -> bool:
    """True when ``previous`` was planned for a board of this size (a new size is planned
    afresh) and shows tiles (a new hand starts from an empty board)."""
    return previous.request == (width, height) and bool(previous.glyphs)


BENDS = ((True, 1), (False, 1), (False, 2))
"""The tile sizes (large?) and bends a line that keep a centre tile on its cell, in the
order tried."""


def fits_around(
    layout: Layout, width: int, height: int, centre: tuple[int, int], *, large: bool
) -> BoardPlan | None:
    """``layout`` with its centre tile's middle cell at ``centre`` on ``width`` x
    ``height``: in large tiles (when ``large``) with at most one bend a line, else in the
    usual size with at most one, then two; None when none of these fits."""
    for big, turns in BENDS:
        if big and not large:
            continue
        plan = _placed(layout, (width, height), (width, height), centre, turns, big)
        if plan is not None:
            return plan
    return None


def _kept_centre(layout: Layout, previous: BoardPlan) -> tuple[int, int] | None:
    """Where the centre tile of ``layout`` keeps its cell: the old centre, or, when a
    spinner has just taken the middle, where it lies with the old centre tile in place."""
    if _chains(layout)[0][0] == previous.glyphs[0].tile:
        return previous.centre
    return _centre_keeping(
        layout, _chains(layout), previous.glyphs[0], LARGE if previous.large else NORMAL
    )


@lru_cache(maxsize=64)
def _fresh_plan(layout: Layout, width: int, height: int) -> BoardPlan:
    """The plan of ``layout`` on its own: centred where its arms balance."""
    if layout.lead is None:
        return BoardPlan(width, height, request=(width, height))
    parts = _chains(layout)
    big = width >= LARGE_FROM[0] and height >= LARGE_FROM[1]
    if big:
        # Large tiles while they fit with at most one bend a line; else the usual size.
        plan = _search(layout, parts, width, height, LARGE, [(height, 1)])
        if plan is not None:
            return plan
    attempts = [(height, 1), (height, 2), (height + 5, 2), (height + 12, 2), (height + 24, 2)]
    plan = _search(layout, parts, width, height, NORMAL, attempts)
    if plan is not None:
        return plan
    # Straight lines on a canvas as big as they need: the board scrolls.
    return _fit(_try_plan(layout, parts, None, None, 1000, 1000, 0), width, height)


def _keep_in_place(
    layout: Layout, width: int, height: int, previous: BoardPlan
) -> BoardPlan | None:
    """``layout`` planned so every tile of ``previous`` still on it keeps its cells, or None."""
    if previous.request != (width, height) or not previous.glyphs:
        return None
    old_centre = previous.glyphs[0]
    parts = _chains(layout)
    geometry = LARGE if previous.large else NORMAL
    centre: tuple[int, int] | None = previous.centre
    if parts[0][0] != old_centre.tile:
        centre = _centre_keeping(layout, parts, old_centre, geometry)
        if centre is None:
            return None
    plan = _placed(
        layout,
        previous.request,
        (previous.width, previous.height),
        centre,
        previous.turns,
        previous.large,
    )
    if plan is None:
        return None
    now = {g.tile: g for g in plan.glyphs}
    for old in previous.glyphs:
        new = now.get(old.tile)
        if new is not None and (new.rect != old.rect or new.rows != old.rows):
            return None
    return plan


def _centre_keeping(
    layout: Layout, parts: Parts, old: PlacedGlyph, g: Geometry
) -> tuple[int, int] | None:
    """Where the new centre goes so that the old centre tile ``old`` stays put."""
    try:
        probe = _try_plan(layout, parts, None, None, 1000, 1000, 0, g)
    except _NoFit:
        return None
    rect = probe.cells().get(old.tile)
    if rect is None:
        return None
    return 1000 + old.rect.x0 - rect.x0, 1000 + old.rect.y0 - rect.y0


@lru_cache(maxsize=256)
def _placed(
    layout: Layout,
    request: tuple[int, int],
    canvas: tuple[int, int],
    centre: tuple[int, int],
    turns: int,
    large: bool,
) -> BoardPlan | None:
    """``layout`` with its centre tile at ``centre`` on ``canvas``, or None if it does not fit."""
    try:
        plan = _try_plan(
            layout, _chains(layout), *canvas, *centre, turns, LARGE if large else NORMAL
        )
    except _NoFit:
        return None
    return BoardPlan(
        plan.width,
        plan.height,
        plan.glyphs,
        plan.markers,
        plan.bent,
        request=request,
        centre=centre,
        turns=turns,
        large=large,
    )


def _search(
    layout: Layout,
    parts: Parts,
    width: int,
    height: int,
    g: Geometry,
    attempts: list[tuple[int, int]],
) -> BoardPlan | None:
    """The first plan that fits, trying centres near where the arms balance."""
    chains = parts[1]
    lw = _arm_length(chains[End.W], True, g)
    le = _arm_length(chains[End.E], True, g)
    ln = _arm_length(chains[End.N], False, g)
    ls = _arm_length(chains[End.S], False, g)
    # The centre where the arms would balance, clamped to the canvas.
    ideal_x = round(width * (lw + 2) / (lw + le + 4)) if lw + le else width // 2
    ideal_y = round(height * (ln + 2) / (ln + ls + 4)) if ln + ls else height // 2
    ideal_x = min(max(ideal_x, 3), width - 4)
    ideal_y = min(max(ideal_y, 3), height - 4)
    lo_x, hi_x = max(2, ideal_x - width // 3), min(width - 3, ideal_x + width // 3)
    xs = list(_spiral(ideal_x, lo_x, hi_x, 2))
    for h, turns in attempts:
        mid = ideal_y if h == height else h // 2
        for cy in _spiral(mid, max(2, mid - 3), min(h - 3, mid + 3)):
            for cx in xs:
                try:
                    plan = _try_plan(layout, parts, width, h, cx, cy, turns, g)
                except _NoFit:
                    continue
                return _fit(plan, width, height)
    return None


# -- row keys ----------------------------------------------------------------

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
