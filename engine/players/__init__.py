"""Computer players. Each takes a :class:`~engine.state.SeatView` and legal actions.

>>> from engine.players import make_player
>>> player = make_player("greedy", seed=1)
>>> expert = make_player("expert", seed=1, budget=0.1)

Levels, weakest first (:data:`LEVELS`):

* ``random`` — a uniformly random legal action;
* ``greedy`` — the most points now, ties broken by shedding the heaviest tile;
* ``heuristic`` — points now minus the next opponent's expected reply, plus shape;
* ``expert`` — Monte Carlo search over worlds sampled from what the seat may know.
"""

from __future__ import annotations

from engine.players.base import Player
from engine.players.expert import DEFAULT_BUDGET, ExpertPlayer
from engine.players.heuristic import HeuristicPlayer
from engine.players.simple import GreedyPlayer, RandomPlayer

LEVELS: tuple[str, ...] = ("random", "greedy", "heuristic", "expert")
"""Known levels, weakest first."""


def make_player(
    level: str,
    seed: int = 0,
    *,
    budget: float | None = DEFAULT_BUDGET,
    playouts: int | None = None,
) -> Player:
    """A player of ``level`` (one of :data:`LEVELS`), deterministic for a ``seed``.

    ``budget`` (seconds a move) and ``playouts`` (a fixed count a move) apply to
    the searching level, ``expert``; with ``playouts`` and ``budget=None`` its
    choices are fully reproducible. Other levels ignore both.
    """
    if level == "random":
        return RandomPlayer(seed)
    if level == "greedy":
        return GreedyPlayer(seed)
    if level == "heuristic":
        return HeuristicPlayer(seed)
    if level == "expert":
        return ExpertPlayer(seed, budget=budget, playouts=playouts)
    raise ValueError(f"unknown computer level {level!r}; choose one of {', '.join(LEVELS)}")


__all__ = [
    "LEVELS",
    "ExpertPlayer",
    "GreedyPlayer",
    "HeuristicPlayer",
    "Player",
    "RandomPlayer",
    "make_player",
]
