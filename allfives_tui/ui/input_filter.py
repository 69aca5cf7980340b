"""The input the app drops before any screen sees it."""

from __future__ import annotations

from textual import events
from textual.app import App

from allfives_tui.ui.screens.dialog import Dialog
from allfives_tui.ui.widgets.too_small import acts_behind_the_message, message_showing


def dropped(app: App[None], event: events.Event) -> bool:
    """True for Enter or Space while the dialog on show is in its grace, and for
    input behind the "enlarge" message other than the keys that quit or open help
    (no click acts there)."""
    if (
        isinstance(event, events.Key)
        and not event.is_forwarded
        and isinstance(app.screen, Dialog)
        and app.screen.holds_key(event.key)
    ):
        return True
    return (
        isinstance(event, (events.InputEvent, events.Paste))
        and not event.is_forwarded
        and app.has_class("-too-small")
        and message_showing(app.screen)
        and not acts_behind_the_message(app.screen, event)
    )
