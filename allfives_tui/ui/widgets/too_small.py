"""The "enlarge the terminal" message shown instead of a layout that cannot fit."""

from __future__ import annotations

from textual.widget import Widget

MIN_WIDTH = 80
MIN_HEIGHT = 22


def too_small(width: int, height: int) -> bool:
    """True when a terminal of ``width`` x ``height`` cannot show the game."""
    return width < MIN_WIDTH or height < MIN_HEIGHT


class TooSmall(Widget):
    """Covers the screen while the terminal is smaller than ``MIN_WIDTH`` x ``MIN_HEIGHT``.

    The app sets the ``-too-small`` class on itself; the stylesheet then shows this.
    """

    def render(self) -> str:
        """Say what size is needed and what it is now."""
        w, h = self.app.size
        return (
            f"Please enlarge the terminal to at least {MIN_WIDTH}x{MIN_HEIGHT}.\n\n"
            f"It is {w}x{h} now.\n\nThe game is kept and carries on when there is room."
        )
