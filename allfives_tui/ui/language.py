"""The languages offered on the new-game screen, and the word that the language changed.

Each language is offered by its own name (Babel's, loaded only when there is
a language besides English). When the player picks another, the App speaks
it at once and posts :class:`LanguageSwitched` to every screen in its stack:
a screen whose words were made as it was composed (the new-game screen, the
game's log) words them again.
"""

from __future__ import annotations

from functools import lru_cache

from textual.message import Message

from allfives_tui.locale import SOURCE, supported


class LanguageSwitched(Message, bubble=False):
    """The app speaks another language now: words already on show are to be made again."""


@lru_cache(maxsize=32)
def language_name(code: str) -> str:
    """The language ``code`` names, in that language ("English", "italiano", "français");
    the code itself for a language Babel does not know (a test's pseudo-locale)."""
    if code == SOURCE:
        return "English"
    from babel import Locale, UnknownLocaleError

    try:
        name = Locale.parse(code).get_display_name(code)
    except (UnknownLocaleError, ValueError):
        return code
    return name or code


def language_options() -> list[tuple[str, str]]:
    """Every supported language as a choice: its own name, its code."""
    return [(language_name(code), code) for code in supported()]
