"""The command palette's commands, and the screens they (and their keys) open.

The App's ``action_*`` methods and ``get_system_commands`` call these; each
screen is opened at most once on top of itself. The screens' modules load
when first opened.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from textual.app import App, SystemCommand

from allfives_tui.locale import _
from allfives_tui.ui.screens.help import HelpScreen

if TYPE_CHECKING:
    from allfives_tui.ui.app import AllFivesApp


def palette(app: AllFivesApp) -> Iterator[SystemCommand]:
    """New game, Save a copy… (with a game to save), Open replay…, Statistics, Past
    games and Help, in the current language."""
    yield SystemCommand(_("New game"), _("Set up and start a new game"), app.action_new_game)
    if app.reading is not None:
        yield SystemCommand(
            _("Save a copy…"), _("Save this game where you choose"), app.action_save_copy
        )
    yield SystemCommand(
        _("Open replay…"), _("Replay a saved game file"), app.action_open_replay
    )
    yield SystemCommand(
        _("Statistics"), _("Your record: win rates, points a hand, charts"),
        app.action_statistics,
    )
    yield SystemCommand(
        _("Past games"), _("Every game played: replay, export or delete one"),
        app.action_past_games,
    )
    yield SystemCommand(_("Help"), _("The rules and the keys"), app.action_show_help)


def open_statistics(app: App[None], name: str) -> None:
    """Open the statistics of the person called ``name``."""
    from allfives_tui.ui.screens.stats import StatsScreen

    if not isinstance(app.screen, StatsScreen):
        app.push_screen(StatsScreen(name))


def open_past_games(app: App[None], name: str) -> None:
    """Open the list of past games (``name``: the person at this terminal)."""
    from allfives_tui.ui.screens.past_games import PastGamesScreen

    if not isinstance(app.screen, PastGamesScreen):
        app.push_screen(PastGamesScreen(name))


def open_help(app: App[None], *, served: bool) -> None:
    """Open the help (rules and keys)."""
    if isinstance(app.screen, HelpScreen):
        return
    if not app.is_screen_installed("help"):
        # made once and kept: its Markdown is slow to lay out
        app.install_screen(HelpScreen(served=served), "help")
    app.push_screen("help")


def open_replay_file(app: App[None], *, served: bool, pasted: str | None = None) -> None:
    """Ask for a game record to replay (served: the session's games, or a file from the
    browser; ``pasted``, a game's text to open there)."""
    if served:
        from allfives_tui.ui.screens.open_served import ServedOpenReplayScreen

        app.push_screen(ServedOpenReplayScreen(pasted=pasted))
        return
    from allfives_tui.ui.screens.open_replay import OpenReplayScreen

    app.push_screen(OpenReplayScreen())
