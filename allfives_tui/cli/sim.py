"""``allfives sim``: computer levels against each other, headless, with duplicate deals.

    allfives sim expert greedy --games 200 --workers 2
    allfives sim expert greedy --partnerships --games 200
    allfives sim heuristic greedy --games 400 --json > result.json
    allfives sim expert@0.0625 montecarlo --games 40   # a side's own budget

The options (in :mod:`allfives_tui.cli.parser`) are checked by the engine:
:class:`~engine.match.MatchConfig` (the levels and their own budgets, the
seed, the budget and playouts, and that every searching side has one or the
other) and its :class:`~engine.rules.Rules`, and
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
from rich.cells import cell_len
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
from allfives_tui.cli.parser import error_lines
from allfives_tui.locale import N_, _, formats, ngettext, pgettext
from allfives_tui.table.problems import problem_text
from engine.errors import AllFivesError
from engine.match import (
    SEARCHING,
    MatchConfig,
    MatchResult,
    SideStats,
    check_workers,
    run_match,
    split_entrant,
)
from engine.rules import HandSize

PROG = f"{TOP} sim"

COLUMNS = (
    N_("side"), N_("games"), N_("wins"), N_("win rate"), N_("95% CI"), N_("pts/hand"),
    N_("median move"), N_("p95 move"), N_("mean choice"), N_("playouts/decision"),
    N_("nodes/decision"),
)
"""The results table's columns (marked for the catalog)."""


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
            TextColumn(_escaped(pgettext("a match's progress bar", "games")), markup=False),
            TimeElapsedColumn(),
            TextColumn(_escaped(pgettext("a match's progress bar", "elapsed,")), markup=False),
            TimeRemainingColumn(),
            TextColumn(_escaped(pgettext("a match's progress bar", "left")), markup=False),
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


def _escaped(text: str) -> str:
    """``text`` as a :class:`TextColumn` shows it as it is (its braces doubled)."""
    return text.replace("{", "{{").replace("}", "}}")


class BadOption(Exception):
    """An option the engine refused: which one, and why."""

    def __init__(self, option: str, message: str) -> None:
        # argparse's own message, in the catalog with argparse's words
        text = _("argument %(argument_name)s: %(message)s")
        super().__init__(text % {"argument_name": option, "message": message})


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
    # the time budget and playouts are checked whether or not a side uses them; the
    # match refuses a searching side left with neither
    if budget is not None:
        with _blame("--budget"):
            config = replace(config, budget=budget)
    if args.playouts is not None:
        with _blame("--playouts"):
            config = replace(config, playouts=args.playouts)
    if budget is None:
        with _blame("--no-budget"):
            config = replace(config, budget=None)
    with _blame("-w/--workers"):
        check_workers(args.workers)
    return config


def run(args: argparse.Namespace) -> int:
    """Play the match and print the table (or JSON); returns the exit status."""
    try:
        config = match_config(args)
    except BadOption as exc:
        print(error_lines(PROG, str(exc)), file=sys.stderr)
        return 2
    label = match_label(config)
    if args.quiet:
        result = run_match(config, workers=args.workers)
    else:
        with MatchProgress(sys.stderr, label).shown() as progress:
            result = run_match(config, workers=args.workers, progress=progress)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0
    print(headline(label, result))
    print(results_table(result))
    print(
        _(
            "Move times are CPU time of the deciding thread (the mean choice: over moves "
            "among two or more legal actions); playouts and solved endgame positions are "
            "means over the decisions a searching level made among two or more legal actions."
        )
    )
    return 0


def match_label(config: MatchConfig) -> str:
    """The sides of a match: ``expert vs greedy``, ``expert vs greedy (partnerships)``."""
    levels = config.entrants
    if config.partnerships:
        return _("{first} vs {second} (partnerships)").format(first=levels[0], second=levels[1])
    if len(levels) == 2:
        return _("{first} vs {second}").format(first=levels[0], second=levels[1])
    if len(levels) == 3:
        return _("{first} vs {second} vs {third}").format(
            first=levels[0], second=levels[1], third=levels[2]
        )
    return _("{first} vs {second} vs {third} vs {fourth}").format(
        first=levels[0], second=levels[1], third=levels[2], fourth=levels[3]
    )


def headline(label: str, result: MatchResult) -> str:
    """The line above the results: what was played, how, and how long it took."""
    config = result.config
    rules = config.rules()
    words = {
        "match": label,
        "games": ngettext("{count} game", "{count} games", len(result.games)).format(
            count=formats.number(len(result.games))
        ),
        "deals": ngettext("{count} deal", "{count} deals", config.deals).format(
            count=formats.number(config.deals)
        ),
        "rotations": ngettext(
            "{count} seat rotation", "{count} seat rotations", config.rotations
        ).format(count=formats.number(config.rotations)),
        "players": ngettext("{count} player", "{count} players", rules.players).format(
            count=formats.number(rules.players)
        ),
        "target": formats.number(rules.target),
        "seed": str(config.seed),
        "workers": ngettext("{count} worker", "{count} workers", result.workers).format(
            count=formats.number(result.workers)
        ),
        "elapsed": _("{seconds} s").format(seconds=formats.fixed(result.elapsed, 0)),
    }
    if {split_entrant(entrant)[0] for entrant in config.entrants} & SEARCHING:
        return _(
            "{match}: {games} ({deals} x {rotations}), {players}, target {target}, "
            "seed {seed}, {search}, {workers}, {elapsed}"
        ).format(search=_search_note(config), **words)
    return _(
        "{match}: {games} ({deals} x {rotations}), {players}, target {target}, "
        "seed {seed}, {workers}, {elapsed}"
    ).format(**words)


def _search_note(config: MatchConfig) -> str:
    """How long the searching levels think a move."""
    playouts = config.playouts or 0
    counted = ngettext("{count} playout a move", "{count} playouts a move", playouts).format(
        count=formats.number(playouts)
    )
    own = any(split_entrant(entrant)[1] is not None for entrant in config.entrants)
    if config.budget is not None:
        budget = formats.number(config.budget, 3)
        if own:
            if playouts:
                return _(
                    "search budget {seconds} s of CPU a move where LEVEL@SECONDS names "
                    "none (master: 4x), {playouts}"
                ).format(seconds=budget, playouts=counted)
            return _(
                "search budget {seconds} s of CPU a move where LEVEL@SECONDS names none "
                "(master: 4x)"
            ).format(seconds=budget)
        if playouts:
            return _(
                "search budget {seconds} s of CPU a move (master: 4x), {playouts}"
            ).format(seconds=budget, playouts=counted)
        return _("search budget {seconds} s of CPU a move (master: 4x)").format(seconds=budget)
    if own:
        if playouts:
            return _("no time cap where LEVEL@SECONDS names none, {playouts}").format(
                playouts=counted
            )
        return _("search budgets as LEVEL@SECONDS names them")
    if playouts:
        return _("no time cap, {playouts}").format(playouts=counted)
    return _("no time cap")


def _seconds(s: float) -> str:
    """A move's time in the unit that suits it."""
    if s < 0.000_001:
        return _("{value} µs").format(value=formats.number(0))  # below the CPU clock's tick
    if s < 0.001:
        return _("{value} µs").format(value=formats.fixed(s * 1e6, 0))
    if s < 1:
        return _("{value} ms").format(value=formats.fixed(s * 1000, 1))
    return _("{value} s").format(value=formats.fixed(s, 2))


def side_row(s: SideStats) -> tuple[str, ...]:
    """One side's figures, as the table shows them."""
    low, high = s.ci95
    return (
        s.name,
        formats.number(s.games),
        formats.number(s.wins),
        formats.percent(s.win_rate, 1),
        f"{formats.percent(low, 1)}-{formats.percent(high, 1)}",
        formats.signed(s.points_per_hand, 1),
        _seconds(s.median_move),
        _seconds(s.p95_move),
        _seconds(s.mean_choice),
        formats.number(s.playouts_per_decision) if s.searches else "-",
        formats.number(s.nodes_per_decision) if s.searches else "-",
    )


def results_table(result: MatchResult) -> str:
    """The results as a plain-text table: a side a row, figures right-aligned."""
    rows = [tuple(_(c) for c in COLUMNS), *(side_row(s) for s in result.sides)]
    widths = [max(cell_len(r[i]) for r in rows) for i in range(len(COLUMNS))]
    lines = []
    for n, row in enumerate(rows):
        cells = [row[0] + " " * (widths[0] - cell_len(row[0]))] + [
            " " * (widths[i + 1] - cell_len(cell)) + cell for i, cell in enumerate(row[1:])
        ]
        lines.append("  ".join(cells))
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _message(exc: ValueError) -> str:
    if isinstance(exc, ValidationError):
        return describe(exc)
    return problem_text(exc) if isinstance(exc, AllFivesError) else str(exc)
