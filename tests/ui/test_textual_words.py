"""Textual's own words come through the catalog: every binding of the Textual widgets the
app shows, every system command of its palette; and a binding's words are Textual's or
the app's by where the binding is declared."""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from textual.app import App
from textual.binding import Binding
from textual.command import CommandInput, CommandList
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import DataTable, Select
from textual.widgets._select import SelectCurrent, SelectOverlay

import allfives_tui
from allfives_tui.locale import DOMAIN, EXTRA_ENV, use_language
from allfives_tui.table.settings import Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.screens.help import help_text
from allfives_tui.ui.screens.replay import ReplayScreen
from allfives_tui.ui.textual_words import ENGLISH, binding_word, shown
from allfives_tui.ui.widgets.keys_panel import KeysHelpPanel
from tests.locale.pseudo import compiled
from tests.ui.helpers import until

INSIDE = (SelectOverlay, SelectCurrent, CommandInput, CommandList)
"""Textual widgets the app shows inside others (a dropdown's list, the palette's field)."""


def textual_classes() -> set[type[DOMNode]]:
    """Every Textual class the app's code imports, and those shown inside them."""
    found: set[type[DOMNode]] = set(INSIDE)
    root = Path(allfives_tui.__file__).parent
    pattern = re.compile(r"from (textual(?:\.\w+)*) import (?:\(([^)]*)\)|([\w ,]+))")
    for path in root.rglob("*.py"):
        for module, *names in pattern.findall(path.read_text()):
            for name in re.findall(r"\w+", "".join(names)):
                thing = getattr(importlib.import_module(module), name, None)
                if inspect.isclass(thing) and issubclass(thing, DOMNode):
                    found.add(thing)
    return found


def declared(cls: type[DOMNode]) -> set[str]:
    """The words of every binding ``cls`` and its Textual bases declare."""
    words: set[str] = set()
    for base in cls.__mro__:
        if base.__module__.partition(".")[0] != "textual":
            continue
        for item in base.__dict__.get("BINDINGS", ()):
            binding = item if isinstance(item, Binding) else Binding(*item)
            words |= {binding.description, binding.tooltip} - {""}
        title = base.__dict__.get("BINDING_GROUP_TITLE")
        if title:
            words.add(title)
    return words


def test_every_binding_of_textuals_widgets_is_in_the_table() -> None:
    classes = textual_classes()
    assert {Select, DataTable, Screen} <= classes
    missing = {word for cls in classes for word in declared(cls)} - ENGLISH
    assert missing == set()


async def test_every_system_command_is_in_the_table() -> None:
    app = AllFivesApp(Settings(speed=0.0), speed=0.0, autosave=False)
    async with app.run_test() as pilot:
        await pilot.pause()
        offered = [*App.get_system_commands(app, app.screen)]  # Textual's own
        app.action_show_help_panel()
        await until(pilot, lambda: bool(app.screen.query(KeysHelpPanel)))
        offered += App.get_system_commands(app, app.screen)
        words = {c.title for c in offered} | {c.help for c in offered}
        assert {"Theme", "Keys", "Quit", "Screenshot"} <= words
        assert words - ENGLISH == set()
        # as the palette lists them: in the current language (English: the same)
        shown_titles = {c.title for c in app.get_system_commands(app.screen)}
        assert {c.title for c in offered} <= shown_titles


@pytest.fixture
def two_ends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A catalog where the app's "End" (an end of the line of play) and Textual's (the End
    key) are translated apart."""
    catalog = Catalog(locale="en", domain=DOMAIN)
    catalog.add("End", "ESTREMITÀ")
    catalog.add("End", "FINE", context="textual")
    catalog.add("Quit", "ESCI")
    monkeypatch.setenv(EXTRA_ENV, str(compiled(catalog, tmp_path, "eo")))
    yield "eo"
    use_language("en")


def test_a_binding_is_worded_by_where_it_is_declared(two_ends: str) -> None:
    use_language(two_ends)
    table_end = next(
        b for b in DataTable.BINDINGS if isinstance(b, Binding) and b.action == "scroll_end"
    )
    assert shown(DataTable(), table_end).description == "FINE"
    ends = Binding("e", "end('east')", "", group=Binding.Group("End"))
    group = shown(Screen(), ends).group
    assert group is not None and group.description == "ESTREMITÀ"
    # a key's name the catalog lacks stays as it is; an empty word stays empty
    assert binding_word("Esc") == "Esc" and binding_word("") == ""
    quit_key = Binding("ctrl+q", "quit_keep", "Quit", key_display="^q")
    assert shown(AllFivesApp.__new__(AllFivesApp), quit_key).description == "ESCI"


@pytest.fixture
def three_plays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A catalog that words the game's Enter key, the replay's Space key and the help's
    heading, all "Play" in English, each its own way."""
    catalog = Catalog(locale="en", domain=DOMAIN)
    catalog.add("Play", "GIOCA", context="key: play the chosen tile")
    catalog.add("Play", "AVVIA", context="key: run the replay on, or pause it")
    catalog.add("Play", "IL GIOCO", context="help heading: how a hand is played")
    monkeypatch.setenv(EXTRA_ENV, str(compiled(catalog, tmp_path, "eo")))
    yield "eo"
    use_language("en")


def test_one_english_word_in_three_roles_is_translated_three_ways(three_plays: str) -> None:
    def play_key(screen: type[Screen[Any]], action: str) -> str:
        binding = next(b for b in screen.BINDINGS if isinstance(b, Binding) and b.action == action)
        return shown(screen.__new__(screen), binding).description

    assert (play_key(GameScreen, "play"), play_key(ReplayScreen, "toggle_play")) == (
        "Play",
        "Play",
    )
    assert "## Play\n" in help_text()
    use_language(three_plays)
    assert play_key(GameScreen, "play") == "GIOCA"
    assert play_key(ReplayScreen, "toggle_play") == "AVVIA"
    assert "## IL GIOCO\n" in help_text()
