"""``allfives analyse FILE [--seat N] [--playouts N] [--json]``: the coach's review, headless.

    allfives analyse game.json               # the game's one person, a line a decision
    allfives analyse game.json --seat 1 --json > review.json

Every decision of the seat (a turn with more than one legal action) is rated
exactly as the app rates it (:mod:`allfives_tui.coach`: the same
playout count, seed and evaluator), from the seat's own view at the time. A
game still in progress may be reviewed only for its one person. Text output is
a line per decision (move, best move, win chance lost, label) and a summary;
``--json`` prints one object whose schema is :class:`AnalysisJSON` (written out
in ``docs/analyse.schema.json``). Progress is a :mod:`rich` bar on stderr. The
review is read from, and kept in, the data folder's analysis cache
(:class:`~allfives_tui.coach.cache.AnalysisCache`), the one the app's report
and the replay's coach pane use: a game rated there is not rated again. A
file that cannot be read or a seat that cannot be reviewed exits 2 with one
line on stderr. The arguments are in :mod:`allfives_tui.cli.parser`.
"""

from __future__ import annotations

import argparse
import sys
from typing import Literal

from pydantic import BaseModel, ConfigDict
from rich.cells import cell_len
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from allfives_tui.coach import ratings as coach
from allfives_tui.coach.cache import default_cache
from allfives_tui.coach.ratings import CoachError, Rating, Review
from allfives_tui.locale import _, formats, ngettext, pgettext
from allfives_tui.store.saves import ReplayLoadError, read_replay
from allfives_tui.table.replay import Replay
from allfives_tui.table.words import one_line, printable

FORMAT = "allfives-analysis"
SCHEMA_VERSION = 1


class OptionJSON(BaseModel):
    """One legal action at a decision: win chance and expected points, with standard errors."""

    model_config = ConfigDict(extra="forbid")

    action: str
    """The action in notation (``"6-4 W"``, ``"draw"``)."""
    win: float
    """The chance (0 to 1) that the mover's side wins the game after it."""
    win_se: float
    points: float
    """The side's expected point margin over the rest of the hand."""
    points_se: float


class DecisionJSON(BaseModel):
    """One rated decision."""

    model_config = ConfigDict(extra="forbid")

    hand: int
    """1-based hand number."""
    move: int
    """1-based move of the hand."""
    step: int
    """The replay step (0 is the first deal)."""
    played: str
    best: str
    loss: float
    """Win chance the played action gave up against the best (0 to 1)."""
    loss_se: float
    """Its standard error (paired, world by world)."""
    points_loss: float
    label: Literal["inaccuracy", "mistake", "blunder"] | None
    options: list[OptionJSON]
    """Every legal action, best first."""


class SummaryJSON(BaseModel):
    """The seat's game in figures."""

    model_config = ConfigDict(extra="forbid")

    decisions: int
    accuracy: float | None
    """Mean of ``100 * exp(-loss / 0.10)`` over the decisions (``null`` with none)."""
    points_lost: float
    """Expected points given up in the labelled decisions."""
    inaccuracies: int
    mistakes: int
    blunders: int
    take_backs: int
    """Moves the seat took back (from the record)."""


class AnalysisJSON(BaseModel):
    """What ``allfives analyse --json`` prints."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["allfives-analysis"]
    version: Literal[1]
    game_id: str
    seat: int
    """0-based seat reviewed."""
    seat_name: str
    playouts: int
    """Playouts per legal action behind every rating."""
    seed: int
    evaluator: str
    """The evaluator's fingerprint (ratings agree exactly when it and the above agree)."""
    finished: bool
    scores: list[list[int]]
    """Every side's score at the start and after each hand."""
    target: int
    decisions: list[DecisionJSON]
    summary: SummaryJSON


def to_json_model(replay: Replay, found: Review) -> AnalysisJSON:
    """The JSON output of a review of ``replay``."""
    seat = found.seat
    record = replay.record
    return AnalysisJSON(
        format=FORMAT,
        version=SCHEMA_VERSION,
        game_id=record.game_id,
        seat=seat,
        seat_name=replay.seat_name(seat),
        playouts=found.playouts,
        seed=coach.COACH_SEED,
        evaluator=found.version,
        finished=replay.finished,
        scores=[list(s) for s in coach.score_series(replay)],
        target=replay.rules.target,
        decisions=[
            DecisionJSON(
                hand=r.hand,
                move=r.move,
                step=r.index,
                played=r.played,
                best=r.best,
                loss=r.loss,
                loss_se=r.loss_se,
                points_loss=r.points_loss,
                label=r.label,
                options=[
                    OptionJSON(
                        action=o.action,
                        win=o.win,
                        win_se=o.win_se,
                        points=o.points,
                        points_se=o.points_se,
                    )
                    for o in r.options
                ],
            )
            for r in found.ratings
        ],
        summary=SummaryJSON(
            decisions=len(found.ratings),
            accuracy=found.accuracy,
            points_lost=found.points_lost,
            inaccuracies=found.count("inaccuracy"),
            mistakes=found.count("mistake"),
            blunders=found.count("blunder"),
            take_backs=record.seats[seat].take_backs,
        ),
    )


def label_word(label: str) -> str:
    """A decision's label in words (``inaccuracy``, ``mistake``, ``blunder``)."""
    if label == "inaccuracy":
        return pgettext("a decision's label", "inaccuracy")
    if label == "mistake":
        return pgettext("a decision's label", "mistake")
    return pgettext("a decision's label", "blunder")


def _padded(text: str, width: int, right: bool = False) -> str:
    """``text`` in ``width`` columns at least, to the left (or ``right``)."""
    room = " " * max(0, width - cell_len(text))
    return room + text if right else text + room


def decision_line(r: Rating) -> str:
    """One decision in a line: where, what was played, what was best, the loss, the label."""
    where = {"hand": f"{r.hand:>2}", "move": f"{r.move:>2}", "played": _padded(r.played, 7)}
    if r.played == r.best:
        return _("hand {hand} move {move}  {played} best").format(**where)
    loss = _("{loss} win").format(loss=formats.percent(-r.loss, 1))
    figures = {**where, "best": _padded(r.best, 7), "loss": _padded(loss, 11, right=True)}
    if r.label:
        return _("hand {hand} move {move}  {played} best {best} {loss}  {label}").format(
            label=label_word(r.label), **figures
        )
    return _("hand {hand} move {move}  {played} best {best} {loss}").format(**figures)


def summary_lines(replay: Replay, found: Review) -> list[str]:
    """The review's figures, in words."""
    acc = formats.fixed(found.accuracy, 1) if found.accuracy is not None else "—"
    seat = found.seat
    decided = len(found.ratings)
    counts = found.counts()
    inaccuracies, mistakes, blunders = (counts.get(k, 0) for k in ("inaccuracy", "mistake",
                                                                     "blunder"))
    take_backs = replay.record.seats[seat].take_backs
    return [
        ngettext(
            "{name} (seat {seat}): {decisions} decision, accuracy {accuracy}, "
            "{points} points lost to mistakes",
            "{name} (seat {seat}): {decisions} decisions, accuracy {accuracy}, "
            "{points} points lost to mistakes",
            decided,
        ).format(
            name=printable(replay.seat_name(seat)), seat=seat, decisions=formats.number(decided),
            accuracy=acc, points=formats.fixed(found.points_lost, 1),
        ),
        _("{inaccuracies}, {mistakes}, {blunders}; {take_backs}").format(
            inaccuracies=ngettext("{count} inaccuracy", "{count} inaccuracies", inaccuracies)
            .format(count=formats.number(inaccuracies)),
            mistakes=ngettext("{count} mistake", "{count} mistakes", mistakes)
            .format(count=formats.number(mistakes)),
            blunders=ngettext("{count} blunder", "{count} blunders", blunders)
            .format(count=formats.number(blunders)),
            take_backs=ngettext("{count} take-back", "{count} take-backs", take_backs)
            .format(count=formats.number(take_backs)),
        ),
        ngettext(
            "(ratings: {playouts} playout a legal action, evaluator {version})",
            "(ratings: {playouts} playouts a legal action, evaluator {version})",
            found.playouts,
        ).format(playouts=formats.number(found.playouts), version=found.version),
    ]


def _fail(message: str) -> int:
    print(f"allfives: {one_line(message)}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """Review the game in ``args.file``; 0 on success, 2 for a bad file or seat."""
    file: str = args.file
    try:
        replay = read_replay(file)
    except ReplayLoadError as err:
        return _fail(f"{printable(file)}: {err.message}")
    seat: int = args.seat if args.seat is not None else coach.default_seat(replay)
    try:
        found_decisions = coach.decisions(replay, seat)
        coach.check_seat_visible(replay, seat)
    except CoachError as err:
        return _fail(f"{printable(file)}: {err}")
    playouts: int = args.playouts
    stderr = Console(file=sys.stderr, highlight=False)
    bar = Progress(
        TextColumn(_("Rating decisions").replace("{", "{{").replace("}", "}}"), markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=stderr,
        disable=args.quiet or not sys.stderr.isatty(),
        transient=True,
    )
    cache = default_cache()
    key = coach.record_key(replay.record, seat, playouts)
    found = cache.get(key)
    if found is None or found.seat != seat or found.total != len(found_decisions):
        ratings = []
        with bar:
            task = bar.add_task("rating", total=len(found_decisions))
            for decision in found_decisions:
                ratings.append(coach.rate(decision, playouts))
                bar.advance(task)
        found = Review(seat, playouts, tuple(ratings), len(found_decisions))
        cache.put(key, found)
    try:
        if args.json:
            sys.stdout.write(to_json_model(replay, found).model_dump_json(indent=1) + "\n")
        else:
            for r in found.ratings:
                print(decision_line(r))
            for line in summary_lines(replay, found):
                print(line)
        sys.stdout.flush()
    except BrokenPipeError:  # piped into `head`: stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
