"""The expert level: search under hidden information.

Every search samples *worlds*: the unseen tiles dealt to the other hands and the
boneyard uniformly among the deals consistent with everything public (tile
counts, and who drew or passed on which ends; see :mod:`engine.players.knowledge`).
With ``uniform=False`` it deals first-fit from a shuffle with a soft preference,
``inference``, away from hands holding a tile that would have scored more than
what that seat chose to play.

Before the endgame a move is an information-set tree search
(:func:`engine.players.ismcts.tree_search`, with ``tree``), except in partnerships
unless ``tree_partners``; ``tree=None`` leaves the flat search throughout. The
*flat search* (:class:`engine.players.evaluate.Search`) tries every legal action in
each world and plays on for ``horizon`` actions on the rules core with a fast policy
for every seat: the most points now less the best reply it leaves the next player
(:func:`engine.players.playout.reply_policy`). Both value an outcome for the
player's side (its partnership) by the chance of winning the game from there
(:mod:`engine.players.race`), with half the pips each hand still holds taken off
its side's score when a playout is cut off before the end of the hand.

Once at most :data:`~engine.players.evaluate.EXACT_TILES` tiles are left in the
hands and the boneyard, each world is solved exactly to the end of the hand
instead (:mod:`engine.players.endgame`), with the same valuation.

The flat search plays every action in the same worlds, so their comparison is
paired; every few worlds actions clearly behind the leader are dropped (racing)
and the remaining time goes to the contenders; the chosen action has the best
mean.

A move stops at a time budget (:data:`~engine.players.limits.DEFAULT_BUDGET` of
CPU time by default) or after a fixed number of playouts, whichever comes first,
and is answered at once when only one action is legal. Sampling is seeded from
the player's seed and the public position, so a given seed and view always give
the same choice when the playout count is fixed (and there is no budget), on
every machine and Python version: worlds are drawn with
``random.Random.random()`` alone, the one method whose sequence Python promises
to keep (see :mod:`engine.rng`), and everything else is integer or IEEE-754
arithmetic. (The win chance uses the C library's ``erf``, which could differ in
its last bit between platforms; that could only change a choice between two
actions whose means agree to about 1e-16 without being equal.)
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from engine.actions import Action
from engine.errors import AllFivesError
from engine.players.base import no_choice
from engine.players.evaluate import (
    EXACT_TILES,
    HORIZON,
    INFERENCE,
    PIP_WEIGHT,
    RACE_EVERY,
    RACE_Z,
    SETTLE_Z,
    WORLD_NODES,
    ActionValue,
    Search,
    deadline_of,
)
from engine.players.ismcts import tree_search
from engine.players.limits import (
    DEFAULT_BUDGET,
    action_code_of,
    check_budget,
    check_playouts,
    move_seed,
)
from engine.players.playout import Policy, reply_policy
from engine.state import SeatView

__all__ = [
    "BANK_MOST",
    "BANK_SHARE",
    "DEFAULT_BUDGET",
    "MASTER_FACTOR",
    "MOVE_MOST",
    "RACE_EVERY",
    "RACE_Z",
    "SETTLE_Z",
    "ExpertPlayer",
    "MasterPlayer",
    "action_code_of",
    "check_budget",
    "check_playouts",
    "move_seed",
]


BANK_SHARE = 0.5
"""The share of its banked time (or playouts) a decision may draw on."""

MOVE_MOST = 4.0
"""A decision uses at most this many times the budget (or playout count)."""

BANK_MOST = 12.0
"""The most a player banks, in budgets (or playout counts)."""


TREE = 2.0
"""The expert's exploration constant, in spreads of the utilities seen
(``tree_relative``)."""


class ExpertPlayer:
    """Determinised Monte Carlo search with reply-aware playouts (see the module doc).

    It searches with the evaluation core, :class:`engine.players.evaluate.Search`,
    racing actions that fall clearly behind, and plays the best mean.

    **Time management.** With ``settle`` (standard errors, default
    :data:`~engine.players.evaluate.SETTLE_Z`) a search stops as soon as its
    leader is that far ahead of every other action, and the player *banks* what
    it did not use of its budget (of its playout count, with playouts and no
    budget). A later decision whose choice is close may draw
    :data:`BANK_SHARE` of the bank on top of its own budget, up to
    :data:`MOVE_MOST` budgets in all. A decision only spends what earlier ones
    saved, so over a game the player's mean time (or playouts) per searched
    decision stays within its budget, while the median is far below it (an overrun
    leaves a debt that the next decisions pay back).
    Forced moves are answered at once and bank nothing.

    **Tree search.** With ``tree`` (an exploration constant; by default
    :data:`TREE` times the spread of the utilities, ``tree_relative``) every
    decision before the endgame is an information-set tree search
    (:func:`engine.players.ismcts.tree_search`) within the decision's own budget
    (or playout count) instead, the root action visited most; endgame decisions
    are the flat search's, as above. Without ``tree_relative`` the constant is a
    number of points of utility (e.g. :data:`engine.players.ismcts.EXPLORE`);
    ``tree=None`` is the flat search throughout. In partnership games the tree is
    used only with ``tree_partners``; by default partners play the flat search
    throughout. ``tree_depth`` caps the tree at that many actions from the decision
    (None: no cap). With ``tree_settle`` a tree search stops once its most visited
    action can no longer be overtaken and banks the rest, and a close one draws on
    the bank, as the flat search does. With ``tree_others_policy`` every other seat
    in the tree (a partner's too) plays the playout policy in each world instead of
    choosing by the tree's values.

    **Worlds.** With ``odds`` (opponents) or ``partner_odds`` (partners) the worlds
    are drawn in proportion to how likely they make each seat's free plays, a
    placement chosen with ``odds`` to the power of its points over 5
    (:mod:`engine.players.likelihood`); None (the default) leaves that seat's plays
    out.
    """

    level = "expert"

    def __init__(
        self,
        seed: int = 0,
        budget: float | None = DEFAULT_BUDGET,
        playouts: int | None = None,
        policy: Policy = reply_policy,
        horizon: int | None = HORIZON,
        pip_weight: float = PIP_WEIGHT,
        race: bool = True,
        inference: float = INFERENCE,
        exact_tiles: int = EXACT_TILES,
        max_nodes: int = WORLD_NODES,
        exact_boneyard: bool = True,
        tail: Policy | None = None,
        uniform: bool = True,
        settle: float | None = SETTLE_Z,
        tree: float | None = TREE,
        tree_relative: bool = True,
        tree_partners: bool = False,
        odds: float | None = None,
        partner_odds: float | None = None,
        tree_depth: int | None = None,
        tree_settle: bool = False,
        tree_others_policy: bool = False,
    ) -> None:
        if budget is None and playouts is None:
            raise AllFivesError(
                "the expert needs a time budget, a playout count, or both",
                code="needs-budget-or-playouts",
                details={"level": "expert"},
            )
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
        self.exact_tiles = exact_tiles
        self.max_nodes = max_nodes
        self.exact_boneyard = exact_boneyard
        self.tail = tail
        self.uniform = uniform
        self.settle = settle
        self.tree = tree
        self.tree_relative = tree_relative
        self.tree_partners = tree_partners
        self.odds = odds
        self.partner_odds = partner_odds
        self.tree_depth = tree_depth
        self.tree_settle = tree_settle
        self.tree_others_policy = tree_others_policy
        self.bank = 0.0
        """Unused budget (CPU seconds; playouts when there is no budget) saved so far."""
        self.tree_late = 0.0
        """CPU seconds the last tree search ran past its deadline (its last iterations
        and freeing its tree, which grows with the budget); the next one stops that much
        earlier, so that a move keeps within its budget at any budget."""
        self.last_playouts = 0
        self.last_nodes = 0
        self.last_alive: list[int] = []

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """The action with the best expected outcome over sampled worlds."""
        self.last_playouts = 0
        self.last_nodes = 0
        if len(legal) == 1:
            return legal[0]
        if not legal:
            raise no_choice()
        since = time.thread_time()  # the budget counts the search's set-up too
        search = self._new_search(view, legal)
        explore = self._explore(search)
        if explore is not None:
            return legal[self._tree_choice(search, since, explore)]
        return legal[self._run(search, since, manage_time=True).best()]

    def _explore(self, search: Search) -> float | None:
        """The tree search's exploration constant for this decision, or None where
        the decision is the flat search's (the endgame; partners, see the class doc)."""
        if search.endgame or not (self.tree_partners or search.teams == search.base.players):
            return None
        return self.tree

    def _tree_choice(self, search: Search, since: float, explore: float) -> int:
        """The index of the root action an information-set tree search visits most
        (:func:`engine.players.ismcts.tree_search`), within this decision's own budget."""
        banking = self.tree_settle
        budget, playouts = self._limits(banking)
        deadline = deadline_of(since, budget) - self.tree_late
        visits, means = tree_search(
            search,
            playouts=playouts,
            deadline=deadline,
            explore=explore,
            relative=self.tree_relative,
            depth=self.tree_depth,
            settle=banking,
            others_play_policy=self.tree_others_policy,
        )
        if self.budget is not None:  # the tree is freed by now: its cost is counted
            late = time.thread_time() - deadline
            if late >= 0.0 or not banking:  # a settled search says nothing of the tail
                self.tree_late = min(max(late, 0.0), self.budget / 10)
        if banking:
            self._bank_saved(since, search.playouts)
        self.last_playouts = search.playouts
        return max(range(len(visits)), key=lambda i: (visits[i], means[i], -i))

    def search(
        self, view: SeatView, legal: Sequence[Action], *, manage_time: bool = False
    ) -> Search:
        """The finished search of one decision (its figures: :meth:`Search.values`).

        With ``manage_time`` (as :meth:`choose` does) it may stop once the choice is
        settled and draws on and adds to the bank (see the class doc); without it the
        search runs to its own limit and leaves the bank alone.
        """
        since = time.thread_time()  # the budget counts the search's set-up too
        return self._run(self._new_search(view, legal), since, manage_time=manage_time)

    def _new_search(self, view: SeatView, legal: Sequence[Action]) -> Search:
        """A search of one decision with this player's options, not yet run."""
        return Search(
            view,
            legal,
            seed=self.seed,
            policy=self.policy,
            horizon=self.horizon,
            pip_weight=self.pip_weight,
            inference=self.inference,
            exact_tiles=self.exact_tiles,
            max_nodes=self.max_nodes,
            exact_boneyard=self.exact_boneyard,
            tail=self.tail,
            uniform=self.uniform,
            odds=self.odds,
            partner_odds=self.partner_odds,
        )

    def _run(self, search: Search, since: float, *, manage_time: bool) -> Search:
        """Run ``search``, whose decision began at the CPU-clock reading ``since`` (see
        :meth:`search`)."""
        banking = manage_time and self.settle is not None
        budget, playouts = self._limits(banking)
        search.run(
            playouts=playouts,
            budget=budget,
            race=self.race,
            since=since,
            settle=self.settle if banking else None,
        )
        if banking:
            self._bank_saved(since, search.playouts)
        self.last_playouts = search.playouts
        self.last_nodes = search.nodes
        self.last_alive = search.alive
        return search

    def _limits(self, banking: bool) -> tuple[float | None, int | None]:
        """This decision's budget and playout count: the player's own, and with
        ``banking`` a share of the bank on the one that limits it (see the class doc)."""
        budget, playouts = self.budget, self.playouts
        if banking:
            if budget is not None:
                budget = self._allowance(budget)
            elif playouts is not None:
                playouts = round(self._allowance(playouts))
        return budget, playouts

    def _bank_saved(self, since: float, playouts: int) -> None:
        """Bank what a decision begun at the CPU-clock reading ``since``, having run
        ``playouts``, saved of its own limit (see :meth:`_spent`)."""
        if self.budget is not None:
            self._spent(self.budget, time.thread_time() - since)
        elif self.playouts is not None:
            self._spent(self.playouts, playouts)

    def _allowance(self, limit: float) -> float:
        """This decision's limit: its own, and a share of the bank (see the class doc)."""
        return limit + min(BANK_SHARE * self.bank, (MOVE_MOST - 1.0) * limit)

    def _spent(self, limit: float, used: float) -> None:
        """Bank what a decision saved of ``limit`` (or draw what it took beyond it: a
        decision that overran its limit leaves a debt, at most one limit, that the next
        ones pay back)."""
        self.bank = min(max(self.bank + limit - used, -limit), BANK_MOST * limit)

    def evaluate(self, view: SeatView, legal: Sequence[Action]) -> list[float]:
        """Mean outcome of each legal action over the sampled worlds (utility, in points)."""
        return self.search(view, legal).means()

    def analyse(self, view: SeatView, legal: Sequence[Action]) -> tuple[ActionValue, ...]:
        """Every legal action's win chance and point margin, best first (see
        :func:`engine.players.evaluate.evaluate`)."""
        return self.search(view, legal).values()


MASTER_FACTOR = 4
"""How many times the expert's budget (or playout count) the master level gets."""


class MasterPlayer(ExpertPlayer):
    """The expert with :data:`MASTER_FACTOR` times its budget and playout count
    (:data:`MASTER_FACTOR` times the expert's default budget)."""

    level = "master"

    def __init__(
        self, seed: int = 0, budget: float | None = DEFAULT_BUDGET, playouts: int | None = None
    ) -> None:
        checked_budget = check_budget(budget)
        checked_playouts = check_playouts(playouts)
        super().__init__(
            seed,
            budget=None if checked_budget is None else checked_budget * MASTER_FACTOR,
            playouts=None if checked_playouts is None else checked_playouts * MASTER_FACTOR,
        )
