"""``allfives sim``: computer levels against each other, headless, with duplicate deals.

    allfives sim expert greedy --games 200 --workers 2
    allfives sim expert greedy --partnerships --games 200
    allfives sim heuristic greedy --games 400 --json > result.json

The options (in :mod:`allfives_tui.cli.parser`) are checked by the engine:
:class:`~engine.match.MatchConfig` (the seed, and the bounds of the budget
and playouts) and its :class:`~engine.rules.Rules`, the expert player for its
time budget (finite, above 0) and playouts, and
:func:`~engine.match.check_workers` for the worker count (at most one per
core). Progress goes to stderr (a live bar on a terminal, else a line every
10 %), so the results on stdout stay clean.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import TextIO

from pydantic import ValidationError
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from allfives_tui.cli.arguments import describe
from allfives_tui.cli.parser import PROG as TOP
from allfives_tui.table.problems import problem_text
from engine.errors import AllFivesError
from engine.match import MatchConfig, check_workers, run_match
from engine.players.expert import ExpertPlayer
from engine.rules import HandSize

PROG = f"{TOP} sim"

SEARCHING = frozenset({"montecarlo", "expert", "master"})
"""The levels that search within a time budget or a playout count."""


class MatchProgress:
    """Games finished so far, as a :mod:`rich.progress` bar on ``stream``.

    On a terminal the bar updates in place; otherwise (a log file, a pipe) a
    line is written each time another tenth of the games is done.
    """

    def __init__(self, stream: TextIO, label: str) -> None:
        self.live = stream.isatty()
        # not a terminal: plain lines, whatever FORCE_COLOR says, so a log holds no escapes
        self.console = Console(file=stream, force_terminal=self.live, highlight=False)
        self.bar = Progress(
            TextColumn("{task.description}", markup=False),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("games"),
            TimeElapsedColumn(),
            TextColumn("elapsed,"),
            TimeRemainingColumn(),
            TextColumn("left"),
            console=self.console,
            disable=not self.live,
            redirect_stdout=False,  # stdout is for the results alone
            redirect_stderr=False,
        )
        self.task: TaskID = self.bar.add_task(label, total=None)
        self.last_decile = -1

    def __call__(self, done: int, total: int) -> None:
        self.bar.update(self.task, completed=done, total=total)
        if self.live:
            return
        decile = int(10 * done / total) if total else 10
        if decile != self.last_decile:
            self.last_decile = decile
            self.console.print(self.bar.make_tasks_table(self.bar.tasks))

    @contextmanager
    def shown(self) -> Iterator[MatchProgress]:
        """Show the bar while the block runs (leaving its last state on screen)."""
        with self.bar:
            yield self


class BadOption(Exception):
    """An option the engine refused: which one, and why."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"argument {option}: {message}")


@contextmanager
def _blame(option: str) -> Iterator[None]:
    """Turn the engine's ``ValueError`` in the block into a :class:`BadOption` for ``option``."""
    try:
        yield
    except ValueError as exc:
        raise BadOption(option, _message(exc)) from None


def match_config(args: argparse.Namespace) -> MatchConfig:
    """The match the options describe, checked by the engine, option after option.

    Raises :class:`BadOption` naming the first option the engine refuses.
    """
    budget = None if args.no_budget else args.budget
    with _blame("LEVEL"):
        config = MatchConfig(entrants=tuple(args.levels), partnerships=args.partnerships)
    with _blame("--games"):
        config = replace(config, games=args.games)
    with _blame("--target"):
        config = replace(config, target=args.target, hand_size=HandSize(args.hand_size))
        config.rules()
    with _blame("--seed"):
        config = replace(config, seed=args.seed)
    # the time budget and playouts are the expert's to check (whether or not it plays),
    # and the match's to bound
    if budget is not None:
        with _blame("--budget"):
            ExpertPlayer(budget=budget)
            config = replace(config, budget=budget)
    with _blame("--playouts" if args.playouts is not None else "--no-budget"):
        ExpertPlayer(budget=budget, playouts=args.playouts)
        config = replace(config, budget=budget, playouts=args.playouts)
    with _blame("-w/--workers"):
        check_workers(args.workers)
    return config


def run(args: argparse.Namespace) -> int:
    """Play the match and print the table (or JSON); returns the exit status."""
    try:
        config = match_config(args)
    except BadOption as exc:
        print(f"{PROG}: error: {exc}\nTry '{PROG} --help' for the options.", file=sys.stderr)
        return 2
    levels = config.entrants
    rules = config.rules()
    label = " vs ".join(levels) + (" (partnerships)" if args.partnerships else "")
    if args.quiet:
        result = run_match(config, workers=args.workers)
    else:
        with MatchProgress(sys.stderr, label).shown() as progress:
            result = run_match(config, workers=args.workers, progress=progress)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0
    print(
        f"{label}: {len(result.games)} games ({config.deals} deals x {config.rotations} "
        f"seat rotations), {rules.players} players, target {rules.target}, seed {config.seed}, "
        + (_search_note(config) if set(levels) & SEARCHING else "")
        + f"{result.workers} workers, {result.elapsed:.0f} s"
    )
    print(result.table())
    print(
        "Move times are CPU time of the deciding thread (the mean choice: over moves "
        "among two or more legal actions); playouts and solved endgame positions are "
        "means over the decisions a searching level made among two or more legal actions."
    )
    return 0


def _search_note(config: MatchConfig) -> str:
    budget = (
        f"search budget {config.budget} s of CPU a move (master: 4x)"
        if config.budget is not None
        else "no time cap"
    )
    playouts = f", {config.playouts} playouts a move" if config.playouts else ""
    return f"{budget}{playouts}, "


def _message(exc: ValueError) -> str:
    if isinstance(exc, ValidationError):
        return describe(exc)
    return problem_text(exc) if isinstance(exc, AllFivesError) else str(exc)
