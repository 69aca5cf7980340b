"""The client side: join a host over WebSockets, and keep the seat through short outages.

:func:`join` connects, says hello with this allfives's protocol version,
answers the host's challenge with an HMAC of the password (the password
itself is never sent) and returns a :class:`Connection` holding the seat and
its rejoin token. A connection that drops is tried again with the token for
:attr:`Connection.retry` seconds (the screen is told "reconnecting"); after
that :meth:`Connection.recv` raises :class:`HostLost`.

Everything the host sends is parsed into the protocol's models and is only
ever displayed: nothing in it is run, and nothing is written from it.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
from dataclasses import dataclass
from typing import Protocol, TypeVar

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.uri import parse_uri

from allfives_tui.locale import _
from allfives_tui.net import DEFAULT_PORT
from allfives_tui.net.protocol import (
    CLIENT_WIRE_LIMIT,
    DETAIL_MAX,
    PROTOCOL_VERSION,
    Auth,
    Challenge,
    ClientMessage,
    Hello,
    HostMessage,
    Notice,
    NoticeCode,
    ProtocolError,
    Record,
    Refused,
    SeatAssigned,
    encode,
    parse_host,
    proof,
)
from allfives_tui.net.wording import close_text, refusal_text, unreadable_text
from allfives_tui.table.deadline import deadline_after, is_past
from allfives_tui.table.words import one_line
from engine.errors import shown

QUOTED = 80
"""The most of a bad address an error line quotes."""
HOST_NAME_MAX = 253
"""The longest host name (a label is at most 63 characters)."""
RETRY = 20.0
"""Seconds a client keeps trying to reach a host it lost."""
OPEN_TIMEOUT = 10.0
_M = TypeVar("_M", Challenge, SeatAssigned)


class JoinError(ValueError):
    """The host could not be joined (one line saying why)."""


class HostLost(ValueError):
    """The connection to the host is gone for good (one line saying why)."""


class Link(Protocol):
    """A player's line to a host: a network connection, or the host's own in-process one."""

    async def recv(self) -> HostMessage:
        """The next message from the host; raises :class:`HostLost` when it is gone."""
        ...

    async def send(self, message: ClientMessage) -> None:
        """Send ``message`` to the host."""
        ...

    async def close(self) -> None:
        """Leave the table."""
        ...


def address(text: str, default_port: int = DEFAULT_PORT) -> str:
    """``"HOST[:PORT]"`` (or a ``ws://`` address) as a WebSocket URL; raises
    :class:`JoinError` for one that is not an address."""
    text = text.strip()
    quoted = shown(text, QUOTED)
    bad = _("{address} is not an address: give HOST or HOST:PORT").format(address=quoted)
    ipv6 = _("{address}: an IPv6 address is written [ADDRESS]:PORT").format(address=quoted)
    if text.startswith(("ws://", "wss://")):
        try:
            parsed = parse_uri(text)
        except (InvalidURI, ValueError):
            raise JoinError(_("{address} is not a ws:// address").format(address=quoted)) from None
        _check_host(parsed.host, text)
        return text
    if not text or any(c.isspace() or c in "/?#@" for c in text):
        raise JoinError(bad)
    host, port = text, str(default_port)
    if text.startswith("["):  # [::1]:7777
        end = text.find("]")
        if end < 0:
            raise JoinError(ipv6)
        host, rest = text[: end + 1], text[end + 1 :]
        if rest:
            if not rest.startswith(":"):
                raise JoinError(ipv6)
            port = rest[1:]
    elif text.count(":") == 1:
        host, port = text.split(":")
    elif ":" in text:
        host = f"[{text}]"
    if not port.isdigit() or not 0 < int(port) < 65536:
        words = _("{port} is not a port number (1 to 65535)")
        raise JoinError(words.format(port=shown(port, QUOTED)))
    inner = host[1:-1] if host.startswith("[") else host
    _check_host(inner, text, ipv6=text.startswith("["))
    return f"ws://{host}:{int(port)}/"


def _check_host(host: str, text: str, *, ipv6: bool = False) -> None:
    """Raise :class:`JoinError` unless ``host`` (of the address ``text``) is an IP address
    or a host name that can be looked up (an IPv6 address when ``ipv6``)."""
    if ipv6 or ":" in host:
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            if ipv6:
                words = _("{address} is not an address: inside [ ] goes an IPv6 address")
            else:
                words = _(
                    "{address} is not an address: an IPv6 address is written [ADDRESS]:PORT, "
                    "a host name HOST:PORT"
                )
            raise JoinError(words.format(address=shown(text, QUOTED))) from None
        return
    try:
        encoded = host.encode("idna")
    except UnicodeError:
        encoded = b""
    labels = encoded.rstrip(b".").split(b".")
    if len(encoded) > HOST_NAME_MAX or not all(0 < len(label) <= 63 for label in labels):
        words = _("{address} is not a host name (at most {most} characters, 63 between dots)")
        raise JoinError(words.format(address=shown(text, QUOTED), most=HOST_NAME_MAX))


@dataclass(eq=False)
class Connection:
    """A joined player's connection to a host (a :class:`Link`)."""

    url: str
    name: str
    password: str
    seat: int
    token: str
    ws: ClientConnection | None
    retry: float = RETRY
    lost: str | None = None
    """Why the connection dropped, while it is being tried again."""
    over: bool = False
    """True once the host has sent the finished game's record: a close then is the end."""
    _rejoined: SeatAssigned | None = None

    async def recv(self) -> HostMessage:
        """The next message from the host (a "reconnecting" notice when the line drops)."""
        if self._rejoined is not None:
            first, self._rejoined = self._rejoined, None
            return first
        while True:
            if self.ws is None:
                await self._reconnect()
                if self._rejoined is not None:
                    back, self._rejoined = self._rejoined, None
                    return back
                continue
            try:
                raw = await self.ws.recv()
            except ConnectionClosed as err:
                self.ws = None
                if self.over:
                    raise HostLost(_("the host has closed the table")) from None
                self.lost = _closed_reason(err)
                return Notice(code=NoticeCode.HOST_LOST, detail=self.lost[:DETAIL_MAX])
            try:
                message = parse_host(raw)
            except ProtocolError as err:
                detail = unreadable_text(err.refused)[:DETAIL_MAX]
                return Notice(code=NoticeCode.UNREADABLE, detail=detail)
            self.over = self.over or isinstance(message, Record)
            return message

    async def _reconnect(self) -> None:
        deadline = deadline_after(self.retry)
        reason = self.lost or _("the connection closed")
        while not is_past(deadline):
            try:
                ws, seated = await _handshake(
                    self.url, self.name, self.password, self.token, timeout=3.0
                )
            except JoinError as err:
                words = _("the host refused to take you back: {reason}")
                raise HostLost(words.format(reason=err)) from None
            except (OSError, TimeoutError, InvalidHandshake, ConnectionClosed) as err:
                reason = _reason(err)
                await asyncio.sleep(0.5)
                continue
            self.ws, self.lost, self._rejoined = ws, None, seated
            self.seat, self.token = seated.seat, seated.token
            return
        raise HostLost(_("lost the host at {address} ({reason})").format(
            address=self.url, reason=reason
        ))

    async def send(self, message: ClientMessage) -> None:
        """Send ``message`` (dropped while the line is down: the host's next picture of
        the table tells what happened)."""
        if self.ws is None:
            return
        with contextlib.suppress(ConnectionClosed):
            await self.ws.send(encode(message))

    async def close(self) -> None:
        """Close the connection."""
        ws, self.ws = self.ws, None
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.close()


def _closed_reason(err: ConnectionClosed) -> str:
    frame = err.rcvd
    if frame is not None and frame.reason:
        return close_text(frame.reason)
    return _("the connection closed")


def _reason(err: BaseException) -> str:
    if isinstance(err, TimeoutError):
        return _("no answer")
    if isinstance(err, ConnectionRefusedError):
        return _("nothing is listening there")
    if isinstance(err, OSError):
        return one_line(err.strerror or str(err))[:80]
    return one_line(str(err))[:80] or type(err).__name__


async def _handshake(
    url: str, name: str, password: str, token: str | None, *, timeout: float = OPEN_TIMEOUT
) -> tuple[ClientConnection, SeatAssigned]:
    ws = await asyncio.wait_for(
        connect(
            url,
            max_size=CLIENT_WIRE_LIMIT,
            open_timeout=timeout,
            compression=None,
            ping_interval=10,
            ping_timeout=20,
        ),
        timeout,
    )
    try:
        await ws.send(encode(Hello(version=PROTOCOL_VERSION, name=name, token=token)))
        challenge = await _expect(ws, Challenge, timeout)
        if challenge.password and not password:
            raise JoinError(
                _("this table has a password: give it with --password (or $ALLFIVES_PASSWORD)")
            )
        await ws.send(encode(Auth(proof=proof(password, challenge.nonce, name))))
        seated = await _expect(ws, SeatAssigned, timeout)
    except BaseException:
        with contextlib.suppress(Exception):
            await ws.close()
        raise
    return ws, seated


async def _expect(ws: ClientConnection, kind: type[_M], timeout: float) -> _M:
    try:
        raw = await asyncio.wait_for(ws.recv(), timeout)
    except ConnectionClosed as err:
        words = _("the host closed the connection ({reason})")
        raise JoinError(words.format(reason=_closed_reason(err))) from None
    try:
        message = parse_host(raw)
    except ProtocolError as err:
        raise JoinError(unreadable_text(err.refused)) from None
    if isinstance(message, Refused):
        raise JoinError(refusal_text(message))
    if not isinstance(message, kind):
        words = _("the host answered with {got!r}, not {wanted}")
        raise JoinError(words.format(got=message.kind, wanted=kind.__name__))
    return message


async def join(
    where: str, name: str, password: str = "", token: str | None = None, *, retry: float = RETRY
) -> Connection:
    """Join the host at ``where`` (``HOST[:PORT]``); raises :class:`JoinError` with one
    line when it cannot."""
    url = address(where)
    try:
        ws, seated = await _handshake(url, name, password, token)
    except JoinError:
        raise
    except (
        OSError, TimeoutError, InvalidHandshake, InvalidURI, ConnectionClosed, ValueError,
    ) as err:
        words = _("cannot reach a host at {address}: {reason}")
        raise JoinError(words.format(address=url[:QUOTED], reason=_reason(err))) from None
    return Connection(
        url=url, name=name, password=password, seat=seated.seat, token=seated.token, ws=ws,
        retry=retry, _rejoined=seated,
    )
