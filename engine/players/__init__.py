"""Computer players. Each takes a :class:`~engine.state.SeatView` and legal actions.

>>> from engine.players import make_player
>>> player = make_player("greedy", seed=1)
"""

from __future__ import annotations

from collections.abc import Callable

from engine.players.base import Player
from engine.players.simple import GreedyPlayer, RandomPlayer

LEVELS: tuple[str, ...] = ("random", "greedy")
"""Known levels, weakest first."""

_FACTORIES: dict[str, Callable[[int], Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
}


def make_player(level: str, seed: int = 0) -> Player:
    """A player of ``level`` (one of :data:`LEVELS`), deterministic for a ``seed``."""
    try:
        factory = _FACTORIES[level]
    except KeyError:
        raise ValueError(
            f"unknown computer level {level!r}; choose one of {', '.join(LEVELS)}"
        ) from None
    return factory(seed)


__all__ = ["LEVELS", "GreedyPlayer", "Player", "RandomPlayer", "make_player"]
