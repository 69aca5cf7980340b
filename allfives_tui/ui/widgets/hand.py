"""A seat's hand, face up: tiles in a row, numbered, playable ones bright.

``HandView(tiles, *, playable=None, selected=None)`` shows any seat's tiles
(the replay screen shows every seat's). ``playable`` is the set of tiles that
may be played now (the others are dimmed and drawn with a dashed border);
``None`` shows every tile plainly. ``selected`` (an index) gets a heavy border
and arrows round its number. Clicking a tile posts :class:`HandView.TileClicked`.
Long hands wrap onto more rows.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from allfives_tui.ui.widgets.tiles import Border, horizontal_glyph
from engine import Tile

CELL = 6
"""Columns per tile (5 for the glyph and 1 gap)."""
BAND = 4
"""Rows per band of tiles (a number row and the 3-row glyph)."""


class HandView(Widget, can_focus=False):
    """One seat's tiles face up, numbered 1, 2, 3… from the left."""

    COMPONENT_CLASSES = {
        "hand--playable",
        "hand--unplayable",
        "hand--selected",
        "hand--label",
        "hand--pip",
        "hand--empty",
    }

    DEFAULT_CSS = """
    HandView { height: auto; }
    """

    class TileClicked(Message):
        """The tile at ``index`` (0-based) was clicked."""

        def __init__(self, hand: HandView, index: int, tile: Tile) -> None:
            super().__init__()
            self.hand = hand
            self.index = index
            self.tile = tile

        @property
        def control(self) -> HandView:
            """The hand that was clicked."""
            return self.hand

    tiles: reactive[tuple[Tile, ...]] = reactive((), layout=True)
    playable: reactive[frozenset[Tile] | None] = reactive(None)
    selected: reactive[int | None] = reactive(None)

    def __init__(
        self,
        tiles: Sequence[Tile] = (),
        *,
        playable: Collection[Tile] | None = None,
        selected: int | None = None,
        empty_text: str = "no tiles",
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.empty_text = empty_text
        self.set_reactive(HandView.tiles, tuple(tiles))
        self.set_reactive(HandView.playable, None if playable is None else frozenset(playable))
        self.set_reactive(HandView.selected, selected)

    def update_hand(
        self,
        tiles: Sequence[Tile],
        *,
        playable: Collection[Tile] | None = None,
        selected: int | None = None,
    ) -> None:
        """Show ``tiles`` with the given playable set and selection in one refresh."""
        new = (tuple(tiles), None if playable is None else frozenset(playable), selected)
        if new == (self.tiles, self.playable, self.selected):
            return
        old = len(self.tiles)
        self.set_reactive(HandView.tiles, new[0])
        self.set_reactive(HandView.playable, new[1])
        self.set_reactive(HandView.selected, selected)
        self.refresh(layout=old != len(tiles))

    # -- geometry ------------------------------------------------------------
    def _per_band(self, width: int | None = None) -> int:
        w = self.content_region.width if width is None else width
        return max(1, (w + 1) // CELL)

    def tile_offset(self, index: int) -> tuple[int, int]:
        """The centre of tile ``index``'s glyph relative to the widget (for clicks in tests)."""
        per = self._per_band()
        band, col = divmod(index, per)
        return (
            self.styles.gutter.left + col * CELL + 2,
            self.styles.gutter.top + band * BAND + 2,
        )

    def index_at(self, x: int, y: int) -> int | None:
        """The tile under content cell ``(x, y)``, if any."""
        if x < 0 or y < 0 or x % CELL == CELL - 1:
            return None
        band = y // BAND
        index = band * self._per_band() + x // CELL
        if x // CELL >= self._per_band() or index >= len(self.tiles):
            return None
        return index

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """One band of four rows per row of tiles."""
        n = max(1, len(self.tiles))
        per = self._per_band(width)
        return ((n + per - 1) // per) * BAND

    # -- drawing -------------------------------------------------------------
    def _border_and_style(self, index: int, tile: Tile) -> tuple[Border, Style]:
        if index == self.selected:
            return "heavy", self.get_component_rich_style("hand--selected")
        if self.playable is not None and tile not in self.playable:
            return "dashed", self.get_component_rich_style("hand--unplayable")
        return "plain", self.get_component_rich_style("hand--playable")

    def render_line(self, y: int) -> Strip:
        """One row of the hand."""
        width = self.content_region.width
        base = self.rich_style
        if not self.tiles:
            if y == 1:
                text = self.empty_text[:width]
                style = self.get_component_rich_style("hand--empty")
                return Strip([Segment(text, style)]).adjust_cell_length(width, base)
            return Strip.blank(width, base)
        per = self._per_band()
        band, row = divmod(y, BAND)
        first = band * per
        segs: list[Segment] = []
        label_style = self.get_component_rich_style("hand--label")
        pip_style = self.get_component_rich_style("hand--pip")
        for i, tile in enumerate(self.tiles[first : first + per], start=first):
            border, style = self._border_and_style(i, tile)
            if row == 0:
                num = str(i + 1) if i < 9 else " "
                if i == self.selected:
                    segs.append(Segment(f" ▶{num}◀ ", style))
                else:
                    segs.append(Segment(f"  {num}   ", label_style))
                continue
            text = horizontal_glyph(tile.high, tile.low, border)[row - 1]
            for ch in text:
                segs.append(Segment(ch, style + pip_style if ch.isdigit() else style))
            segs.append(Segment(" ", base))
        return Strip(segs).adjust_cell_length(width, base)

    def on_click(self, event: events.Click) -> None:
        """Clicking a tile posts :class:`TileClicked`."""
        index = self.index_at(event.x - self.styles.gutter.left, event.y - self.styles.gutter.top)
        if index is not None:
            event.stop()
            self.post_message(self.TileClicked(self, index, self.tiles[index]))
