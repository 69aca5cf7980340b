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
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Input, Static

from allfives_tui.locale import N_, _, formats, ngettext, pgettext
from allfives_tui.store import wording
from allfives_tui.store.history import History, HistoryError, history_path
from allfives_tui.store.summary import GameSummary
from allfives_tui.table.words import printable
from allfives_tui.ui.screens import HISTORY_CSS
from allfives_tui.ui.screens.confirm import ConfirmScreen
from allfives_tui.ui.widgets.compact import compact
from allfives_tui.ui.widgets.fitted_input import FittedInput
from allfives_tui.ui.widgets.footer import AppFooter
from allfives_tui.ui.widgets.too_small import TooSmall
from engine.record import LoadedGame

SHOWN = 300
"""At most this many games are listed at once (the newest that match the search)."""

COLUMNS = (N_("Started"), N_("Result"), N_("Players"), N_("Opponents"), N_("Hands"))
"""The list's columns (marked for the catalog; their keys)."""
WRAPPED = COLUMNS.index("Opponents")
"""The column that takes the room left, on more lines where it needs them."""


def players_text(game: GameSummary) -> str:
    """The list's player count: ``3``, or ``4 teams`` in partnerships."""
    if game.partnerships:
        return pgettext("past games: the players, in two partnerships", "{players} teams").format(
            players=formats.number(game.players)
        )
    return formats.number(game.players)


def status_text(games: int, matching: int, searching: bool) -> str:
    """The line under the list: how many games, how many match the search."""
    if not games:
        return _("No games yet: every game played is kept here.")
    if searching and matching > SHOWN:
        text = ngettext(
            "{matching} of {games} game match; the newest {shown} are listed.",
            "{matching} of {games} games match; the newest {shown} are listed.", games,
        )
    elif searching:
        text = ngettext("{matching} of {games} game match.", "{matching} of {games} games match.",
                        games)
    elif games > SHOWN:
        text = ngettext("{games} game; the newest {shown} are listed.",
                        "{games} games; the newest {shown} are listed.", games)
    else:
        text = ngettext("{games} game.", "{games} games.", games)
    return text.format(
        matching=formats.number(matching), games=formats.number(games),
        shown=formats.number(SHOWN),
    )


class PastGamesScreen(Screen[None]):
    """The list of past games (as ``player`` played them)."""

    CSS_PATH = [HISTORY_CSS]

    BINDINGS = [
        Binding("escape", "close", N_("Back"), key_display="Esc"),
        Binding("enter", "replay", N_("Replay"), key_display="⏎", priority=True),
        Binding("d", "delete", N_("Delete")),
        Binding("e", "export", N_("Export")),
        Binding("slash", "search", N_("Search"), key_display="/"),
        Binding("ctrl+t", "statistics", N_("Statistics"), key_display="^t"),
    ]

    @dataclass
    class Loaded(Message):
        """The games were read (``error`` says why they could not be)."""

        games: list[GameSummary]
        texts: list[str]
        """Each game's :func:`~allfives_tui.store.wording.search_text`."""
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
        yield Static(_("Past games"), id="past-title")
        yield compact(FittedInput(
            _("search: a date, an opponent or level, won / lost / abandoned"), _("search"),
            id="past-search",
        ))
        yield DataTable(id="past-games", cursor_type="row", zebra_stripes=True)
        yield Static(_("Reading the history…"), id="past-status")
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
        return self.Loaded(games, [wording.search_text(g, self.player) for g in games], error)

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
                wording.started(g),
                wording.result(g, self.player),
                players_text(g),
                printable(wording.opponents(g, self.player)),
                formats.number(g.hands),
            )
            for g in self.shown
        ]
        self._show(rows, [g.game_id for g in self.shown])
        self.query_one("#past-status", Static).update(
            Text(status_text(len(self.games), len(matching), bool(words)))
        )

    def _show(self, rows: Sequence[tuple[str, ...]], keys: Sequence[str]) -> None:
        """Put ``rows`` (keyed by ``keys``) in the list, each column as wide as its
        widest cell from the start. (A DataTable's automatic widths are measured only
        when it next idles, and lines drawn before then stay cached at the labels'
        widths: a list cut short until the cursor moved.) In a list too narrow for them
        all, the opponents take the room left, on more lines where they need it, and the
        columns after them show only when they fit whole."""
        table = self.query_one("#past-games", DataTable)
        table.clear(columns=True)
        labels = [_(key) for key in COLUMNS]
        widths = [
            max([cell_len(label), *(cell_len(row[i]) for row in rows)])
            for i, label in enumerate(labels)
        ]
        pad = 2 * table.cell_padding
        room = (table.size.width or self.app.size.width - 2) - table.styles.scrollbar_size_vertical
        before = sum(w + pad for w in widths[:WRAPPED])
        widths[WRAPPED] = max(min(widths[WRAPPED], room - before - pad), cell_len(labels[WRAPPED]))
        shown = WRAPPED + 1
        used = before + widths[WRAPPED] + pad
        while shown < len(COLUMNS) and used + widths[shown] + pad <= room:
            used += widths[shown] + pad
            shown += 1
        for key, label, width in zip(COLUMNS[:shown], labels, widths, strict=False):
            table.add_column(Text(label), key=key, width=width)
        for key, row in zip(keys, rows, strict=True):
            lines = Text(row[WRAPPED]).wrap(self.app.console, widths[WRAPPED])
            cells = [*row[:WRAPPED], "\n".join(line.plain for line in lines), *row[WRAPPED + 1 :]]
            table.add_row(*cells[:shown], key=key, height=max(1, len(lines)))

    @on(Input.Changed, "#past-search")
    def _search(self) -> None:
        if self.loaded:
            self.fill()

    def on_resize(self) -> None:
        """Lay the list out for the width there is now (the cursor stays on its game)."""
        if not self.loaded:
            return
        table = self.query_one("#past-games", DataTable)
        row = table.cursor_row
        self.fill()
        table.move_cursor(row=row)

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
            self.notify(message.error or _("the game cannot be read"), severity="error")
            return
        record = message.game.record
        if message.then == "replay":
            from allfives_tui.table.replay import Replay
            from allfives_tui.ui.screens.replay import ReplayScreen

            source = _("game {game} from the history").format(game=record.game_id[:8])
            self.app.push_screen(ReplayScreen(Replay(message.game), source=source))
            return
        from allfives_tui.ui.screens.save_as import SaveAsScreen

        stamp = datetime.now().strftime("%Y%m%d-%H%M")
        default = str(Path.cwd() / f"allfives-{record.game_id[:8]}-{stamp}.json")

        def done(path: Path | None) -> None:
            if path is not None:
                self.notify(_("Exported the game to {path}").format(path=path), markup=False)

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
                _("Delete this game from the history?"),
                _(
                    "{started} against {opponents}: {result}. It leaves the statistics "
                    "too; export it first (e) to keep a copy."
                ).format(
                    started=wording.started(game),
                    opponents=printable(wording.opponents(game, self.player)),
                    result=wording.result(game, self.player),
                ),
                yes=_("Delete it"),
                no=_("Keep it"),
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
