"""The montecarlo level: plain flat Monte Carlo, the yardstick for the expert.

For each move it samples *worlds*: the unseen tiles dealt to the other hands
and the boneyard uniformly among every deal consistent with the public draws
and passes (:meth:`engine.players.knowledge.Knowledge.sample_uniform`; no
inference from the tiles a seat chose to play). In each world it plays every
legal action once and then the rest of the hand with greedy moves (the most
points now, :func:`engine.players.playout.greedy_policy`) for every seat, and
values the outcome by its side's point margin over the rest of the hand: the
points its side made, end-of-hand penalties included, less the mean of what
each other side made; plus :data:`TARGET_BONUS` if its side reached the target
in the playout, minus that if another side did. It plays the action with the
best mean over the worlds.

Every action is played out in the same worlds. It stops at a time budget (CPU
time of the deciding thread, by default the expert's) or after
a fixed number of playouts, whichever comes first, and answers at once when
only one action is legal. Seeded from its own seed and the public position, so
a fixed playout count (and no budget) gives the same choice on every machine.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from engine import core
from engine.actions import Action
from engine.errors import AllFivesError
from engine.players.base import no_choice
from engine.players.knowledge import Knowledge
from engine.players.limits import (
    DEFAULT_BUDGET,
    action_code_of,
    check_budget,
    check_playouts,
    move_seed,
)
from engine.players.playout import greedy_policy
from engine.state import SeatView

TARGET_BONUS = 200.0
"""Points added to a playout's margin when the side reaches the target in it
(taken off when another side does)."""


class MonteCarloPlayer:
    """Flat Monte Carlo with uniform worlds and greedy full-hand playouts (see the module doc)."""

    level = "montecarlo"

    def __init__(
        self,
        seed: int = 0,
        budget: float | None = DEFAULT_BUDGET,
        playouts: int | None = None,
    ) -> None:
        if budget is None and playouts is None:
            raise AllFivesError(
                "the montecarlo level needs a time budget, a playout count, or both",
                code="needs-budget-or-playouts",
                details={"level": "montecarlo"},
            )
        check_budget(budget)
        check_playouts(playouts)
        self.seed = seed
        self.budget = budget
        self.playouts = playouts
        self.last_playouts = 0

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """The action with the best mean margin over the sampled worlds."""
        self.last_playouts = 0
        if len(legal) == 1:
            return legal[0]
        if not legal:
            raise no_choice()
        values = self.evaluate(view, legal)
        best = max(range(len(legal)), key=lambda i: (values[i], -i))
        return legal[best]

    def evaluate(self, view: SeatView, legal: Sequence[Action]) -> list[float]:
        """Mean playout value of each legal action (points, with the target bonus)."""
        if not legal:
            raise no_choice()
        clock = time.thread_time
        start = clock()
        deadline = start + self.budget if self.budget is not None else float("inf")
        rng = random.Random(move_seed(self.seed, view))
        know = Knowledge(view)
        base = know.base_core()
        codes = [action_code_of(a) for a in legal]
        n = len(codes)
        team = base.team_of[view.seat]
        before = list(base.scores)
        others = [t for t in range(len(before)) if t != team]
        max_worlds = -(-self.playouts // n) if self.playouts is not None else 1 << 60
        totals = [0.0] * n
        worlds = 0
        policy = greedy_policy
        playing = core.PHASE_PLAY
        while worlds < max_worlds:
            if worlds:
                now = clock()
                if now + (now - start) / worlds > deadline:
                    break
            world = know.sample_uniform(base, rng)
            for i in range(n):
                c = world.copy()
                c.step(codes[i])
                while c.phase == playing:
                    c.step(policy(c, rng))
                scores = c.scores
                margin = float(scores[team] - before[team]) - sum(
                    scores[t] - before[t] for t in others
                ) / len(others)
                if c.winner >= 0:
                    margin += TARGET_BONUS if c.winner == team else -TARGET_BONUS
                totals[i] += margin
            worlds += 1
        self.last_playouts = worlds * n
        return [total / worlds for total in totals]
