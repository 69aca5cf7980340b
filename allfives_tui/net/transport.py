"""The host's WebSocket side: the server, one :class:`Session` per connection, and the
connections not signed in yet.

A connection that has not signed in is *pending*: it is closed after the hello
time-out, and at most :data:`MAX_PENDING_PER_ADDRESS` of them per address and
:data:`MAX_PENDING` in all are kept (a new one closes the oldest), apart from the
seated players, so a player with a rejoin token always gets in.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from allfives_tui.net.protocol import WIRE_LIMIT, CloseCode, HostMessage, close_reason, encode

MAX_PENDING = 32
"""Connections not signed in yet that a host keeps at once; a new one closes the oldest."""
MAX_PENDING_PER_ADDRESS = 4
"""Connections not signed in yet kept from one address; a new one closes that address's oldest."""
TOO_MANY = 1013
"""The WebSocket close code of a connection closed for want of room (try again later)."""
TOO_SLOW = 1008
"""The WebSocket close code of a connection that did not sign in in time."""


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


class Transport:
    """The server and its connections: each frame goes to ``receive``, each ended
    connection to ``gone``."""

    def __init__(
        self,
        receive: Callable[[Session, str | bytes], Awaitable[None]],
        gone: Callable[[Session], None],
        hello_timeout: float,
    ) -> None:
        self.receive = receive
        self.gone = gone
        self.hello_timeout = hello_timeout
        """Seconds a connection has to sign in before it is closed."""
        self.sessions: set[Session] = set()
        """The open network connections."""
        self.server: Server | None = None
        self._serials = itertools.count(1)
        self._closing: set[asyncio.Task[None]] = set()

    async def listen(self, bind: str, port: int) -> int:
        """Listen on ``bind``:``port`` (0: any free port); the port."""
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
        return int(sock.getsockname()[1])

    async def close(self) -> None:
        """Stop listening and close the connections."""
        if self.server is not None:
            self.server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 5)

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
            timeout = self.hello_timeout
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
        timer = loop.call_later(self.hello_timeout, self._hello_expired, session)
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
            self.sessions.discard(session)
            self.gone(session)
            close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 2)
            writer.cancel()


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
