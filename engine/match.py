"""Headless matches between computer levels, with duplicate deals (behind ``allfives sim``).

Every deal is played once per seat rotation: with two players, each deal is
played again with the seats swapped, so both sides get the same tiles and luck
largely cancels out. Games run through the public engine API only: each seat's
player sees ``state.view(seat)`` and ``view.legal_actions()``, never the state.
Move times are CPU time of the deciding thread (``time.thread_time``), what the
searching levels' budgets count, so a busy machine does not change them much;
each side's playouts (and solved endgame positions) per decision are kept too.

>>> from engine.match import MatchConfig, run_match
>>> result = run_match(MatchConfig(entrants=("greedy", "random"), games=4, seed=1))
>>> [side.wins for side in result.sides]  # doctest: +SKIP
[4, 0]
"""

from __future__ import annotations

import ctypes
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from engine.errors import AllFivesError, shown
from engine.game import apply, new_game, seeded_deal
from engine.intervals import wilson
from engine.players import LEVELS, Player, make_player, unknown_level
from engine.players.expert import DEFAULT_BUDGET, check_budget, check_playouts
from engine.rng import SEED_LIMIT, check_game_seed, derive_seed
from engine.rules import HandSize, Rules
from engine.state import Phase

MAX_BUDGET = 60.0
"""The longest time budget a match gives a searching level, in CPU seconds a move."""
MAX_PLAYOUTS = 10**6
"""The most playouts a match gives a searching level a move."""

SEARCHING = frozenset({"montecarlo", "expert", "master"})
"""The levels that search within a time budget or a playout count."""


def split_entrant(entrant: str) -> tuple[str, float | None]:
    """``"expert@0.0625"`` -> ``("expert", 0.0625)``; ``"greedy"`` -> ``("greedy", None)``.

    An entrant is a level, or a searching level with its own time budget after an
    ``@``: CPU seconds a move that replace the match's ``budget`` for that side
    (the master still takes four times it). Raises
    :class:`~engine.errors.AllFivesError` (a ``ValueError``) naming the entrant for
    an unknown level, a budget on a level that does not search, or a budget that is
    not a number of seconds above 0 and at most :data:`MAX_BUDGET`.
    """
    level, at, text = entrant.partition("@")
    if level not in LEVELS:
        raise unknown_level(level)
    if not at:
        return level, None
    details = {"entrant": shown(entrant, 80), "level": level, "value": shown(text, 80)}
    if level not in SEARCHING:
        raise AllFivesError(
            f"{shown(entrant, 80)}: {level} does not search, so it takes no time budget",
            code="entrant-not-searching",
            details=details,
        )
    try:
        budget = float(text)
    except ValueError:
        budget = math.nan
    if not (math.isfinite(budget) and budget > 0):
        raise AllFivesError(
            f"{shown(entrant, 80)}: the time budget after @ must be a finite number of "
            f"seconds above 0, not {shown(text, 80)}",
            code="entrant-budget-not-positive",
            details=details,
        )
    if budget > MAX_BUDGET:
        raise AllFivesError(
            f"{shown(entrant, 80)}: the time budget is at most {MAX_BUDGET:g} seconds a move, "
            f"not {shown(text, 80)}",
            code="entrant-budget-too-high",
            details={**details, "most": MAX_BUDGET},
        )
    return level, budget


def _bounded_budget(budget: object) -> float | None:
    """``budget`` checked by :func:`~engine.players.limits.check_budget` and at most
    :data:`MAX_BUDGET`."""
    checked = check_budget(budget)
    if checked is not None and checked > MAX_BUDGET:
        raise AllFivesError(
            f"the time budget is at most {MAX_BUDGET:g} seconds a move, not {shown(budget, 80)}",
            code="budget-too-high",
            details={"value": shown(budget, 80), "most": MAX_BUDGET},
        )
    return checked


@dataclass(frozen=True)
class MatchConfig:
    """What to play.

    ``entrants`` are levels, one per side: one per seat, or with
    ``partnerships`` exactly two, one per partnership (seats 0+2 and 1+3). A
    searching level may carry its own budget, ``"expert@0.0625"``
    (:func:`split_entrant`); the others play with ``budget``.
    ``games`` is rounded up to a whole number of deals, each played once per
    rotation (:attr:`rotations`). ``target`` 0 means the rules' default.
    ``seed`` is a game's seed (:func:`~engine.rng.check_game_seed`); ``budget`` is at
    most :data:`MAX_BUDGET` seconds and ``playouts`` at most :data:`MAX_PLAYOUTS`,
    so that no move of a match runs for hours. Every searching side needs a time
    budget (its own or ``budget``), ``playouts``, or both.
    """

    entrants: tuple[str, ...]
    games: int = 100
    partnerships: bool = False
    target: int = 0
    seed: int = 0
    budget: float | None = DEFAULT_BUDGET
    playouts: int | None = None
    hand_size: HandSize = HandSize.STANDARD

    def __post_init__(self) -> None:
        for entrant in self.entrants:
            split_entrant(entrant)
        if self.partnerships and len(self.entrants) != 2:
            raise AllFivesError(
                "a partnership match needs two levels, one per partnership",
                code="partnership-levels",
            )
        if not self.partnerships and not 2 <= len(self.entrants) <= 4:
            raise AllFivesError("a match needs 2 to 4 players", code="match-players")
        if self.games < 1:
            raise AllFivesError("play at least one game", code="no-games")
        check_game_seed(self.seed)
        _bounded_budget(self.budget)
        playouts = check_playouts(self.playouts)
        if playouts is not None and playouts > MAX_PLAYOUTS:
            raise AllFivesError(
                f"the playout count is at most {MAX_PLAYOUTS:,} a move, "
                f"not {shown(self.playouts, 80)}",
                code="playouts-too-high",
                details={"value": shown(self.playouts, 80), "most": MAX_PLAYOUTS},
            )
        if self.playouts is None:
            for side in range(len(self.entrants)):
                level = self.level_of(side)
                if level in SEARCHING and self.budget_of(side) is None:
                    raise AllFivesError(
                        f"the {level} level needs a time budget, a playout count, or both",
                        code="needs-budget-or-playouts",
                        details={"level": level},
                    )

    @property
    def seats(self) -> int:
        """Players at the table."""
        return 4 if self.partnerships else len(self.entrants)

    @property
    def rotations(self) -> int:
        """How many times each deal is played (once per seat rotation of the sides)."""
        return len(self.entrants)

    @property
    def deals(self) -> int:
        """Distinct deals played."""
        return -(-self.games // self.rotations)

    def rules(self) -> Rules:
        """The rules of every game of the match."""
        return Rules(
            players=self.seats,
            partnerships=self.partnerships,
            hand_size=self.hand_size,
            target=self.target,
        )

    def level_of(self, side: int) -> str:
        """The level of side ``side`` (its entrant without a budget)."""
        return split_entrant(self.entrants[side])[0]

    def budget_of(self, side: int) -> float | None:
        """The time budget side ``side`` plays with: its own, else the match's."""
        own = split_entrant(self.entrants[side])[1]
        return self.budget if own is None else own

    def entrant_of(self, seat: int, rotation: int) -> int:
        """Which side plays ``seat`` in a rotation."""
        return (seat + rotation) % len(self.entrants)

    def names(self) -> list[str]:
        """Side names: the entrant, numbered when it plays more than one side."""
        out = []
        for i, entrant in enumerate(self.entrants):
            if self.entrants.count(entrant) > 1:
                out.append(f"{entrant}#{i + 1}")
            else:
                out.append(entrant)
        return out


@dataclass
class GameResult:
    """One game: the winning side, and per side its hand results, move times (CPU
    seconds of the deciding thread) and search effort.

    ``playouts[side]`` and ``nodes[side]`` hold, for every decision of a
    searching level among two or more legal actions, the playouts it ran and
    the endgame positions it solved; ``choice_times[side]`` the CPU seconds of
    every move among two or more legal actions (any level).
    """

    deal: int
    rotation: int
    winner: int
    hands: int
    net_points: list[int]
    move_times: list[list[float]]
    playouts: list[list[int]] = field(default_factory=list)
    nodes: list[list[int]] = field(default_factory=list)
    choice_times: list[list[float]] = field(default_factory=list)


def seat_players(config: MatchConfig, deal: int, rotation: int) -> list[Player]:
    """The players of one game, seat by seat: each its side's level and budget, seeded
    by the game and the seat."""
    out = []
    for s in range(config.seats):
        side = config.entrant_of(s, rotation)
        out.append(
            make_player(
                config.level_of(side),
                derive_seed(config.seed, deal, rotation, s, 1),
                budget=config.budget_of(side),
                playouts=config.playouts,
            )
        )
    return out


def play_game(config: MatchConfig, deal: int, rotation: int) -> GameResult:
    """Play one game of the match to the end."""
    rules = config.rules()
    sides = len(config.entrants)
    seat_side = [config.entrant_of(s, rotation) for s in range(config.seats)]
    players = seat_players(config, deal, rotation)
    game_seed = derive_seed(config.seed, deal) % SEED_LIMIT  # a game seed (seeded_deal)
    state = new_game(rules)
    times: list[list[float]] = [[] for _ in range(sides)]
    playouts: list[list[int]] = [[] for _ in range(sides)]
    nodes: list[list[int]] = [[] for _ in range(sides)]
    choice_times: list[list[float]] = [[] for _ in range(sides)]
    net = [0] * sides
    hands = 0
    clock = time.thread_time  # what the searching levels' budgets count
    while not state.is_terminal:
        if state.is_chance:
            before = state.scores
            state = apply(state, seeded_deal(state, game_seed)).state
            hands += 1
            while state.phase is Phase.PLAY:
                seat = state.current
                assert seat is not None
                view = state.view(seat)
                legal = view.legal_actions()
                player = players[seat]
                t0 = clock()
                action = player.choose(view, legal)
                side = seat_side[seat]
                spent = clock() - t0
                times[side].append(spent)
                if len(legal) > 1:
                    choice_times[side].append(spent)
                if len(legal) > 1 and hasattr(player, "last_playouts"):
                    playouts[side].append(player.last_playouts)
                    nodes[side].append(getattr(player, "last_nodes", 0))
                state = apply(state, action).state
            for team, (old, new) in enumerate(zip(before, state.scores, strict=True)):
                net[config.entrant_of(team, rotation)] += new - old
    assert state.winner is not None
    return GameResult(
        deal=deal,
        rotation=rotation,
        winner=config.entrant_of(state.winner, rotation),
        hands=hands,
        net_points=net,
        move_times=times,
        playouts=playouts,
        nodes=nodes,
        choice_times=choice_times,
    )


def play_deal(config: MatchConfig, deal: int) -> list[GameResult]:
    """Every rotation of one deal."""
    return [play_game(config, deal, r) for r in range(config.rotations)]


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0..1) of ``values`` by the nearest-rank method (0.0 if empty)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


@dataclass
class SideStats:
    """How one side did over the match."""

    name: str
    level: str
    games: int
    wins: int
    hands: int
    net_points: int
    move_times: list[float] = field(repr=False)
    playouts: list[int] = field(repr=False, default_factory=list)
    nodes: list[int] = field(repr=False, default_factory=list)
    choice_times: list[float] = field(repr=False, default_factory=list)

    @property
    def win_rate(self) -> float:
        """Share of games won."""
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """95 % Wilson interval of the win rate."""
        return wilson(self.wins, self.games)

    @property
    def points_per_hand(self) -> float:
        """Mean net points a hand (placements less end-of-hand penalties)."""
        return self.net_points / self.hands if self.hands else 0.0

    @property
    def median_move(self) -> float:
        """Median seconds a move (every move the side was asked for)."""
        return percentile(self.move_times, 0.5)

    @property
    def p95_move(self) -> float:
        """95th percentile of seconds a move."""
        return percentile(self.move_times, 0.95)

    @property
    def mean_choice(self) -> float:
        """Mean seconds a move among two or more legal actions (what a time budget
        is spent on; a player that banks time keeps this within its budget)."""
        return sum(self.choice_times) / len(self.choice_times) if self.choice_times else 0.0

    @property
    def searches(self) -> int:
        """Decisions the side searched (a searching level, two or more legal actions)."""
        return len(self.playouts)

    @property
    def playouts_per_decision(self) -> float:
        """Mean playouts a searched decision (0.0 for a level that does not search)."""
        return sum(self.playouts) / len(self.playouts) if self.playouts else 0.0

    @property
    def nodes_per_decision(self) -> float:
        """Mean endgame positions solved a searched decision."""
        return sum(self.nodes) / len(self.nodes) if self.nodes else 0.0

    def to_dict(self) -> dict[str, Any]:
        """Machine-readable figures."""
        low, high = self.ci95
        return {
            "side": self.name,
            "level": self.level,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "ci95": [round(low, 4), round(high, 4)],
            "hands": self.hands,
            "points_per_hand": round(self.points_per_hand, 2),
            "moves": len(self.move_times),
            "median_move_s": round(self.median_move, 5),
            "p95_move_s": round(self.p95_move, 5),
            "choices": len(self.choice_times),
            "mean_choice_s": round(self.mean_choice, 5),
            "searched_decisions": self.searches,
            "playouts_per_decision": round(self.playouts_per_decision, 1),
            "median_playouts": percentile([float(p) for p in self.playouts], 0.5),
            "nodes_per_decision": round(self.nodes_per_decision, 1),
        }


@dataclass
class MatchResult:
    """The whole match: per-side figures and every game."""

    config: MatchConfig
    games: list[GameResult]
    elapsed: float
    workers: int

    @property
    def sides(self) -> list[SideStats]:
        """Figures per side, in the order of the entrants."""
        names = self.config.names()
        out = []
        for i in range(len(self.config.entrants)):
            times: list[float] = []
            playouts: list[int] = []
            nodes: list[int] = []
            choices: list[float] = []
            for g in self.games:
                times.extend(g.move_times[i])
                if g.choice_times:
                    choices.extend(g.choice_times[i])
                if g.playouts:
                    playouts.extend(g.playouts[i])
                    nodes.extend(g.nodes[i])
            out.append(
                SideStats(
                    name=names[i],
                    level=self.config.level_of(i),
                    games=len(self.games),
                    wins=sum(1 for g in self.games if g.winner == i),
                    hands=sum(g.hands for g in self.games),
                    net_points=sum(g.net_points[i] for g in self.games),
                    move_times=times,
                    playouts=playouts,
                    nodes=nodes,
                    choice_times=choices,
                )
            )
        return out

    def to_dict(self) -> dict[str, Any]:
        """Machine-readable results (what ``allfives sim --json`` prints)."""
        c = self.config
        rules = c.rules()
        return {
            "config": {
                "entrants": list(c.entrants),
                "players": c.seats,
                "partnerships": c.partnerships,
                "target": rules.target,
                "hand_size": c.hand_size.value,
                "games": len(self.games),
                "deals": c.deals,
                "duplicate_rotations": c.rotations,
                "seed": c.seed,
                "budget_s": c.budget,
                "budgets_s": [c.budget_of(i) for i in range(len(c.entrants))],
                "playouts": c.playouts,
                "workers": self.workers,
            },
            "elapsed_s": round(self.elapsed, 2),
            "sides": [s.to_dict() for s in self.sides],
        }

    def table(self) -> str:
        """A plain-text table of the results."""
        head = (
            "side",
            "games",
            "wins",
            "win rate",
            "95% CI",
            "pts/hand",
            "median move",
            "p95 move",
            "mean choice",
            "playouts/decision",
            "nodes/decision",
        )
        rows = [head]
        for s in self.sides:
            low, high = s.ci95
            rows.append(
                (
                    s.name,
                    str(s.games),
                    str(s.wins),
                    f"{100 * s.win_rate:.1f} %",
                    f"{100 * low:.1f}-{100 * high:.1f} %",
                    f"{s.points_per_hand:+.1f}",
                    _seconds(s.median_move),
                    _seconds(s.p95_move),
                    _seconds(s.mean_choice),
                    f"{s.playouts_per_decision:,.0f}" if s.searches else "-",
                    f"{s.nodes_per_decision:,.0f}" if s.searches else "-",
                )
            )
        widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
        lines = []
        for n, row in enumerate(rows):
            cells = [row[0].ljust(widths[0])] + [
                cell.rjust(widths[i + 1]) for i, cell in enumerate(row[1:])
            ]
            lines.append("  ".join(cells))
            if n == 0:
                lines.append("  ".join("-" * w for w in widths))
        return "\n".join(lines)


def _seconds(s: float) -> str:
    if s < 0.000_001:
        return "0 µs"  # below the CPU clock's tick
    if s < 0.001:
        return f"{s * 1e6:.0f} µs"
    if s < 1:
        return f"{s * 1000:.1f} ms"
    return f"{s:.2f} s"


def max_workers() -> int:
    """The most worker processes a match may use here: one per core (``os.cpu_count()``)."""
    return os.cpu_count() or 1


def check_workers(workers: object) -> int:
    """``workers`` if it is a worker count this machine allows: 1 to :func:`max_workers`.

    Raises :class:`~engine.errors.AllFivesError` (a ``ValueError``) naming the
    limit: more processes than cores only slow a match down, and a typo such
    as 1000 would fork a thousand processes.
    """
    if not isinstance(workers, int) or isinstance(workers, bool):
        raise AllFivesError(
            f"the worker count must be a whole number, not {shown(workers)}",
            code="workers-not-a-number",
            details={"value": shown(workers)},
        )
    if workers < 1:
        raise AllFivesError(
            f"at least 1 worker, not {workers}", code="workers-too-few", details={"value": workers}
        )
    limit = max_workers()
    if workers > limit:
        raise AllFivesError(
            f"at most {limit} worker{'s' if limit != 1 else ''} on this machine "
            f"(one per core), not {shown(workers)}",
            code="workers-too-many",
            details={"value": shown(workers), "most": limit},
        )
    return workers


PR_SET_PDEATHSIG = 1
"""Linux ``prctl`` option: the signal a process gets when its parent ends."""


def end_with_parent() -> None:
    """Make this worker process end when the process that started it ends, however it ends.

    Two ways, neither needing the parent's help: on Linux the kernel sends
    ``SIGKILL`` when the parent dies (``prctl(PR_SET_PDEATHSIG)``); everywhere a
    daemon thread waits on the parent's sentinel (a pipe whose other end only
    the parent holds, at end of file once it is gone) and ends the process. The
    thread also covers a parent that died before the ``prctl`` took effect.
    """
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):  # no libc prctl here: the thread alone
            pass
    parent = multiprocessing.parent_process()
    if parent is None:  # not a child process: nothing to watch
        return
    threading.Thread(
        target=_exit_when_gone, args=(parent,), name="parent-watch", daemon=True
    ).start()


def _exit_when_gone(parent: multiprocessing.process.BaseProcess) -> None:
    """End this process at once when ``parent`` has ended."""
    parent.join()  # a child's parent process: returns once the parent is gone
    os._exit(1)


def run_match(
    config: MatchConfig,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> MatchResult:
    """Play the match, on ``workers`` processes (1: in this process).

    ``progress(done, total)`` is called with games finished so far. The result
    does not depend on ``workers`` (only its timings do). ``workers`` runs
    from 1 to :func:`max_workers` (else :class:`~engine.errors.AllFivesError`).
    Worker processes end with this one, even when it is killed
    (:func:`end_with_parent`).
    """
    check_workers(workers)
    start = time.perf_counter()
    total = config.deals * config.rotations
    results: dict[int, list[GameResult]] = {}
    done = 0
    if progress:
        progress(0, total)
    if workers <= 1:
        for deal in range(config.deals):
            results[deal] = play_deal(config, deal)
            done += config.rotations
            if progress:
                progress(done, total)
    else:
        with ProcessPoolExecutor(max_workers=workers, initializer=end_with_parent) as pool:
            futures = {pool.submit(play_deal, config, d): d for d in range(config.deals)}
            for future in as_completed(futures):
                results[futures[future]] = future.result()
                done += config.rotations
                if progress:
                    progress(done, total)
    games = [g for d in sorted(results) for g in results[d]]
    return MatchResult(config, games, time.perf_counter() - start, max(1, workers))
