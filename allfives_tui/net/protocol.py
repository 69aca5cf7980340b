"""The messages between a host and its players, as pydantic models (protocol 1).

Every message is one JSON object in one WebSocket text frame, told apart by
its ``kind`` (a discriminated union). A client opens with :class:`Hello`
carrying :data:`PROTOCOL_VERSION`; a host of another version refuses it with a
clear reason and closes. The host answers with a :class:`Challenge` (a fresh
nonce); the client proves it knows the table's password with an HMAC of the
nonce (:func:`proof`), so the password never crosses the wire. Then the host
says which seat is the client's (:class:`SeatAssigned`, with a token to rejoin
that seat), shows the waiting room (:class:`Lobby`), and during the game sends
each client only its own :class:`State`: that seat's
:class:`~engine.SeatView` and the public events (another seat's drawn tile is
blanked), the hands revealed only once the hand is over.

Whatever a client sends is read by :func:`parse_client` only: a message that
is too large, not JSON, of an unknown kind or badly formed raises
:class:`ProtocolError` (a ``ValueError``) with a one-line reason, which the
host sends back in a :class:`Refused`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from allfives_tui.table.words import one_line
from engine import Draw, Event, Pass, Play, SeatView, Tile
from engine.record import GameRecord, SeatKind

PROTOCOL_VERSION = 1
"""The version of this protocol; a host and a client must speak the same one."""
MAX_CLIENT_MESSAGE = 4 * 1024
"""A client's message larger than this (in bytes) is refused (a real one is < 300)."""
WIRE_LIMIT = 64 * 1024
"""The host's WebSocket frame limit: a larger frame closes the connection (code 1009)."""
CLIENT_WIRE_LIMIT = 4 * 1024 * 1024
"""The client's frame limit for the host's messages (a whole game's record fits)."""
TOKEN_PATTERN = r"^[A-Za-z0-9_-]{16,64}$"
"""What a rejoin token looks like (the host makes 32 URL-safe characters)."""
NAME_MAX = 20
"""The longest player name."""


class ProtocolError(ValueError):
    """A message that is not a valid message of this protocol (a one-line reason)."""


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _name(value: str) -> str:
    value = " ".join(value.split())
    if not value:
        raise ValueError("a name needs at least one letter")
    if len(value) > NAME_MAX:
        raise ValueError(f"a name has at most {NAME_MAX} characters")
    if not value.isprintable():
        raise ValueError("a name cannot hold control characters")
    return value


# -- client to host -----------------------------------------------------------------


class Hello(_Message):
    """A client's first message: its protocol version, its name, and a token to rejoin."""

    kind: Literal["hello"] = "hello"
    version: int
    name: str
    token: str | None = Field(default=None, pattern=TOKEN_PATTERN)

    @field_validator("name")
    @classmethod
    def _clean_name(cls, value: str) -> str:
        return _name(value)


class Auth(_Message):
    """The answer to a :class:`Challenge`: ``proof`` is :func:`proof` of its nonce."""

    kind: Literal["auth"] = "auth"
    proof: str = Field(pattern=r"^[0-9a-f]{64}$")


class Act(_Message):
    """The client's seat takes ``action``, chosen at game step ``step`` (see :class:`State`)."""

    kind: Literal["act"] = "act"
    action: Annotated[Play | Draw | Pass, Field(discriminator="kind")]
    step: int = Field(ge=0)


class Ready(_Message):
    """The client has read the hand's summary: the next hand may be dealt."""

    kind: Literal["ready"] = "ready"


class SetSeat(_Message):
    """The host's own screen: seat ``seat`` is open for a person, or a computer's."""

    kind: Literal["set_seat"] = "set_seat"
    seat: int = Field(ge=0, le=3)
    computer: bool


class Start(_Message):
    """The host's own screen: start the game (empty open seats become computers)."""

    kind: Literal["start"] = "start"


class Leave(_Message):
    """The client leaves for good (its seat stays, as after a disconnection)."""

    kind: Literal["leave"] = "leave"


ClientMessage = Annotated[
    Hello | Auth | Act | Ready | SetSeat | Start | Leave, Field(discriminator="kind")
]
"""Any message a client sends."""
_CLIENT = TypeAdapter[ClientMessage](ClientMessage)


# -- host to client -----------------------------------------------------------------


class Challenge(_Message):
    """The host's answer to a hello: prove the password by :func:`proof` of ``nonce``."""

    kind: Literal["challenge"] = "challenge"
    version: int = PROTOCOL_VERSION
    nonce: str
    password: bool
    """True when the table has a password (without one, the proof uses an empty one)."""


class SeatAssigned(_Message):
    """The client sits at ``seat``; ``token`` rejoins that seat after a disconnection."""

    kind: Literal["seat"] = "seat"
    seat: int = Field(ge=0, le=3)
    token: str = Field(pattern=TOKEN_PATTERN)
    rejoined: bool = False


class LobbySeat(_Message):
    """One seat in the waiting room."""

    name: str | None
    """Who sits there (``None``: nobody yet)."""
    computer: bool
    """True for a seat the host gave to a computer."""
    connected: bool
    host: bool = False
    """True for the host's own seat."""


class Lobby(_Message):
    """The waiting room: who has joined which seat, and the game to be played."""

    kind: Literal["lobby"] = "lobby"
    seats: tuple[LobbySeat, ...]
    players: int
    partnerships: bool
    target: int
    level: str
    """The level of every seat a computer will play."""


class State(_Message):
    """One seat's picture of the table after a change.

    ``step`` counts the game's actions so far (deals included); ``view`` is the
    seat's own :class:`~engine.SeatView`; ``events`` are the change's events as
    this seat may see them (with ``whole_hand``: every event of the hand so far,
    for a client that just (re)joined); ``revealed`` holds every hand once the
    hand is over; ``away`` the seats whose player is reconnecting; ``waiting``
    the seats the next deal waits for.
    """

    kind: Literal["state"] = "state"
    step: int
    view: SeatView
    names: tuple[str, ...]
    kinds: tuple[SeatKind, ...]
    events: tuple[Event, ...] = ()
    whole_hand: bool = False
    resumed: bool = False
    revealed: tuple[tuple[Tile, ...], ...] | None = None
    away: tuple[int, ...] = ()
    waiting: tuple[int, ...] = ()


class Refused(_Message):
    """What the client sent was refused and changed nothing: ``reason`` says why."""

    kind: Literal["refused"] = "refused"
    reason: str
    fatal: bool = False
    """True when the host closes the connection after this."""


class Notice(_Message):
    """Something to tell every player ("Bob is reconnecting…")."""

    kind: Literal["notice"] = "notice"
    text: str


class Record(_Message):
    """The whole game record, sent once the game is over (for its replay)."""

    kind: Literal["record"] = "record"
    record: GameRecord


HostMessage = Annotated[
    Challenge | SeatAssigned | Lobby | State | Refused | Notice | Record,
    Field(discriminator="kind"),
]
"""Any message the host sends."""
_HOST = TypeAdapter[HostMessage](HostMessage)


# -- reading and writing --------------------------------------------------------------


def encode(message: BaseModel) -> str:
    """A message as the JSON text of one WebSocket frame."""
    return message.model_dump_json(exclude_defaults=False)


def _json(raw: str | bytes, cap: int | None) -> dict[str, Any]:
    size = len(raw.encode("utf-8") if isinstance(raw, str) else raw)
    if cap is not None and size > cap:
        raise ProtocolError(f"message too large: {size} bytes (the limit is {cap})")
    if isinstance(raw, bytes):
        raise ProtocolError("binary frames are not part of the protocol: send JSON text")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as err:
        raise ProtocolError(f"not JSON: {one_line(str(err))[:80]}") from None
    if not isinstance(data, dict):
        raise ProtocolError("a message is a JSON object with a 'kind'")
    return data


def _problem(err: ValidationError) -> str:
    first = err.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    return one_line(f"{where}: {first['msg']}" if where else str(first["msg"]))[:160]


def parse_client(raw: str | bytes) -> ClientMessage:
    """A client's message, checked; raises :class:`ProtocolError` with a reason."""
    data = _json(raw, MAX_CLIENT_MESSAGE)
    if data.get("kind") == "hello" and data.get("version") != PROTOCOL_VERSION:
        raise ProtocolError(version_mismatch(data.get("version")))
    try:
        return _CLIENT.validate_python(data)
    except ValidationError as err:
        raise ProtocolError(f"bad message: {_problem(err)}") from None


def parse_host(raw: str | bytes) -> HostMessage:
    """A host's message, checked (it is only ever displayed); raises :class:`ProtocolError`."""
    data = _json(raw, None)
    if data.get("kind") == "challenge" and data.get("version") != PROTOCOL_VERSION:
        raise ProtocolError(version_mismatch(data.get("version"), host=True))
    try:
        return _HOST.validate_python(data)
    except ValidationError as err:
        raise ProtocolError(f"bad message from the host: {_problem(err)}") from None


def version_mismatch(theirs: object, *, host: bool = False) -> str:
    """The one line saying two versions of the protocol cannot play together."""
    shown = str(theirs)[:12] if isinstance(theirs, int) else "none"
    if host:
        return (
            f"the host speaks protocol {shown} and this allfives speaks {PROTOCOL_VERSION}: "
            "use the same allfives version as the host"
        )
    return (
        f"this host speaks protocol {PROTOCOL_VERSION} and your allfives speaks {shown}: "
        "use the same allfives version as the host"
    )


def proof(password: str, nonce: str, name: str) -> str:
    """The HMAC-SHA256 (hex) proving ``password`` for ``nonce`` and ``name``."""
    message = f"allfives/{PROTOCOL_VERSION}/{nonce}/{name}".encode()
    return hmac.new(password.encode("utf-8"), message, hashlib.sha256).hexdigest()


def proof_matches(password: str, nonce: str, name: str, given: str) -> bool:
    """True when ``given`` is the proof of ``password`` (compared in constant time)."""
    return hmac.compare_digest(proof(password, nonce, name), given)


_TOKEN = re.compile(TOKEN_PATTERN)


def is_token(text: str) -> bool:
    """True for text shaped like a rejoin token."""
    return bool(_TOKEN.match(text))
