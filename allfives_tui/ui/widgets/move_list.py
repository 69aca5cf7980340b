"""The move list beside the replay board: every action in notation, hand by hand.

``MoveList(frames, names)`` lists each hand of a replay's frames under a
heading, one line per action (the deal first) with the seat's name and the
points scored; it takes frames (snapshots), never a record or a file.
:meth:`MoveList.show` highlights the line of a frame without moving the game; selecting a line
(Enter, or a click) posts :class:`MoveList.Picked` with the frame's index
(a hand's heading picks its deal).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from allfives_tui.locale import _
from allfives_tui.locale.formats import number
from allfives_tui.table.replay import Frame
from allfives_tui.table.words import move_words

NAME_WIDTH = 6
"""Columns for a seat's name in a line; longer names are cut."""


def move_line(frame: Frame, names: Sequence[str]) -> Text:
    """One line of the list: ``" 12 Ann    5-3 E  +10"``, or ``"  · deal"``."""
    if frame.move == 0:
        return Text("  · " + _("deal"), style="italic")
    seat = frame.seat if frame.seat is not None else 0
    if 0 <= seat < len(names):
        name = names[seat][:NAME_WIDTH]
    else:
        name = _("Seat {number}").format(number=seat + 1)[:NAME_WIDTH]
    move = move_words(frame.text)
    line = Text(f"{number(frame.move):>3} {_pad(name, NAME_WIDTH)} {_pad(move, 5)}")
    if frame.points:
        line.append(f" {'+' + number(frame.points):>3}", style="bold")
    return line


def _pad(text: str, width: int) -> str:
    """``text`` and blanks to fill ``width`` cells."""
    return text + " " * max(0, width - cell_len(text))


class MoveList(OptionList):
    """Every action of a replay, one per line; pick one to jump to it."""

    DEFAULT_CSS = """
    MoveList { width: 24; height: 1fr; }
    """

    class Picked(Message):
        """The move at frame ``index`` was selected."""

        def __init__(self, move_list: MoveList, index: int) -> None:
            super().__init__()
            self.move_list = move_list
            self.index = index

        @property
        def control(self) -> MoveList:
            """The list the move was picked from."""
            return self.move_list

    def __init__(
        self,
        frames: Sequence[Frame],
        names: Sequence[str],
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        options: list[Option] = []
        self._option_of: list[int] = []
        self._frame_of: dict[int, int] = {}
        for frame in frames:
            if frame.move == 0:
                # a hand's heading jumps to its deal too
                self._frame_of[len(options)] = frame.index
                heading = _("Hand {hand}").format(hand=number(frame.hand))
                options.append(Option(Text(heading, style="bold")))
            self._frame_of[len(options)] = frame.index
            self._option_of.append(len(options))
            options.append(Option(move_line(frame, names), id=f"frame-{frame.index}"))
        super().__init__(*options, name=name, id=id, classes=classes, markup=False)

    def option_index(self, frame: int) -> int:
        """The option (line) that shows frame ``frame``."""
        return self._option_of[frame]

    def frame_at(self, option: int) -> int | None:
        """The frame option ``option`` jumps to (a hand's heading: its deal)."""
        return self._frame_of.get(option)

    def show(self, frame: int) -> None:
        """Highlight frame ``frame``'s line and scroll it to the middle of the list."""
        option = self._option_of[frame]
        if self.highlighted != option:
            self.highlighted = option
        # one line per option: keep the moves before and after the highlight in view
        top = max(0, option - self.scrollable_content_region.height // 2)
        if int(self.scroll_y) != top:
            self.scroll_to(y=top, animate=False, immediate=True)

    def _on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        frame = self._frame_of.get(event.option_index)
        if frame is not None:
            self.post_message(self.Picked(self, frame))
