"""A one-row line worded for the width it has: the whole of it when there is room, else less.

Its owner gives a function of the width in cells (``words(width)``) that says less on a
narrow line. The line asks it again when told to (:meth:`FittedLine.refit`) and whenever
its own width changes, so what it shows is always fitted to the width it has once laid
out, whatever the order in which the screen and its parts learn of a new size.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.widgets import Static


class FittedLine(Static):
    """One row of text, ``words(width)`` for the cells the line has."""

    def __init__(
        self, words: Callable[[int], str], *, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        self._words = words
        self._text: str | None = None

    @property
    def room(self) -> int:
        """The cells the text has: the line's content width; before its first layout,
        the screen's width less the line's padding and border."""
        return self.size.width or self.app.size.width - self.styles.gutter.width

    def refit(self) -> None:
        """Word the line for the width it has now (repainted only when the words change)."""
        text = self._words(self.room)
        if text != self._text:
            self._text = text
            self.update(text, layout=False)  # one row high, whatever it says

    def on_resize(self) -> None:
        """A new width: the words that fit it."""
        self.refit()
