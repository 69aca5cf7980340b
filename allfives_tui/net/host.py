"""The host: one :class:`~allfives_tui.table.table.Table` served to players over WebSockets.

The host's engine is the only judge. Every client message goes through
:func:`~allfives_tui.net.protocol.parse_client`; an action is applied only when
it comes from a signed-in client, for that client's own seat, on that seat's
turn, at the step the client saw, and the table's engine accepts it; anything
else is answered with a :class:`~allfives_tui.net.protocol.Refused` and changes
nothing.

:class:`Host` composes the parts: the connections
(:class:`~allfives_tui.net.transport.Transport`), signing in
(:class:`~allfives_tui.net.auth.Doorkeeper`), the seats and the waiting room
(:class:`~allfives_tui.net.seating.Seating`) and, once the game starts, its play
(:class:`~allfives_tui.net.game_loop.GameLoop`). The record and the tokens are
saved in the host's folder (:class:`~allfives_tui.net.hostfiles.HostFiles`) so a
restarted host reopens the game. The host's own player (if it plays) talks to it
through a :class:`LocalLink` in the same process.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from allfives_tui.locale import _, ngettext
from allfives_tui.locale.formats import listing
from allfives_tui.net import DEFAULT_PORT
from allfives_tui.net.auth import (
    HELLO_TIMEOUT,
    SIGN_IN_DELAY,
    SIGN_IN_DELAY_MAX,
    Doorkeeper,
    SignInLimiter,
)
from allfives_tui.net.game_loop import GameLoop
from allfives_tui.net.hostfiles import HostFiles, SavedSeats
from allfives_tui.net.protocol import (
    Act,
    Auth,
    ClientMessage,
    Hello,
    HostMessage,
    Leave,
    Lobby,
    ProtocolError,
    Ready,
    RefusalCode,
    Refused,
    SetSeat,
    Start,
    parse_client,
)
from allfives_tui.net.seating import Seating, Slot, new_token
from allfives_tui.net.transport import Session, Transport
from allfives_tui.table.driver import Driver
from allfives_tui.table.places import default_name, seat_name
from allfives_tui.table.table import Table
from engine import Rules
from engine.players import LEVELS
from engine.record import LoadedGame, Seat

GRACE = 60.0
"""Seconds a disconnected player keeps their seat before the computer plays it."""
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
            raise ValueError(_("no computer level {level!r}").format(level=config.level))
        self.config = config
        self.files = files
        self.seating = Seating(config.rules.players)
        self.game: GameLoop | None = None
        """The game's play, once it has started."""
        self.port: int | None = None
        self.finished = asyncio.Event()
        self.errors: list[BaseException] = []
        self.say: Callable[[str], None] | None = None
        """Where the host's running commentary goes (a host without a screen prints it)."""
        self._lock = asyncio.Lock()
        self._loop_task: asyncio.Task[None] | None = None
        self.limiter = SignInLimiter(config.sign_in_delay, SIGN_IN_DELAY_MAX, config.clock)
        self.doors = Doorkeeper(
            self.seating,
            password=config.password,
            limiter=self.limiter,
            lock=self._lock,
            started=lambda: self.started,
            sit=self._seat,
        )
        self.transport = Transport(self.receive, self.gone, config.hello_timeout)
        if resume is not None:
            self._reopen(*resume)
        else:
            if config.host_seat:
                self.slots[0] = Slot(name=config.host_name, host=True, token=new_token())
            if config.open_seats is not None:
                for slot in self.slots[int(config.host_seat) + config.open_seats :]:
                    slot.computer = True

    @property
    def slots(self) -> list[Slot]:
        """The table's seats."""
        return self.seating.slots

    @property
    def sessions(self) -> set[Session]:
        """The open network connections."""
        return self.transport.sessions

    @property
    def table(self) -> Table | None:
        """The table, once the game has started."""
        return self.game.table if self.game is not None else None

    @property
    def driver(self) -> Driver | None:
        """The table's turn driver, once the game has started."""
        return self.game.driver if self.game is not None else None

    @property
    def started(self) -> bool:
        """True once the game has started (or was reopened)."""
        return self.game is not None

    def pending(self, address: str | None = None) -> list[Session]:
        """The connections not signed in yet (from ``address``), oldest first."""
        return self.transport.pending(address)

    # -- the game ----------------------------------------------------------------
    def _reopen(self, game: LoadedGame, saved: SavedSeats) -> None:
        self.config.level = saved.level if saved.level in LEVELS else self.config.level
        self.seating.restore(saved.seats)
        self._seat_table(Table.from_record(game, autosave=self._autosave))

    def _seat_table(self, table: Table) -> None:
        """Play ``table`` from now on (its loop runs once the host is serving)."""
        config = self.config
        self.game = GameLoop(
            table, self.seating, files=self.files, lock=self._lock, say=self._say,
            pace=config.pace, summary_timeout=config.summary_timeout, grace=config.grace,
            level=config.level,
        )

    def _start(self) -> None:
        """Deal the first hand: empty open seats become computers."""
        if self.game is not None:
            return
        seats = self.seating.fill(self.config.level)
        table = Table.new(self.config.rules, seats, self.config.seed)
        self._seat_table(table)
        table.autosave = self._autosave
        self._say(starts_text(seats, self.config.rules.target))
        self._save_seats()
        self._autosave(table.record())
        self._run_loop()

    def _run_loop(self) -> None:
        if self._loop_task is None:
            self._loop_task = asyncio.get_running_loop().create_task(self._play())

    async def _play(self) -> None:
        """Play the game to its end; an error is kept in :attr:`errors`."""
        assert self.game is not None
        try:
            await self.game.run()
            self.finished.set()
        except asyncio.CancelledError:
            raise
        except Exception as err:  # kept for the caller; the host stops serving this game
            self.errors.append(err)
            self.finished.set()
            raise

    def _autosave(self, record: object) -> None:
        if self.files is not None and self.game is not None:
            self.files.save_record(self.game.table.record())

    def _save_seats(self) -> None:
        if self.files is None or self.game is None:
            return
        self.files.save_seats(self.seating.saved(self.game.table.game_id, self.config.level))

    def _say(self, text: str) -> None:
        if self.say is not None:
            self.say(text)

    # -- the waiting room ----------------------------------------------------------
    def lobby(self) -> Lobby:
        """The waiting room as every client sees it."""
        return self.seating.lobby(self.config.rules, self.config.level)

    def _broadcast_lobby(self) -> None:
        self.seating.tell(self.lobby())

    # -- messages ----------------------------------------------------------------------
    async def receive(self, session: Session, raw: str | bytes) -> None:
        """Handle one frame from a client."""
        try:
            message = parse_client(raw)
        except ProtocolError as err:
            self.doors.unreadable(session, err.refused)
            return
        await self.handle(session, message)

    async def handle(self, session: Session, message: ClientMessage) -> None:
        """Handle one checked message from a client."""
        if isinstance(message, Hello):
            self.doors.hello(session, message)
        elif isinstance(message, Auth):
            await self.doors.auth(session, message)
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

    def _seat(self, session: Session, seat: int) -> None:
        """Sit a signed-in client at ``seat`` (its own, by token, or an open one)."""
        rejoined = self.seating.sit(session, seat)
        name, where = self.slots[seat].name, default_name(seat, self.seating.players)
        said = _("{name} rejoined ({place}).") if rejoined else _("{name} joined ({place}).")
        self._say(said.format(name=name, place=where))
        self._attached(seat, rejoined)

    def _attached(self, seat: int, rejoined: bool) -> None:
        session = self.slots[seat].session
        assert session is not None
        if self.game is None:
            self._broadcast_lobby()
            if self.config.auto_start and self.seating.full():
                self._start()
            return
        self.game.attached(session, seat, rejoined)
        self._run_loop()

    async def _act(self, session: Session, act: Act) -> None:
        async with self._lock:
            if self.game is None:
                session.deliver(Refused(code=RefusalCode.NOT_STARTED))
                return
            await self.game.act(session, act)

    def _got_ready(self, session: Session) -> None:
        game = self.game
        if game is None or game.table.hand_over is None or session.seat is None:
            session.deliver(Refused(code=RefusalCode.NO_SUMMARY))
            return
        game.ready(session.seat)

    def _owner(self, session: Session, message: SetSeat | Start) -> None:
        if not session.local:
            session.deliver(Refused(code=RefusalCode.OWNER_ONLY))
            return
        if self.game is not None:
            session.deliver(Refused(code=RefusalCode.ALREADY_STARTED))
            return
        if isinstance(message, Start):
            self._start()
            return
        refused = self.seating.set_seat(message.seat, message.computer)
        if refused is not None:
            session.deliver(refused)
            return
        self._broadcast_lobby()

    def gone(self, session: Session) -> None:
        """A client's connection ended."""
        seat = self.seating.leave(session)
        if seat is None:
            return
        if self.game is not None:
            self.game.away(seat)
            return
        slot = self.slots[seat]
        self._say(_("{name} left.").format(name=slot.name))
        if not slot.host:
            slot.name, slot.token = None, None
        self._broadcast_lobby()

    # -- the network ---------------------------------------------------------------------
    async def start(self, bind: str = "127.0.0.1", port: int = DEFAULT_PORT) -> int:
        """Listen for players on ``bind``:``port`` (0: any free port); the port."""
        self.port = await self.transport.listen(bind, port)
        if self.game is not None:
            self._run_loop()
        return self.port

    def local_link(self) -> LocalLink:
        """The host's own player's line to this host (seat 0, signed in as the host)."""
        return LocalLink(self)

    async def close(self) -> None:
        """Stop serving: the loop stops, the connections close, the record is on disk."""
        if self._loop_task is not None:
            self._loop_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._loop_task
        await self.transport.close()
        if self.files is not None:
            await asyncio.to_thread(self.files.close)


def starts_text(seats: list[Seat], target: int) -> str:
    """The commentary's line as the game starts: who plays, and to how many points."""
    names = [seat_name(s.name, i, len(seats)) for i, s in enumerate(seats)]
    who = [
        _("{name} (computer, {level})").format(name=name, level=s.level)
        if s.is_computer
        else _("{name} (a person)").format(name=name)
        for name, s in zip(names, seats, strict=True)
    ]
    words = ngettext(
        "The game starts: {seats}; to {target} point.",
        "The game starts: {seats}; to {target} points.",
        target,
    )
    return words.format(seats=listing(who), target=target)


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
        seat = host.seating.sit_host(self.session, host.config.host_name)
        if host.game is None:
            host._broadcast_lobby()
        else:
            host._attached(seat, False)

    async def recv(self) -> HostMessage:
        """The next message from the host."""
        message = await self.inbox.get()
        if message is None:
            raise ConnectionError(_("the host closed"))
        return message

    async def send(self, message: ClientMessage) -> None:
        """Send ``message`` to the host."""
        assert self.session is not None
        await self.host.handle(self.session, message)

    async def close(self) -> None:
        """Leave the table."""
        if self.session is not None:
            self.host.gone(self.session)

