"""The board widget: an engine :class:`~engine.Layout` drawn as a spinner cross.

Where everything goes is the pure :mod:`allfives_tui.table.board_plan` (placed
by :mod:`~allfives_tui.table.board_geometry`, each row's key from
:mod:`~allfives_tui.table.board_rows`); this widget draws that plan, scrolls it,
and turns clicks on end markers into messages.

Public API (stable; the game and replay screens use it):

* ``Board(layout=None, *, highlight=(), cursor=None, last=None)``
* ``board.update_layout(layout, *, highlight=(), cursor=None, last=None)``
* reactives ``tableau`` (the Layout), ``highlight`` (ends to highlight: where
  the selected tile fits; with a ``cursor``, the ends to choose from),
  ``cursor`` (the end chosen: the one marker drawn in the most prominent
  style, the other highlighted ends plainly secondary), ``last`` (the tile
  to mark as just played)
* reactive ``large`` (read only): the plan draws large tiles (a screen's hand may
  follow it)
* message :class:`Board.EndClicked` (``end``) when an open end's marker is clicked

Drawing: the plan is turned into one key a row (what is drawn where, in
which style); a change repaints only the rows whose key changed, and a row's
strip is built once and kept while its key stays the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from allfives_tui.table.board_geometry import BoardPlan
from allfives_tui.table.board_plan import plan_board
from allfives_tui.table.board_rows import LAST, PIP, SPINNER, STYLE_NAMES, TILE, RowKey, row_keys
from engine import End, Layout, Tile


def _digit_runs(text: str) -> list[tuple[str, bool]]:
    """``text`` cut into runs of digits and of other characters: (run, is_digits)."""
    runs: list[tuple[str, bool]] = []
    for ch in text:
        digit = ch.isdigit()
        if runs and runs[-1][1] == digit:
            runs[-1] = (runs[-1][0] + ch, digit)
        else:
            runs.append((ch, digit))
    return runs


def build_strip(key: RowKey, width: int, styles: dict[str, Style], base: Style) -> Strip:
    """One row of the board drawn from its key, ``width`` cells wide.

    Neighbouring cells of the very same style share a segment.
    """
    cells: list[tuple[str, Style]] = []  # (text, style) pieces, left to right
    x = 0
    for x0, text, name in key:
        if x0 > x:
            cells.append((" " * (x0 - x), base))
        style = styles[name]
        if name in (TILE, SPINNER, LAST):
            pip = style + styles[PIP]
            for run, digits in _digit_runs(text):
                cells.append((run, pip if digits else style))
        else:
            cells.append((text, style))
        x = x0 + len(text)
    if x < width:
        cells.append((" " * (width - x), base))
    segments: list[Segment] = []
    run_text, run_style = "", None
    for text, style in cells:
        if style is run_style:
            run_text += text
        else:
            if run_text:
                segments.append(Segment(run_text, run_style))
            run_text, run_style = text, style
    if run_text:
        segments.append(Segment(run_text, run_style))
    strip = Strip(segments)
    return strip.crop(0, width) if strip.cell_length > width else Strip(segments, width)


class Board(ScrollView, can_focus=False):
    """The layout drawn as a spinner cross, with every open end marked.

    Set :attr:`tableau` (or call :meth:`update_layout`) to show a layout;
    :attr:`highlight` marks ends a selected tile fits, :attr:`cursor` the end
    being chosen, :attr:`last` the tile just played. Clicking an end's marker
    posts :class:`Board.EndClicked`.
    """

    COMPONENT_CLASSES = {
        "board--tile",
        "board--pip",
        "board--spinner",
        "board--last",
        "board--end",
        "board--end-hl",
        "board--end-option",
        "board--end-cursor",
        "board--empty",
    }

    class EndClicked(Message):
        """An open end's marker was clicked."""

        def __init__(self, board: Board, end: End) -> None:
            super().__init__()
            self.board = board
            self.end = end

        @property
        def control(self) -> Board:
            """The board that was clicked."""
            return self.board

    # the watchers repaint just the rows that change
    tableau: reactive[Layout] = reactive(Layout, always_update=False, repaint=False)
    highlight: reactive[tuple[End, ...]] = reactive((), always_update=False, repaint=False)
    cursor: reactive[End | None] = reactive(None, repaint=False)
    last: reactive[Tile | None] = reactive(None, repaint=False)
    large: reactive[bool] = reactive(False, repaint=False)
    """The plan on show draws large tiles (set by the board)."""

    def __init__(
        self,
        layout: Layout | None = None,
        *,
        highlight: Sequence[End] = (),
        cursor: End | None = None,
        last: Tile | None = None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        self._plan: BoardPlan | None = None
        self._keys: list[RowKey] = []
        """What each row of the canvas shows now."""
        self._strips: list[Strip | None] = []
        """Each row drawn (None: to draw when next painted)."""
        self._canvas = Size(0, 0)
        self._styles: dict[str, Style] | None = None
        """The component styles and the base style ("base"), kept until a full repaint."""
        super().__init__(name=name, id=id, classes=classes)
        self.set_reactive(Board.tableau, layout if layout is not None else Layout())
        self.set_reactive(Board.highlight, tuple(highlight))
        self.set_reactive(Board.cursor, cursor)
        self.set_reactive(Board.last, last)

    # -- public ------------------------------------------------------------
    def update_layout(
        self,
        layout: Layout,
        *,
        highlight: Sequence[End] = (),
        cursor: End | None = None,
        last: Tile | None = None,
    ) -> None:
        """Show ``layout`` with the given highlights; repaints only the rows that change."""
        highlight = tuple(highlight)
        same_layout = layout == self.tableau and self._plan is not None
        if same_layout and (highlight, cursor, last) == (self.highlight, self.cursor, self.last):
            return
        self.set_reactive(Board.tableau, layout)
        self.set_reactive(Board.highlight, highlight)
        self.set_reactive(Board.cursor, cursor)
        self.set_reactive(Board.last, last)
        if same_layout:
            self._repaint_rows()
        else:
            self._replan()

    @property
    def plan(self) -> BoardPlan:
        """The current plan (computed for the current size)."""
        if self._plan is None:
            self._replan(refresh=False)
        assert self._plan is not None
        return self._plan

    def end_offset(self, end: End) -> tuple[int, int] | None:
        """Where ``end``'s marker is, relative to the board's top-left (for clicks in tests)."""
        m = self.plan.marker(end)
        if m is None:
            return None
        x = (m.rect.x0 + m.rect.x1) // 2 - int(self.scroll_offset.x)
        y = m.rect.y0 - int(self.scroll_offset.y)
        return x, y

    # -- reactive plumbing -------------------------------------------------
    def watch_tableau(self) -> None:
        self._replan()

    def watch_highlight(self) -> None:
        self._repaint_rows()

    def watch_cursor(self) -> None:
        self._repaint_rows()

    def watch_last(self) -> None:
        self._repaint_rows()

    def on_resize(self, event: events.Resize) -> None:
        self._replan()

    def notify_style_update(self) -> None:
        """New styles (a theme, a class): every row is drawn again."""
        super().notify_style_update()
        self._forget_drawing()

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        """A full repaint looks the styles up again and draws every row anew."""
        if repaint and not regions:
            self._forget_drawing()
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def _forget_drawing(self) -> None:
        self._styles = None
        self._strips = [None] * len(self._keys)

    def _viewport(self) -> tuple[int, int]:
        size = self.scrollable_content_region.size
        return size.width, size.height

    def _replan(self, refresh: bool = True) -> None:
        w, h = self._viewport()
        if w <= 0 or h <= 0:
            w, h = 60, 15
        plan = plan_board(self.tableau, w, h, previous=self._plan)
        if plan is not self._plan:
            self._plan = plan
            self.large = plan.large
            size = Size(plan.width, plan.height)
            if size != self.virtual_size:
                self.virtual_size = size
        self._repaint_rows(refresh)

    def _repaint_rows(self, refresh: bool = True) -> None:
        """Work out which rows change, forget their strips and repaint just those."""
        if self._plan is None:
            return
        plan = self._plan
        keys = row_keys(
            plan,
            empty=self.tableau.lead is None,
            last=self.last,
            cursor=self.cursor,
            highlight=self.highlight,
        )
        canvas = Size(plan.width, plan.height)
        if canvas != self._canvas or len(keys) != len(self._keys):
            self._canvas = canvas
            self._keys = keys
            self._strips = [None] * len(keys)
            if refresh:
                self.refresh()
            return
        old_keys = self._keys
        changed = [y for y, key in enumerate(keys) if key != old_keys[y]]
        self._keys = keys
        for y in changed:
            self._strips[y] = None
        if refresh:
            for start, count in _spans(changed):
                self.refresh_lines(start, count)

    # -- drawing -----------------------------------------------------------
    def _style_map(self) -> dict[str, Style]:
        if self._styles is None:
            styles = {
                name: self.get_component_rich_style(f"board--{name}") for name in STYLE_NAMES
            }
            styles["base"] = self.rich_style
            self._styles = styles
        return self._styles

    def render_line(self, y: int) -> Strip:
        """One row of the board, scrolled."""
        if self._plan is None:
            self._replan(refresh=False)
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.scrollable_content_region.width
        styles = self._style_map()
        base = styles["base"]
        if row >= len(self._keys):
            return Strip.blank(width, base)
        strip = self._strips[row]
        if strip is None:
            strip = build_strip(self._keys[row], self._canvas.width, styles, base)
            self._strips[row] = strip
        return strip.crop_extend(scroll_x, scroll_x + width, base)

    def on_click(self, event: events.Click) -> None:
        """Clicking an open end's marker posts :class:`EndClicked`."""
        x = event.x + int(self.scroll_offset.x)
        y = event.y + int(self.scroll_offset.y)
        end = self.plan.end_at(x, y)
        if end is not None:
            event.stop()
            self.post_message(self.EndClicked(self, end))


def _spans(rows: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted row numbers grouped into (first, count) runs of neighbours."""
    spans: list[tuple[int, int]] = []
    for y in rows:
        if spans and spans[-1][0] + spans[-1][1] == y:
            spans[-1] = (spans[-1][0], spans[-1][1] + 1)
        else:
            spans.append((y, 1))
    return spans
