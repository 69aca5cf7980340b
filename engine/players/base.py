"""The one interface every computer player implements."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from engine.actions import Action
from engine.errors import AllFivesError
from engine.state import SeatView


def no_choice() -> AllFivesError:
    """The error of a player asked to choose among no legal actions.

    Nothing is legal at a deal and after the game is over: a player is asked
    only when its seat is the one to act, and then something always is.
    """
    return AllFivesError(
        "no legal action to choose from: a player is asked only when its seat is to act"
    )


@runtime_checkable
class Player(Protocol):
    """Chooses an action for a seat from that seat's view and its legal actions.

    A player never sees the full :class:`~engine.state.GameState`: only the
    :class:`~engine.state.SeatView` of its own seat.
    """

    level: str

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """One of ``legal`` (never empty)."""
        ...
