"""``allfives replay FILE``: the replay screen as an app of its own.

:class:`ReplayApp` shows a record's :class:`ReplayScreen`, or, for a file that cannot
be replayed, :class:`OpenReplayScreen` with its problem; closing either ends the app.
A crash goes to a crash log, as the game app's does.
"""

from __future__ import annotations

from textual.screen import Screen
from textual.worker import WorkerFailed

from allfives_tui.store.saves import ReplayLoadError
from allfives_tui.table.replay import Replay
from allfives_tui.ui import crash
from allfives_tui.ui.screens.open_replay import OpenReplayScreen
from allfives_tui.ui.screens.replay import ReplayScreen
from allfives_tui.ui.worded_app import WordedApp
from engine.record import GameRecord


class _Blank(Screen[None]):
    """ReplayApp's base screen: when the replay above it closes, the app ends."""

    def on_screen_resume(self) -> None:
        if self.app.screen_stack[-1] is self and getattr(self, "_ready", False):
            self.app.exit()
        self._ready = True


class ReplayApp(WordedApp):
    """``allfives replay FILE``: a replay on its own, or the problem with a bad file (its
    Textual words, the palette's and the keys', in the current language)."""

    TITLE = "allfives replay"

    def __init__(
        self,
        replay: Replay | GameRecord | None = None,
        *,
        start: int = 0,
        title: str | None = None,
        error: ReplayLoadError | None = None,
        path: str | None = None,
        reveal_all: bool = False,
    ) -> None:
        """Show ``replay`` from frame ``start`` (titled by its file), or ``error`` about
        ``path`` with its salvage; an unfinished game from its player's view unless
        ``reveal_all``."""
        super().__init__()
        self._reveal_all = reveal_all
        self._replay = replay
        self._start = start
        self._source = title
        self._error = error
        self._path = path
        self.crash_report: str | None = None
        """After a crash: one line naming the crash log (the command prints it)."""
        self._end_after_crash = False

    def _handle_exception(self, error: Exception) -> None:
        """An unhandled error: the traceback goes to a crash log, not the terminal, and
        the app exits with status 1 (:attr:`crash_report` says where the log is)."""
        if self.crash_report is None:
            while isinstance(error, WorkerFailed):
                error = error.error  # type: ignore[assignment]
            self.crash_report = crash.crash_line("allfives replay", error)
            self._end_after_crash = not self.is_headless
        super()._handle_exception(error)
        self._exit_renderables.clear()

    def _print_error_renderables(self) -> None:
        """(Textual, once the terminal is given back.) A crashed replay ends within
        :data:`~allfives_tui.ui.crash.EXIT_GRACE` seconds, whatever still runs."""
        super()._print_error_renderables()
        if self._end_after_crash and self.crash_report is not None:
            crash.end_soon(self.crash_report)

    def get_default_screen(self) -> Screen[None]:
        """A blank screen that ends the app when uncovered."""
        return _Blank()

    def on_mount(self) -> None:
        """Push the replay, or the problem."""
        if self._replay is not None:
            screen = ReplayScreen(
                self._replay, start=self._start, source=self._source, reveal_all=self._reveal_all
            )
            self.push_screen(screen)
        else:
            self.push_screen(
                OpenReplayScreen(self._path, error=self._error, reveal_all=self._reveal_all)
            )
