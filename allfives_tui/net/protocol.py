"""The messages between a host and its players, as pydantic models (protocol 3).

Every message is one JSON object in one WebSocket text frame, told apart by
its ``kind`` (a discriminated union). A client opens with :class:`Hello`
carrying :data:`PROTOCOL_VERSION`; a host of another version answers with a
:class:`Challenge` naming its own version (which a client of any version checks
first, and words as a version mismatch), then a fatal :class:`Refused`, and
closes. The host answers with a :class:`Challenge` (a fresh
nonce); the client proves it knows the table's password with an HMAC of the
nonce (:func:`proof`), so the password never crosses the wire. Then the host
says which seat is the client's (:class:`SeatAssigned`, with a token to rejoin
that seat), shows the waiting room (:class:`Lobby`), and during the game sends
each client only its own :class:`State`: that seat's
:class:`~engine.SeatView` and the public events (another seat's drawn tile is
blanked), the hands revealed only once the hand is over.

Nothing the host sends is English: a :class:`Refused` and a :class:`Notice`
carry a code (:class:`RefusalCode`, :class:`NoticeCode`) and the arguments
that code takes, and the client words them
(:mod:`allfives_tui.net.wording`). A connection the host closes before it signs
in has a :class:`CloseCode` as its close reason (:func:`close_reason`).

Whatever a client sends is read by :func:`parse_client` only: a message that
is too large, not JSON, of an unknown kind or badly formed raises
:class:`ProtocolError` (a ``ValueError``) holding the :class:`Refused` the
host sends back.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_serializer,
    model_validator,
)

from allfives_tui.table.names import player_name
from allfives_tui.table.words import one_line
from engine import Draw, Event, Pass, Play, SeatView, Tile
from engine.record import GameRecord, SeatKind

PROTOCOL_VERSION = 3
"""The version of this protocol; a host and a client must speak the same one (3: a
blank seat name is the place's default name, worded by each client; an illegal move
and a malformed message are refused by code and values alone)."""
MAX_CLIENT_MESSAGE = 4 * 1024
"""A client's message larger than this (in bytes) is refused (a real one is < 300)."""
WIRE_LIMIT = 64 * 1024
"""The host's WebSocket frame limit: a larger frame closes the connection (code 1009)."""
CLIENT_WIRE_LIMIT = 4 * 1024 * 1024
"""The client's frame limit for the host's messages (a whole game's record fits)."""
TOKEN_PATTERN = r"^[A-Za-z0-9_-]{16,64}$"
"""What a rejoin token looks like (the host makes 32 URL-safe characters)."""
DETAIL_MAX = 200
"""The longest ``detail`` of a :class:`Notice` (one the client makes itself)."""


class ProtocolError(ValueError):
    """A message that is not a valid message of this protocol; ``refused`` says why."""

    def __init__(self, refused: Refused) -> None:
        super().__init__(refused.code.value)
        self.refused = refused


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


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
        return player_name(value)


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
    seat's own :class:`~engine.SeatView`; ``names`` the names the seats were given
    (blank: the default name of the seat's place, which each client words in its
    own language); ``events`` are the change's events as
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


class RefusalCode(StrEnum):
    """Why the host refused a message (the arguments each code takes: :data:`REFUSAL_ARGS`)."""

    WRONG_PASSWORD = "wrong_password"
    SEATS_TAKEN = "seats_taken"
    """Every seat is taken (before the start)."""
    STARTED_TOKEN_ONLY = "started_token_only"
    """The game has started: only its players can rejoin, with their token."""
    WRONG_PASSWORD_OR_SEATS_TAKEN = "wrong_password_or_seats_taken"
    WRONG_PASSWORD_OR_STARTED = "wrong_password_or_started"
    TOO_MANY_FAILURES = "too_many_failures"
    """Too many failed sign-ins from this address: ``wait_s`` seconds to wait."""
    NOT_SIGNED_IN = "not_signed_in"
    HELLO_TWICE = "hello_twice"
    SIGNED_IN_ALREADY = "signed_in_already"
    HELLO_FIRST = "hello_first"
    NEWER_CONNECTION = "newer_connection"
    """A newer connection took this seat."""
    SEAT_GIVEN_TO_COMPUTER = "seat_given_to_computer"
    VERSION_MISMATCH = "version_mismatch"
    """``host_version`` and ``client_version`` (``None``: none given) differ."""
    TOO_LARGE = "too_large"
    """A message of ``size`` bytes, over the ``limit``."""
    NOT_JSON = "not_json"
    """Not one JSON object in a text frame (``line`` and ``column``: where the parser
    stopped, if it did)."""
    BAD_MESSAGE = "bad_message"
    """JSON, but not a message of this protocol: its first problem, pydantic's error
    ``problem`` (its type) at ``field`` (its place, if any), with the numbers and
    tokens of its context (``context``)."""
    NOT_STARTED = "not_started"
    STALE_STEP = "stale_step"
    """The table has moved on since the move was chosen."""
    ILLEGAL = "illegal"
    """The rules forbid the move: the ``rule`` (the client words it from the move it
    asked for)."""
    NO_SUMMARY = "no_summary"
    """There is no hand summary to close now."""
    OWNER_ONLY = "owner_only"
    """Only the host's own screen sets up the table."""
    ALREADY_STARTED = "already_started"
    SEAT_UNCHANGEABLE = "seat_unchangeable"
    """Seat ``seat`` cannot be changed."""


REFUSAL_ARGS: dict[RefusalCode, frozenset[str]] = {
    RefusalCode.TOO_MANY_FAILURES: frozenset({"wait_s"}),
    RefusalCode.VERSION_MISMATCH: frozenset({"host_version", "client_version"}),
    RefusalCode.TOO_LARGE: frozenset({"size", "limit"}),
    RefusalCode.NOT_JSON: frozenset({"line", "column"}),
    RefusalCode.BAD_MESSAGE: frozenset({"field", "problem", "context"}),
    RefusalCode.ILLEGAL: frozenset({"rule"}),
    RefusalCode.SEAT_UNCHANGEABLE: frozenset({"seat"}),
}
"""The arguments a refusal's code takes (a code not here takes none)."""
_MAY_BE_NONE = frozenset({"client_version", "line", "column", "field", "context"})
"""Arguments a code takes that may still be left out (``None``)."""
_REFUSAL_FIELDS = ("seat", "wait_s", "host_version", "client_version", "size", "limit",
                   "rule", "line", "column", "field", "problem", "context")
CONTEXT_MAX = 6
"""The most values a :class:`Refused`'s ``context`` holds."""
_CONTEXT_TEXT_MAX = 120
_NOTICE_FIELDS = ("seat", "detail")


def _check_args(code: StrEnum, takes: frozenset[str], given: dict[str, object]) -> None:
    """Raise ``ValueError`` unless ``given`` holds just the arguments ``code`` takes."""
    for field, value in given.items():
        if field not in takes and value is not None:
            raise ValueError(f"{code.value} takes no {field}")
        if field in takes and field not in _MAY_BE_NONE and value is None:
            raise ValueError(f"{code.value} needs a {field}")


class _Coded(_Message):
    """A message of a code and its arguments; the arguments a code does not take are
    left out of its JSON."""

    @model_serializer(mode="wrap")
    def _without_nones(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        return {k: v for k, v in data.items() if v is not None}


class Refused(_Coded):
    """What the client sent was refused and changed nothing: ``code`` says why, with the
    arguments it takes (:data:`REFUSAL_ARGS`)."""

    kind: Literal["refused"] = "refused"
    code: RefusalCode
    fatal: bool = False
    """True when the host closes the connection after this."""
    seat: int | None = Field(default=None, ge=0, le=3)
    wait_s: int | None = Field(default=None, ge=0)
    host_version: int | None = None
    client_version: int | None = None
    size: int | None = Field(default=None, ge=0)
    limit: int | None = Field(default=None, ge=0)
    rule: str | None = Field(default=None, pattern=r"^[a-z0-9-]{1,40}$")
    line: int | None = Field(default=None, ge=1)
    column: int | None = Field(default=None, ge=1)
    field: str | None = Field(default=None, max_length=80)
    problem: str | None = Field(default=None, pattern=r"^[a-z_]{1,40}$")
    context: (
        dict[Annotated[str, Field(pattern=r"^[a-z_]{1,30}$")],
             int | Annotated[str, Field(max_length=_CONTEXT_TEXT_MAX)]]
        | None
    ) = Field(default=None, max_length=CONTEXT_MAX)

    @model_validator(mode="after")
    def _args_of_the_code(self) -> Refused:
        given = {f: getattr(self, f) for f in _REFUSAL_FIELDS}
        _check_args(self.code, REFUSAL_ARGS.get(self.code, frozenset()), given)
        return self


class NoticeCode(StrEnum):
    """What a notice tells (the arguments each code takes: :data:`NOTICE_ARGS`)."""

    RECONNECTING = "reconnecting"
    """Seat ``seat``'s player lost the connection; the seat is kept for them."""
    BACK = "back"
    """Seat ``seat``'s player is back."""
    BACK_PLAYING_AGAIN = "back_playing_again"
    """Seat ``seat``'s player is back and plays again (the computer played for them)."""
    TAKEN_OVER = "taken_over"
    """Seat ``seat``'s player did not come back in time: the computer plays for them."""
    HOST_LOST = "host_lost"
    """Made by the client: the line to the host dropped (``detail``: how), reconnecting."""
    UNREADABLE = "unreadable"
    """Made by the client: the host sent something unreadable (``detail``), ignored."""


NOTICE_ARGS: dict[NoticeCode, frozenset[str]] = {
    NoticeCode.RECONNECTING: frozenset({"seat"}),
    NoticeCode.BACK: frozenset({"seat"}),
    NoticeCode.BACK_PLAYING_AGAIN: frozenset({"seat"}),
    NoticeCode.TAKEN_OVER: frozenset({"seat"}),
    NoticeCode.HOST_LOST: frozenset({"detail"}),
    NoticeCode.UNREADABLE: frozenset({"detail"}),
}
"""The arguments a notice's code takes."""


class Notice(_Coded):
    """Something to tell every player: ``code`` says what, about seat ``seat``."""

    kind: Literal["notice"] = "notice"
    code: NoticeCode
    seat: int | None = Field(default=None, ge=0, le=3)
    detail: str | None = Field(default=None, max_length=DETAIL_MAX)

    @model_validator(mode="after")
    def _args_of_the_code(self) -> Notice:
        given = {f: getattr(self, f) for f in _NOTICE_FIELDS}
        _check_args(self.code, NOTICE_ARGS[self.code], given)
        return self


class CloseCode(StrEnum):
    """Why the host closed a connection that had not signed in (its close reason)."""

    TOO_MANY_FROM_ADDRESS = "too_many_from_address"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    SIGN_IN_TIMEOUT = "sign_in_timeout"
    """No sign-in within the host's hello time-out (its seconds follow the code)."""


def close_reason(code: CloseCode, seconds: float | None = None) -> str:
    """The close reason of ``code``: the code, then its seconds (``"sign_in_timeout 10"``)."""
    return code.value if seconds is None else f"{code.value} {seconds:g}"


def read_close_reason(reason: str) -> tuple[CloseCode, float | None] | None:
    """The code and seconds of a host's close reason (``None``: not one of the codes)."""
    code, _, rest = reason.partition(" ")
    try:
        known = CloseCode(code)
    except ValueError:
        return None
    try:
        seconds = float(rest) if rest else None
    except ValueError:
        return None
    if seconds is not None and not 0 <= seconds < 1e9:
        return None
    return known, seconds


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
        raise ProtocolError(Refused(code=RefusalCode.TOO_LARGE, size=size, limit=cap))
    if isinstance(raw, bytes):
        raise ProtocolError(Refused(code=RefusalCode.NOT_JSON))
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as err:
        where = Refused(code=RefusalCode.NOT_JSON, line=err.lineno, column=err.colno)
        raise ProtocolError(where) from None
    except (ValueError, RecursionError):
        raise ProtocolError(Refused(code=RefusalCode.NOT_JSON)) from None
    if not isinstance(data, dict):
        raise ProtocolError(Refused(code=RefusalCode.NOT_JSON))
    return data


def _problem(err: ValidationError) -> Refused:
    """The refusal of a message that does not validate: its first problem, as a code and
    its values (a validator's own words are not sent: they are the host's language)."""
    first = err.errors()[0]
    where = one_line(".".join(str(p) for p in first["loc"]))[:80] or None
    kind = str(first.get("type", ""))
    if not re.fullmatch(r"[a-z_]{1,40}", kind):
        kind = "invalid"
    context: dict[str, int | str] = {}
    for name, value in (first.get("ctx") or {}).items():
        if len(context) >= CONTEXT_MAX or not re.fullmatch(r"[a-z_]{1,30}", name):
            continue
        if isinstance(value, int) and not isinstance(value, bool):
            context[name] = value
        elif isinstance(value, str) and name != "error":
            context[name] = one_line(value)[:_CONTEXT_TEXT_MAX]
    return Refused(
        code=RefusalCode.BAD_MESSAGE, field=where, problem=kind, context=context or None
    )


def parse_client(raw: str | bytes) -> ClientMessage:
    """A client's message, checked; raises :class:`ProtocolError` (a hello of another
    version: :data:`RefusalCode.VERSION_MISMATCH`, before anything else is read)."""
    data = _json(raw, MAX_CLIENT_MESSAGE)
    if data.get("kind") == "hello" and data.get("version") != PROTOCOL_VERSION:
        raise ProtocolError(version_mismatch(PROTOCOL_VERSION, data.get("version")))
    try:
        return _CLIENT.validate_python(data)
    except ValidationError as err:
        raise ProtocolError(_problem(err)) from None


def parse_host(raw: str | bytes) -> HostMessage:
    """A host's message, checked (it is only ever displayed); raises :class:`ProtocolError`.

    A challenge of another version, or a refusal in words (a version-1 host's, whose
    ``reason`` is its version mismatch), is :data:`RefusalCode.VERSION_MISMATCH`.
    """
    data = _json(raw, None)
    if data.get("kind") == "challenge" and data.get("version") != PROTOCOL_VERSION:
        raise ProtocolError(version_mismatch(data.get("version"), PROTOCOL_VERSION))
    if data.get("kind") == "refused" and "reason" in data and "code" not in data:
        raise ProtocolError(version_mismatch(1, PROTOCOL_VERSION))
    try:
        return _HOST.validate_python(data)
    except ValidationError as err:
        raise ProtocolError(_problem(err)) from None


def version_mismatch(host: object, client: object) -> Refused:
    """The fatal refusal saying the host's and the client's protocol versions differ
    (a version that is not a number is ``None``)."""

    def version(value: object) -> int | None:
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    return Refused(
        code=RefusalCode.VERSION_MISMATCH,
        host_version=version(host),
        client_version=version(client),
        fatal=True,
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
