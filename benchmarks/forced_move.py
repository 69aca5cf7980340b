"""How long the expert takes over a move with one legal action.

    python benchmarks/forced_move.py            # [--games 20] [--players 2] [--seed 1]

Plays heuristic self-play games (cheap: no search) and, at every decision
with exactly one legal action, times the expert at its default budget as a
match does (``engine.match.play_game``): CPU time of the deciding thread for
``choose`` alone, and for the whole step from the snapshot to the action (the
seat's view, its legal actions, the choice). Prints the count, the median,
the 95th percentile and the largest of each, in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import time

from engine import Rules, apply, new_game, seeded_deal
from engine.players import ExpertPlayer, HeuristicPlayer


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = Rules(players=args.players)
    clock = time.thread_time
    choose: list[float] = []
    step: list[float] = []
    for game in range(args.games):
        seed = args.seed * 1000 + game
        players = [HeuristicPlayer(seed + s) for s in range(args.players)]
        experts = [ExpertPlayer(seed + s) for s in range(args.players)]
        state = new_game(rules)
        while not state.is_terminal:
            if state.is_chance:
                state = apply(state, seeded_deal(state, seed)).state
                continue
            seat = state.current
            assert seat is not None
            t0 = clock()
            view = state.view(seat)
            legal = view.legal_actions()
            if len(legal) == 1:
                t1 = clock()
                action = experts[seat].choose(view, legal)
                t2 = clock()
                choose.append(t2 - t1)
                step.append(t2 - t0)
            else:
                action = players[seat].choose(view, legal)
            state = apply(state, action).state
    print(f"{len(choose)} moves with one legal action, {args.games} games of "
          f"{args.players} players (CPU time of the thread, ms):")
    for name, values in (("choose", choose), ("view + legal + choose", step)):
        print(f"  {name:<22} median {statistics.median(values) * 1000:.3f}  "
              f"p95 {percentile(values, 0.95) * 1000:.3f}  max {max(values) * 1000:.3f}")


if __name__ == "__main__":
    main()
