"""Fast playouts on the rules core (:class:`engine.core.Core`).

Every transition goes through ``Core.legal`` / ``Core.step`` and every score
through ``Layout.place``: there is no second copy of the rules here.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine import core
from engine.players.knowledge import placement_points
from engine.tiles import PIPS

__all__ = ["Policy", "greedy_policy", "placement_points", "play_hand", "random_hand"]

Policy = Callable[[core.Core, random.Random], int]
"""Chooses an action code for the seat to move in a core."""


def random_policy(c: core.Core, rng: random.Random) -> int:
    """A uniformly random legal action."""
    legal = c.legal()
    return legal[int(rng.random() * len(legal))]


def greedy_policy(c: core.Core, rng: random.Random) -> int:
    """The most points now, the heaviest tile among equals (ties: first legal)."""
    legal = c.legal()
    if len(legal) == 1:
        return legal[0]
    total_after = c.layout.total_after
    best = legal[0]
    best_key = -1
    for code in legal:
        tile = code // 5
        total = total_after(tile, code - tile * 5)
        key = PIPS[tile]
        if total > 0 and total % 5 == 0:
            key += total * 16
        if key > best_key:
            best_key = key
            best = code
    return best


def play_hand(c: core.Core, rng: random.Random, policy: Policy) -> None:
    """Play ``c`` with ``policy`` for every seat until the hand (or the game) ends."""
    step = c.step
    while c.phase == core.PHASE_PLAY:
        step(policy(c, rng))


def random_hand(c: core.Core, rng: random.Random) -> None:
    """Play ``c`` with uniformly random legal actions until the hand ends."""
    step = c.step
    legal = c.legal
    rnd = rng.random
    while c.phase == core.PHASE_PLAY:
        codes = legal()
        step(codes[int(rnd() * len(codes))])
