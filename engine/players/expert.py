"""The expert level: Monte Carlo search under hidden information.

For each move it samples *worlds*: the unseen tiles dealt to the other hands
and the boneyard consistently with everything public — tile counts, and who
drew or passed on which ends (see :mod:`engine.players.knowledge`) — and, as a
soft preference, away from hands holding a tile that would have scored more
than what that seat chose to play (``inference``). In each world it tries every
legal action and plays on for ``horizon`` actions (or to the end of the hand)
on the rules core with a fast policy for every seat: the most points now less
the best reply it leaves the next player (see
:func:`engine.players.playout.reply_policy`). It scores the outcome for its
side (its partnership, in a partnership game) by the chance of winning the
game from there (:mod:`engine.players.race`), with half the pips each hand
still holds taken off its side's score when the playout is cut off before the
end of the hand. Early in a game a point is then worth about a point; near
the target it plays to win the game rather than for points: it blocks a side
about to get there, and takes risks when behind that it avoids when ahead.

Every action is played out in the same worlds, so their comparison is paired;
every few worlds actions that are clearly behind the leader are dropped
(racing) and the remaining time goes to the contenders. The chosen action has
the best mean. (Adding the heuristic level's score as a prior, as this player
once did, cost it points against the heuristic: see docs/expert.md.)

It stops at a time budget (default 0.25 s of CPU time a move) or after a fixed number of
playouts, whichever comes first, and answers at once when only one action is
legal. Its sampling is seeded from its own seed and the public position, so a
given seed and view always give the same choice when the playout count is fixed
(and there is no budget), on every machine and Python version: worlds are drawn
with ``random.Random.random()`` alone, the one method whose sequence Python
promises to keep (see :mod:`engine.rng`), and everything else is integer or
IEEE-754 arithmetic. (The win chance uses the C library's ``erf``, which could
differ in its last bit between platforms; that could only change a choice
between two actions whose means agree to about 1e-16 without being equal.)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from engine import core
from engine.actions import Action, Deal, action_code
from engine.errors import AllFivesError, shown
from engine.players.base import no_choice
from engine.players.knowledge import Knowledge
from engine.players.playout import Policy, play_hand, reply_policy
from engine.players.race import point_scale, win_chance
from engine.rng import derive_seed
from engine.state import SeatView

RACE_EVERY = 16
"""Worlds between two checks for actions that are clearly worse than the leader."""

RACE_Z = 2.5
"""How many standard errors behind the leader an action must be to be dropped."""

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
        raise AllFivesError(f"the time budget must be a number of seconds, not {shown(budget)}")
    if not math.isfinite(budget) or budget <= 0:
        raise AllFivesError(
            f"the time budget must be a finite number of seconds above 0, not {shown(budget)}"
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
            f"the playout count must be a whole number above 0, not {shown(playouts)}"
        )
    return playouts


def move_seed(seed: int, view: SeatView) -> int:
    """A seed for one decision, from the player's seed and the public position only."""
    return derive_seed(seed, view.hand_number, len(view.history), view.seat, sum(view.scores))


class ExpertPlayer:
    """Determinised Monte Carlo search with reply-aware greedy playouts (see the module doc)."""

    level = "expert"

    def __init__(
        self,
        seed: int = 0,
        budget: float | None = DEFAULT_BUDGET,
        playouts: int | None = None,
        policy: Policy = reply_policy,
        horizon: int | None = 6,
        pip_weight: float = 0.5,
        race: bool = True,
        inference: float = 0.9,
    ) -> None:
        if budget is None and playouts is None:
            raise AllFivesError("the expert needs a time budget, a playout count, or both")
        check_budget(budget)
        check_playouts(playouts)
        self.seed = seed
        self.budget = budget
        self.playouts = playouts
        self.policy = policy
        self.horizon = horizon
        self.pip_weight = pip_weight
        self.race = race
        self.inference = inference
        self.last_playouts = 0
        self.last_alive: list[int] = []

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """The action with the best expected outcome over sampled worlds."""
        self.last_playouts = 0
        if len(legal) == 1:
            return legal[0]
        if not legal:
            raise no_choice()
        values = self.evaluate(view, legal)
        alive = self.last_alive
        best = max(alive, key=lambda i: (values[i], -i))
        return legal[best]

    def evaluate(self, view: SeatView, legal: Sequence[Action]) -> list[float]:
        """Mean outcome of each legal action over the sampled worlds."""
        if not legal:
            raise no_choice()
        clock = time.thread_time
        start = clock()
        deadline = start + self.budget if self.budget is not None else float("inf")
        rng = random.Random(move_seed(self.seed, view))
        know = Knowledge(view, passed_up_weight=self.inference)
        base = know.base_core()
        codes = [action_code_of(a) for a in legal]
        n = len(codes)
        team = base.team_of[view.seat]
        teams = len(base.scores)
        scale = point_scale(base.target)
        max_worlds = max(1, -(-self.playouts // n)) if self.playouts is not None else 1 << 60
        values: list[list[float]] = [[] for _ in range(n)]
        alive = list(range(n))
        policy = self.policy
        horizon = self.horizon
        pip_weight = self.pip_weight
        worlds = 0
        playouts = 0
        while worlds < max_worlds:
            if worlds:
                # Stop when another world would overrun the budget.
                now = clock()
                if now + (now - start) / worlds > deadline:
                    break
            world = know.sample(base, rng)
            for i in alive:
                c = world.copy()
                c.step(codes[i])
                if c.phase == core.PHASE_PLAY:
                    if horizon is None:
                        play_hand(c, rng, policy)
                    else:
                        steps = horizon
                        while steps and c.phase == core.PHASE_PLAY:
                            c.step(policy(c, rng))
                            steps -= 1
                values[i].append(_utility(c, team, teams, scale, pip_weight))
            playouts += len(alive)
            worlds += 1
            if self.race and worlds % RACE_EVERY == 0 and len(alive) > 2:
                alive = _race(alive, values, worlds)
        self.last_playouts = playouts
        self.last_alive = alive
        return [sum(v) / len(v) for v in values]


def _race(alive: list[int], values: Sequence[Sequence[float]], worlds: int) -> list[int]:
    """Drop actions clearly worse than the leader over the same (latest) worlds.

    Every alive action has been played out in each of the last ``worlds``
    worlds, so differences are paired world by world, which removes most of
    the luck of the deal from the comparison.
    """
    means = {i: sum(values[i][-worlds:]) / worlds for i in alive}
    lead = max(alive, key=lambda i: (means[i], -i))
    lv = values[lead]
    keep = []
    for i in alive:
        if i == lead:
            keep.append(i)
            continue
        vi = values[i]
        diffs = [lv[-w] - vi[-w] for w in range(1, worlds + 1)]
        mean_d = sum(diffs) / worlds
        var = sum((d - mean_d) * (d - mean_d) for d in diffs) / (worlds - 1)
        se = math.sqrt(var / worlds)
        gap = means[lead] - means[i]
        if gap - RACE_Z * se <= 0:
            keep.append(i)
    if len(keep) < 2:
        rest = sorted((i for i in alive if i not in keep), key=lambda i: (-means[i], i))
        keep.extend(rest[: 2 - len(keep)])
        keep.sort()
    return keep


def action_code_of(action: Action) -> int:
    """The core's code of a player's action (a deal is not one)."""
    if isinstance(action, Deal):
        raise TypeError("a deal is not a player's action")
    return action_code(action)


def _utility(c: core.Core, team: int, teams: int, scale: float, pip_weight: float) -> float:
    """The playout's outcome for ``team``, in points: ``scale`` times (2 * its chance
    of winning the game - 1), against the side closest to the target."""
    if c.winner >= 0:
        return scale if c.winner == team else -scale
    scores = [float(x) for x in c.scores]
    if c.phase == core.PHASE_PLAY:
        # Cut off before the hand ended: the pips still held are what each
        # side stands to lose.
        team_of = c.team_of
        for seat, held in enumerate(c.held):
            scores[team_of[seat]] -= pip_weight * core.pips_in(held)
    target = c.target
    need = max(target - scores[team], 1.0)
    other_need = max(min(target - scores[t] for t in range(teams) if t != team), 1.0)
    return scale * (2.0 * win_chance(need, other_need, target) - 1.0)
