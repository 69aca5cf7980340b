"""Information-set Monte Carlo tree search (single observer), the expert's search
before the endgame.

Every iteration samples a *world* (the unseen tiles dealt as the search deals
them, :meth:`~engine.players.evaluate.Search.world`: uniformly among the deals
consistent with the public record, or in proportion to the plays' likelihood) and walks
one tree shared by all worlds: a node is a sequence of actions from the
decision, its children the actions taken next. Only the actions legal in the
iteration's world are candidates, and each child counts how often it was
available, so the selection (UCB1 on availability) compares an action with
the worlds in which it could be played. Seats of the searcher's side pick the
highest mean utility, every other seat the lowest (two sides; with three
players this is the paranoid reduction). A new node is added per iteration;
from it the playout plays the search's ``horizon`` actions (to the end of the
hand with None) with its policy, the reply-aware one by default, and is valued
exactly as the expert values it (:meth:`Search.outcome`: the chance
of winning the game, as a utility in points). The decision plays the root
child visited most.

Unlike the flat search, the replies of the other seats in the tree are chosen
by their values over *all* sampled worlds, not by a policy that sees the
world's tiles. :class:`~engine.players.expert.ExpertPlayer` searches with it,
given ``tree=`` (its exploration constant), until the endgame (in partnerships only
with ``tree_partners``).
"""

from __future__ import annotations

import math
import time

from engine import core
from engine.players.evaluate import Search

EXPLORE = 15.0
"""UCB1's exploration constant, in points of utility."""

LEAST_SPREAD = 1.0
"""The smallest spread of utilities (points) a relative exploration constant scales by."""


SETTLE_EVERY = 32
"""How often (in iterations) a settling tree search checks whether its choice is made."""


class _Node:
    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


def _settled(root: _Node, done: int, limit: int, spent: float, left: float) -> bool:
    """Whether the root child visited most stays so, whatever the iterations left
    (``limit`` less ``done``, or as many as ``left`` seconds allow at the pace of
    ``done`` in ``spent``) do."""
    first = second = 0
    for child in root.children.values():
        if child.visits > first:
            first, second = child.visits, first
        elif child.visits > second:
            second = child.visits
    remaining = limit - done
    if spent > 0.0 and math.isfinite(left):
        remaining = min(remaining, math.ceil(done * left / spent))
    return first - second > remaining


def tree_search(
    search: Search,
    *,
    playouts: int | None,
    deadline: float,
    explore: float = EXPLORE,
    relative: bool = False,
    depth: int | None = None,
    settle: bool = False,
    others_play_policy: bool = False,
) -> tuple[list[int], list[float]]:
    """Run ISMCTS from the position of ``search`` (its worlds, valuation and seed).

    Returns the visits and mean utility of each of ``search.codes``. Stops after
    ``playouts`` iterations or once the CPU clock of this thread passes
    ``deadline``, whichever comes first. With ``relative``, ``explore`` is a
    multiple of the standard deviation of the utilities seen so far (at least
    :data:`LEAST_SPREAD`) instead of a number of points. With ``depth`` the tree
    holds at most that many actions from the decision; below it every iteration
    plays out, whatever the number of iterations. With ``settle`` it stops as soon
    as the root child visited most is further ahead of every other than the
    iterations left could make up (counted with ``playouts``, else estimated from
    the pace so far), so the choice is the one it would have made at its limit.
    With ``others_play_policy`` every seat but the searcher's own (a partner's too)
    does not choose by the tree's values: in each iteration it plays the search's
    policy in that iteration's world (its own tiles seen, as in a playout), and the
    tree's nodes follow what it played.
    """
    rng = search.rng
    base = search.base
    team = search.team
    seat = search.seat
    team_of = base.team_of
    outcome = search.outcome
    scale = search.scale
    policy = search.policy
    horizon = search.horizon if search.horizon is not None else 1 << 30
    playing = core.PHASE_PLAY
    root = _Node()
    clock = time.thread_time
    rnd = rng.random
    log = math.log
    sqrt = math.sqrt
    n = 0
    limit = playouts if playouts is not None else 1 << 60
    factor = explore
    squares = 0.0  # of the utilities seen; their sum is root.total
    if relative:
        explore = factor * LEAST_SPREAD
    most = depth if depth is not None else 1 << 30
    added = 0
    started = clock()
    while n < limit:
        if n and n % 8 == 0:
            now = clock()
            if now > deadline:
                break
            if settle and n % SETTLE_EVERY == 0 and _settled(
                root, n, limit, now - started, deadline - now
            ):
                break
        c = search.world()
        node = root
        path = [root]
        while c.phase == playing and len(path) <= most:
            children = node.children
            if others_play_policy and c.current != seat:
                code = policy(c, rng)
            else:
                mine = team_of[c.current] == team
                untried = []
                best_code = -1
                best_key = -math.inf
                for code in c.legal():
                    child = children.get(code)
                    if child is None:
                        untried.append(code)
                        continue
                    child.avail += 1
                    if not untried:
                        mean = child.total / child.visits
                        key = (mean if mine else -mean) + explore * sqrt(
                            log(child.avail) / child.visits
                        )
                        if key > best_key:
                            best_key = key
                            best_code = code
                code = untried[int(rnd() * len(untried))] if untried else best_code
            child = children.get(code)
            c.step(code)
            if child is None:  # a new node: the tree grows by one, then the playout
                child = children[code] = _Node()
                child.avail = 1
                added += 1
                path.append(child)
                break
            node = child
            path.append(node)
        steps = horizon
        while steps and c.phase == playing:
            c.step(policy(c, rng))
            steps -= 1
        p, _ = outcome(c)
        u = scale * (2.0 * p - 1.0)
        for visited in path:
            visited.visits += 1
            visited.total += u
        n += 1
        if relative:
            squares += u * u
            mean = root.total / n
            explore = factor * max(sqrt(max(squares / n - mean * mean, 0.0)), LEAST_SPREAD)
    visits = []
    means = []
    for code in search.codes:
        child = root.children.get(code)
        if child is None:  # a child is visited in the iteration that adds it
            visits.append(0)
            means.append(-math.inf)
        else:
            visits.append(child.visits)
            means.append(child.total / child.visits)
    search.playouts += n
    search.tree_nodes += added
    return visits, means
