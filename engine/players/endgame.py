"""An exact solver for the end of a hand in one sampled world (every tile known).

Once the boneyard is empty and few tiles are left in the hands, a sampled
world can be played to the end of the hand exactly instead of with a playout
policy: :class:`Solver` runs alpha-beta search with a transposition table over
every line of play on the rules core (:class:`engine.core.Core`).

Two sides. The searching side (the mover's partnership, in a partnership
game) maximises; every other seat minimises the searching side's value. With
three players this is the *paranoid* reduction: both opponents are assumed to
play against the searcher, which keeps the search a two-sided alpha-beta.

The value of a finished line is what the caller's ``value`` function says of
the core where the hand (or the game) ended, as a pair compared in order:
the expert passes :meth:`engine.players.evaluate.Search.outcome`, the chance
that its side wins the game from the scores left (the same measure its
playouts use) and, among equal chances, the side's point margin.

A solve that needs more than ``max_nodes`` positions, or runs past a CPU
``deadline`` (``time.thread_time``), raises :class:`Unsolved`; the caller
falls back to playouts.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from engine import core

Value = tuple[float, float]
"""A line's value to the searching side, compared in order (higher is better)."""

_WORST: Value = (-math.inf, -math.inf)
_BEST: Value = (math.inf, math.inf)

_EXACT, _LOWER, _UPPER = 0, 1, 2

_CHECK_EVERY = 256
"""Positions between two looks at the clock (the first position looks too)."""


class Unsolved(Exception):  # a signal caught by the search, never seen by a caller
    """The solve ran out of positions or time before it finished."""


def solvable(c: core.Core, max_tiles: int) -> bool:
    """True when ``c`` is a hand in play with an empty boneyard and at most
    ``max_tiles`` tiles left in all hands together (public facts only)."""
    if c.phase != core.PHASE_PLAY or c.boneyard:
        return False
    return sum(h.bit_count() for h in c.held) <= max_tiles


class Solver:
    """Alpha-beta over the rest of a hand, for the side ``team``.

    ``value(core)`` values a core whose hand (or game) is over. One solver
    may solve many positions of the same world (the candidate moves of one
    decision): its transposition table is shared between them. ``nodes``
    counts the positions searched.
    """

    def __init__(
        self,
        team: int,
        value: Callable[[core.Core], Value],
        *,
        max_nodes: int = 50_000,
        deadline: float = math.inf,
    ) -> None:
        self.team = team
        self.value = value
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.nodes = 0
        self.table: dict[tuple[object, ...], tuple[int, Value]] = {}

    def solve(self, c: core.Core) -> Value:
        """The exact value of ``c`` to the side, with best play by every seat.

        Raises :class:`Unsolved` when the position or time limit is reached.
        """
        return self._search(c, _WORST, _BEST)

    def _search(self, c: core.Core, alpha: Value, beta: Value) -> Value:
        if c.phase != core.PHASE_PLAY:
            return self.value(c)
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise Unsolved
        if self.nodes % _CHECK_EVERY == 1 and time.thread_time() > self.deadline:
            raise Unsolved
        lay = c.layout
        key = (
            c.current,
            *c.held,
            *c.scores,
            lay.lead,
            lay.spinner,
            lay.spinner_arm,
            lay.spinner_index,
            *lay.ends,
            *lay.counts,
            *lay.lengths,
        )
        entry = self.table.get(key)
        if entry is not None:
            flag, stored = entry
            if flag == _EXACT:
                return stored
            if flag == _LOWER and stored >= beta:
                return stored
            if flag == _UPPER and stored <= alpha:
                return stored
        alpha0, beta0 = alpha, beta
        codes = _ordered(c)
        maximise = c.team_of[c.current] == self.team
        best = _WORST if maximise else _BEST
        for code in codes:
            child = c.copy()
            child.step(code)
            v = self._search(child, alpha, beta)
            if maximise:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            elif v < best:
                best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if best <= alpha0:
            self.table[key] = (_UPPER, best)
        elif best >= beta0:
            self.table[key] = (_LOWER, best)
        else:
            self.table[key] = (_EXACT, best)
        return best


def _ordered(c: core.Core) -> list[int]:
    """Legal codes, the most points now first (good moves first prune the most)."""
    legal = c.legal()
    if len(legal) == 1:
        return list(legal)
    total_after = c.layout.total_after
    scored = []
    for code in legal:
        if code >= core.DRAW:
            scored.append((0, code))
            continue
        tile = code // 5
        scored.append((-core.placement_points(total_after(tile, code - tile * 5)), code))
    scored.sort()
    return [code for _, code in scored]
