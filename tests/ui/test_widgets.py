"""The shared widgets: board and hand clicks, and that an
update repaints only what changed (no new layout while a widget keeps its size)."""

from __future__ import annotations

from itertools import pairwise
from typing import Self

import pytest
from rich.style import Style
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.strip import Strip
from textual.visual import VisualType

from allfives_tui.table.board_rows import RowKey
from allfives_tui.table.words import Names
from allfives_tui.ui.widgets import (
    WIDGETS_CSS,
    Board,
    BoneyardCounter,
    EventLog,
    HandView,
    Scoreboard,
)
from allfives_tui.ui.widgets import board as board_module
from engine import (
    ALL_TILES,
    End,
    Layout,
    Tile,
    apply,
)
from tests.games import hand_states
from tests.ui.helpers import random_state


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


# -- a frame a move: only what changed is drawn again ---------------------------


class _Shows(App[None]):
    CSS_PATH = [WIDGETS_CSS]

    def __init__(self, *widgets: object) -> None:
        super().__init__()
        self.widgets = widgets

    def compose(self) -> ComposeResult:
        for widget in self.widgets:
            assert isinstance(widget, HandView | Board | Scoreboard | BoneyardCounter | EventLog)
            yield widget


def _placed(before: Layout, after: Layout) -> Tile | None:
    new = set(after.tiles()) - set(before.tiles())
    return new.pop() if new else None


async def test_a_move_redraws_only_the_rows_that_change(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[object] = []
    real = board_module.build_strip

    def counting(key: RowKey, width: int, styles: dict[str, Style], base: Style) -> Strip:
        built.append(key)
        return real(key, width, styles, base)

    monkeypatch.setattr(board_module, "build_strip", counting)
    states = [s for s in hand_states(5) if s.layout.lead is not None]
    board = Board(states[0].layout)
    async with _Shows(board).run_test(size=(90, 30)) as pilot:
        await pilot.pause()
        assert len(built) >= 20  # the first frame draws every row
        for before, after in pairwise(states[:7]):
            cells = board.plan.cells()
            built.clear()
            last = _placed(before.layout, after.layout)
            board.update_layout(after.layout, last=last)
            await pilot.pause()
            assert all(board.plan.cells()[t] == cell for t, cell in cells.items())
            assert 0 < len(built) <= 16, len(built)  # the new tile, the marks, the last tile
        ends = [o.end for o in states[6].layout.open_ends()]
        built.clear()
        board.update_layout(board.tableau, highlight=ends[:1], last=board.last)
        await pilot.pause()
        assert len(built) == 1  # one end's marker lights up
        built.clear()
        board.update_layout(board.tableau, highlight=ends[:1], last=board.last)
        await pilot.pause()
        assert built == []


class _SpyHand(HandView):
    """Notes every refresh: (regions, layout)."""

    refreshes: list[tuple[tuple[Region, ...], bool]]

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        if hasattr(self, "refreshes"):
            self.refreshes.append((regions, layout))
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)


async def test_the_hand_repaints_the_band_that_changed_and_lays_out_only_for_new_rows() -> None:
    tiles = ALL_TILES[:8]
    hand = _SpyHand(tiles, playable=tiles[:3], selected=0)
    async with _Shows(hand).run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        width = hand.content_region.width
        assert hand.size.height == 4
        hand.refreshes = []
        hand.update_hand(tiles, playable=tiles[:3], selected=0)
        assert hand.refreshes == []  # the same: nothing to do
        hand.update_hand(tiles, playable=tiles[:3], selected=1)
        assert hand.refreshes == [((Region(0, 0, width, 4),), False)]
        hand.refreshes = []
        hand.update_hand(tiles[1:], playable=tiles[1:3], selected=0)  # a tile played
        assert [layout for _, layout in hand.refreshes] == [False]
        await pilot.pause()
        hand.refreshes = []
        hand.update_hand(ALL_TILES[:14], selected=0)  # two bands now
        assert any(layout for _, layout in hand.refreshes)
        await pilot.pause()
        assert hand.size.height == 8
        text = "\n".join(s.text for s in pilot.app.screen._compositor.render_strips())
        assert "▶1◀" in text and "┏━┳━┓" in text


class _SpyScoreboard(Scoreboard):
    shown: list[bool]

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        if hasattr(self, "shown"):
            self.shown.append(layout)
        super().update(content, layout=layout)


class _SpyBoneyard(BoneyardCounter):
    shown: list[bool]

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        if hasattr(self, "shown"):
            self.shown.append(layout)
        super().update(content, layout=layout)


async def test_scores_and_boneyard_skip_the_same_view_and_keep_their_layout() -> None:
    states = hand_states(2)[:9]
    names = ("You", "North")
    scores, boneyard = _SpyScoreboard(), _SpyBoneyard()
    async with _Shows(scores, boneyard).run_test(size=(40, 20)) as pilot:
        scores.show(states[0].view(0), names)
        boneyard.show(states[0].view(0))
        await pilot.pause()
        height = scores.size.height
        scores.shown, boneyard.shown = [], []
        scores.show(states[0].view(0), names)
        boneyard.show(states[0].view(0))
        assert scores.shown == [] and boneyard.shown == []
        for state in states[1:]:
            scores.show(state.view(0), names)
            boneyard.show(state.view(0))
        assert scores.shown and not any(scores.shown)  # repainted in place
        assert not any(boneyard.shown)
        await pilot.pause()
        assert scores.size.height == height


class _SpyLog(EventLog):
    layouts = 0

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        self.layouts += layout
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)


async def test_the_log_scrolls_to_a_new_line_in_the_same_frame_without_a_layout() -> None:
    log = _SpyLog()
    states = hand_states(4)
    rules = states[0].rules
    async with _Shows(log).run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        for n, state in enumerate(states):
            events = apply(state, state.legal_actions()[0]).events
            log.add_events(events, Names.of(("You", "North"), rules, 0))
            if n == 12:
                await pilot.pause()
                assert log.show_vertical_scrollbar
                log.layouts = 0
        assert log.max_scroll_y > 0
        assert log.scroll_y == log.max_scroll_y  # no wait for a layout first
        assert log.layouts == 0
        await pilot.pause()
        assert log.scroll_y == log.max_scroll_y


async def test_the_log_never_wraps_at_a_no_break_space() -> None:
    log = EventLog()
    async with _Shows(log).run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        width = log.scrollable_content_region.width
        # "font 5" ends a line a cell short of the width: a break at any space would fall
        # at the no-break space before the colon
        text = "a" * (width - 8) + " font 5\u00a0: +5."
        log.write_text(text)
        await pilot.pause()
        lines = [log.render_line(y).text.rstrip() for y in range(log.size.height)]
        shown = [line for line in lines if line]
        assert shown and not any(line.startswith(":") for line in shown), shown
        assert shown[-1] == "5\u00a0: +5.", shown


async def test_a_chart_is_blank_until_it_has_data_then_draws_it() -> None:
    from rich.text import Text

    from allfives_tui.ui.widgets.chart import ChartData, Series, SeriesChart

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield SeriesChart()

    app = One()
    async with app.run_test(size=(60, 16)) as pilot:
        chart = app.query_one(SeriesChart)
        await pilot.pause()
        blank = chart.render()
        assert isinstance(blank, Text) and blank.plain == ""
        chart.show(ChartData("Wins", ("a", "b"), (Series("won", (3.0, 5.0)),), kind="bar"))
        await pilot.pause()
        drawn = chart.render()
        assert isinstance(drawn, Text) and "Wins" in drawn.plain
        chart.show(ChartData("Wins", (), (), empty="no games yet"))
        await pilot.pause()
        empty = chart.render()
        assert isinstance(empty, Text) and "no games yet" in empty.plain


async def test_compact_widgets_look_as_textuals_own_compact_ones() -> None:
    from textual.widgets import Button, Input, Select, Static

    from allfives_tui.ui.widgets.compact import compact

    class Both(App[None]):
        def compose(self) -> ComposeResult:
            yield Button("Go", id="theirs-button", compact=True)
            yield compact(Button("Go", id="ours-button"))
            yield Input("x", id="theirs-input", compact=True)
            yield compact(Input("x", id="ours-input"))
            yield Select([("one", 1)], value=1, allow_blank=False, id="theirs-select", compact=True)
            yield compact(Select([("one", 1)], value=1, allow_blank=False, id="ours-select"))

    app = Both()
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        for kind in ("button", "input", "select"):
            theirs = app.query_one(f"#theirs-{kind}")
            ours = app.query_one(f"#ours-{kind}")
            assert ours.classes == theirs.classes
            assert ours.size == theirs.size and ours.size.height == 1
            assert ours.styles.border == theirs.styles.border
    with pytest.raises(TypeError, match="Static has no compact style"):
        compact(Static("no such style"))
