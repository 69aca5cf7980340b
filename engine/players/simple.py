"""The random and greedy levels."""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Action, Play, action_code
from engine.players.base import no_choice
from engine.players.knowledge import placement_points
from engine.rng import Rng
from engine.state import SeatView


def points_now(view: SeatView, action: Action) -> int:
    """Points ``action`` scores at once when placed on ``view``'s layout (0 for draw/pass)."""
    if not isinstance(action, Play):
        return 0
    return placement_points(view.layout.to_core(), action_code(action))


class RandomPlayer:
    """A uniformly random legal action."""

    level = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed)

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """A random element of ``legal``."""
        if not legal:
            raise no_choice()
        return legal[self._rng.below(len(legal))]


class GreedyPlayer:
    """The most points now; ties broken by shedding the heaviest tile."""

    level = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed)

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """The highest-scoring placement, heaviest tile first among equals."""
        if len(legal) == 1:
            return legal[0]
        if not legal:
            raise no_choice()

        layout = view.layout.to_core()

        def key(action: Action) -> tuple[int, int]:
            if not isinstance(action, Play):
                return (0, 0)
            return (placement_points(layout, action_code(action)), action.tile.pips)

        return max(legal, key=key)
