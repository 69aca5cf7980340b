"""What a player reads of the host's codes: every refusal, notice and close reason worded.

The host sends codes with arguments (:class:`~allfives_tui.net.protocol.Refused`,
:class:`~allfives_tui.net.protocol.Notice`, a
:class:`~allfives_tui.net.protocol.CloseCode` close reason); this module alone
turns them into sentences, for the client's screen and the host's commentary.
Each code has one whole sentence with named placeholders (:data:`REFUSALS`,
:data:`NOTICES`, :data:`CLOSES`), filled by :meth:`str.format_map`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from allfives_tui.locale import N_, _
from allfives_tui.net.protocol import (
    CloseCode,
    Notice,
    NoticeCode,
    RefusalCode,
    Refused,
    read_close_reason,
)
from allfives_tui.table.problems import validation_text
from allfives_tui.table.words import one_line

REFUSALS: Mapping[RefusalCode, str] = {
    RefusalCode.WRONG_PASSWORD: N_("wrong password for this table"),
    RefusalCode.SEATS_TAKEN: N_("every seat is taken"),
    RefusalCode.STARTED_TOKEN_ONLY: (
        N_("the game has started: only its players can rejoin (with their token)")
    ),
    RefusalCode.WRONG_PASSWORD_OR_SEATS_TAKEN: N_("wrong password, or every seat is taken"),
    RefusalCode.WRONG_PASSWORD_OR_STARTED: (
        N_("wrong password, or the game has started: only its players can rejoin "
        "(with their token)")
    ),
    RefusalCode.TOO_MANY_FAILURES: (
        N_("too many failed sign-ins from your address: try again in {wait_s} s")
    ),
    RefusalCode.NOT_SIGNED_IN: N_("not signed in: send a hello and answer the challenge first"),
    RefusalCode.HELLO_TWICE: N_("hello was already said on this connection"),
    RefusalCode.SIGNED_IN_ALREADY: N_("already signed in"),
    RefusalCode.HELLO_FIRST: N_("send a hello first"),
    RefusalCode.NEWER_CONNECTION: N_("this seat was taken by a newer connection"),
    RefusalCode.SEAT_GIVEN_TO_COMPUTER: N_("the host gave your seat to a computer"),
    RefusalCode.VERSION_MISMATCH: (
        N_("the host speaks protocol {host_version} and this allfives speaks "
        "{client_version}: use the same allfives version as the host")
    ),
    RefusalCode.TOO_LARGE: N_("message too large: {size} bytes (the limit is {limit})"),
    RefusalCode.NOT_JSON: N_("not a message: send one JSON object (with a 'kind') in a text frame"),
    RefusalCode.BAD_MESSAGE: N_("bad message: {field}: {problem}"),
    RefusalCode.NOT_STARTED: N_("the game has not started yet"),
    RefusalCode.STALE_STEP: N_("the table has moved on since that move was chosen"),
    RefusalCode.ILLEGAL: N_("the rules do not allow that move ({rule})"),
    RefusalCode.NO_SUMMARY: N_("there is no hand summary to close now"),
    RefusalCode.OWNER_ONLY: N_("only the host's own screen sets up the table"),
    RefusalCode.ALREADY_STARTED: N_("the game has already started"),
    RefusalCode.SEAT_UNCHANGEABLE: N_("seat {seat} cannot be changed"),
}
"""Each refusal's one line (the client reads it as the host's answer)."""
NOT_JSON_AT = N_(
    "not a message: send one JSON object (with a 'kind') in a text frame "
    "(line {line}, column {column})"
)
"""A refusal for text that is not JSON, with where the parser stopped."""
BAD_MESSAGE_ANYWHERE = N_("bad message: {problem}")
"""A refusal for a message whose problem has no place (the message as a whole)."""
VERSION_UNKNOWN = (
    N_("the host speaks protocol {host_version} and this allfives speaks another: "
    "use the same allfives version as the host")
)
"""A version mismatch whose client version is not a number."""
HOST_VERSION_UNKNOWN = (
    N_("the host speaks no protocol version this allfives ({client_version}) knows: "
    "use the same allfives version as the host")
)
"""A version mismatch whose host version is not a number."""
FROM_HOST: Mapping[RefusalCode, str] = {
    RefusalCode.NOT_JSON: N_("the host sent something that is not a message"),
    RefusalCode.BAD_MESSAGE: N_("bad message from the host: {field}: {problem}"),
}
BAD_FROM_HOST_ANYWHERE = N_("bad message from the host: {problem}")
"""What the client says of a host's message whose problem has no place."""
"""What the client says of a host's message it cannot read (a version mismatch is worded
as in :data:`REFUSALS`)."""
HOST_SAID = N_("the host said: {reason}")
"""The line a fatal refusal leaves when the app closes."""

NOTICES: Mapping[NoticeCode, str] = {
    NoticeCode.RECONNECTING: N_("{name} is reconnecting…"),
    NoticeCode.BACK: N_("{name} is back."),
    NoticeCode.BACK_PLAYING_AGAIN: N_("{name} is back. They play again."),
    NoticeCode.TAKEN_OVER: (
        N_("{name} did not come back in time: the computer plays for them until they rejoin.")
    ),
    NoticeCode.HOST_LOST: N_("Lost the host ({detail}): reconnecting…"),
    NoticeCode.UNREADABLE: N_("The host sent something unreadable, ignored: {detail}"),
}
"""Each notice's sentence."""
SEAT_NAME = N_("Seat {number}")
"""A seat whose name this client does not know."""

CLOSES: Mapping[CloseCode, str] = {
    CloseCode.TOO_MANY_FROM_ADDRESS: N_("too many connections from your address"),
    CloseCode.TOO_MANY_CONNECTIONS: N_("too many connections to this table"),
    CloseCode.SIGN_IN_TIMEOUT: N_("no sign-in within {seconds} s"),
}
"""Each close reason's words."""


def refusal_text(refused: Refused) -> str:
    """The one line saying why the host refused (one line, printable)."""
    code = refused.code
    template = REFUSALS[code]
    if code is RefusalCode.NOT_JSON and refused.line is not None:
        template = NOT_JSON_AT
    elif code is RefusalCode.BAD_MESSAGE and not refused.field:
        template = BAD_MESSAGE_ANYWHERE
    elif code is RefusalCode.VERSION_MISMATCH and refused.host_version is None:
        template = HOST_VERSION_UNKNOWN
    elif code is RefusalCode.VERSION_MISMATCH and refused.client_version is None:
        template = VERSION_UNKNOWN
    return _filled(template, _values(refused))


def host_said(refused: Refused) -> str:
    """The one line a fatal refusal leaves behind ("the host said: …")."""
    return _filled(HOST_SAID, {"reason": refusal_text(refused)})


def unreadable_text(refused: Refused) -> str:
    """What the client says of a message from the host it could not read (``refused``:
    the :class:`~allfives_tui.net.protocol.ProtocolError`'s refusal)."""
    template = FROM_HOST.get(refused.code)
    if template is None:
        return refusal_text(refused)
    if refused.code is RefusalCode.BAD_MESSAGE and not refused.field:
        template = BAD_FROM_HOST_ANYWHERE
    return _filled(template, _values(refused))


def problem_text(refused: Refused) -> str:
    """A bad message's problem (its pydantic type and context) in words."""
    return validation_text({"type": refused.problem or "", "ctx": refused.context or {}})


def _values(refused: Refused) -> dict[str, object]:
    """A refusal's arguments as its sentence's placeholders (a problem in words)."""
    values: dict[str, object] = refused.model_dump(exclude={"kind", "code", "fatal", "context"})
    if refused.code is RefusalCode.BAD_MESSAGE:
        values["problem"] = problem_text(refused)
    return values


def seat_name(seat: int, names: Sequence[str]) -> str:
    """Seat ``seat``'s name (from ``names``, or its number)."""
    if 0 <= seat < len(names):
        return names[seat]
    return _filled(SEAT_NAME, {"number": seat + 1})


def notice_text(notice: Notice, names: Sequence[str] = ()) -> str:
    """The sentence of ``notice``; ``names`` are the seats' names."""
    values: dict[str, object] = {"detail": notice.detail or ""}
    if notice.seat is not None:
        values["name"] = seat_name(notice.seat, names)
    return _filled(NOTICES[notice.code], values)


def close_text(reason: str) -> str:
    """The words of a host's close reason (one of its codes), else the reason itself."""
    known = read_close_reason(reason)
    if known is None:
        return one_line(reason)[:80]
    code, seconds = known
    shown = "?" if seconds is None else f"{seconds:g}"
    return _filled(CLOSES[code], {"seconds": shown})


def _filled(template: str, values: Mapping[str, object]) -> str:
    return one_line(_(template).format_map({k: "" if v is None else v for k, v in values.items()}))

