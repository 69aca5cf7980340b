"""The replay's hands: every seat's tiles in a row beside its name and tile count.

A hand shows face up, or face down where the seat viewing may not see it
(:meth:`ReplayHands.turn`); its tiles numbered in bands, or one row a hand when the
screen is short (:meth:`ReplayHands.fit`). The seat to play is marked ``▶`` and
scrolled into view. A step repaints only the hands and labels that changed.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static

from allfives_tui.locale import _, ngettext
from allfives_tui.locale.formats import number
from allfives_tui.ui.widgets.hand import HandView, display_order
from engine import GameState, Play


class ReplayHands(VerticalScroll):
    """Each seat's hand, in seat order, under the board of the replay screen."""

    def __init__(
        self, names: Sequence[str], *, id: str | None = None, classes: str | None = None
    ) -> None:
        """One row for each of ``names`` (the seats' names, in seat order)."""
        super().__init__(id=id, classes=classes)
        self.names = tuple(names)
        self._rows: list[tuple[Horizontal, Static, HandView]] = []
        self._labels_shown: dict[int, tuple[bool, int, bool]] = {}
        """What each seat's label shows now: its turn, its tile count, compact or not."""

    def compose(self) -> ComposeResult:
        """A row a seat: its label, then its hand."""
        for seat in range(len(self.names)):
            with Horizontal(classes="replay-seat", id=f"seat-{seat}"):
                yield Static(classes="replay-seat-label", id=f"seat-label-{seat}")
                yield HandView(id=f"hand-{seat}")

    def _seats(self) -> list[tuple[Horizontal, Static, HandView]]:
        """Each seat's row, label and hand, in seat order."""
        if not self._rows:
            self._rows = [
                (
                    self.query_one(f"#seat-{seat}", Horizontal),
                    self.query_one(f"#seat-label-{seat}", Static),
                    self.query_one(f"#hand-{seat}", HandView),
                )
                for seat in range(len(self.names))
            ]
        return self._rows

    @property
    def compact(self) -> bool:
        """True while each hand shows on one row."""
        return self.has_class("-compact")

    def turn(self, viewer: int | None) -> None:
        """Mark the hands ``viewer`` may not see as face down (``None``: every hand up)."""
        for seat, (row, _label, _hand) in enumerate(self._seats()):
            row.set_class(viewer is not None and viewer != seat, "-face-down")

    def fit(self, compact: bool) -> bool:
        """Numbered tiles in bands, or (``compact``) one row a hand; True when that changed."""
        if compact == self.compact:
            return False
        self.set_class(compact, "-compact")
        for hand in self.query(HandView):
            hand.compact = compact
        return True

    def show(self, state: GameState, viewer: int | None) -> None:
        """The hands of ``state`` as ``viewer`` may see them (as :meth:`turn` marked), the
        seat to play marked and scrolled into view."""
        legal_tiles = frozenset(a.tile for a in state.legal_actions() if isinstance(a, Play))
        for seat, (_row, label, hand) in enumerate(self._seats()):
            tiles = tuple(display_order(state.hands[seat]))  # as the game shows a hand
            to_play = state.current == seat and not state.is_terminal
            if viewer is None or viewer == seat:
                playable = legal_tiles if to_play else None
                hand.update_hand(tiles, playable=playable, empty_text=_("no tiles"))
            else:
                hand.update_hand((), empty_text=_("(face down)"))
            shown = (to_play, len(tiles), hand.compact)
            if self._labels_shown.get(seat) != shown:
                self._labels_shown[seat] = shown
                label.update(self._label(seat, to_play, len(tiles)), layout=False)
                if to_play and self.max_scroll_y:
                    self.call_after_refresh(self._show_seat, seat)

    def _show_seat(self, seat: int) -> None:
        """Scroll so the whole of ``seat``'s row is in view."""
        self.scroll_to_widget(self._seats()[seat][0], animate=False, immediate=True)

    def _label(self, seat: int, to_play: bool, count: int) -> Text:
        """``seat``'s name and tile count, marked while it is to play."""
        name = self.names[seat]
        text = Text()
        text.append("▶ " if to_play else "  ", style="bold")
        if self.compact:  # one row: the name and the count
            text.append(name[:7].ljust(7), style="bold reverse" if to_play else "bold")
            text.append(number(count).rjust(2), style="dim")
            return text
        text.append(name[:10], style="bold reverse" if to_play else "bold")
        tiles = ngettext("{count} tile", "{count} tiles", count).format(count=number(count))
        text.append(f"\n  {tiles}", style="dim")
        return text
