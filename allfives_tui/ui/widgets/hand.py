"""A seat's hand, face up: tiles in a row, numbered, playable ones bright.

``HandView(tiles, *, playable=None, selected=None)`` shows any seat's tiles
(the replay screen shows every seat's). ``playable`` is the set of tiles that
may be played now (the others are dimmed and drawn with a dashed border);
``None`` shows every tile plainly. ``selected`` (an index) gets a heavy border
and arrows round its number. Clicking a tile posts :class:`HandView.TileClicked`.
Long hands wrap onto more rows. ``compact`` draws each tile on one row
(``[6|4]``, no numbers), so four hands fit where one would (the replay's
four hands on a small terminal). ``large`` draws the tiles 9 cells wide, as
the board draws its large tiles.

An update repaints only the bands of tiles whose look changed (moving the
selection repaints one band), and asks for a new layout only when the hand
needs more or fewer rows than it has: playing a tile, or a replay stepping
on, never re-lays out the screen.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Self

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from allfives_tui.locale import _
from allfives_tui.table.glyphs import Border, horizontal_glyph
from engine import Tile

CELL = 6
"""Columns per tile (5 for the glyph and 1 gap)."""
LARGE_CELL = 10
"""Columns per large tile (9 for the glyph and 1 gap)."""
BAND = 4
"""Rows per band of tiles (a number row and the 3-row glyph)."""
COMPACT_BAND = 1
"""Rows per band of compact tiles (``[6|4]``, no number row)."""

PLAYABLE, UNPLAYABLE, SELECTED = "playable", "unplayable", "selected"
"""How a tile looks: its component class without the ``hand--`` prefix."""
_BORDERS: dict[str, Border] = {PLAYABLE: "plain", UNPLAYABLE: "dashed", SELECTED: "heavy"}

Look = tuple[Tile, str]
"""A tile and how it looks (one of PLAYABLE, UNPLAYABLE, SELECTED)."""


def display_order(hand: Sequence[Tile]) -> list[Tile]:
    """A hand in the order it is shown: highest tiles first."""
    return sorted(hand, key=lambda t: (t.high, t.low), reverse=True)


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

    _styles: dict[str, Style] | None = None
    """The component styles and the base style ("base"), kept until a full repaint."""

    tiles: reactive[tuple[Tile, ...]] = reactive((), layout=True)
    playable: reactive[frozenset[Tile] | None] = reactive(None)
    selected: reactive[int | None] = reactive(None)
    compact: reactive[bool] = reactive(False, layout=True)
    """One row per band of tiles (``[6|4]``) instead of numbered glyphs."""
    large: reactive[bool] = reactive(False, layout=True)
    """Tiles 9 cells wide (the board's large tiles) instead of 5."""

    def __init__(
        self,
        tiles: Sequence[Tile] = (),
        *,
        playable: Collection[Tile] | None = None,
        selected: int | None = None,
        empty_text: str | None = None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.empty_text = _("no tiles") if empty_text is None else empty_text
        """What the hand says while it shows no tile."""
        self.set_reactive(HandView.tiles, tuple(tiles))
        self.set_reactive(HandView.playable, None if playable is None else frozenset(playable))
        self.set_reactive(HandView.selected, selected)
        self._lines: dict[int, tuple[object, Strip]] = {}
        """Each row drawn, with the key it was drawn for."""

    def update_hand(
        self,
        tiles: Sequence[Tile],
        *,
        playable: Collection[Tile] | None = None,
        selected: int | None = None,
        empty_text: str | None = None,
    ) -> None:
        """Show ``tiles`` with the given playable set and selection.

        Nothing happens when that is what the hand shows already; otherwise
        only the bands that look different are repainted. ``empty_text``
        replaces what an empty hand says.
        """
        new = (tuple(tiles), None if playable is None else frozenset(playable), selected)
        text = self.empty_text if empty_text is None else empty_text
        if new == (self.tiles, self.playable, self.selected) and text == self.empty_text:
            return
        width = self.content_region.width
        before = self._looks()
        old_text = self.empty_text
        self.empty_text = text
        self.set_reactive(HandView.tiles, new[0])
        self.set_reactive(HandView.playable, new[1])
        self.set_reactive(HandView.selected, selected)
        if not self.is_mounted or width <= 0:
            self.refresh(layout=True)
            return
        auto = self.styles.height is not None and self.styles.height.is_auto
        if auto and self._content_height(width) != self.content_region.height:
            # more or fewer bands: the screen makes room
            self.refresh(layout=True)
            return
        if not before or not new[0]:
            # an empty hand shows its text instead of tiles
            if before or new[0] or text != old_text:
                self.refresh()
            return
        after = self._looks()
        per = self._per_band(width)
        for first in range(0, max(len(before), len(after)), per):
            if before[first : first + per] != after[first : first + per]:
                band, rows = first // per, self._band()
                self.refresh(Region(0, band * rows, width, rows))

    # -- geometry ------------------------------------------------------------
    def _band(self) -> int:
        """Rows per band of tiles."""
        return COMPACT_BAND if self.compact else BAND

    def watch_compact(self) -> None:
        self._lines = {}

    def watch_large(self) -> None:
        self._lines = {}

    def _cell(self) -> int:
        """Columns per tile, its gap included."""
        return LARGE_CELL if self.large and not self.compact else CELL

    def _per_band(self, width: int | None = None) -> int:
        w = self.content_region.width if width is None else width
        return max(1, (w + 1) // self._cell())

    def _content_height(self, width: int) -> int:
        n = max(1, len(self.tiles))
        per = self._per_band(width)
        return ((n + per - 1) // per) * self._band()

    def tile_offset(self, index: int) -> tuple[int, int]:
        """The centre of tile ``index``'s glyph relative to the widget (for clicks in tests)."""
        per = self._per_band()
        band, col = divmod(index, per)
        return (
            self.styles.gutter.left + col * self._cell() + self._cell() // 2 - 1,
            self.styles.gutter.top + band * self._band() + (0 if self.compact else 2),
        )

    def index_at(self, x: int, y: int) -> int | None:
        """The tile under content cell ``(x, y)``, if any."""
        cell = self._cell()
        if x < 0 or y < 0 or x % cell == cell - 1:
            return None
        band = y // self._band()
        index = band * self._per_band() + x // cell
        if x // cell >= self._per_band() or index >= len(self.tiles):
            return None
        return index

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """One band of four rows per row of tiles."""
        return self._content_height(width)

    # -- drawing -------------------------------------------------------------
    def _looks(self) -> list[Look]:
        """Every tile and how it looks now."""
        playable, selected = self.playable, self.selected
        return [
            (
                tile,
                SELECTED
                if i == selected
                else UNPLAYABLE
                if playable is not None and tile not in playable
                else PLAYABLE,
            )
            for i, tile in enumerate(self.tiles)
        ]

    def _style_map(self) -> dict[str, Style]:
        if self._styles is None:
            styles = {
                name: self.get_component_rich_style(f"hand--{name}")
                for name in (PLAYABLE, UNPLAYABLE, SELECTED, "label", "pip", "empty")
            }
            styles["base"] = self.rich_style
            self._styles = styles
        return self._styles

    def notify_style_update(self) -> None:
        """New styles: every row is drawn again."""
        super().notify_style_update()
        self._styles = None
        self._lines = {}

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        """A full repaint looks the styles up again (an ancestor's may have changed)."""
        if repaint and not regions:
            self._styles = None
            self._lines = {}
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def render_line(self, y: int) -> Strip:
        """One row of the hand."""
        width = self.content_region.width
        base = self._style_map()["base"]
        if not self.tiles:
            key: object = (self.empty_text, width, base)
        else:
            per = self._per_band()
            rows = self._band()
            first = (y // rows) * per
            key = (
                first, tuple(self._looks()[first : first + per]), y % rows, width, base, rows,
                self.large,
            )
        cached = self._lines.get(y)
        if cached is not None and cached[0] == key:
            return cached[1]
        strip = self._draw_line(y, width, base)
        self._lines[y] = (key, strip)
        return strip

    def _draw_line(self, y: int, width: int, base: Style) -> Strip:
        styles = self._style_map()
        if not self.tiles:
            if y == (0 if self.compact else 1):
                strip = Strip([Segment(self.empty_text, styles["empty"])])
                return strip.crop(0, width).adjust_cell_length(width, base)
            return Strip.blank(width, base)
        per = self._per_band()
        band, row = divmod(y, self._band())
        first = band * per
        segs: list[Segment] = []
        label_style = styles["label"]
        pip_style = styles["pip"]
        looks = self._looks()[first : first + per]
        if self.compact:
            for tile, look in looks:
                style = styles[look]
                left, right = ("»", "«") if look == SELECTED else ("[", "]")
                segs.append(Segment(left, style))
                segs.append(Segment(str(tile.high), style + pip_style))
                segs.append(Segment("|", style))
                segs.append(Segment(str(tile.low), style + pip_style))
                segs.append(Segment(right, style))
                segs.append(Segment(" ", base))
            return Strip(segs).adjust_cell_length(width, base)
        side = (self._cell() - 4) // 2  # around a label's 3 cells, the gap included
        for i, (tile, look) in enumerate(looks, start=first):
            style = styles[look]
            if row == 0:
                num = str(i + 1) if i < 9 else " "
                if look == SELECTED:
                    segs.append(Segment(" " * side + f"▶{num}◀" + " " * side, style))
                else:
                    segs.append(Segment(" " * (side + 1) + num + " " * (side + 2), label_style))
                continue
            text = horizontal_glyph(tile.high, tile.low, _BORDERS[look], large=self.large)[
                row - 1
            ]
            pip = style + pip_style
            for ch in text:
                segs.append(Segment(ch, pip if ch.isdigit() else style))
            segs.append(Segment(" ", base))
        return Strip(segs).adjust_cell_length(width, base)

    def on_click(self, event: events.Click) -> None:
        """Clicking a tile posts :class:`TileClicked`."""
        index = self.index_at(event.x - self.styles.gutter.left, event.y - self.styles.gutter.top)
        if index is not None:
            event.stop()
            self.post_message(self.TileClicked(self, index, self.tiles[index]))
