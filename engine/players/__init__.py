"""Computer players. Each takes a :class:`~engine.state.SeatView` and legal actions.

>>> from engine.players import make_player
>>> player = make_player("greedy", seed=1)
>>> expert = make_player("expert", seed=1, budget=0.1)

Levels, weakest first (:data:`LEVELS`, from :data:`REGISTRY`):

* ``random`` — a uniformly random legal action;
* ``greedy`` — the most points now, ties broken by shedding the heaviest tile;
* ``heuristic`` — points now minus the next opponent's expected reply, plus shape;
* ``montecarlo`` — plain flat Monte Carlo: uniform worlds, greedy playouts to the
  end of the hand, the best mean point margin (the yardstick for the expert);
* ``expert`` — an information-set tree search over worlds sampled from what the seat
  may know (partners: the flat search over them), then exact search in each world
  in the endgame;
* ``master`` — the expert with four times its budget and playout count.

A new level is one entry in :data:`REGISTRY`. The evaluation core the expert
searches with, :func:`engine.players.evaluate.evaluate`, rates every legal
action of a seat's view: its win chance and expected points, each with a
standard error (:class:`ActionValue`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import NamedTuple

from engine.errors import AllFivesError, shown
from engine.players.base import Player
from engine.players.evaluate import ActionValue
from engine.players.expert import DEFAULT_BUDGET, ExpertPlayer, MasterPlayer
from engine.players.heuristic import HeuristicPlayer
from engine.players.montecarlo import MonteCarloPlayer
from engine.players.simple import GreedyPlayer, RandomPlayer
from engine.rng import check_seed

PlayerFactory = Callable[[int, float | None, int | None], Player]
"""Makes a level's player from ``(seed, budget, playouts)`` (see :func:`make_player`)."""


class Level(NamedTuple):
    """A computer level: how to make its player, and in one line what it is and how
    strong it measured (the share of games it won, two players to 250, in
    ``benchmarks/RESULTS.md``)."""

    factory: PlayerFactory
    description: str


REGISTRY: Mapping[str, Level] = MappingProxyType(
    {
        "random": Level(
            lambda seed, budget, playouts: RandomPlayer(seed),
            "a random legal move, for learning the rules",
        ),
        "greedy": Level(
            lambda seed, budget, playouts: GreedyPlayer(seed),
            "the most points now; won 3 % vs expert",
        ),
        "heuristic": Level(
            lambda seed, budget, playouts: HeuristicPlayer(seed),
            "points now less the reply; won 28 % vs montecarlo",
        ),
        "montecarlo": Level(
            lambda seed, budget, playouts: MonteCarloPlayer(
                seed, budget=budget, playouts=playouts
            ),
            "Monte Carlo; won 72 % vs heuristic, 35 % vs expert",
        ),
        "expert": Level(
            lambda seed, budget, playouts: ExpertPlayer(seed, budget=budget, playouts=playouts),
            "tree search, 0.25 s a move; won 65 % vs montecarlo",
        ),
        "master": Level(
            lambda seed, budget, playouts: MasterPlayer(seed, budget=budget, playouts=playouts),
            "1 s a move; won 55 % vs expert",
        ),
    }
)
"""Every computer level by name, weakest first (read-only)."""

LEVELS: tuple[str, ...] = tuple(REGISTRY)
"""Known levels, weakest first."""


def unknown_level(level: object) -> AllFivesError:
    """The error for ``level`` that names no computer level (``details``: the ``value``,
    as :func:`~engine.errors.shown`, and the ``choices``)."""
    return AllFivesError(
        f"unknown computer level {shown(level)}; choose one of {', '.join(LEVELS)}",
        code="unknown-level",
        details={"value": shown(level), "choices": LEVELS},
    )


def make_player(
    level: str,
    seed: int = 0,
    *,
    budget: float | None = DEFAULT_BUDGET,
    playouts: int | None = None,
) -> Player:
    """A player of ``level`` (one of :data:`LEVELS`), deterministic for a ``seed``.

    ``budget`` (seconds of CPU time a move) and ``playouts`` (a fixed count a
    move) apply to the searching levels, ``montecarlo``, ``expert`` and
    ``master`` (which takes four times either); with
    ``playouts`` and ``budget=None`` their choices are fully reproducible, on
    any machine and Python version. Other levels ignore both. An unknown level,
    a seed that is not a whole number, or (for a searching level) a budget that
    is not a finite number of seconds above 0 or a playout count that is not a
    whole number above 0 raises
    :class:`~engine.errors.AllFivesError` (a :class:`ValueError`).
    """
    entry = REGISTRY.get(level) if isinstance(level, str) else None
    if entry is None:
        raise unknown_level(level)
    return entry.factory(check_seed(seed), budget, playouts)


__all__ = [
    "LEVELS",
    "REGISTRY",
    "ActionValue",
    "ExpertPlayer",
    "GreedyPlayer",
    "HeuristicPlayer",
    "Level",
    "MasterPlayer",
    "MonteCarloPlayer",
    "Player",
    "PlayerFactory",
    "RandomPlayer",
    "make_player",
    "unknown_level",
]
