"""The limits every searching level shares: a time budget in CPU seconds, a playout
count, and the seed of one decision."""

from __future__ import annotations

import math

from engine.actions import Action, Deal, action_code
from engine.errors import AllFivesError, shown
from engine.rng import derive_seed
from engine.state import SeatView

DEFAULT_BUDGET = 0.25
"""Seconds per move: CPU time of the deciding thread (``time.thread_time``), so a
busy machine slows a move down but does not cut its search short."""


def check_budget(budget: object) -> float | None:
    """``budget`` if it is a time budget the expert can keep: ``None`` (no time
    limit: a playout count must stop it) or a finite number of seconds above 0.

    Raises :class:`~engine.errors.AllFivesError` (a ``ValueError``) naming the
    bad value: an infinite or NaN budget would let a move run for ever.
    """
    if budget is None:
        return None
    if not isinstance(budget, (int, float)) or isinstance(budget, bool):
        raise AllFivesError(
            f"the time budget must be a number of seconds, not {shown(budget)}",
            code="budget-not-a-number",
            details={"value": shown(budget)},
        )
    if not math.isfinite(budget) or budget <= 0:
        raise AllFivesError(
            f"the time budget must be a finite number of seconds above 0, not {shown(budget)}",
            code="budget-not-positive",
            details={"value": shown(budget)},
        )
    return float(budget)


def check_playouts(playouts: object) -> int | None:
    """``playouts`` if it is a playout count: ``None`` (no count) or a whole number above 0.

    Raises :class:`~engine.errors.AllFivesError` (a ``ValueError``) naming the bad value.
    """
    if playouts is None:
        return None
    if not isinstance(playouts, int) or isinstance(playouts, bool) or playouts <= 0:
        raise AllFivesError(
            f"the playout count must be a whole number above 0, not {shown(playouts)}",
            code="playouts-not-positive",
            details={"value": shown(playouts)},
        )
    return playouts


def move_seed(seed: int, view: SeatView) -> int:
    """A seed for one decision, from the player's seed and the public position only."""
    return derive_seed(seed, view.hand_number, len(view.history), view.seat, sum(view.scores))


def action_code_of(action: Action) -> int:
    """The core's code of a player's action (a deal is not one)."""
    if isinstance(action, Deal):
        raise TypeError("a deal is not a player's action")
    return action_code(action)
