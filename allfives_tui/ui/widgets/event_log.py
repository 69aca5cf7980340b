"""The event log: every engine event in plain words, newest at the bottom.

A new line scrolls the log in the same frame and repaints only the log: the
log's scrollable height grows without a new layout of the screen (only a
scrollbar appearing or going asks for one). Lines wrap at the log's width and
wrap again when that width changes (a resize), so no line is cut and the
newest one is always shown whole at the bottom. They wrap at spaces only, never
at a no-break space (French writes one before ``:``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Self

from rich.cells import cell_len
from rich.style import Style
from textual import events
from textual.geometry import Region, Size
from textual.reactive import Reactive
from textual.strip import Strip
from textual.widgets import RichLog

from allfives_tui.table.words import Names, describe_event
from engine import Event


def wrapped(text: str, width: int) -> str:
    """``text`` with its lines broken at spaces to fit ``width`` cells where its words
    do (a longer word is left to fold), never at a no-break space."""
    out: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            if line and cell_len(line) + 1 + cell_len(word) > width:
                out.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        out.append(line)
    return "\n".join(out)


class EventLog(RichLog, can_focus=False):
    """A scrolling log of events described with :func:`~allfives_tui.table.words.describe_event`."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)
    """The scrollable size: more lines only move the scrollbar, the screen keeps its layout."""

    _base: Style | None = None
    """The log's own style, looked up once a full repaint (each scroll paints every line)."""

    MAX_LINES = 500

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(
            id=id, classes=classes, wrap=True, markup=False, max_lines=self.MAX_LINES, min_width=10
        )
        self._texts: deque[str] = deque(maxlen=self.MAX_LINES)
        """Every entry as written (unwrapped), to wrap again at a new width."""
        self._of_events: deque[bool] = deque(maxlen=self.MAX_LINES)
        """For each entry: True when it tells an event (:meth:`add_events`)."""
        self._wrapped_at = 0
        """The width the lines on show were wrapped at."""

    def watch_virtual_size(self, size: Size) -> None:
        """Resize the scrollbar (showing or hiding it is the one change that needs a layout)."""
        if self.is_mounted and self.container_size:
            self._scroll_update(size)

    def add_events(self, events: Iterable[Event], names: Names) -> None:
        """Append a line per event, read by ``names.you``, scrolled into view in the same frame."""
        lines = [describe_event(event, names) for event in events]
        if not lines:
            return
        if not self._size_known:
            # written once the log knows its width, scrolled then
            self._texts.extend(lines)
            self._of_events.extend(True for _ in lines)
            for line in lines:
                self.write(line)
            return
        self._wrap_if_resized()  # the lines so far, before these are added
        self._texts.extend(lines)
        self._of_events.extend(True for _ in lines)
        width = self._wrap_width()
        for line in lines:
            self.write(wrapped(line, width), width=width, scroll_end=False)
        if self.auto_scroll:
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def write_text(self, text: str) -> None:
        """Append one line of ``text`` (wrapped again, like every entry, on a resize)."""
        self._of_events.append(False)
        if self._size_known:
            self._wrap_if_resized()
            self._texts.append(text)
            width = self._wrap_width()
            self.write(wrapped(text, width), width=width)
        else:
            self._texts.append(text)
            self.write(text)

    def drop_last_events(self, count: int) -> None:
        """Remove the last ``count`` event lines, and the other entries written after the
        first of them (the log as it was before those events)."""
        if count <= 0:
            return
        while count and self._texts:
            self._texts.pop()
            if self._of_events.pop():
                count -= 1
        RichLog.clear(self)
        if self._size_known:
            width = self._wrapped_at = self._wrap_width()
            for text in self._texts:
                self.write(wrapped(text, width), width=width, scroll_end=False)
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        else:
            for text in self._texts:
                self.write(text)

    def clear(self) -> Self:
        """Empty the log."""
        self._texts.clear()
        self._of_events.clear()
        return super().clear()

    def _wrap_width(self) -> int:
        return max(self.scrollable_content_region.width, self.min_width)

    def on_resize(self, event: events.Resize) -> None:
        """A new size: wrap every entry again at a new width, and keep the newest line
        in view (the first size is RichLog's to handle)."""
        if self._size_known:
            self._wrap_if_resized()
            if self.auto_scroll:
                self.call_after_refresh(self.scroll_end, animate=False, x_axis=False)

    def _wrap_if_resized(self) -> None:
        """Wrap every entry at the width the log has now, if the lines were wrapped at
        another, and keep the newest line in view."""
        width = self._wrap_width()
        if width == self._wrapped_at:
            return
        self._wrapped_at = width
        at_end = self.scroll_y >= self.max_scroll_y
        RichLog.clear(self)
        for text in self._texts:
            self.write(wrapped(text, width), width=width, scroll_end=False)
        if at_end or self.auto_scroll:
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def render_line(self, y: int) -> Strip:
        """One row of the log, scrolled (the lines are drawn once, when written)."""
        if self._base is None:
            self._base = self.rich_style
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        if scroll_y + y >= len(self.lines):
            return Strip.blank(width, self._base)
        return self._render_line(scroll_y + y, scroll_x, width).apply_style(self._base)

    def notify_style_update(self) -> None:
        """New styles: the lines are drawn again with them."""
        super().notify_style_update()
        self._base = None

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        """A full repaint looks the style up again (an ancestor's may have changed)."""
        if repaint and not regions:
            self._base = None
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)
