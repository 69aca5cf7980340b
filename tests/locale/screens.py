"""Screens under the pseudo-locale: every run of letters shown comes from a catalog.

A test speaks the pseudo-locale (``use_language(pseudo_locale)``, the fixture in
``tests/locale/conftest.py``), opens a screen at 80x24 under ``App.run_test`` and asserts
``unmarked_on_screen(app, names) == []``: the words left are those no catalog gave.
Player names, tile notation, digits and key names are not words of a catalog.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from textual.app import App

from tests.locale.pseudo import unmarked
from tests.ui.helpers import screen_text

SIZE = (80, 24)
"""The terminal every screen must fit, in every language."""

KEY_NAMES = frozenset(
    {
        # the keys themselves, the same in every language (their labels are translated)
        *"abcdefghijklmnopqrstuvwxyz",
        *"ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "Esc", "Home", "End", "PgUp", "PgDn", "Tab", "ctrl", "shift",
        "nesw",  # the four end keys, shown together in the footer
    }
)
"""Letter runs that name a key."""


def unmarked_on_screen(app: App[Any], allowed: Collection[str] = ()) -> list[str]:
    """The words on ``app``'s screen that no catalog gave (see :func:`unmarked`), less
    key names and the ``allowed`` ones (player names, level names shown as tokens)."""
    return unmarked(screen_text(app), {*KEY_NAMES, *allowed})
