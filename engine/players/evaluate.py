"""The evaluation core: every legal action's value to the seat, with its uncertainty.

>>> from engine.players.evaluate import evaluate
>>> values = evaluate(view, playouts=2000, seed=1)   # doctest: +SKIP
>>> best = values[0]                                  # doctest: +SKIP
>>> best.action, best.win, best.win_se, best.points, best.points_se  # doctest: +SKIP

:func:`evaluate` is what the expert level searches with, and what a coach
rates moves with: it sees only the seat's :class:`~engine.state.SeatView`,
samples *worlds* (the unseen tiles dealt to the other hands and the boneyard
consistently with the public record, see :mod:`engine.players.knowledge`),
plays every action out in every world on the rules core, and returns one
:class:`ActionValue` per legal action, best first. Every action is played in
the same worlds, so differences between actions are much surer than their
standard errors alone suggest.

A playout plays the action, then ``horizon`` more actions (6) with the
reply-aware policy (:func:`engine.players.playout.reply_policy`) for every
seat, or to the end of the hand. Once at most :data:`EXACT_TILES` tiles are
left in the hands and the boneyard, each world is instead solved exactly to
the end of the hand (:mod:`engine.players.endgame`; the sampled boneyard's
order is part of the world), falling back to the playout for a world it cannot
solve within its position cap or the budget. Its outcome is read two
ways, both for the mover's *side* (its partnership, in a partnership game):

* ``win`` — the chance of winning the game from the scores the playout
  leaves (1 or 0 if it ended the game; else :func:`engine.players.race.win_chance`
  against the side nearest the target), with half the pips each hand still
  holds taken off its side's score if the playout stopped before the hand
  ended;
* ``points`` — the side's point margin over the rest of the hand: the points
  it made, end-of-hand penalties included, less the mean of what each other
  side made (at a cut-off, half the pips each hand still holds count as its
  side's penalty to come).

The search is seeded from ``seed`` and the public position only, so the same
seed, view and playout count (no budget) give exactly the same figures on
every machine and Python version (see :mod:`engine.rng`). A time budget is CPU
time of the calling thread (``time.thread_time``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine import core
from engine.actions import Action
from engine.errors import AllFivesError
from engine.players.base import no_choice
from engine.players.endgame import Solver, Unsolved
from engine.players.knowledge import Knowledge
from engine.players.likelihood import PlayLikelihood, WeightedWorlds
from engine.players.limits import (
    DEFAULT_BUDGET,
    action_code_of,
    check_budget,
    check_playouts,
    move_seed,
)
from engine.players.playout import Policy, play_hand, reply_policy
from engine.players.race import point_scale, win_chance
from engine.state import SeatView

RACE_EVERY = 16
"""Worlds between two checks for actions that are clearly worse than the leader."""

RACE_Z = 2.5
"""How many standard errors behind the leader an action must be to be dropped."""

SETTLE_Z = 3.0
"""How many standard errors ahead of every other action the leader must be for a
racing search to stop early (the choice is settled; the expert banks the time)."""

SETTLE_WORLDS = 32
"""Worlds a search plays at least before it may stop early."""

SEARCH_NODES = 300_000
"""Endgame positions one search may solve in all; once past it
the remaining worlds are played out, so a fixed playout count stays quick in a
large endgame. Deterministic, unlike a time limit."""

RESERVE = 0.001
"""CPU seconds of a budget kept back for what follows the search (reading its means,
choosing), so that a move as a whole keeps within its budget."""

EXACT_TILES = 14
"""Tiles left in the hands and the boneyard together at which each world is solved
exactly to the end of the hand (:mod:`engine.players.endgame`)."""

HORIZON = 6
"""Actions a playout plays after the candidate before it is cut off and valued."""

PIP_WEIGHT = 0.5
"""The share of the pips each hand still holds at a cut-off taken off its side's score."""

INFERENCE = 0.9
"""The weight of the "passed-up points" preference of first-fit worlds (``uniform=False``;
see :class:`~engine.players.knowledge.Knowledge`)."""

WORLD_NODES = 20_000
"""Endgame positions the exact search may solve in one world before it plays the
world out instead."""


@dataclass(frozen=True)
class ActionValue:
    """One legal action's value to the seat that may play it.

    ``win`` is the mean chance that the mover's side wins the game after it,
    ``points`` the mean point margin of that side over the rest of the hand
    (see the module doc); ``win_se`` and ``points_se`` are their standard
    errors (infinite with fewer than two playouts), and ``playouts`` how many
    playouts (worlds) the figures rest on.
    """

    action: Action
    win: float
    win_se: float
    points: float
    points_se: float
    playouts: int


def evaluate(
    view: SeatView,
    legal: Sequence[Action] | None = None,
    *,
    playouts: int | None = None,
    budget: float | None = None,
    seed: int = 0,
    race: bool = False,
) -> tuple[ActionValue, ...]:
    """Every legal action's :class:`ActionValue` for the seat of ``view``, best first.

    ``legal`` defaults to ``view.legal_actions()``. ``playouts`` caps the
    playouts over all actions (each action gets ``ceil(playouts / len(legal))``
    worlds), ``budget`` the CPU seconds; with neither, the budget is the
    expert's default (0.25 s). With ``playouts`` and no budget the figures are
    reproducible exactly. With ``race`` actions clearly behind the leader stop
    being played out (as the expert does), so theirs rest on fewer playouts.
    Best first means by mean ``win`` (ties: the order of ``legal``), the
    actions still in the race before those dropped from it.

    Raises :class:`~engine.errors.AllFivesError` (a ``ValueError``) for a bad
    budget or playout count, or when nothing is legal.
    """
    if legal is None:
        legal = view.legal_actions()
    if playouts is None and budget is None:
        budget = DEFAULT_BUDGET
    since = time.thread_time()
    search = Search(view, legal, seed=seed)
    search.run(playouts=playouts, budget=budget, race=race, since=since)
    return search.values()


class Search:
    """One decision's search: worlds sampled, every action played out in each.

    The options are the expert's: ``policy`` plays every seat in a playout,
    ``horizon`` actions after the candidate (None: to the end of the hand),
    ``pip_weight`` of the pips held at a cut-off count against their side;
    with ``uniform`` (the default) worlds are drawn uniformly among the deals
    consistent with the public draws and passes, as the montecarlo level draws
    them, and without it first-fit from a shuffle with ``inference`` the weight
    of the "passed-up points" preference
    (:class:`~engine.players.knowledge.Knowledge`); ``tail`` (if
    any) plays on from the horizon to the end of the hand. When
    ``exact_tiles`` is above 0 and at most that many tiles are left in the
    hands (and the boneyard, with ``exact_boneyard``; else it must be empty),
    each world is solved exactly instead (:mod:`engine.players.endgame`, at
    most ``max_nodes`` positions a world and ``node_limit`` in all; a world it
    cannot solve within those or the budget is played out).
    """

    def __init__(
        self,
        view: SeatView,
        legal: Sequence[Action],
        *,
        seed: int = 0,
        policy: Policy = reply_policy,
        horizon: int | None = HORIZON,
        pip_weight: float = PIP_WEIGHT,
        inference: float = INFERENCE,
        exact_tiles: int = EXACT_TILES,
        max_nodes: int = WORLD_NODES,
        exact_boneyard: bool = True,
        tail: Policy | None = None,
        uniform: bool = True,
        node_limit: int = SEARCH_NODES,
        odds: float | None = None,
        partner_odds: float | None = None,
    ) -> None:
        if not legal:
            raise no_choice()
        self.legal = tuple(legal)
        self.rng = random.Random(move_seed(seed, view))
        self.know = Knowledge(view, passed_up_weight=0.0 if uniform else inference)
        self.base = self.know.base_core()
        self.weighted: WeightedWorlds | None = None
        if uniform and (odds is not None or partner_odds is not None):
            team_of = self.base.team_of
            me = team_of[view.seat]
            seat_odds = [partner_odds if team_of[s] == me else odds for s in range(len(team_of))]
            likelihood = PlayLikelihood(view, self.know.unseen, seat_odds)
            if likelihood.active:
                self.weighted = WeightedWorlds(self.know, likelihood)
        self.codes = [action_code_of(a) for a in legal]
        self.seat = view.seat
        self.team = self.base.team_of[view.seat]
        self.teams = len(self.base.scores)
        self.others = [t for t in range(self.teams) if t != self.team]
        self.before = list(self.base.scores)
        self.scale = point_scale(self.base.target)
        self.policy = policy
        self.horizon = horizon
        self.pip_weight = pip_weight
        n = len(self.codes)
        self.utilities: list[list[float]] = [[] for _ in range(n)]
        self.margins: list[list[float]] = [[] for _ in range(n)]
        self.wins: list[list[float]] = [[] for _ in range(n)]
        self.alive = list(range(n))
        self.worlds = 0
        self.playouts = 0
        self.exact_tiles = exact_tiles
        self.tiles_left = sum(view.hand_counts)
        if exact_boneyard:
            self.tiles_left += view.boneyard_size
        self.exact_boneyard = exact_boneyard
        self.endgame = (
            exact_tiles > 0
            and (exact_boneyard or view.boneyard_size == 0)
            and self.tiles_left <= exact_tiles
        )
        """True when each world is solved exactly (the endgame), from public facts only:
        the boneyard's size and the hands' tile counts."""
        self.tail = tail
        self.uniform = uniform
        self.max_nodes = max_nodes
        self.node_limit = node_limit
        self.solved = 0
        self.unsolved = 0
        self.nodes = 0
        self.settled_early = False
        """True when :meth:`run` stopped because the choice was settled."""
        self.tree_nodes = 0
        """Nodes a tree search from this position added (:mod:`engine.players.ismcts`)."""

    def run(
        self,
        *,
        playouts: int | None = None,
        budget: float | None = None,
        race: bool = False,
        since: float | None = None,
        settle: float | None = None,
    ) -> None:
        """Sample worlds and play every (alive) action out in each until a limit.

        ``playouts`` caps the worlds at ``ceil(playouts / len(legal))``;
        ``budget`` stops the search before another world would overrun that
        many CPU seconds of this thread, counted from ``since`` (a
        ``time.thread_time()`` reading; default: now, so a caller that did
        work of its own for the decision can count it too). One of them is
        required. With ``settle`` (a number of standard errors, e.g.
        :data:`SETTLE_Z`) the search also stops, at a racing check after at
        least :data:`SETTLE_WORLDS` worlds, once the leader is that far ahead
        of every other action (:func:`settled`); ``settled_early`` says so.
        """
        check_budget(budget)
        check_playouts(playouts)
        if budget is None and playouts is None:
            raise AllFivesError(
                "a search needs a time budget, a playout count, or both",
                code="needs-budget-or-playouts",
            )
        n = len(self.codes)
        clock = time.thread_time
        start = clock()
        deadline = deadline_of(since if since is not None else start, budget)
        max_worlds = max(1, -(-playouts // n)) if playouts is not None else 1 << 60
        rng = self.rng
        codes = self.codes
        policy = self.policy
        horizon = self.horizon
        tail = self.tail
        playing = core.PHASE_PLAY
        utilities = self.utilities
        margins = self.margins
        wins = self.wins
        scale = self.scale
        worlds = 0
        # public facts: the boneyard's size and the hands' tile counts
        exact = self.endgame
        while worlds < max_worlds:
            if worlds:
                # Stop when another world would overrun the budget (worlds vary:
                # allow half as much again as the mean world so far).
                now = clock()
                if now + 1.5 * (now - start) / worlds > deadline:
                    break
            world = self.world()
            alive = self.alive
            if exact and self.nodes >= self.node_limit:
                exact = False
            if exact:
                solver = Solver(
                    self.team, self.outcome, max_nodes=self.max_nodes, deadline=deadline
                )
                try:
                    solved = []
                    for i in alive:
                        c = world.copy()
                        c.step(codes[i])
                        solved.append(solver.solve(c))
                except Unsolved:
                    self.unsolved += 1
                    solved = []
                self.nodes += solver.nodes
                if solved:
                    for i, (p, m) in zip(alive, solved, strict=True):
                        utilities[i].append(scale * (2.0 * p - 1.0))
                        wins[i].append(p)
                        margins[i].append(m)
                    self.solved += 1
                    self.playouts += len(alive)
                    worlds += 1
                    self.worlds += 1
                    if self.worlds % RACE_EVERY == 0 and self._check(race, settle):
                        break
                    continue
                if worlds and clock() > deadline:
                    break  # out of time: the worlds done so far stand
            for i in alive:
                c = world.copy()
                c.step(codes[i])
                if c.phase == playing:
                    if horizon is None:
                        play_hand(c, rng, policy)
                    else:
                        steps = horizon
                        while steps and c.phase == playing:
                            c.step(policy(c, rng))
                            steps -= 1
                        if tail is not None and c.phase == playing:
                            play_hand(c, rng, tail)
                p, m = self.outcome(c)
                # the search's utility, in points: early in a game one point
                # more for the side is worth about one point
                utilities[i].append(scale * (2.0 * p - 1.0))
                wins[i].append(p)
                margins[i].append(m)
            self.playouts += len(alive)
            worlds += 1
            self.worlds += 1
            if self.worlds % RACE_EVERY == 0 and self._check(race, settle):
                break

    def world(self) -> core.Core:
        """A world for the next playout: drawn uniformly among the consistent deals, in
        proportion to the plays' likelihood (``odds``, ``partner_odds``), or first-fit
        with the passed-up preference (``uniform=False``)."""
        if self.weighted is not None:
            return self.weighted.sample(self.base, self.rng)
        if self.uniform:
            return self.know.sample_uniform(self.base, self.rng)
        return self.know.sample(self.base, self.rng)

    def _check(self, race: bool, settle: float | None) -> bool:
        """Every :data:`RACE_EVERY` worlds: drop clearly worse actions (``race``); True
        when the choice is settled (``settle``) and the search should stop."""
        if race and len(self.alive) > 2:
            self.alive = race_out(self.alive, self.utilities, self.worlds)
        if (
            settle is not None
            and self.worlds >= SETTLE_WORLDS
            and settled(self.alive, self.utilities, self.worlds, settle)
        ):
            self.settled_early = True
            return True
        return False

    def outcome(self, c: core.Core) -> tuple[float, float]:
        """A playout's end for the mover's side: (its chance of winning the game, its
        point margin over the rest of the hand)."""
        team = self.team
        before = self.before
        scores = [float(x) for x in c.scores]
        if c.phase == core.PHASE_PLAY:
            # Cut off before the hand ended: the pips still held are what each
            # side stands to lose.
            team_of = c.team_of
            pip_weight = self.pip_weight
            for seat, held in enumerate(c.held):
                scores[team_of[seat]] -= pip_weight * core.pips_in(held)
        others = self.others
        margin = (scores[team] - before[team]) - sum(scores[t] - before[t] for t in others) / len(
            others
        )
        if c.winner >= 0:
            return (1.0 if c.winner == team else 0.0), margin
        target = c.target
        need = max(target - scores[team], 1.0)
        other_need = max(min(target - scores[t] for t in others), 1.0)
        return win_chance(need, other_need, target), margin

    def means(self) -> list[float]:
        """Mean utility of each legal action (in points, see :meth:`outcome`)."""
        return [sum(v) / len(v) if v else -math.inf for v in self.utilities]

    def best(self) -> int:
        """The index of the alive action with the best mean utility (the first among equals)."""
        means = self.means()
        return max(self.alive, key=lambda i: (means[i], -i))

    def values(self) -> tuple[ActionValue, ...]:
        """Every action's :class:`ActionValue`, best first (see :func:`evaluate`)."""
        rows = []
        alive = set(self.alive)
        means = self.means()
        for i, action in enumerate(self.legal):
            win, win_se = _mean_se(self.wins[i])
            points, points_se = _mean_se(self.margins[i])
            value = ActionValue(action, win, win_se, points, points_se, len(self.wins[i]))
            rows.append((i not in alive, -means[i], i, value))
        rows.sort(key=lambda row: row[:3])
        return tuple(row[3] for row in rows)


def deadline_of(since: float, budget: float | None) -> float:
    """The CPU-clock reading at which a search given ``budget`` seconds from ``since``
    stops: the budget less :data:`RESERVE` (at most a tenth of it) for the choice that
    follows; infinite without a budget."""
    return since + budget - min(RESERVE, budget / 10) if budget else math.inf


def _mean_se(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    if n == 0:
        return 0.0, math.inf
    mean = sum(xs) / n
    if n < 2:
        return mean, math.inf
    var = sum((x - mean) * (x - mean) for x in xs) / (n - 1)
    return mean, math.sqrt(var / n)


def _paired(lead: Sequence[float], other: Sequence[float], worlds: int) -> tuple[float, float]:
    """Mean and standard error of ``lead - other`` over the last ``worlds`` worlds."""
    diffs = [lead[-w] - other[-w] for w in range(1, worlds + 1)]
    mean = sum(diffs) / worlds
    var = sum((d - mean) * (d - mean) for d in diffs) / (worlds - 1)
    return mean, math.sqrt(var / worlds)


def settled(alive: list[int], values: Sequence[Sequence[float]], worlds: int, z: float) -> bool:
    """True when the leader among ``alive`` is more than ``z`` paired standard errors
    ahead of every other alive action over the last ``worlds`` worlds (each of them
    played out in all of those worlds)."""
    if len(alive) < 2:
        return True
    means = {i: sum(values[i][-worlds:]) / worlds for i in alive}
    lead = max(alive, key=lambda i: (means[i], -i))
    for i in alive:
        if i != lead:
            gap, se = _paired(values[lead], values[i], worlds)
            if gap <= z * se:
                return False
    return True


def race_out(alive: list[int], values: Sequence[Sequence[float]], worlds: int) -> list[int]:
    """Drop actions clearly worse than the leader over the same (latest) worlds.

    Every alive action has been played out in each of the last ``worlds``
    worlds, so differences are paired world by world, which removes most of
    the luck of the deal from the comparison. At least two actions stay.
    """
    means = {i: sum(values[i][-worlds:]) / worlds for i in alive}
    lead = max(alive, key=lambda i: (means[i], -i))
    lv = values[lead]
    keep = []
    for i in alive:
        if i == lead:
            keep.append(i)
            continue
        _, se = _paired(lv, values[i], worlds)
        gap = means[lead] - means[i]
        if gap - RACE_Z * se <= 0:
            keep.append(i)
    if len(keep) < 2:
        rest = sorted((i for i in alive if i not in keep), key=lambda i: (-means[i], i))
        keep.extend(rest[: 2 - len(keep)])
        keep.sort()
    return keep
