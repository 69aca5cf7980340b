"""The board plan: where the centre tile goes, so that a layout fits and stays put.

A layout is placed round its centre tile (the spinner, or the lead) by
:mod:`~allfives_tui.table.board_geometry`; this module chooses that tile's cell.
Afresh, it is where the arms balance, nearest first, with as few bends as fit;
if even that cannot fit, the canvas grows, so a tile is never cut.

From one move to the next the tiles stay where they are: the new plan keeps
the previous one's centre, and every tile on both boards keeps its cells;
when a line no longer fits so, the centre tile still keeps its cell and the
lines bend anew around it; only when nothing fits around that cell does it
move, as little as will do (a new size or a new hand is planned afresh).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from allfives_tui.table.board_geometry import (
    LARGE,
    NORMAL,
    BoardPlan,
    Geometry,
    NoFit,
    Parts,
    PlacedGlyph,
    arm_length,
    centred,
    chains,
    place_around,
    placed,
)
from engine import End, Layout

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
        plan = placed(layout, (width, height), (width, height), centre, turns, big)
        if plan is not None:
            return plan
    return None


def _kept_centre(layout: Layout, previous: BoardPlan) -> tuple[int, int] | None:
    """Where the centre tile of ``layout`` keeps its cell: the old centre, or, when a
    spinner has just taken the middle, where it lies with the old centre tile in place."""
    if chains(layout)[0][0] == previous.glyphs[0].tile:
        return previous.centre
    return _centre_keeping(
        layout, chains(layout), previous.glyphs[0], LARGE if previous.large else NORMAL
    )


@lru_cache(maxsize=64)
def _fresh_plan(layout: Layout, width: int, height: int) -> BoardPlan:
    """The plan of ``layout`` on its own: centred where its arms balance."""
    if layout.lead is None:
        return BoardPlan(width, height, request=(width, height))
    parts = chains(layout)
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
    return centred(place_around(layout, parts, None, None, 1000, 1000, 0), width, height)


def _keep_in_place(
    layout: Layout, width: int, height: int, previous: BoardPlan
) -> BoardPlan | None:
    """``layout`` planned so every tile of ``previous`` still on it keeps its cells, or None."""
    if previous.request != (width, height) or not previous.glyphs:
        return None
    old_centre = previous.glyphs[0]
    parts = chains(layout)
    geometry = LARGE if previous.large else NORMAL
    centre: tuple[int, int] | None = previous.centre
    if parts[0][0] != old_centre.tile:
        centre = _centre_keeping(layout, parts, old_centre, geometry)
        if centre is None:
            return None
    plan = placed(
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
        probe = place_around(layout, parts, None, None, 1000, 1000, 0, g)
    except NoFit:
        return None
    rect = probe.cells().get(old.tile)
    if rect is None:
        return None
    return 1000 + old.rect.x0 - rect.x0, 1000 + old.rect.y0 - rect.y0


def _search(
    layout: Layout,
    parts: Parts,
    width: int,
    height: int,
    g: Geometry,
    attempts: list[tuple[int, int]],
) -> BoardPlan | None:
    """The first plan that fits, trying centres near where the arms balance."""
    arms = parts[1]
    lw = arm_length(arms[End.W], True, g)
    le = arm_length(arms[End.E], True, g)
    ln = arm_length(arms[End.N], False, g)
    ls = arm_length(arms[End.S], False, g)
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
                    plan = place_around(layout, parts, width, h, cx, cy, turns, g)
                except NoFit:
                    continue
                return centred(plan, width, height)
    return None


def _spiral(centre: int, lo: int, hi: int, step: int = 1) -> Iterable[int]:
    """``centre``, then ``step`` apart on either side of it, nearest first, within
    ``lo`` and ``hi``."""
    yield centre
    k = step
    while centre - k >= lo or centre + k <= hi:
        if centre - k >= lo:
            yield centre - k
        if centre + k <= hi:
            yield centre + k
        k += step
