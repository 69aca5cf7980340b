"""The board's geometry: a layout's tiles and end markers placed round a centre cell.

Pure layout arithmetic on a grid of cells, Textual-free. The main line runs
west-east through the spinner (or the lead, before a spinner), the spinner's
arms run north and south. Doubles lie crosswise and the spinner has a double
border. Every open end carries a marker such as ``W:5`` (the end's letter and
the pip it needs). A line that would leave the space bends round a corner,
pinwheel fashion (west turns south, south turns east, east turns north, north
turns west), up to a given number of bends.

:func:`place_around` places a layout with its centre tile (the spinner, else the
lead) on a given cell, or raises :class:`NoFit`; :func:`placed` is the same as a
cached :class:`BoardPlan` or None; :func:`centred` puts a plan's contents in the
middle of a canvas. Where the centre goes is :mod:`~allfives_tui.table.board_plan`'s
choice; what each row then shows is :mod:`~allfives_tui.table.board_rows`'.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

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
    ``large`` how the plan was made:
    :func:`~allfives_tui.table.board_plan.plan_board` reuses them to keep the
    tiles in place when the next move comes.
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


class NoFit(Exception):
    """The layout does not fit round the centre cell asked for."""


Arm = list[tuple[Tile, int, int]]
Parts = tuple[tuple[Tile, bool, bool], dict[End, Arm]]


def chains(layout: Layout) -> Parts:
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


def place_around(
    layout: Layout,
    parts: Parts,
    width: int | None,
    height: int | None,
    cx: int,
    cy: int,
    max_turns: int = 1,
    g: Geometry = NORMAL,
) -> BoardPlan:
    """Place everything with the centre tile at (cx, cy); raise NoFit if it cannot."""
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
        raise NoFit
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
                    raise NoFit
                turns += 1
                d = _TURN[d]
                axis, cursor = _turn(d, last)
                bent = True
            if not placed:
                raise NoFit
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


def centred(plan: BoardPlan, width: int, height: int) -> BoardPlan:
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


def arm_length(pieces: Sequence[tuple[Tile, int, int]], horizontal: bool, g: Geometry) -> int:
    """The cells an arm's tiles and its end marker take along a straight line."""
    d = "R" if horizontal else "D"
    return sum(g.dims(d, t)[0] for t, _, _ in pieces) + (MARKER_WIDTH if horizontal else 1)


@lru_cache(maxsize=256)
def placed(
    layout: Layout,
    request: tuple[int, int],
    canvas: tuple[int, int],
    centre: tuple[int, int],
    turns: int,
    large: bool,
) -> BoardPlan | None:
    """``layout`` with its centre tile at ``centre`` on ``canvas``, or None if it does not fit."""
    try:
        plan = place_around(
            layout, chains(layout), *canvas, *centre, turns, LARGE if large else NORMAL
        )
    except NoFit:
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
