"""The host: one :class:`~allfives_tui.table.table.Table` served to players over WebSockets.

The host's engine is the only judge. Every client message goes through
:func:`~allfives_tui.net.protocol.parse_client`; an action is applied only when
it comes from a signed-in client, for that client's own seat, on that seat's
turn, at the step the client saw, and the table's engine accepts it; anything
else is answered with a :class:`~allfives_tui.net.protocol.Refused` and changes
nothing. After every change each client gets its own seat's
:class:`~allfives_tui.net.protocol.State` (:func:`state_for`): no message holds
another seat's tiles or the boneyard before the hand is over.

The host performs the steps of the table's turn driver
(:class:`~allfives_tui.table.driver.Driver`): computers choose in a thread
(``asyncio.to_thread``) from their seat's view, at the host's pace; a person's
turn waits for their action, and for a player who lost the connection the
grace period, after which the computer plays that seat until they rejoin with
their token; a hand's summary waits for every connected person (or the
summary timeout).
The record and the tokens are saved in the host's folder
(:class:`~allfives_tui.net.hostfiles.HostFiles`) so a restarted host reopens
the game. The host's own player (if it plays) talks to it through a
:class:`LocalLink` in the same process.

A connection that has not signed in (hello said and the challenge answered) is
*pending*: it is closed after the hello time-out, and at most
:data:`MAX_PENDING_PER_ADDRESS` of them per address and :data:`MAX_PENDING` in
all are kept (a new one closes the oldest), apart from the seated players, so a
player with a rejoin token always gets in. Failed sign-ins are counted per
address (:class:`SignInLimiter`): after each one that address waits longer
before its next try, unless it holds a seat's token.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from allfives_tui.net.hostfiles import HostFiles, SavedSeat, SavedSeats
from allfives_tui.net.protocol import (
    DEFAULT_PORT,
    DETAIL_MAX,
    WIRE_LIMIT,
    Act,
    Auth,
    Challenge,
    ClientMessage,
    CloseCode,
    Hello,
    HostMessage,
    Leave,
    Lobby,
    LobbySeat,
    Notice,
    NoticeCode,
    ProtocolError,
    Ready,
    Record,
    RefusalCode,
    Refused,
    SeatAssigned,
    SetSeat,
    Start,
    State,
    close_reason,
    encode,
    parse_client,
    proof_matches,
)
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
from allfives_tui.table.settings import SEAT_NAMES
from allfives_tui.table.table import Table
from allfives_tui.table.words import describe_event
from engine import Drew, Event, GameOver, HandOver, IllegalActionError, Rules
from engine.errors import one_line
from engine.players import LEVELS
from engine.record import LoadedGame, Seat, SeatKind

GRACE = 60.0
"""Seconds a disconnected player keeps their seat before the computer plays it."""
HELLO_TIMEOUT = 10.0
"""Seconds a connection has to sign in (hello and the challenge answered) before it is closed."""
MAX_PENDING = 32
"""Connections not signed in yet that a host keeps at once; a new one closes the oldest."""
MAX_PENDING_PER_ADDRESS = 4
"""Connections not signed in yet kept from one address; a new one closes that address's oldest."""
SIGN_IN_DELAY = 1.0
"""Seconds an address waits after its first failed sign-in; each further failure doubles it."""
SIGN_IN_DELAY_MAX = 60.0
"""The longest wait after failed sign-ins."""
SIGN_IN_FORGET = 900.0
"""Seconds after its last failure when an address's failures are forgotten."""
TRACKED_ADDRESSES = 4096
"""Addresses whose failures are kept at most (the forgotten ones are dropped first)."""
TOO_MANY = 1013
"""The WebSocket close code of a connection closed for want of room (try again later)."""
TOO_SLOW = 1008
"""The WebSocket close code of a connection that did not sign in in time."""
SUMMARY_TIMEOUT = 60.0
"""Seconds the next deal waits for every player to close the hand's summary."""


@dataclass
class HostConfig:
    """How a host runs its table."""

    rules: Rules
    level: str = "greedy"
    """The level of every seat a computer plays (a seat left empty, a seat given up)."""
    password: str = ""
    seed: int | None = None
    pace: float = 0.6
    """Seconds a computer's move takes to show."""
    grace: float = GRACE
    summary_timeout: float = SUMMARY_TIMEOUT
    host_seat: bool = True
    """True when the host's own player sits at seat 0 (through a :class:`LocalLink`)."""
    host_name: str = "Host"
    auto_start: bool = False
    """Start as soon as every open seat has a player (a host without a screen)."""
    open_seats: int | None = None
    """How many seats are open for people (the rest are computers); ``None``: all."""
    hello_timeout: float = HELLO_TIMEOUT
    """Seconds a connection has to sign in before it is closed."""
    sign_in_delay: float = SIGN_IN_DELAY
    """Seconds an address waits after its first failed sign-in (0: no wait)."""
    clock: Callable[[], float] = time.monotonic
    """The clock of the failed sign-ins' waits."""


class SignInLimiter:
    """Failed sign-ins per address, and how long each address waits before its next try."""

    def __init__(
        self,
        delay: float = SIGN_IN_DELAY,
        longest: float = SIGN_IN_DELAY_MAX,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.delay = delay
        self.longest = longest
        self.clock = clock
        self._failures: dict[str, tuple[int, float]] = {}
        """address -> (failures in a row, when the last one was)."""

    def delay_after(self, failures: int) -> float:
        """Seconds to wait after ``failures`` failures in a row."""
        if failures <= 0 or self.delay <= 0:
            return 0.0
        return float(min(self.delay * 2 ** min(failures - 1, 32), self.longest))

    def failures(self, address: str) -> int:
        """Failures in a row from ``address``."""
        entry = self._failures.get(address)
        return entry[0] if entry is not None else 0

    def wait(self, address: str) -> float:
        """Seconds ``address`` must still wait before its next try (0: it may try now)."""
        entry = self._failures.get(address)
        if entry is None:
            return 0.0
        count, last = entry
        return max(0.0, last + self.delay_after(count) - self.clock())

    def failed(self, address: str) -> None:
        """``address`` failed to sign in."""
        now = self.clock()
        count, last = self._failures.pop(address, (0, now))
        if now - last > SIGN_IN_FORGET:
            count = 0
        if len(self._failures) >= TRACKED_ADDRESSES:
            self._failures = {
                a: e for a, e in self._failures.items() if now - e[1] <= SIGN_IN_FORGET
            }
            while len(self._failures) >= TRACKED_ADDRESSES:
                del self._failures[next(iter(self._failures))]
        self._failures[address] = (count + 1, now)

    def succeeded(self, address: str) -> None:
        """``address`` signed in: its failures are forgotten."""
        self._failures.pop(address, None)


@dataclass(eq=False)
class Session:
    """One client's connection: its seat once signed in, and its outgoing messages."""

    deliver: Callable[[HostMessage], None]
    close: Callable[[], None]
    local: bool = False
    address: str = ""
    """The peer's address (empty for the host's own player)."""
    drop: Callable[[int, str], None] | None = None
    """Close the connection now, with a close code and a reason (a network connection)."""
    serial: int = 0
    """The order connections came in."""
    dropped: bool = False
    name: str = ""
    token: str | None = None
    nonce: str | None = None
    seat: int | None = None
    signed_in: bool = False


@dataclass(eq=False)
class Slot:
    """One seat of the table: who sits there and whether they are connected."""

    name: str | None = None
    computer: bool = False
    host: bool = False
    token: str | None = None
    session: Session | None = None


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
        names=table.names,
        kinds=kinds,
        events=tuple(drawn_tile_hidden(e, seat) for e in events),
        whole_hand=whole_hand,
        resumed=table.resumed,
        revealed=table.revealed,
        away=away,
        waiting=waiting,
    )


class Host:
    """One table served to players; see the module's docstring."""

    def __init__(
        self,
        config: HostConfig,
        files: HostFiles | None = None,
        *,
        resume: tuple[LoadedGame, SavedSeats] | None = None,
    ) -> None:
        if config.level not in LEVELS:
            raise ValueError(f"no computer level {config.level!r}")
        self.config = config
        self.files = files
        players = config.rules.players
        self.slots = [Slot() for _ in range(players)]
        self.table: Table | None = None
        self.driver: Driver | None = None
        """The table's turn driver, once the game has started."""
        self.sessions: set[Session] = set()
        self.server: Server | None = None
        self.port: int | None = None
        self.finished = asyncio.Event()
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._loop_task: asyncio.Task[None] | None = None
        self._serials = itertools.count(1)
        self._closing: set[asyncio.Task[None]] = set()
        self.limiter = SignInLimiter(config.sign_in_delay, SIGN_IN_DELAY_MAX, config.clock)
        self.errors: list[BaseException] = []
        self.say: Callable[[str], None] | None = None
        """Where the host's running commentary goes (a host without a screen prints it)."""
        if resume is not None:
            self._reopen(*resume)
        else:
            if config.host_seat:
                self.slots[0] = Slot(name=config.host_name, host=True, token=_token())
            if config.open_seats is not None:
                for slot in self.slots[int(config.host_seat) + config.open_seats :]:
                    slot.computer = True

    # -- the game ----------------------------------------------------------------
    @property
    def started(self) -> bool:
        """True once the game has started (or was reopened)."""
        return self.table is not None

    def _kinds(self) -> tuple[SeatKind, ...]:
        assert self.table is not None
        return tuple(s.kind for s in self.table.seats)

    def _reopen(self, game: LoadedGame, saved: SavedSeats) -> None:
        self.config.level = saved.level if saved.level in LEVELS else self.config.level
        for slot, seat in zip(self.slots, saved.seats, strict=True):
            slot.name, slot.computer, slot.host, slot.token = (
                seat.name, seat.computer, seat.host, seat.token,
            )
        self._seat_table(Table.from_record(game, autosave=self._autosave))

    def _seat_table(self, table: Table) -> None:
        """Play ``table``: its driver collects the people's moves; a person not connected
        is away from now (their grace starts)."""
        self.table = table
        config = self.config
        people = [i for i, s in enumerate(self.slots) if not s.computer]
        driver = self.driver = Driver(
            table,
            now=time.monotonic,
            flush=self.files.flush if self.files is not None else _no_flush,
            people=people,
            pace=config.pace,
            summary_timeout=config.summary_timeout,
            grace=config.grace,
            stand_in_level=config.level,
        )
        for seat in people:
            if self.slots[seat].session is None:
                driver.away(seat)

    def _computer_name(self, seat: int) -> str:
        places = ("South", *SEAT_NAMES.get(self.config.rules.players, ()))
        return places[seat] if seat < len(places) else f"Seat {seat + 1}"

    def _start(self) -> None:
        """Deal the first hand: empty open seats become computers."""
        if self.table is not None:
            return
        seats: list[Seat] = []
        for i, slot in enumerate(self.slots):
            if slot.name is None:
                slot.computer = True
            if slot.computer:
                slot.name = self._computer_name(i)
                seats.append(Seat(name=slot.name, kind="computer", level=self.config.level))
            else:
                assert slot.name is not None
                seats.append(Seat(name=slot.name, kind="person" if slot.host else "remote"))
        self._seat_table(Table.new(self.config.rules, seats, self.config.seed))
        assert self.table is not None
        self.table.autosave = self._autosave
        self._say("The game starts: " + ", ".join(
            f"{s.name} ({s.level if s.is_computer else 'person'})" for s in seats
        ) + f"; to {self.config.rules.target} points.")
        self._save_seats()
        self._autosave(self.table.record())
        self._run_loop()

    def _run_loop(self) -> None:
        if self._loop_task is None:
            self._loop_task = asyncio.get_running_loop().create_task(self._loop())

    def _autosave(self, record: object) -> None:
        if self.files is not None and self.table is not None:
            self.files.save_record(self.table.record())

    def _save_seats(self) -> None:
        if self.files is None or self.table is None:
            return
        seats = tuple(
            SavedSeat(name=s.name, computer=s.computer, host=s.host, token=s.token)
            for s in self.slots
        )
        self.files.save_seats(
            SavedSeats(game_id=self.table.game_id, level=self.config.level, seats=seats)
        )

    async def _loop(self) -> None:
        """Perform the driver's steps until the game is over."""
        try:
            await self._broadcast_state(self._table().hand_events, whole_hand=True)
            driver = self._driver()
            while not isinstance(step := driver.next(), Over):
                self._wake.clear()
                await self._perform(driver, step)
            self.finished.set()
        except asyncio.CancelledError:
            raise
        except Exception as err:  # kept for the caller; the host stops serving this game
            self.errors.append(err)
            self.finished.set()
            raise

    async def _perform(self, driver: Driver, step: Step) -> None:
        """Perform one step of the driver (a person's move comes in :meth:`_act`)."""
        if isinstance(step, (AskComputer, Automatic)):
            action = await asyncio.to_thread(driver.think, step)
            wait = seconds_left(step.not_before)
            if wait > 0:
                await asyncio.sleep(wait)
            async with self._lock:
                with contextlib.suppress(StaleAnswerError):  # a person came back meanwhile
                    await self._changed(driver.done(step, action))
        elif isinstance(step, Deal):
            async with self._lock:
                with contextlib.suppress(StaleAnswerError):
                    await self._changed(driver.done(step))
        elif isinstance(step, TakeOver):
            driver.done(step)
            await self._notice(Notice(code=NoticeCode.TAKEN_OVER, seat=step.seat))
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

    def _say(self, text: str) -> None:
        if self.say is not None:
            self.say(text)

    def _table(self) -> Table:
        assert self.table is not None
        return self.table

    def _driver(self) -> Driver:
        assert self.driver is not None
        return self.driver

    def _waiting_for(self) -> tuple[int, ...]:
        """The seats the next deal waits for: connected people who have not closed the
        summary yet."""
        return self._driver().waiting_for()

    async def _changed(self, events: tuple[Event, ...]) -> None:
        """After a change (under the lock): the record on disk, then every client told."""
        if self.files is not None:
            await asyncio.to_thread(self.files.flush)
        await self._broadcast_state(events)
        self._wake.set()
        if self.say is not None:
            names = self._table().words(None)
            for event in events:
                if isinstance(event, (HandOver, GameOver)):
                    self.say(describe_event(event, names))

    async def _broadcast_state(
        self, events: tuple[Event, ...], *, whole_hand: bool = False
    ) -> None:
        table = self._table()
        waiting = self._waiting_for() if table.hand_over is not None else ()
        for i, slot in enumerate(self.slots):
            if slot.session is not None:
                slot.session.deliver(self._state(i, events, whole_hand, waiting))
        if table.is_over:
            record = Record(record=table.record())
            for slot in self.slots:
                if slot.session is not None:
                    slot.session.deliver(record)

    def _state(
        self, seat: int, events: tuple[Event, ...], whole_hand: bool, waiting: tuple[int, ...]
    ) -> State:
        return state_for(
            self._table(), seat, self._kinds(), events,
            whole_hand=whole_hand, away=self._driver().away_seats(), waiting=waiting,
        )

    async def _notice(self, notice: Notice, *, but: Session | None = None) -> None:
        """Tell every connected player (but ``but``) ``notice``; the commentary says it."""
        self._say(notice_text(notice, self._names()))
        for slot in self.slots:
            if slot.session is not None and slot.session is not but:
                slot.session.deliver(notice)

    def _names(self) -> tuple[str, ...]:
        """The seats' names as the commentary says them."""
        return tuple(s.name or self._computer_name(i) for i, s in enumerate(self.slots))

    # -- the waiting room ----------------------------------------------------------
    def lobby(self) -> Lobby:
        """The waiting room as every client sees it."""
        seats = tuple(
            LobbySeat(
                name=s.name, computer=s.computer, connected=s.session is not None, host=s.host
            )
            for s in self.slots
        )
        rules = self.config.rules
        return Lobby(
            seats=seats,
            players=rules.players,
            partnerships=rules.partnerships,
            target=rules.target,
            level=self.config.level,
        )

    def _broadcast_lobby(self) -> None:
        lobby = self.lobby()
        for slot in self.slots:
            if slot.session is not None:
                slot.session.deliver(lobby)

    # -- messages ----------------------------------------------------------------------
    async def receive(self, session: Session, raw: str | bytes) -> None:
        """Handle one frame from a client."""
        try:
            message = parse_client(raw)
        except ProtocolError as err:
            refused = err.refused
            fatal = refused.fatal and not session.signed_in
            if fatal and refused.code is RefusalCode.VERSION_MISMATCH:
                # a client of any version reads the challenge's version first
                session.deliver(Challenge(nonce="", password=bool(self.config.password)))
            session.deliver(refused.model_copy(update={"fatal": fatal}))
            if fatal:
                session.close()
            return
        await self.handle(session, message)

    async def handle(self, session: Session, message: ClientMessage) -> None:
        """Handle one checked message from a client."""
        if isinstance(message, Hello):
            await self._hello(session, message)
        elif isinstance(message, Auth):
            await self._auth(session, message)
        elif not session.signed_in:
            session.deliver(Refused(code=RefusalCode.NOT_SIGNED_IN))
        elif isinstance(message, Act):
            await self._act(session, message)
        elif isinstance(message, Ready):
            self._got_ready(session)
        elif isinstance(message, (SetSeat, Start)):
            self._owner(session, message)
        elif isinstance(message, Leave):
            session.close()

    async def _hello(self, session: Session, hello: Hello) -> None:
        if session.nonce is not None or session.signed_in:
            session.deliver(Refused(code=RefusalCode.HELLO_TWICE))
            return
        session.name, session.token = hello.name, hello.token
        session.nonce = secrets.token_hex(16)
        session.deliver(Challenge(nonce=session.nonce, password=bool(self.config.password)))

    async def _auth(self, session: Session, auth: Auth) -> None:
        if session.signed_in:
            session.deliver(Refused(code=RefusalCode.SIGNED_IN_ALREADY))
            return
        if session.nonce is None:
            session.deliver(Refused(code=RefusalCode.HELLO_FIRST))
            return
        nonce, session.nonce = session.nonce, None
        holder = self._token_seat(session.token) is not None
        wait = 0.0 if holder else self.limiter.wait(session.address)
        if wait > 0:
            self._turn_away(
                session, Refused(code=RefusalCode.TOO_MANY_FAILURES, wait_s=math.ceil(wait))
            )
            return
        right = proof_matches(self.config.password, nonce, session.name, auth.proof)
        async with self._lock:
            seat = self._seat_for(session) if right else None
            if seat is None:
                self.limiter.failed(session.address)
                self._turn_away(session, Refused(code=self._refusal(right, holder)))
                return
            if not holder:  # a seat's token says nothing of the others from its address
                self.limiter.succeeded(session.address)
            self._seat(session, seat)

    def _token_seat(self, token: str | None) -> int | None:
        """The seat (not the host's) whose rejoin token is ``token``."""
        if token is None:
            return None
        return next(
            (i for i, s in enumerate(self.slots) if s.token == token and not s.host), None
        )

    def _open_seat(self) -> int | None:
        """The first seat open for a new player, before the game starts."""
        if self.started:
            return None
        return next(
            (i for i, s in enumerate(self.slots) if s.name is None and not s.computer), None
        )

    def _seat_for(self, session: Session) -> int | None:
        """Where a signed-in client sits: back at its seat (token), or the first open one."""
        seat = self._token_seat(session.token)
        return seat if seat is not None else self._open_seat()

    def _refusal(self, right: bool, holder: bool) -> RefusalCode:
        """Why a sign-in is refused: with a password, a caller without a seat's token is told
        the same whether the password was wrong or there is no seat for it."""
        if not self.config.password and right:
            return (
                RefusalCode.STARTED_TOKEN_ONLY if self.started else RefusalCode.SEATS_TAKEN
            )
        if not self.config.password or holder or self._open_seat() is not None:
            return RefusalCode.WRONG_PASSWORD
        if self.started:
            return RefusalCode.WRONG_PASSWORD_OR_STARTED
        return RefusalCode.WRONG_PASSWORD_OR_SEATS_TAKEN

    def _turn_away(self, session: Session, refused: Refused) -> None:
        session.deliver(refused.model_copy(update={"fatal": True}))
        session.close()

    def _seat(self, session: Session, seat: int) -> None:
        """Sit a signed-in client at ``seat`` (its own, by token, or an open one)."""
        rejoined = self._token_seat(session.token) == seat
        slot = self.slots[seat]
        old = slot.session
        if old is not None and old is not session:
            old.deliver(Refused(code=RefusalCode.NEWER_CONNECTION, fatal=True))
            old.seat = None
            old.close()
        if not rejoined:
            slot.name = self._unique(session.name, seat)
            slot.token = _token()
        where = self._computer_name(seat)
        self._say(f"{slot.name} {'rejoined' if rejoined else 'joined'} ({where}).")
        slot.session = session
        session.seat, session.signed_in = seat, True
        assert slot.token is not None
        session.deliver(SeatAssigned(seat=seat, token=slot.token, rejoined=rejoined))
        self._attached(seat, rejoined)

    def _attached(self, seat: int, rejoined: bool) -> None:
        slot = self.slots[seat]
        session = slot.session
        assert session is not None
        if self.table is None:
            self._broadcast_lobby()
            if self.config.auto_start and all(s.name is not None or s.computer for s in self.slots):
                self._start()
            return
        back = self._driver().back(seat)
        if rejoined or back:
            code = NoticeCode.BACK_PLAYING_AGAIN if back else NoticeCode.BACK
            notice = Notice(code=code, seat=seat)
            for other in self.slots:
                if other.session is not None and other.session is not session:
                    other.session.deliver(notice)
        table = self.table
        waiting = self._waiting_for() if table.hand_over is not None else ()
        session.deliver(self._state(seat, table.hand_events, True, waiting))
        if table.is_over:
            session.deliver(Record(record=table.record()))
        self._run_loop()
        self._wake.set()

    def _unique(self, name: str, seat: int) -> str:
        taken = {s.name for i, s in enumerate(self.slots) if i != seat and s.name}
        if name not in taken:
            return name
        n = 2
        while f"{name[:17]} {n}" in taken:
            n += 1
        return f"{name[:17]} {n}"

    async def _act(self, session: Session, act: Act) -> None:
        async with self._lock:
            table = self.table
            if table is None:
                session.deliver(Refused(code=RefusalCode.NOT_STARTED))
                return
            seat = session.seat
            assert seat is not None
            if act.step != table.step:
                session.deliver(Refused(code=RefusalCode.STALE_STEP))
                return
            try:
                events = self._driver().act(seat, act.action)
            except IllegalActionError as err:
                session.deliver(_illegal(err))
                return
            await self._changed(events)

    def _got_ready(self, session: Session) -> None:
        table = self.table
        if table is None or table.hand_over is None or session.seat is None:
            session.deliver(Refused(code=RefusalCode.NO_SUMMARY))
            return
        self._driver().ready(session.seat)
        self._wake.set()

    def _owner(self, session: Session, message: SetSeat | Start) -> None:
        if not session.local:
            session.deliver(Refused(code=RefusalCode.OWNER_ONLY))
            return
        if self.table is not None:
            session.deliver(Refused(code=RefusalCode.ALREADY_STARTED))
            return
        if isinstance(message, Start):
            self._start()
            return
        if message.seat >= len(self.slots) or self.slots[message.seat].host:
            session.deliver(Refused(code=RefusalCode.SEAT_UNCHANGEABLE, seat=message.seat))
            return
        slot = self.slots[message.seat]
        if message.computer and slot.session is not None:
            slot.session.deliver(Refused(code=RefusalCode.SEAT_GIVEN_TO_COMPUTER, fatal=True))
            slot.session.seat = None
            slot.session.close()
            slot.session = None
        slot.name, slot.token, slot.computer = None, None, message.computer
        self._broadcast_lobby()

    def gone(self, session: Session) -> None:
        """A client's connection ended."""
        self.sessions.discard(session)
        seat = session.seat
        if seat is None or self.slots[seat].session is not session:
            return
        slot = self.slots[seat]
        slot.session = None
        session.seat = None
        if self.table is None:
            self._say(f"{slot.name} left.")
            if not slot.host:
                slot.name, slot.token = None, None
            self._broadcast_lobby()
            return
        self._driver().away(seat)
        if self.table.is_over:
            self._say(f"{slot.name} left.")
            return
        self._say(f"{slot.name} lost the connection: their seat is kept for them.")
        notice = Notice(code=NoticeCode.RECONNECTING, seat=seat)
        for other in self.slots:
            if other.session is not None:
                other.session.deliver(notice)
        self._wake.set()

    # -- the network ---------------------------------------------------------------------
    async def start(self, bind: str = "127.0.0.1", port: int = DEFAULT_PORT) -> int:
        """Listen for players on ``bind``:``port`` (0: any free port); the port."""
        self.server = await serve(
            self._connection,
            bind,
            port,
            max_size=WIRE_LIMIT,
            ping_interval=10,
            ping_timeout=20,
            close_timeout=2,
            compression=None,
        )
        sock = next(iter(self.server.sockets))
        self.port = int(sock.getsockname()[1])
        if self.table is not None:
            self._run_loop()
        return self.port

    def pending(self, address: str | None = None) -> list[Session]:
        """The connections not signed in yet (from ``address``), oldest first."""
        return sorted(
            (
                s
                for s in self.sessions
                if not s.signed_in and not s.dropped and s.drop is not None
                and (address is None or s.address == address)
            ),
            key=lambda s: s.serial,
        )

    def _make_room(self, address: str) -> None:
        """Close the oldest pending connections past the caps (per address, in all)."""
        same = self.pending(address)
        for old in same[: max(0, len(same) - MAX_PENDING_PER_ADDRESS)]:
            _drop(old, TOO_MANY, close_reason(CloseCode.TOO_MANY_FROM_ADDRESS))
        every = self.pending()
        for old in every[: max(0, len(every) - MAX_PENDING)]:
            _drop(old, TOO_MANY, close_reason(CloseCode.TOO_MANY_CONNECTIONS))

    def _hello_expired(self, session: Session) -> None:
        if not session.signed_in:
            timeout = self.config.hello_timeout
            _drop(session, TOO_SLOW, close_reason(CloseCode.SIGN_IN_TIMEOUT, timeout))

    async def _connection(self, ws: ServerConnection) -> None:
        outgoing: asyncio.Queue[str | None] = asyncio.Queue()
        loop = asyncio.get_running_loop()

        def deliver(message: HostMessage) -> None:
            outgoing.put_nowait(encode(message))

        def close() -> None:
            outgoing.put_nowait(None)

        def drop(code: int, reason: str) -> None:
            task = loop.create_task(_close_now(ws, code, reason))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

        peer = ws.remote_address
        session = Session(
            deliver=deliver,
            close=close,
            address=str(peer[0]) if peer else "",
            drop=drop,
            serial=next(self._serials),
        )
        self.sessions.add(session)
        self._make_room(session.address)
        timer = loop.call_later(self.config.hello_timeout, self._hello_expired, session)
        writer = loop.create_task(_write(ws, outgoing))
        try:
            async for raw in ws:
                if writer.done() or session.dropped:
                    break
                await self.receive(session, raw)
        except ConnectionClosed:
            pass
        finally:
            timer.cancel()
            self.gone(session)
            close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 2)
            writer.cancel()

    def local_link(self) -> LocalLink:
        """The host's own player's line to this host (seat 0, signed in as the host)."""
        link = LocalLink(self)
        return link

    async def close(self) -> None:
        """Stop serving: the loop stops, the connections close, the record is on disk."""
        if self._loop_task is not None:
            self._loop_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._loop_task
        if self.server is not None:
            self.server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 5)
        if self.files is not None:
            await asyncio.to_thread(self.files.close)


def _illegal(err: IllegalActionError) -> Refused:
    """The refusal of a move the engine refused: its rule and its message, on one line."""
    message = str(err).removesuffix(f" [{err.rule}]")
    detail = one_line(message, DETAIL_MAX)
    return Refused(code=RefusalCode.ILLEGAL, rule=err.rule, detail=detail)


def _drop(session: Session, code: int, reason: str) -> None:
    """Close a pending connection now (it is no longer counted)."""
    if not session.dropped and session.drop is not None:
        session.dropped = True
        session.drop(code, reason)


async def _close_now(ws: ServerConnection, code: int, reason: str) -> None:
    """Close ``ws`` with ``code`` and ``reason``; cut it off if the close does not finish."""
    try:
        await asyncio.wait_for(ws.close(code, reason), 3)
    except Exception:
        ws.transport.abort()


async def _write(ws: ServerConnection, outgoing: asyncio.Queue[str | None]) -> None:
    """Send a connection's messages in order; ``None`` closes it."""
    while True:
        text = await outgoing.get()
        if text is None:
            await ws.close()
            return
        try:
            await ws.send(text)
        except ConnectionClosed:
            return


def _no_flush() -> None:
    return None


def _token() -> str:
    return secrets.token_urlsafe(24)


@dataclass(eq=False)
class LocalLink:
    """The host's own player's connection, in the same process: messages as objects.

    It has the client side's :class:`~allfives_tui.net.client.Link` interface
    (``recv``/``send``/``close``).
    """

    host: Host
    inbox: asyncio.Queue[HostMessage | None] = field(default_factory=asyncio.Queue)
    session: Session | None = None
    lost: str | None = None

    def __post_init__(self) -> None:
        self.session = Session(
            deliver=self.inbox.put_nowait, close=lambda: self.inbox.put_nowait(None), local=True
        )
        host = self.host
        seat = next((i for i, s in enumerate(host.slots) if s.host), None)
        if seat is None:
            raise ValueError("this host has no seat of its own")
        slot = host.slots[seat]
        self.session.name = slot.name or host.config.host_name
        self.session.signed_in = True
        self.session.seat = seat
        slot.session = self.session
        assert slot.token is not None
        self.inbox.put_nowait(SeatAssigned(seat=seat, token=slot.token))
        if host.table is None:
            host._broadcast_lobby()
        else:
            host._attached(seat, False)

    async def recv(self) -> HostMessage:
        """The next message from the host."""
        message = await self.inbox.get()
        if message is None:
            raise ConnectionError("the host closed")
        return message

    async def send(self, message: ClientMessage) -> None:
        """Send ``message`` to the host."""
        assert self.session is not None
        await self.host.handle(self.session, message)

    async def close(self) -> None:
        """Leave the table."""
        if self.session is not None:
            self.host.gone(self.session)

