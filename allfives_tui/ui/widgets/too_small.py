"""The "enlarge the terminal" message shown instead of a layout that cannot fit."""

from __future__ import annotations

from textual import events
from textual.screen import Screen
from textual.widget import Widget

from allfives_tui.locale import _

MIN_WIDTH = 80
MIN_HEIGHT = 22


def too_small(width: int, height: int) -> bool:
    """True when a terminal of ``width`` x ``height`` cannot show the game."""
    return width < MIN_WIDTH or height < MIN_HEIGHT


QUIT_OR_HELP = frozenset(
    {
        "quit",
        "app.quit",
        "quit_keep",
        "app.quit_keep",
        "help_quit",
        "app.help_quit",
        "show_help",
        "app.show_help",
        "close",  # the help's own key closes it
        "choose('quit')",
    }
)
"""The actions that still act behind the "enlarge" message: quitting and help."""


def acts_behind_the_message(screen: Screen[object], event: events.Event) -> bool:
    """True when ``event`` may act while the "enlarge" message covers ``screen``: a key
    that quits or opens help there (or anywhere in the app); never a click."""
    if not isinstance(event, events.Key):
        return False
    for node in (screen, screen.app):
        for binding in node._bindings.key_to_bindings.get(event.key, ()):
            if binding.action in QUIT_OR_HELP:
                return True
    return False


def message_showing(screen: Screen[object]) -> bool:
    """True when ``screen`` shows the "enlarge" message (the app is too small for it)."""
    return screen.app.has_class("-too-small") and bool(screen.query(TooSmall))


class TooSmall(Widget):
    """Covers the screen while the terminal is smaller than ``MIN_WIDTH`` x ``MIN_HEIGHT``.

    The app sets the ``-too-small`` class on itself; the stylesheet then shows this,
    and nothing but quitting and help acts behind it (:func:`acts_behind_the_message`).
    """

    def _swallow(self, event: events.MouseEvent) -> None:
        event.stop()
        event.prevent_default()

    # A click lands on the message (it covers the screen) and goes no further.
    on_click = _swallow
    on_mouse_down = _swallow
    on_mouse_up = _swallow
    on_mouse_scroll_down = _swallow
    on_mouse_scroll_up = _swallow

    def render(self) -> str:
        """Say what size is needed and what it is now."""
        w, h = self.app.size
        return "\n\n".join((
            _("Please enlarge the terminal to at least {size}.").format(
                size=f"{MIN_WIDTH}x{MIN_HEIGHT}"
            ),
            _("It is {size} now.").format(size=f"{w}x{h}"),
            _("The game is kept and carries on when there is room."),
        ))
