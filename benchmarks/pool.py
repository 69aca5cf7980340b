"""Pool several ``allfives sim --json`` results of the same pairing into one figure.

    python benchmarks/pool.py RESULT.json [RESULT.json ...]

Each file is one seeded run (``allfives sim A B --seed N --json > file``);
runs with other seeds play other deals, so their games add up. Prints, per
side, the games, wins, win rate with its 95 % Wilson interval and the mean
points a hand over all the runs, and the seeds pooled; for a searching
level, the range of the runs' median playouts a decision and median move
time (how much search the budget bought on the machines that ran them), and
the mean CPU time of a move among two or more legal actions over every run
that reports it (a level that banks time keeps that within its budget). Files
whose entrants differ from the first file's are refused.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.intervals import wilson


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", nargs="+", type=Path)
    args = parser.parse_args(argv)
    runs = []
    for path in args.results:
        try:
            runs.append(json.loads(path.read_text()))
        except (OSError, ValueError) as exc:
            print(f"pool.py: {path}: not a sim result ({exc})", file=sys.stderr)
            return 2
    entrants = runs[0]["config"]["entrants"]
    for path, run in zip(args.results, runs, strict=True):
        if run["config"]["entrants"] != entrants:
            print(
                f"pool.py: {path} pairs {run['config']['entrants']}, not {entrants}",
                file=sys.stderr,
            )
            return 2
    seeds = sorted(run["config"]["seed"] for run in runs)
    print(f"{' vs '.join(entrants)}: {len(runs)} runs, seeds {', '.join(map(str, seeds))}")
    for i, name in enumerate(entrants):
        games = sum(run["sides"][i]["games"] for run in runs)
        wins = sum(run["sides"][i]["wins"] for run in runs)
        hands = sum(run["sides"][i]["hands"] for run in runs)
        points = sum(run["sides"][i]["points_per_hand"] * run["sides"][i]["hands"] for run in runs)
        low, high = wilson(wins, games)
        print(
            f"  {name:12s} {wins:4d} of {games:4d} games  {100 * wins / games:5.1f} % "
            f"({100 * low:.1f}-{100 * high:.1f} %)  {points / hands:+.1f} points a hand"
        )
        searched = [run["sides"][i] for run in runs if run["sides"][i].get("median_playouts")]
        if searched:
            playouts = sorted(side["median_playouts"] for side in searched)
            moves = sorted(1000 * side["median_move_s"] for side in searched)
            print(
                f"  {'':12s} a run's median playouts a decision {playouts[0]:,.0f}-"
                f"{playouts[-1]:,.0f}, median move {moves[0]:.1f}-{moves[-1]:.1f} ms"
            )
        timed = [run["sides"][i] for run in runs if "mean_choice_s" in run["sides"][i]]
        if timed:
            choices = sum(side["choices"] for side in timed)
            seconds = sum(side["mean_choice_s"] * side["choices"] for side in timed)
            if choices:
                print(
                    f"  {'':12s} mean CPU a move among two or more legal actions "
                    f"{1000 * seconds / choices:.1f} ms ({len(timed)} of {len(runs)} runs)"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
