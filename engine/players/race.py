"""How likely a side is to win the game from the scores: the race to the target.

The expert values the end of a playout by the chance of winning the game it
leaves, not by points: far from the target a point is worth about a point,
near it the side that is about to get there matters far more than any margin,
and a side behind should take risks that a side ahead should not.

The model is a race of random walks. Each hand a side nets about
:data:`HAND_POINTS` of the target, and the difference between two sides' net
points in a hand spreads with a standard deviation of about
:data:`HAND_SPREAD` of the target (figures of the heuristic level against
itself, two players). A side needing ``a`` points against one needing ``b`` has about
``(a + b) / 2`` points of the race left to run, and wins with the chance that
the walk of differences over those hands does not wipe out its lead ``b - a``.
"""

from __future__ import annotations

import math

HAND_POINTS = 0.088
"""A side's mean net points in a hand, as a share of the target."""

HAND_SPREAD = 0.12
"""Standard deviation of the difference of two sides' net points in a hand, as a share
of the target."""

_FEWEST_HANDS = 0.3
"""The shortest race the model allows for (part of a hand is still a race)."""

_SQRT2 = math.sqrt(2.0)
_DENSITY_AT_ZERO = 1.0 / math.sqrt(2.0 * math.pi)


def win_chance(need: float, other_need: float, target: int) -> float:
    """The chance that a side needing ``need`` points reaches ``target`` before a
    side needing ``other_need`` (both at least 1)."""
    hands = max((need + other_need) / (2.0 * HAND_POINTS * target), _FEWEST_HANDS)
    spread = HAND_SPREAD * target * math.sqrt(hands)
    return 0.5 * (1.0 + math.erf((other_need - need) / (spread * _SQRT2)))


def point_scale(target: int) -> float:
    """What a certain win is worth in points, so that at the start of a game one more
    point for a side (or one fewer for the other) is worth about one point.

    ``point_scale(target) * (2 * win_chance(...) - 1)`` is then an evaluation in
    points that agrees with the points themselves early in a game.
    """
    hands = 1.0 / HAND_POINTS  # the whole race: both sides need the target
    return HAND_SPREAD * target * math.sqrt(hands) / (2.0 * _DENSITY_AT_ZERO)
