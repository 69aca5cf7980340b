"""Modal screens that close once, however fast the keys come.

Two quick presses of Enter reach a dialog before its first dismissal has
taken it off the screen stack; a second ``dismiss`` would then pop whatever
lies beneath (the game screen, and with a third press, the last screen).
:class:`Dialog` ignores a dismissal unless it is the screen on top, and
:class:`Palette` (the command palette) runs a command once and then ignores
the rest of the keys it was sent.
"""

from __future__ import annotations

from typing import TypeVar

from textual.await_complete import AwaitComplete
from textual.command import CommandPalette
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Input, OptionList

ResultType = TypeVar("ResultType")


class Dialog(ModalScreen[ResultType]):
    """A modal screen whose ``dismiss`` acts only while it is the screen on top."""

    def dismiss(self, result: ResultType | None = None) -> AwaitComplete:
        """Close with ``result``, once: a dialog already closed (or covered) stays put."""
        if not self.is_active:
            return AwaitComplete()  # nothing to wait for
        return super().dismiss(result)


class Palette(CommandPalette):
    """Textual's command palette, closed once: a choice made after it closed is dropped.

    The palette's own handlers dismiss it and run the chosen command for
    every Enter its input receives, so Enter pressed twice quickly would run
    the command twice and pop the screen beneath; here a choice that reaches
    the palette once it is no longer on top is stopped before those handlers.
    """

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
