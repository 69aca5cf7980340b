"""Fast playouts on the rules core (:class:`engine.core.Core`).

Every transition goes through ``Core.legal`` / ``Core.step`` and every score
through ``Layout.place``: there is no second copy of the rules here.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import core
from engine.players.knowledge import placement_points
from engine.rng import RandomSource
from engine.tiles import HIGH, IS_DOUBLE, LOW, PIPS, SET_SIZE

__all__ = [
    "Policy",
    "greedy_policy",
    "placement_points",
    "play_hand",
    "random_hand",
    "reply_policy",
]

Policy = Callable[[core.Core, RandomSource], int]
"""Chooses an action code for the seat to move in a core (drawing only ``random()``
from the generator, if anything: see :mod:`engine.rng`)."""


def greedy_policy(c: core.Core, rng: RandomSource) -> int:
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


def _side_values() -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per tile: (end value it fits, what it then counts at that end) for each half."""
    out = []
    for t in range(SET_SIZE):
        h = HIGH[t]
        lo = LOW[t]
        out.append(((h, 2 * h),) if h == lo else ((h, lo), (lo, h)))
    return tuple(out)


_SIDES = _side_values()


def reply_policy(c: core.Core, rng: RandomSource) -> int:
    """Greedy, less the best reply it leaves: the most points now minus the most
    the next player can score at once with a tile it holds (ties: heaviest tile).

    In a playout every hand is known, so the reply is the next hand's real best
    single placement on the ends the candidate leaves (a draw it might make is
    not counted). A placement that opens the spinner's north and south is
    weighed on an exact copy of the layout; every other one incrementally.
    """
    legal = c.legal()
    if len(legal) == 1:
        return legal[0]
    lay = c.layout
    total_after = lay.total_after
    ends = lay.ends
    counts = lay.counts
    # best[v * 5 + r]: the largest count with remainder r (mod 5) that a tile of
    # the next hand brings to an end needing v (-1: none).
    best = [-1] * 35
    for t in c.hand((c.current + 1) % c.players):
        for v, o in _SIDES[t]:
            k = v * 5 + o % 5
            if o > best[k]:
                best[k] = o
    # Before the spinner's north and south open, covering its side may open them.
    exact = lay.spinner >= 0 and ends[core.N] < 0
    choice = legal[0]
    choice_key = -(1 << 30)
    for code in legal:
        tile = code // 5
        end = code - tile * 5
        reply = 0
        if end == core.LEAD:
            total = total_after(tile, end)
            lo = LOW[tile]
            hi = HIGH[tile]
            # A double lead is a lone spinner: a reply on either side leaves it counting.
            for v, rest in ((lo, total),) if lo == hi else ((lo, hi), (hi, lo)):
                o = best[v * 5 + (-rest) % 5]
                if o >= 0 and rest + o > reply:
                    reply = rest + o
        elif exact and end <= core.E:
            after = lay.copy()
            after.place(tile, end)
            total = after.total
            new_counts = after.counts
            for f, v in enumerate(after.ends):
                if v >= 0:
                    rest = total - new_counts[f]
                    o = best[v * 5 + (-rest) % 5]
                    if o >= 0 and rest + o > reply:
                        reply = rest + o
        else:
            total = total_after(tile, end)
            for f in range(4):
                if f == end:
                    v = LOW[tile] if HIGH[tile] == ends[end] else HIGH[tile]
                    rest = total - (2 * v if IS_DOUBLE[tile] else v)
                else:
                    v = ends[f]
                    if v < 0:
                        continue
                    rest = total - counts[f]
                o = best[v * 5 + (-rest) % 5]
                if o >= 0 and rest + o > reply:
                    reply = rest + o
        key = PIPS[tile] - 16 * reply
        if total > 0 and total % 5 == 0:
            key += 16 * total
        if key > choice_key:
            choice_key = key
            choice = code
    return choice


def play_hand(c: core.Core, rng: RandomSource, policy: Policy) -> None:
    """Play ``c`` with ``policy`` for every seat until the hand (or the game) ends."""
    step = c.step
    while c.phase == core.PHASE_PLAY:
        step(policy(c, rng))


def random_hand(c: core.Core, rng: RandomSource) -> None:
    """Play ``c`` with uniformly random legal actions until the hand ends."""
    step = c.step
    legal = c.legal
    rnd = rng.random
    playing = core.PHASE_PLAY
    while c.phase == playing:
        codes = legal()
        step(codes[int(rnd() * len(codes))])
