"""The base of the app's Textual apps: Textual's own words through the catalog.

:class:`WordedApp` is what the game app (:class:`~allfives_tui.ui.app.AllFivesApp`) and
the replay app (``allfives replay``) have in common of Textual's words: the command
palette (its placeholder, Textual's system commands and their help lines, "No matches
found"), the palette of themes, the key labels of the footer and the Keys panel, the
Keys panel itself, and the notices of a screenshot and of ctrl+c, all in the current
language (:mod:`allfives_tui.ui.textual_words`).
"""

from __future__ import annotations

from collections.abc import Iterable

from textual import events, on
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.theme import ThemeProvider

from allfives_tui.locale import _
from allfives_tui.ui.screens.dialog import Palette
from allfives_tui.ui.textual_words import (
    SEARCH_THEMES,
    binding_word,
    system_commands,
    textual_word,
)

QUIT_ACTIONS = frozenset({"quit", "app.quit"})
"""Textual's actions that quit an app."""


class WordedApp(App[None]):
    """A Textual app whose own words (see the module's docstring) are the catalog's."""

    def action_command_palette(self) -> None:
        """Open the command palette (one that runs a command once, however fast Enter
        comes, its words in the current language)."""
        if self.use_command_palette and not isinstance(self.screen, Palette):
            self.push_screen(Palette(id="--command-palette"))

    def search_themes(self) -> None:
        """The palette of themes (Textual's, its placeholder in the current language)."""
        if not isinstance(self.screen, Palette):
            placeholder = textual_word(SEARCH_THEMES)
            self.push_screen(Palette(providers=[ThemeProvider], placeholder=placeholder))

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Textual's commands in the palette (Theme, Keys, Quit…), in the current
        language."""
        yield from system_commands(super().get_system_commands(screen))

    def get_key_display(self, binding: Binding) -> str:
        """A key as the footer and the Keys panel show it: a binding's own label in the
        current language (a key's name, not in the catalog, stays as it is), else
        Textual's (``^p``)."""
        if binding.key_display:
            return binding_word(binding.key_display)
        return super().get_key_display(binding)

    def action_show_help_panel(self) -> None:
        """Show the Keys panel, its words in the current language."""
        if not self.screen.query("HelpPanel"):
            from allfives_tui.ui.widgets.keys_panel import KeysHelpPanel

            self.screen.mount(KeysHelpPanel())

    def action_help_quit(self) -> None:
        """(ctrl+c, where nothing is copied.) Say which key quits."""
        for active in self.active_bindings.values():
            if active.binding.action in QUIT_ACTIONS:
                key = self.get_key_display(active.binding)
                self.notify(
                    _("Press {key} to quit.").format(key=key),
                    title=_("Do you want to quit?"),
                    markup=False,
                )
                return

    @on(events.DeliveryComplete)
    def _screenshot_saved(self, event: events.DeliveryComplete) -> None:
        """Say where the screenshot went (in place of Textual's words)."""
        if event.name == "screenshot":
            event.prevent_default()
            said = (
                _("Saved the screenshot.")
                if event.path is None
                else _("Saved the screenshot to {path}").format(path=event.path)
            )
            self.notify(said, title=textual_word("Screenshot"), markup=False)

    @on(events.DeliveryFailed)
    def _screenshot_failed(self, event: events.DeliveryFailed) -> None:
        """Say the screenshot could not be saved (in place of Textual's words)."""
        if event.name == "screenshot":
            event.prevent_default()
            self.notify(
                _("The screenshot could not be saved."),
                title=textual_word("Screenshot"),
                severity="error",
            )
