"""The hosted game as it is played: the table's driver's steps performed, and every seat
told each change in its own picture of the table.

The host performs the steps of the table's turn driver
(:class:`~allfives_tui.table.driver.Driver`): computers choose in a thread
(``asyncio.to_thread``) from their seat's view, at the host's pace; a person's
turn waits for their action, and for a player who lost the connection the
grace period, after which the computer plays that seat until they rejoin with
their token; a hand's summary waits for every connected person (or the
summary timeout). Each client gets its own seat's
:class:`~allfives_tui.net.protocol.State` (:func:`state_for`): no message holds
another seat's tiles or the boneyard before the hand is over.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

from allfives_tui.locale import _
from allfives_tui.net.hostfiles import HostFiles
from allfives_tui.net.protocol import (
    Act,
    Notice,
    NoticeCode,
    Record,
    RefusalCode,
    Refused,
    State,
)
from allfives_tui.net.seating import Seating
from allfives_tui.net.transport import Session
from allfives_tui.net.wording import notice_text
from allfives_tui.table.deadline import seconds_left
from allfives_tui.table.driver import (
    AskComputer,
    Automatic,
    AwaitPerson,
    Deal,
    Driver,
    Over,
    StaleAnswerError,
    Step,
    Summary,
    TakeOver,
)
from allfives_tui.table.table import Table
from allfives_tui.table.words import describe_event
from engine import Drew, Event, GameOver, HandOver, IllegalActionError
from engine.record import SeatKind


def drawn_tile_hidden(event: Event, seat: int) -> Event:
    """``event`` as ``seat`` may see it: another seat's drawn tile is not named."""
    if isinstance(event, Drew) and event.seat != seat and event.tile is not None:
        return event.model_copy(update={"tile": None})
    return event


def state_for(
    table: Table,
    seat: int,
    kinds: tuple[SeatKind, ...],
    events: tuple[Event, ...],
    *,
    whole_hand: bool = False,
    away: tuple[int, ...] = (),
    waiting: tuple[int, ...] = (),
) -> State:
    """``seat``'s picture of the table: its own view, the public events, and every hand
    only once the hand is over."""
    return State(
        step=table.step,
        view=table.view(seat),
        names=tuple(n or "" for n in table.given_names),
        kinds=kinds,
        events=tuple(drawn_tile_hidden(e, seat) for e in events),
        whole_hand=whole_hand,
        resumed=table.resumed,
        revealed=table.revealed,
        away=away,
        waiting=waiting,
    )


class GameLoop:
    """One started table played through its own :class:`~allfives_tui.table.driver.Driver`:
    changes are made under ``lock``, saved in ``files``, then sent to the seats; ``say``
    gets the commentary."""

    def __init__(
        self,
        table: Table,
        seating: Seating,
        *,
        files: HostFiles | None,
        lock: asyncio.Lock,
        say: Callable[[str], None],
        pace: float,
        summary_timeout: float,
        grace: float,
        level: str,
    ) -> None:
        """The driver collects the people's moves; a person not connected is away from
        now (their grace starts); the computer stands in at ``level``."""
        self.table = table
        self.seating = seating
        self.files = files
        self.lock = lock
        self.say = say
        self._wake = asyncio.Event()
        people = [i for i, s in enumerate(seating.slots) if not s.computer]
        self.driver = Driver(
            table,
            now=time.monotonic,
            flush=files.flush if files is not None else _no_flush,
            people=people,
            pace=pace,
            summary_timeout=summary_timeout,
            grace=grace,
            stand_in_level=level,
        )
        for seat in people:
            if seating.slots[seat].session is None:
                self.driver.away(seat)

    async def run(self) -> None:
        """Perform the driver's steps until the game is over."""
        self._broadcast_state(self.table.hand_events, whole_hand=True)
        driver = self.driver
        while not isinstance(step := driver.next(), Over):
            self._wake.clear()
            await self._perform(driver, step)

    async def _perform(self, driver: Driver, step: Step) -> None:
        """Perform one step of the driver (a person's move comes in :meth:`act`)."""
        if isinstance(step, (AskComputer, Automatic)):
            action = await asyncio.to_thread(driver.think, step)
            wait = seconds_left(step.not_before)
            if wait > 0:
                await asyncio.sleep(wait)
            async with self.lock:
                with contextlib.suppress(StaleAnswerError):  # a person came back meanwhile
                    await self._changed(driver.done(step, action))
        elif isinstance(step, Deal):
            async with self.lock:
                with contextlib.suppress(StaleAnswerError):
                    await self._changed(driver.done(step))
        elif isinstance(step, TakeOver):
            driver.done(step)
            self._notice(Notice(code=NoticeCode.TAKEN_OVER, seat=step.seat))
        elif isinstance(step, Summary):
            await self._until_woken(step.deadline)
        elif isinstance(step, AwaitPerson):
            await self._until_woken(step.grace_deadline)
        else:  # the host's screen is never shared, and every seat's move is made here
            raise AssertionError(f"a host does not perform {step!r}")

    async def _until_woken(self, deadline: float | None) -> None:
        """Until something changes (a move, a summary closed, a player gone or back),
        or ``deadline`` (on :func:`time.monotonic`) passes."""
        timeout = seconds_left(deadline)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), timeout)

    # -- the players -------------------------------------------------------------------
    async def act(self, session: Session, act: Act) -> None:
        """A signed-in client's move (under the lock): made if the engine accepts it at
        the step the client saw, else refused."""
        seat = session.seat
        assert seat is not None
        if act.step != self.table.step:
            session.deliver(Refused(code=RefusalCode.STALE_STEP))
            return
        try:
            events = self.driver.act(seat, act.action)
        except IllegalActionError as err:
            session.deliver(_illegal(err))
            return
        await self._changed(events)

    def ready(self, seat: int) -> None:
        """``seat`` closed the hand's summary."""
        self.driver.ready(seat)
        self._wake.set()

    def attached(self, session: Session, seat: int, rejoined: bool) -> None:
        """``session`` sits at ``seat`` now: the others are told if it is back, and it gets
        the whole hand so far."""
        back = self.driver.back(seat)
        if rejoined or back:
            code = NoticeCode.BACK_PLAYING_AGAIN if back else NoticeCode.BACK
            self.seating.tell(Notice(code=code, seat=seat), but=session)
        table = self.table
        waiting = self.driver.waiting_for() if table.hand_over is not None else ()
        session.deliver(self._state(seat, table.hand_events, True, waiting))
        if table.is_over:
            session.deliver(Record(record=table.record()))
        self._wake.set()

    def away(self, seat: int) -> None:
        """``seat``'s player lost the connection: their seat is kept through the grace."""
        self.driver.away(seat)
        name = self.seating.slots[seat].name
        if self.table.is_over:
            self.say(_("{name} left.").format(name=name))
            return
        self.say(_("{name} lost the connection: their seat is kept for them.").format(name=name))
        self.seating.tell(Notice(code=NoticeCode.RECONNECTING, seat=seat))
        self._wake.set()

    # -- telling the players -------------------------------------------------------------
    async def _changed(self, events: tuple[Event, ...]) -> None:
        """After a change (under the lock): the record on disk, then every client told."""
        if self.files is not None:
            await asyncio.to_thread(self.files.flush)
        self._broadcast_state(events)
        self._wake.set()
        for event in events:
            if isinstance(event, (HandOver, GameOver)):
                self.say(describe_event(event, self.table.words(None)))

    def _broadcast_state(self, events: tuple[Event, ...], *, whole_hand: bool = False) -> None:
        """Send every connected seat its picture of the table (and the record at the end)."""
        table = self.table
        waiting = self.driver.waiting_for() if table.hand_over is not None else ()
        for i, slot in enumerate(self.seating.slots):
            if slot.session is not None:
                slot.session.deliver(self._state(i, events, whole_hand, waiting))
        if table.is_over:
            self.seating.tell(Record(record=table.record()))

    def _state(
        self, seat: int, events: tuple[Event, ...], whole_hand: bool, waiting: tuple[int, ...]
    ) -> State:
        kinds = tuple(s.kind for s in self.table.seats)
        return state_for(
            self.table, seat, kinds, events,
            whole_hand=whole_hand, away=self.driver.away_seats(), waiting=waiting,
        )

    def _notice(self, notice: Notice) -> None:
        """Tell every connected player ``notice``; the commentary says it."""
        self.say(notice_text(notice, self.seating.names()))
        self.seating.tell(notice)


def _illegal(err: IllegalActionError) -> Refused:
    """The refusal of a move the engine refused: its rule (the engine's message is English:
    the client words the rule in its own language)."""
    return Refused(code=RefusalCode.ILLEGAL, rule=err.rule)


def _no_flush() -> None:
    return None
