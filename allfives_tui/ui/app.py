"""The All Fives app: new-game, game, summary, game-over and help screens, saves, palette."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from allfives_tui.table import storage
from allfives_tui.table.storage import AutoSaver, Settings
from allfives_tui.table.table import GameSession
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.screens.game_over import GameOverScreen, replay_available
from allfives_tui.ui.screens.hand_summary import HandSummaryScreen
from allfives_tui.ui.screens.help import HelpScreen
from allfives_tui.ui.screens.new_game import NewGameScreen
from allfives_tui.ui.screens.save_as import SaveAsScreen
from allfives_tui.ui.widgets import WIDGETS_CSS
from allfives_tui.ui.widgets.too_small import too_small
from engine import GameOver, HandOver
from engine.errors import RecordError
from engine.record import GameRecord

APP_CSS = Path(__file__).with_name("app.tcss")


class AllFivesApp(App[None]):
    """All Fives against computer opponents, by keyboard or mouse."""

    TITLE = "All Fives"
    CSS_PATH = [WIDGETS_CSS, APP_CSS]
    BINDINGS = [Binding("ctrl+q", "quit_keep", "Quit", show=False, priority=True)]

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        resume: GameRecord | None = None,
        start: bool = False,
        speed: float | None = None,
        autosave: bool = True,
    ) -> None:
        super().__init__()
        self.settings = settings or storage.load_settings()
        self.resume = resume
        self.start_now = start
        self.speed = self.settings.speed if speed is None else speed
        self.saver = AutoSaver() if autosave else None
        self.session: GameSession | None = None
        self.saved_on_exit: Path | None = None
        self._save_error_shown = False

    # -- start-up ----------------------------------------------------------
    def on_mount(self) -> None:
        """Open the new-game screen, or go straight into a game."""
        self._check_size()
        if self.resume is not None:
            self.push_screen(self._game_screen(GameSession.from_record(self.resume)))
        elif self.start_now:
            self.push_screen(self._game_screen(GameSession.new(self.settings)))
        else:
            self.push_screen(NewGameScreen(self.settings, can_continue=storage.has_unfinished()))

    def _game_screen(self, session: GameSession) -> GameScreen:
        self.session = session
        return GameScreen(session, speed=self.speed, auto_draw=self.settings.auto_draw)

    def start_new(self, settings: Settings) -> None:
        """Remember ``settings`` and start a new game with them."""
        self.settings = settings
        self.speed = settings.speed
        try:
            storage.save_settings(settings)
        except OSError as err:
            self.notify(f"Could not remember the settings: {err}", severity="warning")
        self._replace_with(self._game_screen(GameSession.new(settings)))

    def continue_saved(self) -> None:
        """Resume the unfinished game from the autosave."""
        try:
            record = storage.load_current()
        except RecordError as err:
            self.notify(f"The saved game cannot be continued: {err}", severity="error")
            return
        if record is None:
            self.notify("There is no unfinished game to continue.", severity="warning")
            return
        self._replace_with(self._game_screen(GameSession.from_record(record)))

    def _replace_with(self, screen: Screen[None]) -> None:
        while len(self.screen_stack) > 2:
            self.pop_screen()
        self.switch_screen(screen)

    # -- saving --------------------------------------------------------------
    def autosave(self, session: GameSession) -> None:
        """Queue an atomic save of the game after an action."""
        if self.saver is not None:
            if self.saver.error and not self._save_error_shown:
                self._save_error_shown = True
                self.notify(f"The game is not being saved: {self.saver.error}", severity="error")
            self.saver.submit(session.record())

    def action_save_copy(self) -> None:
        """Ask where to save a copy of the current game."""
        if self.session is None:
            self.notify("There is no game to save yet.", severity="warning")
            return
        stamp = datetime.now().strftime("%Y%m%d-%H%M")
        default = str(Path.cwd() / f"allfives-{stamp}.json")

        def done(path: Path | None) -> None:
            if path is not None:
                self.notify(f"Saved a copy to {path}")

        self.push_screen(SaveAsScreen(self.session.record(), default), done)

    def action_quit_keep(self) -> None:
        """Quit; the game in progress stays saved to continue later."""
        if self.saver is not None:
            self.saver.flush()
            if (
                self.session is not None
                and not self.session.state.is_terminal
                and not self.saver.error
            ):
                self.saved_on_exit = self.saver.path
        self.exit()

    async def on_unmount(self) -> None:
        """Let the last save reach the disk."""
        if self.saver is not None:
            self.saver.close()

    # -- screens the game asks for ------------------------------------------
    def show_hand_summary(
        self, session: GameSession, event: HandOver, then: Callable[[], None]
    ) -> None:
        """The end-of-hand summary; ``then`` deals the next hand."""
        self.push_screen(
            HandSummaryScreen(session.state, event, session.names), lambda _: then()
        )

    def show_game_over(self, session: GameSession, event: GameOver | None) -> None:
        """Announce the winner and offer a new game, a replay, or quitting."""
        if self.saver is not None:
            self.saver.flush()

        def chosen(choice: str | None) -> None:
            if choice == "new":
                self._replace_with(
                    NewGameScreen(self.settings, can_continue=storage.has_unfinished())
                )
            elif choice == "replay":
                # back to these choices when the replay closes
                self.open_replay(session.record(), lambda: self.show_game_over(session, event))
            else:
                self.exit()

        self.push_screen(GameOverScreen(session.state, session.names, session.human), chosen)

    def open_replay(self, record: GameRecord, then: Callable[[], None] | None = None) -> None:
        """Show ``record`` in the replay screen; ``then`` runs when it closes."""
        from allfives_tui.ui.screens.replay import ReplayScreen

        self.push_screen(ReplayScreen(record), (lambda _: then()) if then else None)

    def action_show_help(self) -> None:
        """Open the help (rules and keys)."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_new_game(self) -> None:
        """Go to the new-game screen (the current game stays saved)."""
        self._replace_with(NewGameScreen(self.settings, can_continue=storage.has_unfinished()))

    def action_open_replay(self) -> None:
        """Ask for a game record and replay it."""
        from allfives_tui.ui.screens.replay import OpenReplayScreen

        self.push_screen(OpenReplayScreen())

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """The palette: New game, Save, Open replay, Help, and Textual's own (themes…)."""
        yield SystemCommand("New game", "Set up and start a new game", self.action_new_game)
        if self.session is not None:
            yield SystemCommand(
                "Save a copy…", "Save this game where you choose", self.action_save_copy
            )
        if replay_available():
            yield SystemCommand(
                "Open replay…", "Replay a saved game file", self.action_open_replay
            )
        yield SystemCommand("Help", "The rules and the keys", self.action_show_help)
        yield from super().get_system_commands(screen)

    # -- too small -------------------------------------------------------------
    def on_resize(self, event: events.Resize) -> None:
        """Show the "enlarge" message below the minimum size."""
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int | None = None, height: int | None = None) -> None:
        if width is None or height is None:
            width, height = self.size
        self.set_class(too_small(width, height), "-too-small")
        self.set_class(width >= 120, "-wide")
