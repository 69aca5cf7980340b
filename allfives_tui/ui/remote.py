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
(:func:`~allfives_tui.table.history.as_seen_by`). When the host is gone for good,
the app exits with :attr:`RemoteApp.lost` set to one line saying so.
"""

from __future__ import annotations

import asyncio
from traceback import format_exception
from typing import cast

from textual import events, on, work
from textual.worker import WorkerFailed

from allfives_tui.net.client import HostLost, Link
from allfives_tui.net.protocol import (
    ClientMessage,
    Lobby,
    Notice,
    Ready,
    Record,
    Refused,
    SeatAssigned,
    SetSeat,
    Start,
    State,
)
from allfives_tui.net.remote_table import RemoteTable, TableMismatchError
from allfives_tui.table import storage
from allfives_tui.table.history import HistoryWriter, as_seen_by
from allfives_tui.table.storage import Settings
from allfives_tui.table.table import Table
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.screens.game_over import GameOverScreen
from allfives_tui.ui.screens.hand_summary import HandSummaryScreen
from allfives_tui.ui.screens.lobby import LobbyScreen
from engine import Action, Draw, Pass, Phase
from engine.record import GameRecord


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
        self.history = HistoryWriter(report=self._history_line)
        self.link = link
        self.seat = seat
        self.owner = owner
        self.address = address
        self.remote: RemoteTable | None = None
        self.lost: str | None = None
        """Why the app closed when it lost the host (one line), else ``None``."""
        self._summary_for = 0
        self._over_shown = False

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
                    self.notify("The host has closed the table.", timeout=10)
                    return  # the game is over: nothing is lost
                self.lost = str(err)
                self.exit(return_code=1)
                return
            if isinstance(message, State):
                try:
                    opened = self._state(message)
                except TableMismatchError as err:
                    self.notify(f"The host sent a table that does not add up ({err}): "
                                "not shown.", severity="error")
                    continue
                # the next picture waits until the game screen is up to take it
                for _ in range(500):
                    if opened is None or opened.is_mounted:
                        break
                    await asyncio.sleep(0.01)
            elif isinstance(message, Lobby):
                screen = self._lobby_screen()
                if screen is not None:
                    screen.show(message)
            elif isinstance(message, Refused):
                self.notify(message.reason, severity="warning", timeout=6)
                if message.fatal:
                    self.lost = f"the host said: {message.reason}"
                    self.exit(return_code=1)
                    return
            elif isinstance(message, Notice):
                if message.text.endswith(" is back.") or "They play again" in message.text:
                    self.clear_notifications()  # the "reconnecting" one stays until now
                # someone reconnecting stays on screen until they are back
                waiting = message.text.endswith("reconnecting…")
                self.notify(message.text, timeout=3600 if waiting else 6)
            elif isinstance(message, Record):
                if self.remote is not None:
                    self.remote.final_record = message.record
                    self._remember(message.record)
            elif isinstance(message, SeatAssigned):
                self.seat = message.seat
                if message.rejoined:
                    self.clear_notifications()  # "reconnecting…" is over
                    self.notify("Back at the table.")

    def _lobby_screen(self) -> LobbyScreen | None:
        return next((s for s in self.screen_stack if isinstance(s, LobbyScreen)), None)

    def _state(self, message: State) -> GameScreen | None:
        """The host's new picture of the table: the first opens the game screen (which
        is returned)."""
        table = self.remote
        if table is None:
            table = self.remote = RemoteTable(self.seat, message)
            # The seam: a RemoteTable reads like a Table, so the game screen and the
            # App's reading of "the table" are unchanged; only what drives it differs.
            self.table = cast(Table, table)
            self.viewer = self.seat
            auto_draw = self.settings.auto_draw
            opened = GameScreen(cast(Table, table), self.seat, auto_draw=auto_draw)
            self._replace_with(opened)
            return opened
        events = table.update(message)
        screen = self.game_screen
        if screen is not None:
            # back after a lost connection: the log keeps what it had
            screen.show_events(() if message.whole_hand else events)
            screen.state = table.state
        self._advance()
        return None

    # -- the seam: the host drives the game ---------------------------------------------
    def _advance(self) -> None:
        """What the host's latest picture asks of this screen: a summary, the game's end,
        or (with auto-draw) drawing or passing; the host does the rest."""
        table = self.remote
        if table is None or self.game_screen is None:
            return
        if table.is_over:
            if not self._over_shown:
                self._over_shown = True
                self._show_game_over()
            return
        hand_over = table.hand_over
        if table.state.phase is Phase.DEAL and hand_over is not None:
            if self._summary_for != hand_over.hand_number and self.seat in table.waiting:
                self._summary_for = hand_over.hand_number
                summary = HandSummaryScreen(
                    table.state, hand_over, self._words(), grace=self.key_ahead_grace
                )
                self.push_screen(summary, self._summary_closed)
            return
        turn = table.turn()
        if (
            turn is not None
            and turn.seat == self.seat
            and self.settings.auto_draw
            and len(turn.legal) == 1
            and isinstance(turn.legal[0], (Draw, Pass))
        ):
            action, step = turn.legal[0], table.step
            self.set_timer(
                max(0.05, self.speed / 2),
                lambda: self.play(self.seat, action) if table.step == step else None,
            )

    def _remember(self, record: GameRecord) -> None:
        """The finished game into this person's history (once, however often the
        host sends its record: again after a rejoin)."""
        if self.history is not None and self._recorded != record.game_id:
            self._recorded = record.game_id
            self.history.submit(as_seen_by(record, self.seat))

    def _summary_closed(self, _: object = None) -> None:
        """The person has read the summary: the host deals once everyone has (unless it
        already has, after its summary timeout)."""
        table = self.remote
        if table is None or table.hand_over is None:
            return
        self._send(Ready())
        others = [table.names[s] for s in table.waiting if s != self.seat] if table else []
        if others:
            who = others[0] if len(others) == 1 else f"{', '.join(others[:-1])} and {others[-1]}"
            verb = "is" if len(others) == 1 else "are"
            self.notify(f"The next hand is dealt when {who} {verb} ready too.")

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
                self.notify("The host has not sent the game's record.", severity="warning")
                self._show_game_over()
            elif choice in (None, "new", "quit"):
                self.exit()
            else:  # what a local game offers beyond these stays with the local game
                self.notify("Not at a networked table.", severity="warning")
                self._show_game_over()

        over = GameOverScreen(table.state, self._words(), grace=self.key_ahead_grace)
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
                "The host keeps this game's record: a copy can be saved once the game is over.",
                severity="warning",
            )
            return
        super().action_save_copy()

    def action_new_game(self) -> None:
        """A networked game is left with q; a new one is the host's to start."""
        self.notify("This table is the host's: q leaves it (your seat is kept for a while).")

    def _crash_line(self, error: BaseException) -> str:
        """A crash's one line: where its log is, and that the host keeps the game."""
        while isinstance(error, WorkerFailed):
            error = error.error
        what = f"{type(error).__name__}: {error}".splitlines()[0][:120]
        try:
            log = f"the crash log is {storage.write_crash_log(''.join(format_exception(error)))}"
        except OSError as err:
            log = f"no crash log could be written ({err.strerror or err})"
        return f"allfives crashed ({what}): the host keeps the game; {log}"

    async def on_unmount(self) -> None:
        """Leave the host's line (the seat is kept for the grace period); the App's own
        unmount follows."""
        await self.link.close()
