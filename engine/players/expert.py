"""The expert level: Monte Carlo search under hidden information.

For each move it samples *worlds*: the unseen tiles dealt to the other hands
and the boneyard consistently with everything public (tile counts, and who drew
or passed on which ends, see :mod:`engine.players.knowledge`). In each world it
tries every legal action and plays the hand out with a fast greedy policy on
the rules core, scoring the outcome for its side (its partnership, in a
partnership game): points gained minus the opponents' points, and a large
bonus or malus when the playout reaches the target, so near the end it plays
to win the game rather than for points. The action with the best total over the
same worlds is chosen.

It stops at a time budget (default 0.25 s a move) or after a fixed number of
playouts, whichever comes first, and answers at once when only one action is
legal. Its sampling is seeded from its own seed and the public position, so a
given seed and view always give the same choice when the playout count is fixed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from engine import core
from engine.actions import Action, Deal, action_code
from engine.players.knowledge import Knowledge
from engine.players.playout import Policy, greedy_policy, play_hand
from engine.rng import derive_seed
from engine.state import SeatView

WIN_VALUE = 1000.0
"""What reaching the target is worth, in points, to the playout evaluation."""

DEFAULT_BUDGET = 0.25
"""Seconds per move."""


def move_seed(seed: int, view: SeatView) -> int:
    """A seed for one decision, from the player's seed and the public position only."""
    return derive_seed(seed, view.hand_number, len(view.history), view.seat, sum(view.scores))


class ExpertPlayer:
    """Determinised Monte Carlo search with greedy playouts (see the module doc)."""

    level = "expert"

    def __init__(
        self,
        seed: int = 0,
        budget: float | None = DEFAULT_BUDGET,
        playouts: int | None = None,
        policy: Policy = greedy_policy,
    ) -> None:
        if budget is None and playouts is None:
            raise ValueError("the expert needs a time budget, a playout count, or both")
        if budget is not None and budget <= 0:
            raise ValueError("the time budget must be positive")
        if playouts is not None and playouts <= 0:
            raise ValueError("the playout count must be positive")
        self.seed = seed
        self.budget = budget
        self.playouts = playouts
        self.policy = policy
        self.last_playouts = 0

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """The action with the best expected outcome over sampled worlds."""
        self.last_playouts = 0
        if len(legal) == 1:
            return legal[0]
        totals = self.evaluate(view, legal)
        best = max(range(len(legal)), key=lambda i: (totals[i], -i))
        return legal[best]

    def evaluate(self, view: SeatView, legal: Sequence[Action]) -> list[float]:
        """Mean outcome of each legal action over the sampled worlds."""
        start = time.perf_counter()
        deadline = start + self.budget if self.budget is not None else float("inf")
        rng = random.Random(move_seed(self.seed, view))
        know = Knowledge(view)
        base = know.base_core()
        codes = [_code(a) for a in legal]
        n = len(codes)
        team = base.team_of[view.seat]
        teams = len(base.scores)
        root = base.scores[:]
        max_worlds = max(1, -(-self.playouts // n)) if self.playouts is not None else 1 << 60
        totals = [0.0] * n
        policy = self.policy
        worlds = 0
        while worlds < max_worlds:
            if worlds and time.perf_counter() >= deadline:
                break
            world = know.sample(base, rng)
            for i, code in enumerate(codes):
                c = world.copy()
                c.step(code)
                if c.phase == core.PHASE_PLAY:
                    play_hand(c, rng, policy)
                totals[i] += _utility(c, team, teams, root)
            worlds += 1
        self.last_playouts = worlds * n
        return [t / worlds for t in totals]


def _code(action: Action) -> int:
    if isinstance(action, Deal):
        raise TypeError("a deal is not a player's action")
    return action_code(action)


def _utility(c: core.Core, team: int, teams: int, root: Sequence[int]) -> float:
    if c.winner >= 0:
        return WIN_VALUE if c.winner == team else -WIN_VALUE
    scores = c.scores
    mine = scores[team] - root[team]
    others = 0
    for t in range(teams):
        if t != team:
            others += scores[t] - root[t]
    return mine - others / (teams - 1)
