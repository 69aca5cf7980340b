"""Error types raised by the engine; each subclasses :class:`ValueError`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.record import LoadedGame

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
    """Base class of every error the engine raises on bad input."""


def not_a_member(kind: str, value: object, members: Iterable[object]) -> AllFivesError:
    """The error for ``value`` that is none of an enum's ``members`` (its ``_missing_``)."""
    choices = ", ".join(repr(getattr(m, "value", m)) for m in members)
    return AllFivesError(f"not {kind}: {shown(value)} (one of {choices})")


class IllegalActionError(AllFivesError):
    """An action that the rules do not allow in this state.

    ``rule`` names the rule that forbids it (for example ``"must-play"``).
    """

    def __init__(self, message: str, *, rule: str) -> None:
        super().__init__(f"{message} [{rule}]")
        self.rule = rule


class NotationError(AllFivesError):
    """Text that does not parse as a tile or an action."""


class RecordError(AllFivesError):
    """A game record (save file) that cannot be read or does not replay.

    Its message is one line of at most :data:`MAX_REASON` characters (after
    the place), however long or odd the problem it reports.
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
        super().__init__(f"{where}{reason}")
        self.reason = reason
        self.hand = hand
        self.move = move
        self.good_actions = good_actions
        self.partial: LoadedGame | None = None
