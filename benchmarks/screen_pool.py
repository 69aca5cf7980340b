"""Pool ``screen.py --json`` results of one screen run in chunks of other deals.

    python benchmarks/screen_pool.py SCREEN.json [SCREEN.json ...]

Each file is a screen of the same players, mode, seed and limits over its own
range of deals (``--first-deal``); the chunks' deals are disjoint, so their
figures add up: each mean (and paired difference) is the deal-weighted mean of
the chunks', its standard error ``sqrt(sum (n_i se_i)^2) / N``. Files that
differ in anything but their deals are refused.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

SAME = ("mode", "seed", "playouts", "budget_s", "opponent", "rules")
"""What every pooled chunk must share."""


def pooled(parts: list[tuple[int, float, float]]) -> tuple[float, float]:
    """The mean and standard error of chunks given as ``(deals, mean, se)``."""
    total = sum(n for n, _, _ in parts)
    mean = sum(n * m for n, m, _ in parts) / total
    se = math.sqrt(sum((n * s) ** 2 for n, _, s in parts)) / total
    return mean, se


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("screens", nargs="+", type=Path)
    args = parser.parse_args(argv)
    runs: list[dict[str, Any]] = []
    for path in args.screens:
        try:
            runs.append(json.loads(path.read_text()))
        except (OSError, ValueError) as exc:
            print(f"screen_pool.py: {path}: not a screen result ({exc})", file=sys.stderr)
            return 2
    first = runs[0]
    for path, run in zip(args.screens, runs, strict=True):
        differs = [k for k in SAME if run.get(k) != first.get(k)]
        if differs or set(run["players"]) != set(first["players"]):
            print(f"screen_pool.py: {path} is another screen ({differs or 'players'})",
                  file=sys.stderr)
            return 2
    deals = [r["deals"][1] - r["deals"][0] + 1 for r in runs]
    ranges = ", ".join(f"{r['deals'][0]}-{r['deals'][1]}" for r in runs)
    scale = 100.0 if first["mode"] != "first-hand" else 1.0
    unit = "win rate (%)" if scale == 100.0 else "points a hand over the opponent"
    limit = f"{first['budget_s']} s" if first["budget_s"] else f"{first['playouts']} playouts"
    print(f"{first['mode']} screen, {first['rules']}, deals {ranges} ({sum(deals)}), seed "
          f"{first['seed']}, {limit} a move against {first['opponent']}; {unit}")
    for name in first["players"]:
        mean, se = pooled([(n, r["players"][name]["mean"], r["players"][name]["se"])
                           for n, r in zip(deals, runs, strict=True)])
        cpu = sum(r["players"][name]["cpu_s"] for r in runs)
        line = f"  {name:18s} {scale * mean:8.2f} ± {scale * se:.2f}"
        if name in first["paired"]:
            diff, dse = pooled([(n, r["paired"][name]["diff"], r["paired"][name]["se"])
                                for n, r in zip(deals, runs, strict=True)])
            changed = sum(r["paired"][name]["deals_changed"] for r in runs)
            line += f"   paired: {scale * diff:+.2f} ± {scale * dse:.2f} ({changed} deals changed)"
        print(line + f"   cpu {cpu:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
