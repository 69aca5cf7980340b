"""The app as one browser session of ``allfives serve``.

:class:`ServedApp` is :class:`~allfives_tui.ui.app.AllFivesApp` with
``served=True`` (no server path typed, read or shown) and two things a page
in a browser needs:

- a game's text pasted anywhere (the page's "Open a game file…" pastes the
  chosen file) opens in Open replay…, even where a text field has the focus
  (one over the size cap, which the page never sends, says so there);
- quitting a game in progress asks first: in a browser a game left cannot be
  continued (a reload starts a new session), so the question says to download
  a copy first.
"""

from __future__ import annotations

from textual import events

from allfives_tui.locale import _
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.confirm import ConfirmScreen
from allfives_tui.ui.screens.open_served import (
    ServedOpenReplayScreen,
    is_oversized_paste,
    open_file_button,
)


def looks_like_a_game(text: str) -> bool:
    """True for pasted text that can only be meant as a game record (a JSON object),
    or the page's stand-in for one over the size cap."""
    return text.lstrip().startswith("{") or is_oversized_paste(text)


class ServedApp(AllFivesApp):
    """All Fives in a browser: served mode, pastes of games, and a question before leaving."""

    def __init__(self) -> None:
        super().__init__(served=True)

    async def on_event(self, event: events.Event) -> None:
        """A game's text pasted goes to Open replay…, not into the focused field."""
        if (
            isinstance(event, events.Paste)
            and not event.is_forwarded
            and looks_like_a_game(event.text)
        ):
            self.open_pasted(event.text)
            return
        await super().on_event(event)

    def open_pasted(self, text: str) -> None:
        """Replay a pasted game (in the Open replay… on show, or a new one)."""
        if isinstance(self.screen, ServedOpenReplayScreen):
            self.screen.open_text(text)
        else:
            self.push_screen(ServedOpenReplayScreen(pasted=text))

    def action_quit_keep(self) -> None:
        """Quit; during a game, only after saying it cannot be continued from here."""
        table = self.table
        if table is None or table.is_over or self.game_screen is None:
            super().action_quit_keep()
            return
        if isinstance(self.screen, ConfirmScreen):
            return

        def answered(leave: bool | None) -> None:
            if leave:
                super(ServedApp, self).action_quit_keep()

        self.push_screen(
            ConfirmScreen(
                _("Leave this game?"),
                _(
                    "In a browser a game cannot be continued once left. "
                    "ctrl+s downloads a copy first; {button} replays it later."
                ).format(button=open_file_button()),
                yes=_("Leave"),
                no=_("Keep playing"),
            ),
            answered,
        )
