"""Paired screens of expert variants against one opponent (the method: docs/expert.md).

    python benchmarks/screen.py VARIANT [VARIANT ...] [--base flat] [--mode first-hand]
        [--deals 200] [--first-deal 0] [--seed 1] [--playouts 2000]
        [--opponent montecarlo] [--opponent-playouts 1000] [--budget SECONDS]
        [--players 2 | --partnerships] [--workers 2]

Every variant and the base play the same seeded deals from both seatings
(each side of the table) against the same opponent, all at fixed playout
counts with no time budget, so every game is reproducible and machine load
changes only how long the screen takes, never its figures. With ``--budget``
every player instead gets that many CPU seconds a move (of its deciding
thread) and no playout cap: an equal-time screen, whose figures depend on the
machine's speed and differ a little from run to run.

* ``--mode first-hand``: the first hand of each deal; a game's figure is the
  variant side's net points in the hand less the opponent's.
* ``--mode endgame``: each deal starts from scores drawn for every side from
  100 to 245 (of 250; 80 to 185 of 200 with partnerships) and is played to
  the end of the game; a game's figure is 1 for a win, 0 for a loss.
* ``--mode game``: each deal is a whole game from nil, figured as ``endgame``.

For each deal the figures of its seatings are averaged, and the variant's
difference from the base is paired deal by deal: the script prints each
player's mean (with its standard error) and each variant's paired difference
from the base with its standard error. ``--json`` prints it all as JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GameState, Rules, apply, new_game, seeded_deal
from engine.players import ExpertPlayer, MonteCarloPlayer, Player, make_player
from engine.players.playout import greedy_policy
from engine.rng import SEED_LIMIT, Rng, derive_seed

Factory = Callable[[int, int | None, float | None], Player]
"""Makes a player from ``(seed, playouts, budget)`` (one of the two limits is None)."""


def _expert(**options: Any) -> Factory:
    """An expert variant: the flat search (``tree=None``) unless ``options`` give a tree."""
    options = {"tree": None, **options}

    def make(seed: int, playouts: int | None, budget: float | None) -> Player:
        return ExpertPlayer(seed, budget=budget, playouts=playouts, **options)

    return make


def _shipped(**options: Any) -> Factory:
    """The expert as shipped (the tree search) with ``options`` changed."""

    def make(seed: int, playouts: int | None, budget: float | None) -> Player:
        return ExpertPlayer(seed, budget=budget, playouts=playouts, **options)

    return make


def _times(factor: int, make: Factory) -> Factory:
    """``make`` with ``factor`` times the playouts or budget (as the master has the expert's)."""

    def scaled(seed: int, playouts: int | None, budget: float | None) -> Player:
        return make(
            seed,
            None if playouts is None else factor * playouts,
            None if budget is None else factor * budget,
        )

    return scaled


VARIANTS: dict[str, Factory] = {
    "expert": lambda seed, playouts, budget: ExpertPlayer(
        seed, budget=budget, playouts=playouts
    ),  # as shipped: the tree search with exploration relative to the spread
    "flat": _expert(),
    "expert-no-settle": _expert(settle=None),
    "expert-no-exact": _expert(exact_tiles=0),
    "exact10": _expert(exact_tiles=10),
    "exact12": _expert(exact_tiles=12),
    "exact14": _expert(exact_tiles=14),
    "exact16": _expert(exact_tiles=16),
    "exact18": _expert(exact_tiles=18),
    "exact-bone14": _expert(exact_tiles=14, exact_boneyard=True),
    "exact-bone18": _expert(exact_tiles=18, exact_boneyard=True),
    "hybrid": _expert(tail=greedy_policy),
    "full-greedy": _expert(policy=greedy_policy, horizon=None),
    "full-reply": _expert(horizon=None),
    "horizon12": _expert(horizon=12),
    "no-inference": _expert(uniform=False, inference=0.0),
    "inference": _expert(uniform=False),
    "uniform": _expert(uniform=True),
    "uniform-exact14": _expert(uniform=True, exact_tiles=14, exact_boneyard=True),
    "hybrid-exact14": _expert(tail=greedy_policy, exact_tiles=14, exact_boneyard=True),
    "montecarlo": lambda seed, playouts, budget: MonteCarloPlayer(
        seed, budget=budget, playouts=playouts
    ),
    "pip1": _expert(pip_weight=1.0),
    "horizon8": _expert(horizon=8),
    "montecarlo-x3": lambda seed, playouts, budget: MonteCarloPlayer(
        seed,
        budget=None if budget is None else 3 * budget,
        playouts=None if playouts is None else 3 * playouts,
    ),
    "ismcts": _expert(tree=30.0),
    "ismcts-c15": _expert(tree=15.0),
    "ismcts-c60": _expert(tree=60.0),
    "ismcts-c8": _expert(tree=8.0),
    "ismcts-rel2": _expert(tree=2.0, tree_relative=True),
    "ismcts-rel3": _expert(tree=3.0, tree_relative=True),
    # worlds in proportion to the likelihood of the plays seen (issue 38)
    "odds1.5": _shipped(odds=1.5),
    "odds2": _shipped(odds=2.0),
    "odds3": _shipped(odds=3.0),
    "odds1": _shipped(odds=1.0),
    "flat-odds2": _expert(odds=2.0),
    "flat-partner-odds2": _expert(partner_odds=2.0),
    "flat-partner-odds4": _expert(partner_odds=4.0),
    "flat-team-odds2": _expert(odds=2.0, partner_odds=2.0),
    "flat-team-odds2-4": _expert(odds=2.0, partner_odds=4.0),
    "tree-partners": _shipped(tree_partners=True),
    "tree-partners-odds4": _shipped(tree_partners=True, partner_odds=4.0),
    # what four times the time buys (the master), and with it an exact search from more tiles
    "expert-x4": _times(4, _shipped()),
    "exact16-x4": _times(4, _shipped(exact_tiles=16)),
    "exact18-x4": _times(4, _shipped(exact_tiles=18)),
    # the tree's decisions reaching further into the endgame, the exact search from fewer tiles
    "tree-exact12": _shipped(exact_tiles=12),
    "tree-exact10": _shipped(exact_tiles=10),
    "tree-no-exact": _shipped(exact_tiles=0),
    "tree-exact10-x4": _times(4, _shipped(exact_tiles=10)),
    # every other seat in the tree plays the policy in each world, seeing its tiles
    "tree-others-policy": _shipped(tree_others_policy=True),
    "tree-others-policy-x4": _times(4, _shipped(tree_others_policy=True)),
    "tree-partners-others-policy": _shipped(tree_partners=True, tree_others_policy=True),
    "odds2-x4": _times(4, _shipped(odds=2.0)),
    # the tree stops once settled and banks the rest for close decisions
    "tree-settle": _shipped(tree_settle=True),
    "tree-settle-x4": _times(4, _shipped(tree_settle=True)),
    # the tree's playouts shorter or longer than the flat search's 6 actions
    "tree-horizon3": _shipped(horizon=3),
    "tree-horizon10": _shipped(horizon=10),
    "tree-horizon3-x4": _times(4, _shipped(horizon=3)),
    # the tree capped at a depth: beyond it the playouts, which see each world's tiles
    "depth2": _shipped(tree_depth=2),
    "depth3": _shipped(tree_depth=3),
    "depth2-x4": _times(4, _shipped(tree_depth=2)),
    "depth3-x4": _times(4, _shipped(tree_depth=3)),
}
"""Every player a screen can run, by name (add a variant here to screen it)."""


def _opponent(name: str, seed: int, playouts: int | None, budget: float | None) -> Player:
    if name in VARIANTS:
        return VARIANTS[name](seed, playouts, budget)
    return make_player(name, seed, budget=budget, playouts=playouts)


def play(args: argparse.Namespace, name: str, deal: int, seating: int) -> float:
    """One game of ``name`` against the opponent: its figure (see the module doc)."""
    rules = _rules(args)
    sides = 2
    seat_side = [(s + seating) % sides for s in range(rules.players)]
    players = []
    for s in range(rules.players):
        seed = derive_seed(args.seed, deal, seating, s)
        budget = args.budget
        if seat_side[s] == 0:
            playouts = None if budget else args.playouts
            players.append(VARIANTS[name](seed, playouts, budget))
        else:
            playouts = None if budget else args.opponent_playouts
            players.append(_opponent(args.opponent, seed, playouts, budget))
    state = new_game(rules)
    if args.mode == "endgame":
        rng = Rng(derive_seed(args.seed, deal, 7))
        low, high = (80, 185) if rules.partnerships else (100, 245)
        scores = tuple(low + rng.below(high - low + 1) for _ in state.scores)
        state = GameState.model_validate({**dict(state), "scores": scores})
    game_seed = derive_seed(args.seed, deal) % SEED_LIMIT
    mine = rules.team_of(seat_side.index(0))
    while not state.is_terminal:
        if state.is_chance:
            if args.mode == "first-hand" and state.hand_number >= 1:
                break
            before = state.scores
            state = apply(state, seeded_deal(state, game_seed)).state
            continue
        seat = state.current
        assert seat is not None
        view = state.view(seat)
        state = apply(state, players[seat].choose(view, view.legal_actions())).state
    if args.mode != "first-hand":
        return 1.0 if state.winner == mine else 0.0
    gains = [new - old for new, old in zip(state.scores, before, strict=True)]
    return float(gains[mine] - sum(g for t, g in enumerate(gains) if t != mine))


def _rules(args: argparse.Namespace) -> Rules:
    if args.partnerships:
        return Rules(players=4, partnerships=True)
    return Rules(players=args.players)


def _job(job: tuple[argparse.Namespace, str, int]) -> tuple[str, int, float, float]:
    args, name, deal = job
    t0 = time.process_time()
    seatings = 2 if (args.partnerships or args.players == 2) else args.players
    total = sum(play(args, name, deal, s) for s in range(seatings))
    return name, deal, total / seatings, time.process_time() - t0


def mean_se(xs: list[float]) -> tuple[float, float]:
    """Mean and standard error."""
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return mean, math.inf
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return mean, math.sqrt(var / n)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("variants", nargs="+", choices=sorted(VARIANTS))
    parser.add_argument("--base", default="flat", choices=sorted(VARIANTS))
    parser.add_argument("--mode", default="first-hand", choices=("first-hand", "endgame", "game"))
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--playouts", type=int, default=2000)
    parser.add_argument("--opponent", default="montecarlo")
    parser.add_argument("--opponent-playouts", type=int, default=1000)
    parser.add_argument(
        "--budget",
        type=float,
        default=None,
        help="CPU seconds a move for every player instead of fixed playouts (equal time; "
        "the figures then depend on the machine's speed and are not reproducible)",
    )
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--partnerships", action="store_true")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    names = [args.base] + [v for v in args.variants if v != args.base]
    deals = range(args.first_deal, args.first_deal + args.deals)
    jobs = [(args, name, d) for d in deals for name in names]
    start = time.perf_counter()
    done: list[tuple[str, int, float, float]] = []

    def collect(result: tuple[str, int, float, float]) -> None:
        done.append(result)
        if len(done) * 10 // len(jobs) != (len(done) - 1) * 10 // len(jobs):
            print(f"{len(done)}/{len(jobs)} jobs done", file=sys.stderr, flush=True)

    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            for result in pool.map(_job, jobs, chunksize=1):
                collect(result)
    else:
        for job in jobs:
            collect(_job(job))
    figures: dict[str, dict[int, float]] = {n: {} for n in names}
    cpu: dict[str, float] = dict.fromkeys(names, 0.0)
    for name, deal, figure, seconds in done:
        figures[name][deal] = figure
        cpu[name] += seconds
    out: dict[str, Any] = {
        "mode": args.mode,
        "deals": [deals.start, deals.stop - 1],
        "seed": args.seed,
        "playouts": args.playouts,
        "budget_s": args.budget,
        "opponent": (
            f"{args.opponent} at {args.budget} s"
            if args.budget
            else f"{args.opponent} at {args.opponent_playouts}"
        ),
        "rules": "4 players, partnerships" if args.partnerships else f"{args.players} players",
        "players": {},
        "paired": {},
        "elapsed_s": round(time.perf_counter() - start, 1),
    }
    base = [figures[args.base][d] for d in deals]
    for name in names:
        xs = [figures[name][d] for d in deals]
        m, se = mean_se(xs)
        out["players"][name] = {"mean": m, "se": se, "cpu_s": round(cpu[name], 1)}
        if name != args.base:
            dm, dse = mean_se([x - b for x, b in zip(xs, base, strict=True)])
            changed = sum(1 for x, b in zip(xs, base, strict=True) if x != b)
            out["paired"][name] = {"diff": dm, "se": dse, "deals_changed": changed}
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    unit = "win rate" if args.mode != "first-hand" else "points a hand over the opponent"
    scale = 100.0 if args.mode != "first-hand" else 1.0
    print(
        f"{args.mode} screen, {out['rules']}, deals {deals.start}-{deals.stop - 1}, "
        f"seed {args.seed}, "
        f"{f'{args.budget} s' if args.budget else f'{args.playouts} playouts'} a move "
        f"against {out['opponent']}; "
        f"{unit}{' (%)' if scale == 100 else ''}; {out['elapsed_s']} s"
    )
    for name in names:
        p = out["players"][name]
        line = f"  {name:14s} {scale * p['mean']:8.2f} ± {scale * p['se']:.2f}"
        if name in out["paired"]:
            d = out["paired"][name]
            line += (
                f"   paired vs {args.base}: {scale * d['diff']:+.2f} ± {scale * d['se']:.2f}"
                f" ({d['deals_changed']} deals changed)"
            )
        print(line + f"   cpu {p['cpu_s']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
