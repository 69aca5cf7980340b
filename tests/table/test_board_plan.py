"""The board plan: where tiles and end markers go, pure and stable from move to move."""

from __future__ import annotations

import dataclasses
from itertools import pairwise

import pytest

from allfives_tui.screenshots import random_play
from allfives_tui.table import board_geometry, board_plan
from allfives_tui.table.board_geometry import BoardPlan, Rect
from allfives_tui.table.board_plan import plan_board
from allfives_tui.table.board_rows import EMPTY, TILE, row_keys
from engine import Layout
from tests.games import hand_states

SIZES = ((12, 7), (30, 10), (54, 15), (60, 16), (120, 40))
"""Canvases from the smallest the plan accepts to a large terminal."""


def _all_layouts(seeds: range, players: int = 2) -> list[Layout]:
    return [s.layout for seed in seeds for s in hand_states(seed, players)]


def _move_to_move(layouts: list[Layout], width: int, height: int) -> list[BoardPlan]:
    """Each layout planned with the plan before it, as the board does while a hand goes on."""
    plans: list[BoardPlan] = []
    for layout in layouts:
        plans.append(plan_board(layout, width, height, previous=plans[-1] if plans else None))
    return plans


def _forget_plans() -> None:
    """Empty the plan caches, so the next plan is worked out anew."""
    board_plan._fresh_plan.cache_clear()
    board_geometry.placed.cache_clear()


def _check_plan(plan: BoardPlan, layout: Layout, width: int, height: int) -> None:
    rects = [g.rect for g in plan.glyphs] + [m.rect for m in plan.markers]
    assert len(plan.glyphs) == len(layout.tiles())
    assert {m.end for m in plan.markers} == {o.end for o in layout.open_ends()}
    for i, a in enumerate(rects):
        assert a.x0 >= 0 and a.x1 <= plan.width and a.y0 >= 0 and a.y1 <= plan.height
        assert plan.width >= width and plan.height >= height
        for b in rects[i + 1 :]:
            assert not a.overlaps(b)


def test_plans_never_overlap_or_cut_tiles() -> None:
    for layout in _all_layouts(range(12)):
        for width, height in ((54, 15), (120, 40)):
            _check_plan(plan_board(layout, width, height), layout, width, height)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_plans_kept_from_move_to_move_never_overlap_or_cut_tiles(players: int) -> None:
    for seed in range(8):
        for width, height in ((54, 15), (120, 40)):
            layouts = _all_layouts(range(seed, seed + 1), players)
            for layout, plan in zip(layouts, _move_to_move(layouts, width, height), strict=True):
                _check_plan(plan, layout, width, height)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tiles_keep_their_cells_from_move_to_move(players: int) -> None:
    """Each move adds a tile and moves none, the spinner's arrival included.

    A board that can no longer fit its lines so is laid out anew (below: around
    the same centre tile's cell while it can).
    """
    kept = 0
    for seed in range(10):
        for width, height in ((120, 40), (60, 16)):
            previous = None
            for move, layout in enumerate(_all_layouts(range(seed, seed + 1), players)):
                plan = plan_board(layout, width, height, previous=previous)
                if previous is not None and previous.glyphs:
                    before, now = previous.cells(), plan.cells()
                    stayed = all(now[t] == cell for t, cell in before.items() if t in now)
                    if width == 120 and move <= 8:
                        assert stayed, (seed, move)  # the first moves never need a new layout
                    if stayed:
                        kept += 1
                    else:
                        _check_plan(plan, layout, width, height)
                previous = plan
    assert kept > 200


def test_a_new_size_or_a_new_hand_plans_afresh() -> None:
    layouts = _all_layouts(range(3, 4))
    mid = layouts[6]
    plan = plan_board(mid, 120, 40, previous=plan_board(layouts[5], 100, 30))
    assert plan == plan_board(mid, 120, 40)
    empty = plan_board(Layout(), 120, 40, previous=plan)  # the next hand is dealt
    assert not empty.glyphs
    lead = _all_layouts(range(4, 5))[1]
    assert plan_board(lead, 120, 40, previous=empty) == plan_board(lead, 120, 40)


def test_long_lines_bend_to_fit_the_space() -> None:
    state = random_play(6, 34)
    plan = plan_board(state.layout, 54, 16)
    assert plan.bent
    assert plan.width == 54


def test_planning_the_same_layout_twice_gives_equal_plans() -> None:
    """A plan depends on the layout, the size and the plan before it, and on nothing else."""
    layouts = _all_layouts(range(3), players=3)
    for width, height in SIZES:
        first = _move_to_move(layouts, width, height)
        _forget_plans()
        for layout in layouts[::7]:
            plan_board(layout, width + 3, height + 2)  # other plans in between change nothing
        assert _move_to_move(layouts, width, height) == first
        _forget_plans()
        assert [plan_board(lay, width, height) for lay in layouts] == [
            plan_board(lay, width, height) for lay in layouts
        ]


def test_a_plan_is_frozen_and_planning_leaves_the_previous_one_alone() -> None:
    layouts = _all_layouts(range(2, 3))
    previous = plan_board(layouts[4], 60, 16)
    copy = dataclasses.replace(previous)
    plan_board(layouts[5], 60, 16, previous=previous)
    assert previous == copy
    # writes to the frozen plan and its frozen parts on purpose
    with pytest.raises(dataclasses.FrozenInstanceError):
        previous.width = 1  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        previous.glyphs[0].rect.x0 = 1  # type: ignore[misc]


BOARDS = {"80x24": (52, 17), "200x60": (160, 54)}
"""The board's room in the game screen at these terminal sizes (tests/ui/test_steady.py
checks them)."""


def _middle(rect: Rect) -> tuple[int, int]:
    return rect.x0 + (rect.x1 - rect.x0) // 2, rect.y0 + (rect.y1 - rect.y0) // 2


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("terminal", list(BOARDS))
def test_the_centre_tile_keeps_its_cell_over_a_hand_unless_nothing_fits_around_it(
    players: int, terminal: str
) -> None:
    """Over whole hands, the spinner (before one, the lead) keeps its cell from move to
    move while lines grow and bend.

    It moves only when it must: when no plan with it on its cell fits the board
    (``fits_around`` gives None: the board's own size, the tiles' size on show or
    the usual one, one bend a line for large tiles and two for the usual ones);
    and then as little as will do.
    """
    width, height = BOARDS[terminal]
    kept = moved = 0
    for seed in range(12):
        layouts = _all_layouts(range(seed, seed + 1), players)
        plans = _move_to_move(layouts, width, height)
        for layout, (before, now) in zip(layouts[1:], pairwise(plans), strict=True):
            if not before.glyphs:
                continue
            centre = before.glyphs[0]
            assert before.centre == _middle(centre.rect)
            if now.glyphs[0].tile != centre.tile:
                # a spinner has just arrived: the lead keeps its cell where it can
                # (test_tiles_keep_their_cells_from_move_to_move)
                continue
            if now.centre == before.centre:
                kept += 1
                continue
            moved += 1
            must = board_plan.fits_around(layout, width, height, before.centre, large=before.large)
            assert must is None, (seed, layout)
            step = abs(now.centre[0] - before.centre[0]) + abs(now.centre[1] - before.centre[1])
            assert step <= width // 3 + height // 3
    assert kept > 10 * moved


@pytest.mark.parametrize("width,height", SIZES)
def test_every_tile_and_marker_lies_on_the_canvas(width: int, height: int) -> None:
    """Inside the plan's canvas, which is never smaller than asked.

    From 54 columns up these games keep the width asked for (a line bends, or the
    board grows downwards), and at 120 x 40 the height too.
    """
    for players in (2, 3, 4):
        for seed in range(6):
            layouts = _all_layouts(range(seed, seed + 1), players)
            fresh = [plan_board(layout, width, height) for layout in layouts]
            for plans in (fresh, _move_to_move(layouts, width, height)):
                for layout, plan in zip(layouts, plans, strict=True):
                    _check_plan(plan, layout, width, height)
                    if width >= 54:
                        assert plan.width == width
                    if width >= 120:
                        assert plan.height == height


def test_row_keys_draw_each_tile_on_its_rows() -> None:
    layout = _all_layouts(range(1, 2))[6]
    plan = plan_board(layout, 60, 16)
    keys = row_keys(plan)
    assert len(keys) == plan.height
    for glyph in plan.glyphs[1:]:  # the centre tile (first) may be the spinner
        for dy, text in enumerate(glyph.rows):
            assert (glyph.rect.x0, text, TILE) in keys[glyph.rect.y0 + dy]
    assert row_keys(plan) == keys
    blank = row_keys(plan_board(Layout(), 60, 16), empty=True)
    assert [run[2] for row in blank for run in row] == [EMPTY]
