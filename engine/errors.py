"""Error types raised by the engine; each subclasses :class:`ValueError`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.actions import Action
    from engine.layout import End
    from engine.record import LoadedGame
    from engine.tiles import Tile

SHOWN_CHARS = 40
"""How much of a bad value an error message echoes (see :func:`shown`)."""

MAX_REASON = 300
"""The longest reason a :class:`RecordError` gives (longer ones are cut with "…")."""


def shown(value: object, limit: int = SHOWN_CHARS) -> str:
    """``repr(value)`` for an error message: one line, at most about ``limit`` characters.

    A long string keeps its first ``limit`` characters and ends in "…" inside
    its quotes (``'aaaa…'``); anything else whose repr is long is cut the same
    way. A number too long to convert to text (Python refuses more than 4,300
    digits) is described by its length, and an object whose repr fails or
    recurses too deeply by its type. Never raises.
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return repr(value[:limit])[:-1] + "…" + repr(value[:limit])[-1]
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(value)
    except (ValueError, RecursionError, MemoryError):
        return f"a {type(value).__name__}"
    except Exception:  # a broken __repr__: the value is still shown by its type
        return f"a {type(value).__name__}"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "…"


def one_line(message: str, limit: int = MAX_REASON) -> str:
    """``message`` on one line (every run of white space, newlines too, as one space),
    cut to ``limit`` characters with "…"."""
    text = " ".join(str(message).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class AllFivesError(ValueError):
    """Base class of every error the engine raises on bad input.

    The message (``str(err)``) is English. ``code`` names the problem for a
    front-end that words it in its own language (a short token, the same in
    every language; ``""`` for an error that a player never meets), and
    ``details`` holds, by name, the values the message was made from.
    """

    def __init__(
        self, message: str, *, code: str = "", details: Mapping[str, object] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code if isinstance(code, str) else str(code)
        self.details: dict[str, object] = dict(details) if isinstance(details, Mapping) else {}


def not_a_member(
    kind: str, value: object, members: Iterable[object], *, code: str = ""
) -> AllFivesError:
    """The error for ``value`` that is none of an enum's ``members`` (its ``_missing_``);
    ``details``: the ``value`` (as :func:`shown`) and the ``choices``."""
    names = tuple(str(getattr(m, "value", m)) for m in members)
    choices = ", ".join(repr(name) for name in names)
    return AllFivesError(
        f"not {kind}: {shown(value)} (one of {choices})",
        code=code,
        details={"value": shown(value), "choices": names},
    )


class IllegalActionError(AllFivesError):
    """An action that the rules do not allow in this state.

    ``rule`` (also its ``code``) names the rule that forbids it (for example
    ``"must-play"``); the other attributes are the facts it names, ``None``
    where a rule has none:

    * ``seat``: the seat concerned (the one that acted; for ``start-player``
      the one that must start; for ``deal-hand-size`` the one dealt wrong);
    * ``action``: the action refused;
    * ``tile``: its tile (for ``deal-tiles``, a tile dealt twice);
    * ``end``: the end it names (``None`` for a play that names none);
    * ``needs``: the pips that end needs (``match-end``);
    * ``drawn``: the drawn tile that must be played (``play-drawn-tile``).

    The deal's rules put their numbers in ``details``: ``count`` and
    ``expected`` (``deal-hands``: hands and players; ``deal-hand-size``:
    tiles and tiles a hand), ``missing`` (``deal-tiles``: the tiles no one
    was dealt), ``value`` (``deal-tiles``: a tile id that is none;
    ``start-player``: the start seat given).
    """

    def __init__(
        self,
        message: str,
        *,
        rule: str,
        seat: int | None = None,
        action: Action | None = None,
        tile: Tile | None = None,
        end: End | None = None,
        needs: int | None = None,
        drawn: Tile | None = None,
        details: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(f"{message} [{rule}]", code=rule, details=details)
        self.rule = rule
        self.seat = seat
        self.action = action
        self.tile = tile
        self.end = end
        self.needs = needs
        self.drawn = drawn


class NotationError(AllFivesError):
    """Text that does not parse as a tile or an action.

    ``code`` says what is wrong with it, ``text`` is the text that failed to
    parse (``None`` when it is not text at all) and ``part`` the piece of it
    at fault (a word that is not an end, a tile that is none), if any.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str,
        text: str | None = None,
        part: str | None = None,
        details: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message, code=code, details=details)
        self.text = text
        self.part = part


class RecordError(AllFivesError):
    """A game record (save file) that cannot be read or does not replay.

    Its message is one line of at most :data:`MAX_REASON` characters (after
    the place), however long or odd the problem it reports. ``code`` names
    the problem (see :mod:`engine.record`) and ``details`` its values;
    ``cause`` is the engine's error behind it, if any (the deal's or the
    action's :class:`IllegalActionError`, an action's :class:`NotationError`,
    a validator's :class:`AllFivesError`), and ``invalid`` the first pydantic
    error (``type``, ``loc``, ``ctx``) of a record that does not validate.
    ``hand`` and ``move`` (1-based) locate the problem when it lies in the
    actions; ``good_actions`` counts the actions that replayed soundly before it.
    ``partial``, set by the readers of :mod:`engine.record` when a well-formed
    record stops replaying after some sound actions, is the loaded game of
    those actions (``None`` otherwise).
    """

    def __init__(
        self,
        reason: str,
        *,
        code: str = "",
        details: Mapping[str, object] | None = None,
        cause: AllFivesError | None = None,
        invalid: Mapping[str, Any] | None = None,
        hand: int | None = None,
        move: int | None = None,
        good_actions: int = 0,
    ) -> None:
        reason = one_line(reason)
        where = ""
        if hand is not None and move is not None:
            where = f"hand {hand}, move {move}: "
        elif hand is not None:
            where = f"hand {hand}: "
        AllFivesError.__init__(self, f"{where}{reason}", code=code, details=details)
        self.reason = reason
        self.cause = cause
        self.invalid = invalid
        self.hand = hand
        self.move = move
        self.good_actions = good_actions
        self.partial: LoadedGame | None = None
