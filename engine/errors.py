"""Error types raised by the engine; each subclasses :class:`ValueError`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.record import LoadedGame


class AllFivesError(ValueError):
    """Base class of every error the engine raises on bad input."""


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
