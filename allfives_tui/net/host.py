"""The host: one :class:`~allfives_tui.table.table.Table` served to players over WebSockets.

The host's engine is the only judge. Every client message goes through
:func:`~allfives_tui.net.protocol.parse_client`; an action is applied only when
it comes from a signed-in client, for that client's own seat, on that seat's
turn, at the step the client saw, and the table's engine accepts it; anything
else is answered with a :class:`~allfives_tui.net.protocol.Refused` and changes
nothing. After every change each client gets its own seat's
:class:`~allfives_tui.net.protocol.State` (:func:`state_for`): no message holds
another seat's tiles or the boneyard before the hand is over.

The host runs the table's turn loop itself: computers choose in a thread
from their seat's view, at the host's pace; a person's turn waits for their
action, and for a player who lost the connection the grace period, after
which the computer plays that seat until they rejoin with their token; a
hand's summary waits for every connected person (or the summary timeout).
The record and the tokens are saved in the host's folder
(:class:`~allfives_tui.net.hostfiles.HostFiles`) so a restarted host reopens
the game. The host's own player (if it plays) talks to it through a
:class:`LocalLink` in the same process.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from allfives_tui.net.hostfiles import HostFiles, SavedSeat, SavedSeats
from allfives_tui.net.protocol import (
    WIRE_LIMIT,
    Act,
    Auth,
    Challenge,
    ClientMessage,
    Hello,
    HostMessage,
    Leave,
    Lobby,
    LobbySeat,
    Notice,
    ProtocolError,
    Ready,
    Record,
    Refused,
    SeatAssigned,
    SetSeat,
    Start,
    State,
    encode,
    parse_client,
    proof_matches,
)
from allfives_tui.table.storage import SEAT_NAMES
from allfives_tui.table.table import Table, Turn
from allfives_tui.table.words import describe_event
from engine import Action, Drew, Event, GameOver, HandOver, IllegalActionError, Phase, Rules
from engine.players import LEVELS, Player, make_player
from engine.record import LoadedGame, Seat, SeatKind

DEFAULT_PORT = 7777
GRACE = 60.0
"""Seconds a disconnected player keeps their seat before the computer plays it."""
MAX_CONNECTIONS = 32
"""Connections a host keeps at once (signed in or not); more are closed at once."""
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


@dataclass(eq=False)
class Session:
    """One client's connection: its seat once signed in, and its outgoing messages."""

    deliver: Callable[[HostMessage], None]
    close: Callable[[], None]
    local: bool = False
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
    away_since: float | None = None
    taken_over: bool = False
    """True while the computer plays for a person who did not come back in time."""

    @property
    def played_by_computer(self) -> bool:
        """True when the computer chooses this seat's moves now."""
        return self.computer or self.taken_over


def drawn_tile_hidden(event: Event, seat: int) -> Event:
    """``event`` as ``seat`` may see it: another seat's drawn tile is not named."""
    if isinstance(event, Drew) and event.seat != seat and event.tile is not None:
        return event.model_copy(update={"tile": None})
    return event


def steps_of(table: Table) -> int:
    """How many actions (deals included) the table's game has had."""
    st = table.state
    return len(st.deals) + sum(map(len, st.past)) + (len(st.history) if st.deals else 0)


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
    st = table.state
    revealed = st.hands if st.phase is not Phase.PLAY and st.hand_number else None
    return State(
        step=steps_of(table),
        view=table.view(seat),
        names=table.names,
        kinds=kinds,
        events=tuple(drawn_tile_hidden(e, seat) for e in events),
        whole_hand=whole_hand,
        resumed=table.resumed,
        revealed=revealed,
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
        self.sessions: set[Session] = set()
        self.server: Server | None = None
        self.port: int | None = None
        self.finished = asyncio.Event()
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._ready: set[int] = set()
        self._loop_task: asyncio.Task[None] | None = None
        self._stand_ins: dict[int, Player] = {}
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
        now = time.monotonic()
        self.config.level = saved.level if saved.level in LEVELS else self.config.level
        for slot, seat in zip(self.slots, saved.seats, strict=True):
            slot.name, slot.computer, slot.host, slot.token = (
                seat.name, seat.computer, seat.host, seat.token,
            )
            if not slot.computer:
                slot.away_since = now
        self.table = Table.from_record(game, autosave=self._autosave)

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
        self.table = Table.new(self.config.rules, seats, self.config.seed)
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
        """The turn loop: deals, computers' moves, waiting for people."""
        try:
            await self._broadcast_state(self._table().hand_events, whole_hand=True)
            while not self._table().is_over:
                self._wake.clear()
                table = self._table()
                if table.state.phase is Phase.DEAL:
                    if table.hand_over is not None:
                        await self._wait_for_summaries()
                    async with self._lock:
                        if table.state.phase is Phase.DEAL:
                            self._ready.clear()
                            await self._changed(table.deal())
                    continue
                turn = table.turn()
                assert turn is not None
                slot = self.slots[turn.seat]
                if slot.played_by_computer:
                    await self._computer_move(table, turn.seat)
                else:
                    await self._wait_for_person(slot)
            self.finished.set()
        except asyncio.CancelledError:
            raise
        except Exception as err:  # kept for the caller; the host stops serving this game
            self.errors.append(err)
            self.finished.set()
            raise

    def _say(self, text: str) -> None:
        if self.say is not None:
            self.say(text)

    def _table(self) -> Table:
        assert self.table is not None
        return self.table

    async def _computer_move(self, table: Table, seat: int) -> None:
        turn = table.turn()
        assert turn is not None and turn.seat == seat
        state = table.state
        start = time.monotonic()
        if self.slots[seat].computer:
            choose = table.choose
        else:  # a person's seat the computer plays for now, at the host's level
            player = self._stand_ins.get(seat)
            if player is None:
                seed = table.seed * 8 + seat
                player = self._stand_ins[seat] = make_player(self.config.level, seed=seed)

            def choose(turn: Turn) -> Action:
                return player.choose(turn.view, turn.legal)

        action = await asyncio.to_thread(choose, turn)
        wait = self.config.pace - (time.monotonic() - start)
        if wait > 0:
            await asyncio.sleep(wait)
        async with self._lock:
            if table.state is state:
                await self._changed(table.act(seat, action))

    async def _wait_for_person(self, slot: Slot) -> None:
        """Until the table changes, or the away player's grace period runs out."""
        timeout: float | None = None
        if slot.session is None and slot.away_since is not None:
            left = slot.away_since + self.config.grace - time.monotonic()
            if left <= 0:
                slot.taken_over = True
                await self._notice(
                    f"{slot.name} did not come back in time: the computer plays for them "
                    "until they rejoin."
                )
                return
            timeout = left
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), timeout)

    def _waiting_for(self) -> tuple[int, ...]:
        """The seats the next deal waits for: connected people who have not closed the
        summary yet."""
        return tuple(
            i
            for i, s in enumerate(self.slots)
            if not s.played_by_computer and s.session is not None and i not in self._ready
        )

    async def _wait_for_summaries(self) -> None:
        deadline = time.monotonic() + self.config.summary_timeout
        while self._waiting_for():
            left = deadline - time.monotonic()
            if left <= 0:
                return
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), left)

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
        away = tuple(
            i for i, s in enumerate(self.slots) if not s.computer and s.session is None
        )
        return state_for(
            self._table(), seat, self._kinds(), events,
            whole_hand=whole_hand, away=away, waiting=waiting,
        )

    async def _notice(self, text: str, *, but: Session | None = None) -> None:
        self._say(text)
        for slot in self.slots:
            if slot.session is not None and slot.session is not but:
                slot.session.deliver(Notice(text=text))

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
            fatal = "protocol" in str(err) and not session.signed_in
            session.deliver(Refused(reason=str(err), fatal=fatal))
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
            session.deliver(
                Refused(reason="not signed in: send a hello and answer the challenge first")
            )
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
            session.deliver(Refused(reason="hello was already said on this connection"))
            return
        session.name, session.token = hello.name, hello.token
        session.nonce = secrets.token_hex(16)
        session.deliver(Challenge(nonce=session.nonce, password=bool(self.config.password)))

    async def _auth(self, session: Session, auth: Auth) -> None:
        if session.signed_in:
            session.deliver(Refused(reason="already signed in"))
            return
        if session.nonce is None:
            session.deliver(Refused(reason="send a hello first"))
            return
        nonce, session.nonce = session.nonce, None
        if not proof_matches(self.config.password, nonce, session.name, auth.proof):
            session.deliver(Refused(reason="wrong password for this table", fatal=True))
            session.close()
            return
        async with self._lock:
            self._seat(session)

    def _seat(self, session: Session) -> None:
        """Sit a signed-in client: back at its seat (token), or at the first open seat."""
        seat = next(
            (
                i
                for i, s in enumerate(self.slots)
                if session.token is not None and s.token == session.token and not s.host
            ),
            None,
        )
        rejoined = seat is not None
        if seat is None and not self.started:
            seat = next(
                (i for i, s in enumerate(self.slots) if s.name is None and not s.computer), None
            )
        if seat is None:
            reason = (
                "the game has started: only its players can rejoin (with their token)"
                if self.started
                else "every seat is taken"
            )
            session.deliver(Refused(reason=reason, fatal=True))
            session.close()
            return
        slot = self.slots[seat]
        old = slot.session
        if old is not None and old is not session:
            old.deliver(Refused(reason="this seat was taken by a newer connection", fatal=True))
            old.seat = None
            old.close()
        if not rejoined:
            slot.name = self._unique(session.name, seat)
            slot.token = _token()
        where = self._computer_name(seat)
        self._say(f"{slot.name} {'rejoined' if rejoined else 'joined'} ({where}).")
        slot.session = session
        slot.away_since = None
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
        if rejoined or slot.taken_over:
            back = slot.taken_over
            slot.taken_over = False
            for other in self.slots:
                if other.session is not None and other.session is not session:
                    text = f"{slot.name} is back." + (" They play again." if back else "")
                    other.session.deliver(Notice(text=text))
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
                session.deliver(Refused(reason="the game has not started yet"))
                return
            seat = session.seat
            assert seat is not None
            if act.step != steps_of(table):
                session.deliver(
                    Refused(reason="the table has moved on since that move was chosen")
                )
                return
            try:
                events = table.act(seat, act.action)
            except IllegalActionError as err:
                session.deliver(Refused(reason=str(err)))
                return
            await self._changed(events)

    def _got_ready(self, session: Session) -> None:
        table = self.table
        if table is None or table.hand_over is None or session.seat is None:
            session.deliver(Refused(reason="there is no hand summary to close now"))
            return
        self._ready.add(session.seat)
        self._wake.set()

    def _owner(self, session: Session, message: SetSeat | Start) -> None:
        if not session.local:
            session.deliver(Refused(reason="only the host's own screen sets up the table"))
            return
        if self.table is not None:
            session.deliver(Refused(reason="the game has already started"))
            return
        if isinstance(message, Start):
            self._start()
            return
        if message.seat >= len(self.slots) or self.slots[message.seat].host:
            session.deliver(Refused(reason=f"seat {message.seat} cannot be changed"))
            return
        slot = self.slots[message.seat]
        if message.computer and slot.session is not None:
            slot.session.deliver(
                Refused(reason="the host gave your seat to a computer", fatal=True)
            )
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
        slot.away_since = time.monotonic()
        if self.table.is_over:
            self._say(f"{slot.name} left.")
            return
        self._say(f"{slot.name} lost the connection: their seat is kept for them.")
        for other in self.slots:
            if other.session is not None:
                other.session.deliver(Notice(text=f"{slot.name} is reconnecting…"))
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

    async def _connection(self, ws: ServerConnection) -> None:
        outgoing: asyncio.Queue[str | None] = asyncio.Queue()

        def deliver(message: HostMessage) -> None:
            outgoing.put_nowait(encode(message))

        def close() -> None:
            outgoing.put_nowait(None)

        if len(self.sessions) >= MAX_CONNECTIONS:
            await ws.close(1013, "too many connections to this table")
            return
        session = Session(deliver=deliver, close=close)
        self.sessions.add(session)
        writer = asyncio.get_running_loop().create_task(_write(ws, outgoing))
        try:
            async for raw in ws:
                if writer.done():
                    break
                await self.receive(session, raw)
        except ConnectionClosed:
            pass
        finally:
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
        slot.away_since = None
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

