"""Full-hand playouts per second on one core, on the rules core (``engine.core.Core``).

    python benchmarks/playouts.py [--seconds 1] [--rounds 5] [--players 2]

A playout starts from a freshly dealt hand (a copy of a dealt core) and plays
to the end of the hand with uniformly random legal actions (``Core.legal`` /
``Core.step``); the other lines do the same with the greedy playout policy and
with the reply-aware policy the expert plays out with. The target for random
playouts is 15,000 a second. Rates are per second of this process's CPU time
(one core), so other work on a shared machine slows them less; each rate is
the median over rounds (the lowest and highest in brackets), since a shared
machine's speed drifts from one second to the next.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import core
from engine.players.playout import Policy, greedy_policy, play_hand, random_hand, reply_policy
from engine.rules import Rules
from engine.tiles import SET_SIZE

TARGET = 15_000


def dealt_cores(rules: Rules, count: int, seed: int) -> list[core.Core]:
    """``count`` freshly dealt cores."""
    rng = random.Random(seed)
    out = []
    k = rules.tiles_per_hand
    for _ in range(count):
        tiles = list(range(SET_SIZE))
        rng.shuffle(tiles)
        c = core.Core(
            rules.players, [rules.team_of(s) for s in range(rules.players)], rules.target, k
        )
        hands = [tiles[i * k : (i + 1) * k] for i in range(rules.players)]
        c.deal(hands, tiles[rules.players * k :], rng.randrange(rules.players))
        out.append(c)
    return out


def measure(cores: list[core.Core], seconds: float, policy: Policy | None) -> float:
    """Playouts a second over about ``seconds``."""
    rng = random.Random(1)
    n = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        for base in cores:
            c = base.copy()
            if policy is not None:
                play_hand(c, rng, policy)
            else:
                random_hand(c, rng)
            n += 1
        if time.process_time() >= deadline:
            break
    return n / (time.process_time() - start)


def mean_steps(cores: list[core.Core]) -> float:
    """Mean actions a random playout takes (counted apart so the timed loop stays bare)."""
    rng = random.Random(1)
    steps = 0
    for base in cores:
        c = base.copy()
        while c.phase == core.PHASE_PLAY:
            codes = c.legal()
            c.step(codes[int(rng.random() * len(codes))])
            steps += 1
    return steps / len(cores)


def rounds(
    cores: list[core.Core], seconds: float, count: int, policy: Policy | None
) -> tuple[float, float, float]:
    """(median, lowest, highest playouts a second) over ``count`` rounds."""
    rates = [measure(cores, seconds, policy) for _ in range(count)]
    return statistics.median(rates), min(rates), max(rates)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds of each round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per measurement")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    args = parser.parse_args()
    rules = Rules(players=args.players)
    cores = dealt_cores(rules, 200, seed=7)
    rate, low, high = rounds(cores, args.seconds, args.rounds, None)
    steps = mean_steps(cores)
    verdict = "meets" if rate >= TARGET else "BELOW"
    print(
        f"random playouts, {args.players} players: {rate:,.0f} full hands/s on one core "
        f"({low:,.0f}-{high:,.0f}; ~{steps:.0f} actions a hand; target {TARGET:,}: {verdict})"
    )
    for label, policy in (("greedy", greedy_policy), ("reply-aware (the expert's)", reply_policy)):
        rate, low, high = rounds(cores, args.seconds, args.rounds, policy)
        print(
            f"{label} playouts, {args.players} players: {rate:,.0f} hands/s "
            f"({low:,.0f}-{high:,.0f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
