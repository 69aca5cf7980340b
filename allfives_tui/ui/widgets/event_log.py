"""The event log: every engine event in plain words, newest at the bottom."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from textual.widgets import RichLog

from allfives_tui.table.words import describe
from engine import Event, Rules


class EventLog(RichLog, can_focus=False):
    """A scrolling log of events described with :func:`~allfives_tui.table.words.describe`."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(
            id=id, classes=classes, wrap=True, markup=False, max_lines=500, min_width=10
        )

    def add_events(
        self,
        events: Iterable[Event],
        names: Sequence[str],
        viewer: int | None = 0,
        rules: Rules | None = None,
    ) -> None:
        """Append a line per event."""
        for event in events:
            self.write(describe(event, names, viewer, rules))
