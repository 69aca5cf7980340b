"""Modal screens that close once, however fast the keys come.

Two quick presses of Enter reach a dialog before its first dismissal has
taken it off the screen stack; a second ``dismiss`` would then pop whatever
lies beneath (the game screen, and with a third press, the last screen).
:class:`Dialog` ignores a dismissal unless it is the screen on top, and
:class:`Palette` (the command palette) runs a command once and then ignores
the rest of the keys it was sent.

A dialog that opens after a move (the hand's summary, the game's end, the
hot-seat cover) has a *grace*: for its first moments on the screen it ignores
Enter and Space, which were most likely typed for the game (the move that
ended the hand, a key pressed as the computer's last move landed).
"""

from __future__ import annotations

import time
from typing import TypeVar

from rich.align import Align
from rich.text import Text
from textual import events
from textual.await_complete import AwaitComplete
from textual.command import CommandList, CommandPalette, ProviderSource
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Input, OptionList
from textual.widgets.option_list import Option

from allfives_tui.table.deadline import is_past
from allfives_tui.ui.textual_words import NO_MATCHES, SEARCH_COMMANDS, textual_word

ResultType = TypeVar("ResultType")

KEY_AHEAD_GRACE = 0.5
"""Seconds, after a dialog that opens after a move is first painted, during which it
ignores Enter and Space (see :attr:`Dialog.grace`); letter keys and clicks act at once."""

KEY_AHEAD_KEYS = frozenset({"enter", "space"})
"""The keys a dialog's grace holds back: those that confirm, and that play a move."""


class Dialog(ModalScreen[ResultType]):
    """A modal screen whose ``dismiss`` acts only while it is the screen on top."""

    grace: float | None = None
    """Seconds after the dialog is first painted during which :meth:`holds_key` holds
    Enter and Space back (and before it is painted at all); ``None``: no grace."""

    _painted_at: float | None = None

    def _on_mount(self, event: events.Mount) -> None:
        """Note when the dialog is first painted (Textual calls Screen's own too)."""
        if self.grace is not None:
            self.call_after_refresh(self._first_painted)

    def _first_painted(self) -> None:
        if self._painted_at is None:
            self._painted_at = time.monotonic()
            self.grace_started()

    def grace_started(self) -> None:
        """Called once the dialog is first painted (when it has a grace)."""

    def holds_key(self, key: str) -> bool:
        """True if ``key`` is ignored now: Enter or Space before the dialog is painted
        or within :attr:`grace` seconds after."""
        if self.grace is None or key not in KEY_AHEAD_KEYS:
            return False
        painted = self._painted_at
        return painted is None or not is_past(painted + self.grace)

    def dismiss(self, result: ResultType | None = None) -> AwaitComplete:
        """Close with ``result``, once: a dialog already closed (or covered) stays put."""
        if not self.is_active:
            return AwaitComplete()  # nothing to wait for
        return super().dismiss(result)


class Palette(CommandPalette):
    """Textual's command palette, closed once (a choice made after it closed is dropped),
    its words in the current language.

    The palette's own handlers dismiss it and run the chosen command for
    every Enter its input receives, so Enter pressed twice quickly would run
    the command twice and pop the screen beneath; here a choice that reaches
    the palette once it is no longer on top is stopped before those handlers.
    """

    def __init__(
        self,
        providers: ProviderSource | None = None,
        *,
        placeholder: str | None = None,
        id: str | None = None,
    ) -> None:
        """``placeholder``: what the empty search field says (by default, Textual's
        "Search for commands…" in the current language)."""
        if placeholder is None:
            placeholder = textual_word(SEARCH_COMMANDS)
        super().__init__(providers, placeholder=placeholder, id=id)

    def _start_no_matches_countdown(self, search_value: str) -> None:
        """(Textual's, with its words in the current language.) Soon after a search that
        found nothing, say so."""
        self._stop_no_matches_countdown()

        def show_no_matches() -> None:
            if search_value:
                words = Text(textual_word(NO_MATCHES), style="not bold")
                self.query_one(CommandList).add_option(
                    Option(Align.center(words), disabled=True, id=self._NO_MATCHES)
                )
                self._list_visible = True
            else:  # the palette lists what there is: nothing to say
                self._list_visible = False

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, show_no_matches)

    async def _on_message(self, message: Message) -> None:
        if isinstance(message, (Input.Submitted, Button.Pressed, OptionList.OptionSelected)) and (
            not self.is_active
        ):
            message.stop()
            return
        await super()._on_message(message)

    def dismiss(self, result: None = None) -> AwaitComplete:
        """Close once (as :meth:`Dialog.dismiss`)."""
        if not self.is_active:
            return AwaitComplete()  # nothing to wait for
        return super().dismiss(result)
