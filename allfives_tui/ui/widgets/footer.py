"""The footer of the game screen: Textual's, with a group's name dimmed with its keys."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey, FooterLabel


class GameFooter(Footer):
    """A footer whose group names (the "End" after ``n e s w``) dim when every key
    of the group is disabled, as each key does. Below :attr:`ROOMY` cells the
    command palette's key (``^p``, also in the help) gives its place to the game's
    own keys, and the keys stand a space apart instead of two (compact), so all of
    them show at 80 columns."""

    ROOMY = 100
    """The width from which the command palette's key shows too."""

    DEFAULT_CSS = """
    GameFooter FooterLabel.-disabled { text-style: dim; }
    GameFooter.-compact FooterLabel { margin: 0 1 0 0; }
    """

    def on_resize(self, event: events.Resize) -> None:
        """Narrow terminals show the game's keys only, a space apart."""
        self.show_command_palette = event.size.width >= self.ROOMY
        self.compact = event.size.width < self.ROOMY

    def compose(self) -> ComposeResult:
        """Textual's footer; a group's label marked when none of its keys is enabled."""
        grouped: list[FooterKey] = []
        widget: Widget
        for widget in super().compose():
            if isinstance(widget, FooterKey) and widget.has_class("-grouped"):
                grouped.append(widget)
            elif isinstance(widget, FooterLabel):
                if grouped and all(key.has_class("-disabled") for key in grouped):
                    widget.add_class("-disabled")
                grouped = []
            yield widget
