"""Engine throughput: random 2-player games to 250 through the public snapshot API.

    python benchmarks/engine_throughput.py [--seconds 1] [--rounds 9]

Prints applies per second, games per second and microseconds per apply, and
the moves per second of the same games on the compact rules core. Two
*realistic* loops run beside them, reading every snapshot as real callers do:
"app order" asks ``legal_actions(state)``, applies a move unpacking
``state, events = apply(...)`` (as the app and replay do), builds
``state.view(state.current)`` for the seat to act and reads the scores; "match
order" is :func:`engine.match.play_game`'s loop (``state.phase``,
``state.current``, ``state.view(seat)``, ``view.legal_actions()``,
``apply(...).state``, the scores read around each hand). With
the optional ``bench`` extra installed (``pip install -e ".[bench]"``, which
adds the ``dominoes`` package) it also runs that package's random self-play in
the same run, and prints the ratio of moves per second.

Rates are per second of this process's CPU time (``time.process_time``), so
other work on a shared machine slows the figures less; the engines take turns
in short rounds, each figure is the median over the rounds, and each ratio is
the median of the ratios measured round by round (side by side).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Phase, Rules, apply, core, legal_actions, new_game, seeded_deal

CLOCK = time.process_time
"""CPU time of this process: the figures are per CPU second."""


def run_allfives(seconds: float, seed: int) -> tuple[int, int, int, float]:
    """Play whole games until ``seconds`` pass; return (applies, moves, games, elapsed)."""
    import random

    rng = random.Random(seed)
    rules = Rules(players=2)
    applies = moves = games = 0
    start = CLOCK()
    while CLOCK() - start < seconds:
        state = new_game(rules)
        game_seed = rng.getrandbits(63)
        while not state.is_terminal:
            if state.is_chance:
                state = apply(state, seeded_deal(state, game_seed)).state
            else:
                legal = legal_actions(state)
                state = apply(state, legal[rng.randrange(len(legal))]).state
                moves += 1
            applies += 1
        games += 1
    return applies, moves, games, CLOCK() - start


def run_realistic(seconds: float, seed: int) -> tuple[int, int, float]:
    """Whole games read as the app and replay read them; return (moves, games, elapsed).

    Per move: the legal actions, the move applied with its events unpacked,
    the view of the seat to act next and the scores.
    """
    import random

    rng = random.Random(seed)
    rules = Rules(players=2)
    moves = games = 0
    start = CLOCK()
    while CLOCK() - start < seconds:
        state = new_game(rules)
        game_seed = rng.getrandbits(63)
        while not state.is_terminal:
            if state.is_chance:
                state, events = apply(state, seeded_deal(state, game_seed))
                continue
            seat = state.current
            assert seat is not None
            view = state.view(seat)
            legal = legal_actions(state)
            state, events = apply(state, legal[rng.randrange(len(legal))])
            scores = state.scores
            moves += 1
        del view, events, scores
        games += 1
    return moves, games, CLOCK() - start


def run_match_order(seconds: float, seed: int) -> tuple[int, int, float]:
    """Whole games in :func:`engine.match.play_game`'s order, a random choice from the
    view's legal actions standing in for a player; return (moves, games, elapsed)."""
    import random

    rng = random.Random(seed)
    rules = Rules(players=2)
    moves = games = 0
    start = CLOCK()
    while CLOCK() - start < seconds:
        state = new_game(rules)
        game_seed = rng.getrandbits(63)
        net = [0, 0]
        while not state.is_terminal:
            if state.is_chance:
                before = state.scores
                state = apply(state, seeded_deal(state, game_seed)).state
                while state.phase is Phase.PLAY:
                    seat = state.current
                    assert seat is not None
                    view = state.view(seat)
                    legal = view.legal_actions()
                    state = apply(state, legal[rng.randrange(len(legal))]).state
                    moves += 1
                for team, (old, new) in enumerate(zip(before, state.scores, strict=True)):
                    net[team] += new - old
        games += 1
    return moves, games, CLOCK() - start


def run_core(seconds: float, seed: int) -> tuple[int, int, float]:
    """The same games on the compact rules core (``engine.core``) that players search with.

    Each move copies the core first, as a search does; returns (moves, games, elapsed).
    """
    import random

    rng = random.Random(seed)
    rules = Rules(players=2)
    base = new_game(rules).core()
    per_hand = rules.tiles_per_hand
    moves = games = 0
    start = CLOCK()
    while CLOCK() - start < seconds:
        c = base.copy()
        while c.phase != core.PHASE_OVER:
            if c.phase == core.PHASE_DEAL:
                tiles = list(range(28))
                rng.shuffle(tiles)
                hands = [tiles[i * per_hand : (i + 1) * per_hand] for i in range(2)]
                starter = c.next_start if c.next_start >= 0 else rng.randrange(2)
                c.deal(hands, tiles[2 * per_hand :], starter)
            else:
                legal = c.legal()
                c = c.copy()
                c.step(legal[rng.randrange(len(legal))])
                moves += 1
        games += 1
    return moves, games, CLOCK() - start


def run_dominoes(seconds: float, seed: int) -> tuple[int, int, float] | None:
    """The ``dominoes`` package's random self-play; None when it is not installed."""
    try:
        import dominoes
    except ImportError:
        return None
    import random

    rnd = random.Random(seed)
    moves = games = 0
    start = CLOCK()
    while CLOCK() - start < seconds:
        game = dominoes.Game.new()
        while game.result is None:
            valid = game.valid_moves
            game.make_move(*valid[rnd.randrange(len(valid))])
            moves += 1
        games += 1
    return moves, games, CLOCK() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds of each round")
    parser.add_argument("--rounds", type=int, default=9, help="alternating rounds per engine")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    ours: list[float] = []
    theirs: list[float] = []
    core_rate: list[float] = []
    games_rate: list[float] = []
    move_rate: list[float] = []
    real_rate: list[float] = []
    match_rate: list[float] = []
    for r in range(args.rounds):
        applies, moves, games, elapsed = run_allfives(args.seconds, args.seed + r)
        ours.append(applies / elapsed)
        move_rate.append(moves / elapsed)
        games_rate.append(games / elapsed)
        real_moves, _, real_elapsed = run_realistic(args.seconds, args.seed + r)
        real_rate.append(real_moves / real_elapsed)
        match_moves, _, match_elapsed = run_match_order(args.seconds, args.seed + r)
        match_rate.append(match_moves / match_elapsed)
        core_moves, _, core_elapsed = run_core(args.seconds, args.seed + r)
        core_rate.append(core_moves / core_elapsed)
        other = run_dominoes(args.seconds, args.seed + r)
        if other is not None:
            theirs.append(other[0] / other[2])
    aps = statistics.median(ours)
    print("allfives engine (immutable snapshots, public API), random 2-player games to 250")
    print(f"  applies/s       {aps:>10,.0f}   (median of {args.rounds} rounds)")
    print(f"  moves/s         {statistics.median(move_rate):>10,.0f}   (applies without deals)")
    print(f"  games/s         {statistics.median(games_rate):>10,.1f}")
    print(f"  us per apply    {1e6 / aps:>10.2f}")
    print("allfives realistic loops (every snapshot read, a view built each move)")
    print(
        f"  app order moves/s   {statistics.median(real_rate):>10,.0f}"
        "   (legal_actions, apply + events, view, scores)"
    )
    print(
        f"  match order moves/s {statistics.median(match_rate):>10,.0f}"
        "   (match.play_game: view, view.legal_actions, apply)"
    )
    cps = statistics.median(core_rate)
    print("allfives compact rules core (engine.core, copied before every move, as search does)")
    print(f"  moves/s         {cps:>10,.0f}")
    if theirs:
        dps = statistics.median(theirs)
        print("dominoes package, random self-play (mutable game object)")
        print(f"  moves/s         {dps:>10,.0f}   (median of {args.rounds} rounds)")
        print("ratios to dominoes moves/s, round by round: median (lowest-highest)")
        for label, rates in (
            ("snapshot API applies/s", ours),
            ("snapshot API moves/s  ", move_rate),
            ("realistic, app order  ", real_rate),
            ("realistic, match order", match_rate),
            ("compact core moves/s  ", core_rate),
        ):
            ratios = [a / b for a, b in zip(rates, theirs, strict=True)]
            print(
                f"  {label} {statistics.median(ratios):.2f}x"
                f"   ({min(ratios):.2f}-{max(ratios):.2f})"
            )
    else:
        print("(install the bench extra to compare with the dominoes package)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
