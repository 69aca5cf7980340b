"""How often the expert's choice changes with more iterations of its tree search.

    python benchmarks/converge.py [--counts 1000,4000,16000] [--positions 60] [--seed 900]

Decisions come from heuristic-against-heuristic two-player games (seeded
deals from ``--seed`` on): every third decision among three or more legal
actions that the tree search plays (not the endgame). In each, the expert
chooses at every playout count twice, with two different seeds; the script
prints one JSON line a decision and then, for every pair of runs, in how many
decisions they chose the same action. Two runs at one count agree as often as
the search's own noise allows; a smaller count agreeing with the largest as
often as that says the extra iterations change nothing.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GameState, Rules, apply, new_game, seeded_deal
from engine.players import ExpertPlayer, make_player
from engine.players.evaluate import Search


def positions(n: int, seed: int) -> list[GameState]:
    """``n`` tree-search decisions from heuristic self-play (see the module doc)."""
    out: list[GameState] = []
    game = 0
    while len(out) < n:
        state = new_game(Rules(players=2))
        state = apply(state, seeded_deal(state, seed + game)).state
        players = [make_player("heuristic", seed + game + s) for s in range(2)]
        k = 0
        while not state.is_chance and not state.is_terminal:
            seat = state.current
            assert seat is not None
            view = state.view(seat)
            legal = view.legal_actions()
            if len(legal) > 2 and k % 3 == 0 and not Search(view, legal).endgame:
                out.append(state)
            k += 1
            state = apply(state, players[seat].choose(view, legal)).state
        game += 1
    return out[:n]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--counts", default="1000,4000,16000")
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--seed", type=int, default=900)
    args = parser.parse_args(argv)
    counts = [int(c) for c in args.counts.split(",")]
    rows = []
    for i, state in enumerate(positions(args.positions, args.seed)):
        seat = state.current
        assert seat is not None
        row = {}
        for count in counts:
            for rep in (1, 2):
                player = ExpertPlayer(seed=rep * 1000 + i, budget=None, playouts=count)
                view = state.view(seat)
                row[f"{count}/{rep}"] = str(player.choose(view, view.legal_actions()))
        rows.append(row)
        print(json.dumps(row), flush=True)
    for a, b in itertools.combinations(rows[0], 2):
        same = sum(r[a] == r[b] for r in rows)
        print(f"{a:>8} and {b:>8}: the same choice in {same} of {len(rows)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
