"""``allfives sim``: computer levels against each other, headless, with duplicate deals.

    allfives sim expert greedy --games 200 --workers 2
    allfives sim expert greedy --partnerships --games 200
    allfives sim heuristic greedy --games 400 --json > result.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import TextIO

from pydantic import ValidationError

from engine.match import MatchConfig, run_match
from engine.players import LEVELS
from engine.players.expert import DEFAULT_BUDGET
from engine.rules import HandSize


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _target(text: str) -> int:
    value = _positive_int(text)
    if value % 5:
        raise argparse.ArgumentTypeError(f"the target must be a multiple of 5, not {value}")
    return value


def _budget(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"the time budget must be positive, not {text}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``sim`` flags."""
    parser.add_argument(
        "levels",
        nargs="+",
        choices=LEVELS,
        metavar="LEVEL",
        help=f"one level per player, 2 to 4 ({', '.join(LEVELS)}); "
        "with --partnerships, one per partnership",
    )
    parser.add_argument(
        "-n", "--games", type=_positive_int, default=100,
        help="games to play (rounded up to whole duplicate deals; default 100)",
    )
    parser.add_argument(
        "--partnerships", action="store_true",
        help="four players, seats 0+2 (first level) against 1+3 (second level)",
    )
    parser.add_argument(
        "--target", type=_target, default=0,
        help="points to win (default: 250 with 2 players, 200 with 3 or 4)",
    )
    parser.add_argument(
        "--hand-size", choices=[h.value for h in HandSize], default=HandSize.STANDARD.value,
        help="hand size option (default standard)",
    )
    parser.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    parser.add_argument(
        "--budget", type=_budget, default=DEFAULT_BUDGET,
        help=f"expert's time budget in seconds a move (default {DEFAULT_BUDGET})",
    )
    parser.add_argument(
        "--playouts", type=_positive_int, default=None,
        help="expert's playouts a move; alone (with --no-budget) gives reproducible games",
    )
    parser.add_argument(
        "--no-budget", action="store_true",
        help="no time cap for the expert (needs --playouts)",
    )
    parser.add_argument(
        "-w", "--workers", type=_positive_int, default=os.cpu_count() or 1,
        help="worker processes (default: one per core)",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


class ProgressBar:
    """A one-line progress bar on a text stream (a line per 10 % when not a terminal)."""

    def __init__(self, stream: TextIO, label: str) -> None:
        self.stream = stream
        self.label = label
        self.start = time.monotonic()
        self.tty = stream.isatty()
        self.last_decile = -1

    def __call__(self, done: int, total: int) -> None:
        frac = done / total if total else 1.0
        elapsed = time.monotonic() - self.start
        eta = elapsed / frac - elapsed if frac > 0 else 0.0
        width = 30
        filled = int(width * frac)
        bar = "#" * filled + "." * (width - filled)
        text = f"{self.label} [{bar}] {done}/{total} games  {elapsed:.0f}s elapsed"
        if 0 < done < total:
            text += f", ~{eta:.0f}s left"
        if self.tty:
            self.stream.write("\r" + text)
            if done >= total:
                self.stream.write("\n")
        else:
            decile = int(frac * 10)
            if decile == self.last_decile:
                return
            self.last_decile = decile
            self.stream.write(text + "\n")
        self.stream.flush()


def run(args: argparse.Namespace) -> int:
    """Play the match and print the table (or JSON); returns the exit status."""
    levels = tuple(args.levels)
    if args.no_budget and args.playouts is None:
        return _error("--no-budget needs --playouts")
    try:
        config = MatchConfig(
            entrants=levels,
            games=args.games,
            partnerships=args.partnerships,
            target=args.target,
            seed=args.seed,
            budget=None if args.no_budget else args.budget,
            playouts=args.playouts,
            hand_size=HandSize(args.hand_size),
        )
        config.rules()
    except ValueError as exc:
        return _error(_message(exc))
    label = " vs ".join(levels) + (" (partnerships)" if args.partnerships else "")
    progress = None if args.quiet else ProgressBar(sys.stderr, label)
    result = run_match(config, workers=args.workers, progress=progress)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0
    rules = config.rules()
    print(
        f"{label}: {len(result.games)} games ({config.deals} deals x {config.rotations} "
        f"seat rotations), {rules.players} players, target {rules.target}, seed {config.seed}, "
        + (_search_note(config) if "expert" in levels else "")
        + f"{result.workers} workers, {result.elapsed:.0f} s"
    )
    print(result.table())
    return 0


def _search_note(config: MatchConfig) -> str:
    budget = f"expert budget {config.budget} s" if config.budget is not None else "no time cap"
    playouts = f", {config.playouts} playouts a move" if config.playouts else ""
    return f"{budget}{playouts}, "


def _message(exc: ValueError) -> str:
    if isinstance(exc, ValidationError):
        msg = str(exc.errors()[0]["msg"])
        return msg.removeprefix("Value error, ")
    return str(exc)


def _error(message: str) -> int:
    print(f"allfives sim: error: {message}", file=sys.stderr)
    return 2
