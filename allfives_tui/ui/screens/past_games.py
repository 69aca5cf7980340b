"""The past games: every game in the history, newest first, searchable; Enter replays one.

``d`` deletes the game under the cursor (after asking), ``e`` exports its record
to a file. The history is read and written on worker threads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from rich.cells import cell_len
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Input, Static

from allfives_tui.store.history import History, HistoryError, history_path
from allfives_tui.store.summary import GameSummary
from allfives_tui.table.words import printable
from allfives_tui.ui.screens import HISTORY_CSS
from allfives_tui.ui.screens.confirm import ConfirmScreen
from allfives_tui.ui.widgets.compact import compact
from allfives_tui.ui.widgets.footer import AppFooter
from allfives_tui.ui.widgets.too_small import TooSmall
from engine.record import LoadedGame

SHOWN = 300
"""At most this many games are listed at once (the newest that match the search)."""

COLUMNS = ("Started", "Result", "Players", "Opponents", "Hands")


class PastGamesScreen(Screen[None]):
    """The list of past games (as ``player`` played them)."""

    CSS_PATH = [HISTORY_CSS]

    BINDINGS = [
        Binding("escape", "close", "Back", key_display="Esc"),
        Binding("enter", "replay", "Replay", key_display="⏎", priority=True),
        Binding("d", "delete", "Delete"),
        Binding("e", "export", "Export"),
        Binding("slash", "search", "Search", key_display="/"),
        Binding("ctrl+t", "statistics", "Statistics", key_display="^t"),
    ]

    @dataclass
    class Loaded(Message):
        """The games were read (``error`` says why they could not be)."""

        games: list[GameSummary]
        texts: list[str]
        """Each game's :meth:`~GameSummary.search_text`."""
        error: str | None

    @dataclass
    class Opened(Message):
        """A game's record was read, to replay or export."""

        game: LoadedGame | None
        error: str | None
        then: str

    def __init__(self, player: str, *, path: Path | None = None) -> None:
        """``player`` is whose results the list shows (the settings' name)."""
        super().__init__()
        self.player = player
        self.path = path
        self.games: list[GameSummary] = []
        self.texts: list[str] = []
        self.shown: list[GameSummary] = []
        self.loaded = False

    def compose(self) -> ComposeResult:
        """The search field, the list and a line of counts."""
        yield TooSmall()
        yield Static("Past games", id="past-title")
        yield compact(Input(
            placeholder="search: a date, an opponent or level, won / lost / abandoned",
            id="past-search",
        ))
        yield DataTable(id="past-games", cursor_type="row", zebra_stripes=True)
        yield Static("Reading the history…", id="past-status")
        yield AppFooter()

    def on_mount(self) -> None:
        """Set up the list and read the history."""
        self._show([], [])  # the column labels while the history is read
        self.query_one("#past-games", DataTable).focus()
        self.read_games()

    def _path(self) -> Path:
        return self.path or history_path()

    @work(thread=True, exclusive=True, group="past-games")
    def read_games(self) -> None:
        """Read every game's summary off the UI thread."""
        games: list[GameSummary] = []
        error = None
        if self._path().exists():
            try:
                with History(self._path()) as history:
                    games = history.games()
                    error = history.notice
            except HistoryError as err:
                error = str(err)
        self.post_message(self._loaded_message(games, error))

    def _loaded_message(self, games: list[GameSummary], error: str | None) -> Loaded:
        return self.Loaded(games, [g.search_text(self.player) for g in games], error)

    @on(Loaded)
    def _loaded(self, message: Loaded) -> None:
        if message.error:
            self.notify(message.error, severity="warning", timeout=10)
        self.games = message.games
        self.texts = message.texts
        self.fill()
        self.loaded = True

    def fill(self) -> None:
        """Show the games that match the search."""
        text = self.query_one("#past-search", Input).value
        words = text.lower().split()
        matching = [
            g for g, hay in zip(self.games, self.texts, strict=True)
            if all(w in hay for w in words)
        ]
        self.shown = matching[:SHOWN]
        rows = [
            (
                g.local_start(),
                g.result(self.player),
                f"{g.players}{' teams' if g.partnerships else ''}",
                printable(g.opponents(self.player)),
                str(g.hands),
            )
            for g in self.shown
        ]
        self._show(rows, [g.game_id for g in self.shown])
        status = self.query_one("#past-status", Static)
        more = f"; the newest {SHOWN} are listed" if len(matching) > SHOWN else ""
        if not self.games:
            status.update("No games yet: every game played is kept here.")
        elif words:
            status.update(f"{len(matching)} of {len(self.games)} games match{more}.")
        else:
            status.update(f"{len(self.games)} games{more}.")

    def _show(self, rows: Sequence[tuple[str, ...]], keys: Sequence[str]) -> None:
        """Put ``rows`` (keyed by ``keys``) in the list, each column as wide as its
        widest cell from the start. (A DataTable's automatic widths are measured only
        when it next idles, and lines drawn before then stay cached at the labels'
        widths: a list cut short until the cursor moved.)"""
        table = self.query_one("#past-games", DataTable)
        table.clear(columns=True)
        for i, label in enumerate(COLUMNS):
            width = max([cell_len(label), *(cell_len(row[i]) for row in rows)])
            table.add_column(label, key=label, width=width)
        for key, row in zip(keys, rows, strict=True):
            table.add_row(*row, key=key)

    @on(Input.Changed, "#past-search")
    def _search(self) -> None:
        if self.loaded:
            self.fill()

    def current(self) -> GameSummary | None:
        """The game under the cursor."""
        table = self.query_one("#past-games", DataTable)
        if not self.shown or not 0 <= table.cursor_row < len(self.shown):
            return None
        return self.shown[table.cursor_row]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Replay, delete and export only with a game under the cursor."""
        if action in ("delete", "export"):
            return self.current() is not None
        return True

    @on(DataTable.RowHighlighted)
    def _moved(self) -> None:
        self.refresh_bindings()

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_replay()

    # -- actions -------------------------------------------------------------------
    def action_replay(self) -> None:
        """Replay the game under the cursor (Enter in the search field goes to the list)."""
        table = self.query_one("#past-games", DataTable)
        if not table.has_focus:
            table.focus()
            return
        game = self.current()
        if game is not None:
            self.open_game(game.game_id, "replay")

    def action_export(self) -> None:
        """Save the record of the game under the cursor where the player says."""
        game = self.current()
        if game is not None:
            self.open_game(game.game_id, "export")

    @work(thread=True, group="past-open")
    def open_game(self, game_id: str, then: str) -> None:
        """Read a game's record off the UI thread, then replay or export it."""
        try:
            with History(self._path()) as history:
                game = history.load(game_id)
        except HistoryError as err:
            self.post_message(self.Opened(None, str(err), then))
            return
        self.post_message(self.Opened(game, None, then))

    @on(Opened)
    def _opened(self, message: Opened) -> None:
        if message.game is None:
            self.notify(message.error or "the game cannot be read", severity="error")
            return
        record = message.game.record
        if message.then == "replay":
            from allfives_tui.table.replay import Replay
            from allfives_tui.ui.screens.replay import ReplayScreen

            source = f"game {record.game_id[:8]} from the history"
            self.app.push_screen(ReplayScreen(Replay(message.game), source=source))
            return
        from allfives_tui.ui.screens.save_as import SaveAsScreen

        stamp = datetime.now().strftime("%Y%m%d-%H%M")
        default = str(Path.cwd() / f"allfives-{record.game_id[:8]}-{stamp}.json")

        def done(path: Path | None) -> None:
            if path is not None:
                self.notify(f"Exported the game to {path}")

        self.app.push_screen(SaveAsScreen(record, default), done)

    def action_delete(self) -> None:
        """Delete the game under the cursor from the history, after asking."""
        game = self.current()
        if game is None:
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.delete_game(game.game_id)

        self.app.push_screen(
            ConfirmScreen(
                "Delete this game from the history?",
                f"{game.local_start()} against {printable(game.opponents(self.player))}: "
                f"{game.result(self.player)}. It leaves the statistics too; "
                "export it first (e) to keep a copy.",
                yes="Delete it",
                no="Keep it",
            ),
            answered,
        )

    @work(thread=True, group="past-delete")
    def delete_game(self, game_id: str) -> None:
        """Delete a game off the UI thread, then show the list as it is now."""
        try:
            with History(self._path()) as history:
                history.delete(game_id)
                games = history.games()
        except HistoryError as err:
            self.post_message(self.Loaded(self.games, self.texts, str(err)))
            return
        self.post_message(self._loaded_message(games, None))

    def action_search(self) -> None:
        """Focus the search field."""
        self.query_one("#past-search", Input).focus()

    def action_close(self) -> None:
        """Back to where the list was opened from (Esc in the search field leaves it)."""
        search = self.query_one("#past-search", Input)
        if search.has_focus:
            self.query_one("#past-games", DataTable).focus()
            return
        if self.is_active:
            self.dismiss(None)

    def action_statistics(self) -> None:
        """Show the statistics instead."""
        from allfives_tui.ui.screens.stats import StatsScreen

        if self.is_active:
            self.app.switch_screen(StatsScreen(self.player, path=self.path))
