"""The coach's speed and calibration: hint time, hint against a ten-times-longer evaluation,
a whole game reviewed, and predicted win chance against actual wins.

    python benchmarks/coach.py hints        # [--games 6] [--positions 150]
    python benchmarks/coach.py review       # [--seed 3]
    python benchmarks/coach.py calibration  # [--games 24] [--playouts 200] [--every 2]

``hints``: decisions sampled from real games (the heuristic level against
itself, two players to 250); each gets a hint as the app asks for one
(:func:`allfives_tui.coach.ratings.hint`: HINT_PLAYOUTS per legal action,
capped at HINT_BUDGET CPU seconds) and an evaluation with ten times the
playouts (no cap). It prints the hint's wall and CPU time (median, 95th
percentile, max; target ≤ 0.5 s) and how often the hint's action is the longer
evaluation's best (target ≥ 85 %).

``review``: one whole two-player game to 250 (heuristic against heuristic)
reviewed for seat 0 at the rating count, as ``allfives analyse`` does it:
decisions, wall and CPU seconds (target ≤ 60 s).

``calibration``: self-play games of each shape (2, 3, 4 players, 4 in
partnerships; heuristic level, default targets); at every ``--every``-th
decision the mover's side's predicted win chance (the best action's ``win``
from the mover's view) is paired with whether that side won the game. It
prints, in ten bins of prediction, the mean predicted chance, the actual win
rate and the count, and the Brier score of the predictions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from allfives_tui.coach import ratings
from allfives_tui.table.driver import computer_player
from allfives_tui.table.table import Table
from engine import Rules, SeatView
from engine.players import make_player
from engine.players.evaluate import evaluate
from engine.record import GameRecord, Seat


def self_play(rules: Rules, seed: int, level: str = "heuristic") -> GameRecord:
    """A whole game of ``level`` against itself (seat 0 a person played by ``level``)."""
    seats = [Seat(name="P0", kind="person")]
    seats += [Seat(name=f"C{i}", kind="computer", level=level) for i in range(1, rules.players)]
    table = Table.new(rules, seats, seed=seed)
    players = [make_player(level, seed=seed * 31 + 7)]
    players += [computer_player(seed, s, level) for s in range(1, rules.players)]
    while not table.is_over:
        turn = table.turn()
        if turn is None:
            table.deal()
            continue
        table.act(turn.seat, players[turn.seat].choose(turn.view, turn.legal))
    return table.record()


def sampled_views(games: int, positions: int, seed: int) -> list[SeatView]:
    """Decision views (both seats) from ``games`` real games, ``positions`` of them at random."""
    views: list[SeatView] = []
    for g in range(games):
        record = self_play(Rules(players=2, target=250), seed + g)
        for s in (0, 1):
            views.extend(d.view for d in ratings.decisions(record, s))
    random.Random(seed).shuffle(views)
    return views[:positions]


def pct(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (nearest rank)."""
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_hints(args: argparse.Namespace) -> None:
    views = sampled_views(args.games, args.positions, args.seed)
    walls: list[float] = []
    cpus: list[float] = []
    agree = 0
    close = 0
    for view in views:
        start, cpu = time.perf_counter(), time.thread_time()
        values = ratings.hint(view)
        walls.append(time.perf_counter() - start)
        cpus.append(time.thread_time() - cpu)
        longer = evaluate(
            view, playouts=10 * ratings.HINT_PLAYOUTS * len(view.legal_actions()), seed=99
        )
        if values[0].action == longer[0].action:
            agree += 1
        chosen = next(v for v in longer if v.action == values[0].action)
        if longer[0].win - chosen.win <= ratings.INACCURACY:
            close += 1
    n = len(views)
    print(f"hints: {n} positions from {args.games} heuristic games (2 players, to 250)")
    print(
        f"  hint ({ratings.HINT_PLAYOUTS} playouts a legal action,"
        f" cap {ratings.HINT_BUDGET} s CPU):"
        f" wall median {statistics.median(walls):.3f} s, p95 {pct(walls, 0.95):.3f} s,"
        f" max {max(walls):.3f} s; CPU median {statistics.median(cpus):.3f} s,"
        f" max {max(cpus):.3f} s"
    )
    print(
        f"  hint = best of a 10x evaluation (another seed): {agree}/{n} = {100 * agree / n:.1f} %"
    )
    print(
        f"  hint within an inaccuracy ({100 * ratings.INACCURACY:.0f} points of win chance) of that"
        f" best: {close}/{n} = {100 * close / n:.1f} %"
    )


def bench_review(args: argparse.Namespace) -> None:
    record = self_play(Rules(players=2, target=250), args.seed)
    start, cpu = time.perf_counter(), time.process_time()
    found = ratings.review(record, 0)
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    final = record.final_state().scores
    print(
        f"review: a 2-player game to 250 ({len(record.hands)} hands, final {final[0]}-{final[1]}),"
        f" seat 0, {found.total} decisions at {ratings.RATING_PLAYOUTS} playouts a legal action"
    )
    print(
        f"  {wall:.1f} s wall, {used:.1f} s CPU ({1000 * used / max(1, found.total):.0f} ms a"
        f" decision); accuracy {found.accuracy or 0:.1f}, {len(found.costly())} labelled"
    )


SHAPES = {
    "2 players": Rules(players=2),
    "3 players": Rules(players=3),
    "4 players": Rules(players=4),
    "4, partnerships": Rules(players=4, partnerships=True),
}


def bench_calibration(args: argparse.Namespace) -> None:
    pairs: list[tuple[float, int]] = []
    per_shape: dict[str, list[tuple[float, int]]] = {}
    start = time.perf_counter()
    for name, rules in SHAPES.items():
        shape: list[tuple[float, int]] = []
        for g in range(args.games):
            record = self_play(rules, 1000 + g)
            winner = record.final_state().winner
            k = 0
            for seat in range(rules.players):
                for d in ratings.decisions(record, seat):
                    k += 1
                    if k % args.every:
                        continue
                    legal = d.view.legal_actions()
                    best = evaluate(d.view, playouts=args.playouts * len(legal), seed=17)[0]
                    shape.append((best.win, int(rules.team_of(seat) == winner)))
        per_shape[name] = shape
        pairs.extend(shape)
        print(f"  {name}: {args.games} games, {len(shape)} predictions", file=sys.stderr)
    print(
        f"calibration: heuristic self-play, {args.games} games a shape, every {args.every}th"
        f" decision, {args.playouts} playouts a legal action ({time.perf_counter() - start:.0f} s)"
    )
    print("| shape | predictions | Brier | mean predicted | actual win rate |")
    print("|---|---|---|---|---|")
    for name, shape in per_shape.items():
        brier = sum((p - w) ** 2 for p, w in shape) / len(shape)
        mean_p = sum(p for p, _ in shape) / len(shape)
        rate = sum(w for _, w in shape) / len(shape)
        print(f"| {name} | {len(shape)} | {brier:.3f} | {mean_p:.3f} | {rate:.3f} |")
    print()
    print("| predicted | mean predicted | actual win rate | count |")
    print("|---|---|---|---|")
    for b in range(10):
        lo, hi = b / 10, (b + 1) / 10
        inside = [(p, w) for p, w in pairs if lo <= p < hi or (b == 9 and p == 1.0)]
        if not inside:
            print(f"| {lo:.1f}-{hi:.1f} | | | 0 |")
            continue
        mean_p = sum(p for p, _ in inside) / len(inside)
        rate = sum(w for _, w in inside) / len(inside)
        print(f"| {lo:.1f}-{hi:.1f} | {mean_p:.3f} | {rate:.3f} | {len(inside)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    hints = sub.add_parser("hints")
    hints.add_argument("--games", type=int, default=6)
    hints.add_argument("--positions", type=int, default=150)
    hints.add_argument("--seed", type=int, default=1)
    review = sub.add_parser("review")
    review.add_argument("--seed", type=int, default=3)
    calibration = sub.add_parser("calibration")
    calibration.add_argument("--games", type=int, default=24)
    calibration.add_argument("--playouts", type=int, default=200)
    calibration.add_argument("--every", type=int, default=2)
    args = parser.parse_args()
    {"hints": bench_hints, "review": bench_review, "calibration": bench_calibration}[args.what](
        args
    )


if __name__ == "__main__":
    main()
