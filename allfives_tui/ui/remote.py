"""The app at a networked table: the same game screen, driven by the host.

:class:`RemoteApp` is the :class:`~allfives_tui.ui.app.AllFivesApp` with one
seam changed: the table is a :class:`~allfives_tui.net.remote_table.RemoteTable`
and every change comes from the host. A listening worker reads the host's
messages (:class:`~allfives_tui.net.client.Link`): the waiting room
(:class:`~allfives_tui.ui.screens.lobby.LobbyScreen`) until the start, then
each new picture of the table goes to the game screen as a local game's
snapshot would. The person's moves are sent to the host, whose engine judges
them; a refusal shows its reason. Nothing is saved here (the host keeps the
record) and no data-folder lock is taken; only a finished game, whose record the
host sends at the end, goes into this person's history, seen from their seat
(:func:`~allfives_tui.store.facts.as_seen_by`). When the host is gone for good,
the app exits with :attr:`RemoteApp.lost` set to one line saying so.
"""

from __future__ import annotations

import asyncio
import time
from traceback import format_exception

from textual import events, on, work
from textual.worker import WorkerFailed

from allfives_tui.locale import _, ngettext
from allfives_tui.locale.formats import listing
from allfives_tui.net.client import HostLost, Link
from allfives_tui.net.protocol import (
    ClientMessage,
    Lobby,
    Notice,
    NoticeCode,
    Ready,
    Record,
    RefusalCode,
    Refused,
    SeatAssigned,
    SetSeat,
    Start,
    State,
)
from allfives_tui.net.remote_table import RemoteTable, TableMismatchError
from allfives_tui.net.wording import host_said, notice_text, refusal_text
from allfives_tui.store.facts import as_seen_by
from allfives_tui.store.folder import write_crash_log
from allfives_tui.store.recorder import HistoryWriter
from allfives_tui.table.deadline import seconds_left
from allfives_tui.table.driver import Automatic, Over, SeatDriver, StaleAnswerError, Summary
from allfives_tui.table.problems import problem_text, refusal_of
from allfives_tui.table.settings import Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.screens.game_over import GameOverScreen
from allfives_tui.ui.screens.hand_summary import HandSummaryScreen
from allfives_tui.ui.screens.lobby import LobbyScreen
from engine import Action
from engine.record import GameRecord

LASTING = 3600.0
"""Seconds a "reconnecting" notice may stay on screen (it goes when that is over)."""
ENDS_AWAY = (NoticeCode.BACK, NoticeCode.BACK_PLAYING_AGAIN, NoticeCode.TAKEN_OVER)
"""The notices that end a seat's "reconnecting" one."""


class RemoteApp(AllFivesApp):
    """All Fives at a table a host runs (see the module's docstring)."""

    def __init__(
        self,
        link: Link,
        seat: int,
        *,
        owner: bool = False,
        address: str | None = None,
        settings: Settings | None = None,
    ) -> None:
        """``link`` reaches the host; ``owner`` is True on the host's own screen, which
        sets the seats up and starts; ``address`` is shown in the waiting room."""
        super().__init__(settings, autosave=False)
        self.keeping.history = HistoryWriter(report=self._history_line)
        self.link = link
        self.seat = seat
        self.owner = owner
        self.address = address
        self.remote: RemoteTable | None = None
        self.lost: str | None = None
        """Why the app closed when it lost the host (one line), else ``None``."""
        self.seat_driver: SeatDriver | None = None
        """This seat's turn driver, once the game is on."""
        self._summary_for = 0
        """The hand whose summary was put on show."""
        self._over_shown = False
        self._lasting: dict[int | None, str] = {}
        """The "reconnecting" notices on screen: by seat (``None``: the host is lost)."""

    # -- start-up ------------------------------------------------------------------
    @on(events.Mount)
    def _open_the_waiting_room(self, event: events.Mount) -> None:
        """The waiting room, and the worker that listens to the host (instead of the
        local game's start)."""
        event.prevent_default()
        self._check_size()
        self.push_screen(LobbyScreen(owner=self.owner, address=self.address, you=self.seat))
        self.listen()

    @work(exclusive=True, group="host", exit_on_error=True)
    async def listen(self) -> None:
        """Read the host's messages until it is gone for good."""
        while True:
            try:
                message = await self.link.recv()
            except (HostLost, ConnectionError) as err:
                if self.remote is not None and self.remote.is_over:
                    self.notify(_("The host has closed the table."), timeout=10)
                    return  # the game is over: nothing is lost
                self.lost = str(err)
                self.exit(return_code=1)
                return
            if isinstance(message, State):
                try:
                    opened = self._state(message)
                except TableMismatchError as err:
                    words = _("The host sent a table that does not add up ({problem}): "
                              "not shown.").format(problem=err)
                    self.notify(words, severity="error", markup=False)
                    continue
                # the next picture waits until the game screen is up to take it
                for _try in range(500):
                    if opened is None or opened.is_mounted:
                        break
                    await asyncio.sleep(0.01)
            elif isinstance(message, Lobby):
                screen = self._lobby_screen()
                if screen is not None:
                    screen.show(message)
            elif isinstance(message, Refused):
                self.notify(self._refusal(message), severity="warning", timeout=6, markup=False)
                if message.fatal:
                    self.lost = host_said(message)
                    self.exit(return_code=1)
                    return
            elif isinstance(message, Notice):
                self._heard(message)
            elif isinstance(message, Record):
                if self.remote is not None:
                    self.remote.final_record = message.record
                    self._remember(message.record)
            elif isinstance(message, SeatAssigned):
                self.seat = message.seat
                if message.rejoined:
                    self._lasting.clear()  # "reconnecting…" is over
                    self.clear_notifications()
                    self.notify(_("Back at the table."))

    def _refusal(self, refused: Refused) -> str:
        """What the host refused, in words: a move the rules forbid is worded from its rule
        and the move this seat asked for, the others from their codes."""
        table = self.remote
        if (refused.code is not RefusalCode.ILLEGAL or refused.rule is None or table is None
                or table.asked is None):
            return refusal_text(refused)
        err = refusal_of(refused.rule, table.asked, table.view_now)
        return problem_text(err, table.words(table.seat))

    def _heard(self, notice: Notice) -> None:
        """Show ``notice``: someone reconnecting (or the host lost) stays on screen until
        that seat is back or the computer plays it; the others go after a while."""
        names = self.remote.names if self.remote is not None else ()
        text = notice_text(notice, names)
        if notice.code in (NoticeCode.RECONNECTING, NoticeCode.HOST_LOST):
            self._lasting[notice.seat] = text
            self.notify(text, timeout=LASTING, markup=False)
            return
        if notice.code in ENDS_AWAY and notice.seat in self._lasting:
            # after the notices already posted, so the one it ends is on screen by then
            self.call_later(self._end_lasting, notice.seat)
        self.notify(text, timeout=6, markup=False)

    def _end_lasting(self, seat: int | None) -> None:
        """Take seat ``seat``'s "reconnecting" notice off the screen (the others stay)."""
        if self._lasting.pop(seat, None) is None:
            return
        self.clear_notifications()
        for text in self._lasting.values():
            self.notify(text, timeout=LASTING, markup=False)

    def _lobby_screen(self) -> LobbyScreen | None:
        return next((s for s in self.screen_stack if isinstance(s, LobbyScreen)), None)

    @property
    def reading(self) -> RemoteTable | None:
        """What the screens read: the host's table as this seat sees it."""
        return self.remote

    def _record_to_save(self) -> GameRecord | None:
        """The host's record of the game, once it has sent it (at the game's end)."""
        return self.remote.final_record if self.remote is not None else None

    def _state(self, message: State) -> GameScreen | None:
        """The host's new picture of the table: the first opens the game screen (which
        is returned)."""
        table = self.remote
        if table is None:
            table = self.remote = RemoteTable(self.seat, message)
            self.seat_driver = SeatDriver(
                table, self.seat, now=time.monotonic, pace=self.speed,
                auto_draw=self.settings.auto_draw,
            )
            # The seam: a RemoteTable is a TableReading, like a Table, so the game
            # screen and the App's reading of the game (``reading``) are the same;
            # only what drives it differs.
            self.viewer = self.seat
            auto_draw = self.settings.auto_draw
            opened = GameScreen(table, self.seat, auto_draw=auto_draw)
            self._replace_with(opened)
            return opened
        events = table.update(message)
        screen = self.game_screen
        if screen is not None:
            # back after a lost connection: the log keeps what it had
            screen.show_events(() if message.whole_hand else events)
            screen.step = table.step
        self._advance()
        return None

    # -- the seam: the host drives the game ---------------------------------------------
    def _advance(self) -> None:
        """Perform this seat's next step (:class:`SeatDriver`): a summary, the game's end,
        or (with auto-draw) drawing or passing; the host does the rest."""
        table, driver = self.remote, self.seat_driver
        if table is None or driver is None or self.game_screen is None:
            return
        self._close_a_passed_summary(table)
        step = driver.next(table.waiting)
        if isinstance(step, Over):
            if not self._over_shown:
                self._over_shown = True
                self._show_game_over()
        elif isinstance(step, Summary):
            if self._summary_for != step.hand_over.hand_number:  # not on show already
                self._summary_for = step.hand_over.hand_number
                summary = HandSummaryScreen(
                    table, step.hand_over, self._words(), grace=self.key_ahead_grace
                )
                self.push_screen(summary, lambda _read: self._summary_read(driver))
        elif isinstance(step, Automatic):
            wait = max(0.05, seconds_left(step.not_before))
            self.set_timer(wait, lambda: self._automatic(driver, step))

    def _close_a_passed_summary(self, table: RemoteTable) -> None:
        """The host dealt the next hand while this person's summary of the last was still
        up (its wait for every player ran out): close the summary, and say why."""
        summary = next((s for s in self.screen_stack if isinstance(s, HandSummaryScreen)), None)
        if summary is None or table.hand_over is not None or table.game_over is not None:
            return
        while self.screen is not summary:  # a help or palette over it goes too
            self.pop_screen()
        summary.dismiss(None)
        self.notify(
            _("The host dealt hand {hand}: the wait for every player to close the summary "
              "ran out.").format(hand=table.view_now.hand_number),
            timeout=8,
        )

    def _automatic(self, driver: SeatDriver, step: Automatic) -> None:
        """Send the automatic draw or pass, unless the table has moved on meanwhile."""
        table = self.remote
        if driver is not self.seat_driver or table is None:
            return
        try:
            action = driver.done(step, step.action, table.waiting)
        except StaleAnswerError:
            return
        self.play(self.seat, action)

    def _remember(self, record: GameRecord) -> None:
        """The finished game into this person's history (once, however often the
        host sends its record: again after a rejoin)."""
        self.keeping.record_finished(as_seen_by(record, self.seat))

    def _summary_read(self, driver: SeatDriver) -> None:
        """The person has read the summary: the host deals once everyone has (unless it
        already has, after its summary timeout)."""
        table = self.remote
        if driver is not self.seat_driver or table is None or table.hand_over is None:
            return
        driver.ready()
        self._send(Ready())
        others = [table.names[s] for s in table.waiting if s != self.seat]
        if others:
            words = ngettext(
                "The next hand is dealt when {names} is ready too.",
                "The next hand is dealt when {names} are ready too.",
                len(others),
            )
            self.notify(words.format(names=listing(others)), markup=False)

    def play(self, seat: int, action: Action) -> bool:
        """Ask the host to play ``action`` for this seat (its engine judges it)."""
        if self.remote is None or seat != self.seat:
            return False
        self._send(self.remote.request(action))
        return True

    def _send(self, message: ClientMessage) -> None:
        async def send() -> None:
            await self.link.send(message)

        self.run_worker(send(), group="send")

    def _show_game_over(self) -> None:
        """The winner; "new game" and "quit" both leave the table, "replay" replays it
        (from the host's record); any other choice is the local game's."""
        table = self.remote
        assert table is not None

        def chosen(choice: str | None) -> None:
            if choice == "replay" and table.final_record is not None:
                self.open_replay(table.final_record, self._show_game_over)
            elif choice == "replay":
                self.notify(_("The host has not sent the game's record."), severity="warning")
                self._show_game_over()
            elif choice in (None, "new", "quit"):
                self.exit()
            else:  # what a local game offers beyond these stays with the local game
                self.notify(_("Not at a networked table."), severity="warning")
                self._show_game_over()

        over = GameOverScreen(table, self._words(), grace=self.key_ahead_grace)
        self.push_screen(over, chosen)

    # -- the waiting room ----------------------------------------------------------------
    @on(LobbyScreen.SetSeat)
    def _set_seat(self, message: LobbyScreen.SetSeat) -> None:
        self._send(SetSeat(seat=message.seat, computer=message.computer))

    @on(LobbyScreen.Start)
    def _start_game(self) -> None:
        self._send(Start())

    # -- what a networked table does not do ------------------------------------------------
    def action_save_copy(self) -> None:
        """A copy of the game, once the host has sent its record (at the game's end)."""
        if self.remote is None or self.remote.final_record is None:
            self.notify(
                _("The host keeps this game's record: a copy can be saved once the game is "
                  "over."),
                severity="warning",
            )
            return
        super().action_save_copy()

    def action_new_game(self) -> None:
        """A networked game is left with q; a new one is the host's to start."""
        self.notify(_("This table is the host's: q leaves it (your seat is kept for a while)."))

    def _crash_line(self, error: BaseException) -> str:
        """A crash's one line: where its log is, and that the host keeps the game."""
        while isinstance(error, WorkerFailed):
            error = error.error
        what = f"{type(error).__name__}: {error}".splitlines()[0][:120]
        try:
            log = write_crash_log("".join(format_exception(error)))
        except OSError as err:
            words = _("allfives crashed ({error}): the host keeps the game; no crash log could "
                      "be written ({reason})")
            return words.format(error=what, reason=err.strerror or err)
        words = _("allfives crashed ({error}): the host keeps the game; the crash log is {path}")
        return words.format(error=what, path=log)

    async def on_unmount(self) -> None:
        """Leave the host's line (the seat is kept for the grace period); the App's own
        unmount follows."""
        await self.link.close()
