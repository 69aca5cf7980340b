"""The shared widgets: board layout planning, board and hand clicks."""

from __future__ import annotations

from textual.app import App, ComposeResult

from allfives_tui.ui.widgets import WIDGETS_CSS, Board, HandView
from allfives_tui.ui.widgets.board import plan_board
from engine import End, Layout, Rules, apply, new_game, seeded_deal
from engine.rng import Rng
from tests.tui.helpers import random_state


def _all_layouts(seeds: range) -> list[Layout]:
    out = []
    for seed in seeds:
        state = new_game(Rules(players=2))
        state = apply(state, seeded_deal(state, seed)).state
        rng = Rng(seed)
        while state.phase.value == "play":
            out.append(state.layout)
            legal = state.legal_actions()
            state = apply(state, legal[rng.below(len(legal))]).state
    return out


def test_plans_never_overlap_or_cut_tiles() -> None:
    for layout in _all_layouts(range(12)):
        for width, height in ((54, 15), (120, 40)):
            plan = plan_board(layout, width, height)
            rects = [g.rect for g in plan.glyphs] + [m.rect for m in plan.markers]
            assert len(plan.glyphs) == len(layout.tiles())
            assert {m.end for m in plan.markers} == {o.end for o in layout.open_ends()}
            for i, a in enumerate(rects):
                assert a.x0 >= 0 and a.x1 <= plan.width and a.y0 >= 0 and a.y1 <= plan.height
                assert plan.width >= width and plan.height >= height
                for b in rects[i + 1 :]:
                    assert not a.overlaps(b)


def test_long_lines_bend_to_fit_the_space() -> None:
    state = random_state(6, 34)
    plan = plan_board(state.layout, 54, 16)
    assert plan.bent
    assert plan.width == 54


class _BoardApp(App[None]):
    CSS_PATH = [WIDGETS_CSS]

    def __init__(self, layout: Layout) -> None:
        super().__init__()
        self.layout_ = layout
        self.clicked: list[End] = []
        self.tiles: list[int] = []

    def compose(self) -> ComposeResult:
        yield HandView(self.layout_.tiles()[:4], playable=self.layout_.tiles()[:2], selected=0)
        yield Board(self.layout_)

    def on_board_end_clicked(self, message: Board.EndClicked) -> None:
        self.clicked.append(message.end)

    def on_hand_view_tile_clicked(self, message: HandView.TileClicked) -> None:
        self.tiles.append(message.index)


async def test_clicking_an_end_marker_and_a_tile() -> None:
    state = random_state(2, 18)
    app = _BoardApp(state.layout)
    async with app.run_test(size=(80, 40)) as pilot:
        board = app.query_one(Board)
        for end in state.layout.open_ends():
            offset = board.end_offset(end.end)
            assert offset is not None
            await pilot.click(Board, offset=offset)
        assert app.clicked == [o.end for o in state.layout.open_ends()]
        hand = app.query_one(HandView)
        await pilot.click(HandView, offset=hand.tile_offset(2))
        assert app.tiles == [2]


class _HandApp(App[None]):
    CSS_PATH = [WIDGETS_CSS]

    def __init__(self) -> None:
        super().__init__()
        self.tiles: list[int] = []

    def compose(self) -> ComposeResult:
        from engine import ALL_TILES

        yield HandView(ALL_TILES[:15], playable=ALL_TILES[:3], selected=11)

    def on_hand_view_tile_clicked(self, message: HandView.TileClicked) -> None:
        self.tiles.append(message.index)


async def test_a_long_hand_wraps_and_every_tile_can_be_clicked() -> None:
    app = _HandApp()
    async with app.run_test(size=(50, 20)) as pilot:
        hand = app.query_one(HandView)
        assert hand.size.height == 8  # two bands of four rows: 8 tiles, then 7
        for index in (0, 7, 8, 14):
            await pilot.click(HandView, offset=hand.tile_offset(index))
        assert app.tiles == [0, 7, 8, 14]
        text = "\n".join(s.text for s in app.screen._compositor.render_strips())
        assert "▶9◀" not in text and "┏━┳━┓" in text  # tile 12 is selected (no number)
