"""The All Fives app: it owns the game table and drives its turn loop.

Screens never call into the App: they post messages (the game screen's
:class:`~allfives_tui.ui.screens.game.GameScreen.Act`) or ``dismiss`` with a
result. The App hands actions to the :class:`~allfives_tui.table.table.Table`
through its :class:`~allfives_tui.ui.turns.TurnLoop`, which runs computer seats
in a thread worker from their seat's view and sets the game screen's state to
each new snapshot; :class:`~allfives_tui.ui.keeping.Keeping` autosaves after
every change and records games in the history.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from textual import events, on, work
from textual.app import SystemCommand
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.worker import WorkerFailed, get_current_worker

from allfives_tui.coach.table_coach import TableCoach
from allfives_tui.locale import N_, _, current, use_language
from allfives_tui.store.folder import data_dir
from allfives_tui.store.lock import GameLock
from allfives_tui.store.recorder import HistoryWriter
from allfives_tui.store.saves import AutoSaver, has_unfinished, load_current
from allfives_tui.store.settings_file import load_settings, read_settings, save_settings
from allfives_tui.table.driver import AskComputer, Automatic, Driver
from allfives_tui.table.places import owner_key
from allfives_tui.table.problems import problem_text
from allfives_tui.table.settings import Settings
from allfives_tui.table.table import Table, TableReading
from allfives_tui.table.words import Names
from allfives_tui.ui import coaching, commands, crash
from allfives_tui.ui.input_filter import dropped
from allfives_tui.ui.keeping import Keeping, save_a_copy
from allfives_tui.ui.language import LanguageSwitched
from allfives_tui.ui.leaving import leave_question
from allfives_tui.ui.screens import HISTORY_CSS, REPLAY_CSS
from allfives_tui.ui.screens.dialog import KEY_AHEAD_GRACE
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.screens.game_over import GameOverScreen
from allfives_tui.ui.screens.new_game import NewGameScreen
from allfives_tui.ui.start_up import StartUpFreeze
from allfives_tui.ui.turns import TurnLoop, computer_move
from allfives_tui.ui.widgets import WIDGETS_CSS
from allfives_tui.ui.widgets.too_small import too_small
from allfives_tui.ui.worded_app import WordedApp
from engine import Action, Event, RecordError, SeatView
from engine.players.evaluate import ActionValue
from engine.record import GameRecord, LoadedGame

APP_CSS = Path(__file__).with_name("app.tcss")


class AllFivesApp(WordedApp):
    """All Fives against computer opponents, by keyboard or mouse."""

    TITLE = "All Fives"
    CSS_PATH = [WIDGETS_CSS, APP_CSS, HISTORY_CSS, REPLAY_CSS]
    """The app's style sheets, and those of the screens it opens on request (the
    statistics, past games and replay screens name theirs too, for other apps)."""
    BINDINGS = [Binding("ctrl+q", "quit_keep", N_("Quit"), show=False, priority=True)]

    key_ahead_grace: float = KEY_AHEAD_GRACE
    """The grace (seconds) of the dialogs that open after a move: the hand's summary, the
    game's end and the hot-seat cover ignore Enter and Space for so long once painted."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        resume: GameRecord | LoadedGame | None = None,
        start: bool = False,
        speed: float | None = None,
        autosave: bool = True,
        lock: GameLock | None = None,
        notices: Sequence[str] = (),
        served: bool = False,
    ) -> None:
        """``lock`` is the autosave's :class:`GameLock` when the caller took it
        (one that another process holds makes this a separate game, not
        autosaved); without one the app takes it at start. ``notices`` are
        shown at start (and kept in :attr:`notices`). ``served``: a browser
        session of ``allfives serve``, where no server path is typed or shown."""
        super().__init__()
        self.served = served
        """True in a browser session: Save a copy… downloads, Open replay… lists the
        session's own games or takes a file from the browser, and no message names a path."""
        self.notices: list[str] = list(notices)
        """What the player was told at start (a dropped setting, a save set aside…)."""
        if settings is None:
            settings, dropped = read_settings()
            self.notices.extend(dropped)
        self.settings = settings
        self.resume = resume
        self.start_now = start
        self.speed = self.settings.speed if speed is None else speed
        self.keeping = Keeping(autosave=autosave, lock=lock, report=self._history_line)
        """The autosave, its lock and the history of games."""
        self.history_lines: list[str] = []
        """What recording into the history had to say (a failure, a database set aside)."""
        self.crash_report: str | None = None
        """After a crash: one line naming where the game is kept and the crash log."""
        self._set_up_at: tuple[Table, int] | None = None
        """The table last set up and its action count then (a crash before any move
        since is not one that ``allfives --continue`` should be advised for)."""
        self._end_after_crash = False
        """True after a crash outside tests: the process is ended soon after the app."""
        self.table: Table | None = None
        self.coach: TableCoach | None = None
        """The coach of the game in progress: hints, and the person's moves rated."""
        self.viewer: int | None = 0
        """The seat whose tiles show: the person at this terminal (``None`` between
        two people's turns in hot-seat play)."""
        self.saved_on_exit: Path | None = None
        self.turns = TurnLoop(self)
        """The turns of the game in progress: its driver, the computers' pace."""
        self._start_up = StartUpFreeze()

    @property
    def saver(self) -> AutoSaver | None:
        """The autosave of the game in progress (``None``: it is not autosaved)."""
        return self.keeping.saver

    @property
    def history(self) -> HistoryWriter | None:
        """Records finished and abandoned games in the history (``None``: not kept)."""
        return self.keeping.history

    @property
    def separate(self) -> bool:
        """True when another process autosaves the game in progress: this game is not saved."""
        return self.keeping.separate

    # -- start-up ----------------------------------------------------------
    def on_mount(self) -> None:
        """Open the new-game screen, or go straight into a game."""
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        self._check_size()
        self.notices.extend(self.keeping.take_the_autosave(self.resume is not None))
        self.set_interval(0.25, self._coach_poll)
        for notice in self.notices:
            self.notify(notice, severity="warning", timeout=12)
        if self.resume is not None:
            self.push_screen(self._game_screen(Table.from_record(self.resume)))
        elif self.start_now:
            self.keeping.record_abandoned(self.table)
            self.push_screen(self._game_screen(Table.from_settings(self.settings)))
        else:
            self.push_screen(self._new_game_screen())
        self.call_after_refresh(self._start_up.freeze)

    def _new_game_screen(self) -> NewGameScreen:
        can_continue = not self.separate and has_unfinished()
        return NewGameScreen(self.settings, can_continue=can_continue)

    def _game_screen(self, table: Table) -> GameScreen:
        """Seat the person at ``table`` and make its screen; the turn loop starts on mount."""
        self._stop_waiting()
        table.autosave = self._autosave
        self.table = table
        self.turns.driver = Driver(
            table,
            now=time.monotonic,
            flush=self.keeping.flush,
            people=table.people,
            shared_screen=len(table.people) > 1,
            pace=self.speed,
            auto_draw=self.settings.auto_draw,
        )
        self._set_up_at = (table, len(table.state.actions))
        # One person sees their tiles throughout; several people at one terminal
        # (hot-seat) see theirs only on their own turn, after a cover.
        self.viewer = None if self.hot_seat else (table.people[0] if table.people else 0)
        self._autosave(table.record())
        self.coach = coaching.coach_for(table, self.settings, self.coach)
        hints = self.coach.hints
        return GameScreen(table, self.viewer, auto_draw=self.settings.auto_draw, hints=hints)

    @on(GameScreen.Ready)
    def _screen_ready(self, message: GameScreen.Ready) -> None:
        """The game screen is up: carry the game on from where it stands."""
        if message.screen.table is self.reading:
            self._advance()

    @on(NewGameScreen.Start)
    def _start(self, message: NewGameScreen.Start) -> None:
        """Remember the settings and start a new game with them."""
        # the form has no theme: the one chosen stays
        settings = message.settings.model_copy(update={"theme": self.settings.theme})
        self.settings = settings
        self.speed = settings.speed
        try:
            save_settings(settings)
        except OSError as err:
            self.notify(
                _("Could not remember the settings: {reason}").format(reason=err),
                severity="warning",
            )
        self.keeping.record_abandoned(self.table)
        self._replace_with(self._game_screen(Table.from_settings(settings)))

    @on(NewGameScreen.Language)
    def _language_chosen(self, message: NewGameScreen.Language) -> None:
        """The player chose another language on the new-game screen: speak it now."""
        self.switch_language(message.code)

    def switch_language(self, code: str) -> None:
        """Speak ``code`` from now on, and remember it: the keys (footer, Keys panel,
        palette) are worded again, every screen in the stack is told
        (:class:`~allfives_tui.ui.language.LanguageSwitched`), and the screens opened
        later speak it."""
        if code == current():
            return
        code = use_language(code)
        self.settings = self.settings.model_copy(update={"language": code})
        try:
            save_settings(load_settings().model_copy(update={"language": code}))
        except OSError as err:
            self.notify(
                _("Could not remember the settings: {reason}").format(reason=err),
                severity="warning",
            )
        if self.is_screen_installed("help") and not any(
            s is self.get_screen("help") for s in self.screen_stack
        ):
            self.uninstall_screen("help")  # made again, in this language, when opened
        for screen in self.screen_stack:
            screen.post_message(LanguageSwitched())
            screen.refresh_bindings()

    @on(NewGameScreen.Continue)
    def _continue(self) -> None:
        """Resume the unfinished game from the autosave."""
        try:
            game = load_current()
        except RecordError as err:
            self.notify(
                _("The saved game cannot be continued: {problem}").format(
                    problem=problem_text(err)
                ),
                severity="error",
            )
            return
        if game is None:
            self.notify(_("There is no unfinished game to continue."), severity="warning")
            return
        self._replace_with(self._game_screen(Table.from_record(game)))

    def _replace_with(self, screen: Screen[None]) -> None:
        while len(self.screen_stack) > 2:
            self.pop_screen()
        self.switch_screen(screen)

    # -- the turn loop --------------------------------------------------------
    @property
    def reading(self) -> TableReading | None:
        """What the screens read of the game in progress: its table (a networked
        app's is the host's table as this seat sees it)."""
        return self.table

    def _record_to_save(self) -> GameRecord | None:
        """The record a saved copy holds (``None``: no game to save)."""
        return self.table.record() if self.table is not None else None

    @property
    def game_screen(self) -> GameScreen | None:
        """The game screen of the game in progress, when it is in the stack."""
        reading = self.reading
        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen) and screen.table is reading:
                return screen
        return None

    @property
    def hot_seat(self) -> bool:
        """True when two or more people share this terminal."""
        reading = self.reading
        return reading is not None and len(reading.people) > 1

    def _view_as(self, seat: int | None) -> None:
        """Show ``seat``'s tiles (``None``: nobody's)."""
        self.viewer = seat
        screen = self.game_screen
        if screen is not None:
            screen.viewer = seat

    def _words(self) -> Names:
        """The names for screens every person sees (in hot-seat play nobody is "you")."""
        reading = self.reading
        assert reading is not None
        return reading.words(None if self.hot_seat else self.viewer)

    @on(GameScreen.Act)
    def _person_acts(self, message: GameScreen.Act) -> None:
        """The person at the keyboard (or mouse) took an action (at the step on show)."""
        reading = self.reading
        if message.step is not None and reading is not None and message.step != reading.step:
            return  # chosen at a step already gone: a key pressed twice quickly
        if self.viewer is not None:
            self.play(self.viewer, message.action)

    @on(GameScreen.TakeBack)
    def _take_back(self) -> None:
        """Undo the person's last move of the hand and the computers' replies since."""
        self.turns.take_back()

    def play(self, seat: int, action: Action) -> bool:
        """The person at ``seat`` takes ``action``; False (and a message) if they may not."""
        return self.turns.act(seat, action)

    def _changed(self, events: tuple[Event, ...]) -> None:
        """Show the new snapshot and carry the game on."""
        self.turns.show(events)

    def _advance(self) -> None:
        """Perform the game's next step (on a person's turn, wait for them)."""
        self.turns.advance()

    @work(thread=True, exclusive=True, group="computer", exit_on_error=True)
    def computer_turn(self, driver: Driver, step: AskComputer | Automatic) -> None:
        """Get a computer's action (from its seat's view) or the automatic draw off the UI
        thread, with the autosave on disk, then wait out the pace so a person can follow."""
        worker = get_current_worker()
        action = computer_move(driver, step, self.coach, self.turns.pace)
        if not worker.is_cancelled:
            self.call_from_thread(self._answered, driver, step, action)

    def _answered(self, driver: Driver, step: AskComputer | Automatic, action: Action) -> None:
        """A computer's answer is in (see :meth:`TurnLoop.answered`)."""
        self.turns.answered(driver, step, action)

    def _stop_waiting(self) -> None:
        """Cut short a computer's pace (its result is then dropped)."""
        self.turns.pace.stop()

    # -- the coach ---------------------------------------------------------------
    @on(GameScreen.HintAsked)
    def _hint_asked(self, message: GameScreen.HintAsked) -> None:
        """Count the hint and work it out off the UI thread, from the person's view."""
        coach, seat = self.coach, self.viewer
        if coach is None or not coach.hints or seat is None or self.table is None:
            return
        if message.step != self.table.step:
            return
        coach.hint_used()
        self.hint_worker(message.step, self.table.view(seat))

    @work(thread=True, exclusive=True, group="hint", exit_on_error=True)
    def hint_worker(self, step: int, view: SeatView) -> None:
        """The coach's hint for ``view`` (the analysis waits meanwhile)."""
        worker = get_current_worker()
        values = coaching.work_out_hint(self.coach, view)
        if not worker.is_cancelled:
            self.call_from_thread(self._hint_done, step, values)

    def _hint_done(self, step: int, values: tuple[ActionValue, ...]) -> None:
        screen = self.game_screen
        if screen is not None:
            screen.show_hint(step, values)

    def _coach_poll(self, force: bool = False) -> None:
        """Collect the ratings the analyst sent; a summary or report on show gets them
        (none is on show while the app starts or closes: its screen stack is empty)."""
        if not self.screen_stack:
            return
        coaching.pass_on_ratings(self.coach, self.screen, force)

    # -- the game's end --------------------------------------------------------
    def _show_game_over(self) -> None:
        """Announce the winner and offer a new game, a replay, or quitting."""
        table = self.table
        assert table is not None
        self.keeping.flush()
        self.keeping.record_finished(table.record())

        def chosen(choice: str | None) -> None:
            if choice == "new":
                self._replace_with(self._new_game_screen())
            elif choice == "replay":
                # back to these choices when the replay closes
                self.open_replay(table.record(), self._show_game_over)
            elif choice == "report":
                report = coaching.report_screen(table, self._words(), self.coach, self.viewer)
                self.push_screen(report, lambda _: self._show_game_over())
            else:
                self.exit()

        over = GameOverScreen(table, self._words(), report=True, grace=self.key_ahead_grace)
        self.push_screen(over, chosen)

    # -- keeping ----------------------------------------------------------------
    def _history_line(self, line: str) -> None:
        """(The history's thread.) Show what recording had to say, in one line."""
        self.history_lines.append(line)
        loop = self._loop
        if loop is not None and loop.is_running():
            loop.call_soon_threadsafe(
                lambda: self.notify(line, severity="warning", timeout=15)
            )

    def _autosave(self, record: GameRecord) -> None:
        """Queue an atomic save of the game after a change."""
        error = self.keeping.autosave(record)
        if error is not None:
            self.notify(error, severity="error")

    def action_save_copy(self) -> None:
        """Ask where to save a copy of the current game."""
        save_a_copy(self, self._record_to_save(), served=self.served)

    def watch_theme(self, theme: str) -> None:
        """A theme chosen (the palette's "Change theme") is remembered for the next run."""
        if not self.is_running or theme == self.settings.theme:
            return
        self.settings = self.settings.model_copy(update={"theme": theme})
        try:
            remembered = read_settings()[0]
            save_settings(remembered.model_copy(update={"theme": theme}))
        except OSError as err:
            self.notify(
                _("Could not remember the theme: {error}").format(error=err), severity="warning"
            )

    def action_help_quit(self) -> None:
        """ctrl+c (which does not quit, nor copy outside a text field): how to quit."""
        self.notify(
            _("ctrl+c does not quit: press ctrl+q to quit (a game in progress is kept)."),
            title=_("Do you want to quit?"),
        )

    def action_quit_keep(self) -> None:
        """Quit; the game in progress stays saved to continue later."""
        self._stop_waiting()
        kept = self.keeping.kept_on_exit(self.table)
        if kept is not None:
            self.saved_on_exit = kept
        self.exit()

    async def on_unmount(self) -> None:
        """Let the last save reach the disk, then let the autosave's lock go."""
        self._start_up.thaw()
        self._stop_waiting()
        if self.coach is not None:
            self.coach.close()
        self.keeping.close()

    # -- crashes ---------------------------------------------------------------
    def _handle_exception(self, error: Exception) -> None:
        """An unhandled error: write the traceback to a crash log and exit non-zero.

        Textual exits with status 1; instead of its traceback on the terminal,
        :attr:`crash_report` is one line naming where the game is kept (the
        autosave is flushed as the app closes) and where the log is.
        """
        if self.crash_report is None:
            self.crash_report = self._crash_line(error)
            self._end_after_crash = not self.is_headless
        super()._handle_exception(error)
        self._exit_renderables.clear()  # the traceback is in the log, not on the screen

    def _print_error_renderables(self) -> None:
        """(Textual, once the terminal is given back.) After a crash, a thread still at
        work (a computer thinking, a hint) must not keep the process alive: it ends
        within :data:`~allfives_tui.ui.crash.EXIT_GRACE` seconds."""
        super()._print_error_renderables()
        if self._end_after_crash and self.crash_report is not None:
            crash.end_soon(self.crash_report)

    def _crash_line(self, error: BaseException) -> str:
        while isinstance(error, WorkerFailed):  # a computer's worker: what it raised
            error = error.error
        where = self.keeping.where_kept(self.table, self._set_up_at)
        return crash.crash_line("allfives", error, where)

    # -- other screens ---------------------------------------------------------
    def open_replay(self, record: GameRecord, then: Callable[[], None] | None = None) -> None:
        """Show ``record`` in the replay screen; ``then`` runs when it closes."""
        from allfives_tui.ui.screens.replay import ReplayScreen

        self.push_screen(ReplayScreen(record), (lambda _: then()) if then else None)

    def action_show_help(self) -> None:
        """Open the help (rules and keys)."""
        commands.open_help(self, served=self.served)

    def action_statistics(self) -> None:
        """Open the statistics of the person at this terminal."""
        commands.open_statistics(self, owner_key(self.settings.name))

    def action_past_games(self) -> None:
        """Open the list of past games."""
        commands.open_past_games(self, owner_key(self.settings.name))

    def action_new_game(self) -> None:
        """Set up a new game; over an unfinished game, after asking, and Esc goes back to it."""
        table = self.table
        if table is None or table.is_over or self.game_screen is None:
            self._stop_waiting()
            self._replace_with(self._new_game_screen())
            return
        if self._setting_up():
            return

        def answered(leave: bool | None) -> None:
            self.turns.interlude.question = None
            if leave and self.table is table and not self._setting_up():
                screen = NewGameScreen(self.settings, can_go_back=True)
                self.push_screen(screen, self._back_to_game)
            else:
                self._back_to_game()  # kept playing: what waited goes on

        question = leave_question(table, self._words())
        self.turns.interlude.question = question
        self.push_screen(question, answered)

    def _setting_up(self) -> bool:
        """True while a new game is being set up over the game in progress, or asked
        for (the game waits meanwhile)."""
        return self.turns.interlude.on(self.screen_stack)

    def _back_to_game(self, _: object = None) -> None:
        """The new-game screen went back: the game goes on from where it waited."""
        self.turns.interlude.go_on()

    def action_open_replay(self) -> None:
        """Ask for a game record and replay it."""
        commands.open_replay_file(self, served=self.served)

    def on_paste(self, event: events.Paste) -> None:
        """Served: a game's text pasted where nothing took it (the page's "Open a game
        file…" sends a file so) opens it in Open replay…."""
        if self.served and event.text.lstrip().startswith("{"):
            commands.open_replay_file(self, served=True, pasted=event.text)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Show a notification; served, the session's folder is not named in it."""
        if self.served:
            message = message.replace(str(data_dir()), _("this session's folder"))
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """The palette: New game, Save, Open replay, Statistics, Past games, Help, and
        Textual's own (themes, keys…), all in the current language."""
        yield from commands.palette(self)
        yield from super().get_system_commands(screen)

    # -- too small -------------------------------------------------------------
    async def on_event(self, event: events.Event) -> None:
        """Behind the "enlarge" message only quit and help keys act; no click does. A
        dialog in its grace (:attr:`key_ahead_grace`) drops Enter and Space."""
        if not dropped(self, event):
            await super().on_event(event)

    def on_resize(self, event: events.Resize) -> None:
        """Show the "enlarge" message below the minimum size."""
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int | None = None, height: int | None = None) -> None:
        if width is None or height is None:
            width, height = self.size
        self.set_class(too_small(width, height), "-too-small")
        self.set_class(width >= 120, "-wide")
