"""The languages offered on the new-game screen, and the word that the language changed.

Each language is offered by its own name (Babel's, loaded only when there is
a language besides English). When the player picks another, the App speaks
it at once and posts :class:`LanguageSwitched` to every screen in its stack:
a screen whose words were made as it was composed (the new-game screen, the
game's log) words them again.
"""

from __future__ import annotations

from textual.message import Message

from allfives_tui.locale import supported
from allfives_tui.locale.formats import language_name


class LanguageSwitched(Message, bubble=False):
    """The app speaks another language now: words already on show are to be made again."""


def language_options() -> list[tuple[str, str]]:
    """Every supported language as a choice: its own name, its code."""
    return [(language_name(code), code) for code in supported()]
