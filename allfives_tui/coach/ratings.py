"""The coach's ratings: every decision of a seat rated from its own view, hints, the review.

No Textual and no I/O here but the fingerprint of the evaluator's sources,
read once when first asked for: the app, the replay pane and ``allfives
analyse`` all rate moves through this module, so they agree exactly.

A *decision* is a turn of the seat with more than one legal action (a forced
draw, pass or single fitting tile is not rated). Each is rated on the
evaluation core (:func:`engine.players.evaluate.evaluate`) from the seat's
:class:`~engine.state.SeatView` at the time, never with hindsight of the
other hands: :data:`RATING_PLAYOUTS` playouts (sampled worlds) for every
legal action, seeded with :data:`COACH_SEED` and the public position only,
so the same record, seat and playout count give the same ratings on every
run. Every action is played out in the same worlds, so the loss of the
played action against the best is paired world by world; its standard error
(``loss_se``) is of that paired difference.

Labels (the win chance lost, in percentage points of the chance of winning
the game; see ``docs/coach.md``): at least :data:`INACCURACY` is an
inaccuracy, :data:`MISTAKE` a mistake, :data:`BLUNDER` a blunder; a loss
within :data:`SIGNIFICANCE` standard errors of nothing is never labelled.
Accuracy (:func:`decision_accuracy`) is ``100 * exp(-loss / ACCURACY_SCALE)``
a decision, averaged over the seat's decisions.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from allfives_tui.locale import _, ngettext
from allfives_tui.table.replay import Replay
from engine import Action, Phase, Play, SeatView, parse_action, to_text
from engine.players.evaluate import ActionValue, Search
from engine.record import GameRecord, LoadedGame

COACH_VERSION = 1
"""This module's own version: part of :func:`evaluator_version`."""

RATING_PLAYOUTS = 1000
"""Playouts (sampled worlds) per legal action behind every rating: the fixed count the
app, the replay pane and ``allfives analyse`` all use unless told otherwise."""

COACH_SEED = 17
"""The seed every rating and hint starts from (mixed with the public position)."""

HINT_PLAYOUTS = 500
"""Playouts per legal action behind a hint."""

HINT_BUDGET = 0.4
"""A hint's CPU-time cap in seconds: it stops early rather than keep the player waiting."""

INACCURACY = 0.02
"""Win chance lost (0.02 = 2 percentage points) from which a decision is an inaccuracy."""
MISTAKE = 0.05
"""Win chance lost from which a decision is a mistake."""
BLUNDER = 0.10
"""Win chance lost from which a decision is a blunder."""
SIGNIFICANCE = 2.0
"""A loss is labelled only when it is at least this many (paired) standard errors."""
ACCURACY_SCALE = 0.10
"""The win chance lost that takes a decision's accuracy from 100 down to 100/e (about 37)."""

CHUNK_WORLDS = 16
"""Worlds searched between two looks at the pause switch (a few milliseconds)."""

LABELS = ("inaccuracy", "mistake", "blunder")
"""The labels, mildest first."""


class CoachError(ValueError):
    """A review the coach cannot make (a seat that is not in the game, a hidden seat)."""


# -- ratings ---------------------------------------------------------------------------


def label_for(loss: float, loss_se: float = 0.0) -> str | None:
    """The label of a decision that lost ``loss`` win chance (``None``: no label)."""
    if loss <= SIGNIFICANCE * loss_se:
        return None
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def decision_accuracy(loss: float) -> float:
    """One decision's accuracy, 0 to 100: ``100 * exp(-loss / ACCURACY_SCALE)``."""
    return 100.0 * math.exp(-max(0.0, loss) / ACCURACY_SCALE)


@dataclass(frozen=True, slots=True)
class Option:
    """One legal action's value at a decision (from :class:`ActionValue`, in notation)."""

    action: str
    win: float
    win_se: float
    points: float
    points_se: float

    @classmethod
    def of(cls, value: ActionValue) -> Option:
        """The option for ``value``."""
        return cls(to_text(value.action), value.win, value.win_se, value.points, value.points_se)


@dataclass(frozen=True, slots=True)
class Rating:
    """One decision rated: what was played, what was best, and what it cost.

    ``index`` is the replay frame of the action (see :class:`Replay`), ``hand``
    1-based, ``move`` the move of the hand (1-based); ``loss`` the win chance
    the played action gave up against the best (0 when it was the best),
    ``loss_se`` its paired standard error, ``points_loss`` the expected
    points given up; ``options`` every legal action best first.
    """

    index: int
    hand: int
    move: int
    seat: int
    played: str
    best: str
    loss: float
    loss_se: float
    points_loss: float
    label: str | None
    options: tuple[Option, ...]
    key: str = ""
    """The decision's position key (see :class:`Decision`)."""

    @property
    def accuracy(self) -> float:
        """This decision's accuracy (see :func:`decision_accuracy`)."""
        return decision_accuracy(self.loss)

    @property
    def played_option(self) -> Option:
        """The played action's option."""
        return next(o for o in self.options if o.action == self.played)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rating:
        """The rating :meth:`to_dict` gave."""
        options = tuple(Option(**o) for o in data["options"])
        return cls(**{**data, "options": options})


@dataclass(frozen=True, slots=True)
class Decision:
    """A turn of the seat with a choice: where it is in the record, the seat's view then,
    and what was played."""

    index: int
    hand: int
    move: int
    seat: int
    view: SeatView
    played: Action
    key: str
    """Names the position and the rating's settings (see :func:`decisions`)."""

    @classmethod
    def at(cls, view: SeatView, played: Action) -> Decision:
        """A decision outside any record: ``view``'s seat played ``played``."""
        return cls(0, view.hand_number, len(view.history) + 1, view.seat, view, played, "")


def evaluator_version() -> str:
    """A short fingerprint of the evaluator: the coach's version and the source of the
    engine modules a rating runs on. Any change to them makes new cache keys."""
    return _fingerprint()


@functools.cache
def _fingerprint() -> str:
    import engine.core
    import engine.players.endgame
    import engine.players.evaluate
    import engine.players.knowledge
    import engine.players.limits
    import engine.players.playout
    import engine.players.race

    digest = hashlib.sha256(f"coach {COACH_VERSION}".encode())
    for module in (
        engine.core,
        engine.players.endgame,
        engine.players.evaluate,
        engine.players.knowledge,
        engine.players.limits,
        engine.players.playout,
        engine.players.race,
    ):
        source = module.__file__
        if source is not None:
            with contextlib.suppress(OSError):
                digest.update(Path(source).read_bytes())
    return digest.hexdigest()[:16]


def decisions(game: GameRecord | LoadedGame | Replay, seat: int) -> list[Decision]:
    """Every decision of ``seat`` in the game, in order.

    Raises :class:`CoachError` for a seat that is not in the game.
    """
    replay = game if isinstance(game, Replay) else Replay(game)
    players = replay.rules.players
    if not (isinstance(seat, int) and 0 <= seat < players):
        raise CoachError(
            ngettext(
                "there is no seat {seat} in this {players}-player game (seats 0 to {last})",
                "there is no seat {seat} in this {players}-player game (seats 0 to {last})",
                players,
            ).format(seat=seat, players=players, last=players - 1)
        )
    out: list[Decision] = []
    chain = hashlib.sha256(replay.rules.model_dump_json().encode())
    for frame in replay.frames:
        chain.update(b"\n" + frame.text.encode())
        if frame.move == 0:
            deal = replay.record.hands[frame.hand - 1].deal
            chain.update(deal.model_dump_json().encode())
        if frame.seat != seat or frame.move == 0:
            continue
        before = frame.before
        view = before.view(seat)
        if len(view.legal_actions()) < 2:
            continue
        key = hashlib.sha256(
            chain.copy().digest() + f"|{seat}|{evaluator_version()}".encode()
        ).hexdigest()[:32]
        out.append(
            Decision(frame.index, frame.hand, frame.move, seat, view, parse_action(frame.text), key)
        )
    return out


def rate(
    decision: Decision,
    playouts: int = RATING_PLAYOUTS,
    *,
    seed: int = COACH_SEED,
    wait: Callable[[], object] | None = None,
) -> Rating:
    """Rate one decision with ``playouts`` playouts per legal action.

    The figures are exactly ``evaluate(view, playouts=playouts * len(legal),
    seed=seed)``'s; the search runs in chunks of :data:`CHUNK_WORLDS` worlds
    and ``wait`` (if given) is called before each, so a pause can hold it.
    """
    view = decision.view
    legal = view.legal_actions()
    search = Search(view, legal, seed=seed)
    n = len(legal)
    done = 0
    while done < playouts:
        if wait is not None:
            wait()
        step = min(CHUNK_WORLDS, playouts - done)
        search.run(playouts=step * n)
        done += step
    values = search.values()
    best = values[0]
    played = next(v for v in values if v.action == decision.played)
    index = {a: i for i, a in enumerate(search.legal)}
    best_wins = search.wins[index[best.action]]
    played_wins = search.wins[index[played.action]]
    diffs = [b - p for b, p in zip(best_wins, played_wins, strict=True)]
    loss = max(0.0, best.win - played.win)
    loss_se = _se(diffs)
    return Rating(
        index=decision.index,
        hand=decision.hand,
        move=decision.move,
        seat=decision.seat,
        played=to_text(decision.played),
        best=to_text(best.action),
        loss=loss,
        loss_se=loss_se,
        points_loss=max(0.0, best.points - played.points),
        label=label_for(loss, loss_se) if played is not best else None,
        options=tuple(Option.of(v) for v in values),
        key=decision.key,
    )


def _se(xs: Sequence[float]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    mean = sum(xs) / n
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)


# -- hints -------------------------------------------------------------------------------


def hint(
    view: SeatView, *, playouts: int = HINT_PLAYOUTS, budget: float = HINT_BUDGET
) -> tuple[ActionValue, ...]:
    """The seat's legal actions valued for a hint, best first as shown
    (:func:`shown_order`), in at most ``budget`` CPU seconds of the calling thread.

    A single legal action is returned at once, unvalued search aside.
    """
    legal = view.legal_actions()
    if not legal:
        raise CoachError(_("there is nothing to hint: it is not this seat's turn"))
    search = Search(view, legal, seed=COACH_SEED)
    if len(legal) > 1:
        search.run(playouts=playouts * len(legal), budget=budget)
    else:
        search.run(playouts=1)
    return shown_order(search.values())


def shown_order(values: Sequence[ActionValue]) -> tuple[ActionValue, ...]:
    """``values`` in the order a hint shows them: by the win chance shown (whole per
    cent), then by the expected points shown (one decimal), both highest first; the
    search's order among options shown alike."""
    return tuple(sorted(values, key=lambda v: (-round(100 * v.win), -round(v.points, 1))))


def hint_target(value: ActionValue) -> tuple[str, str | None]:
    """What a hint marks: the tile and the end (``None`` for a lead), or the word for a
    draw or pass."""
    action = value.action
    if isinstance(action, Play):
        return str(action.tile), action.end.value if action.end is not None else None
    return to_text(action), None


# -- reviews ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Review:
    """A seat's decisions in one game, rated; ``total`` is how many there are in all
    (ratings may still be coming)."""

    seat: int
    playouts: int
    ratings: tuple[Rating, ...]
    total: int
    version: str = field(default_factory=evaluator_version)

    @property
    def complete(self) -> bool:
        """True when every decision is rated."""
        return len(self.ratings) >= self.total

    @property
    def accuracy(self) -> float | None:
        """Mean :attr:`Rating.accuracy` (``None`` before any rating)."""
        if not self.ratings:
            return None
        return sum(r.accuracy for r in self.ratings) / len(self.ratings)

    @property
    def points_lost(self) -> float:
        """Expected points given up in the labelled decisions (mistakes of every size)."""
        return sum(r.points_loss for r in self.ratings if r.label is not None)

    def count(self, label: str) -> int:
        """How many decisions carry ``label``."""
        return sum(1 for r in self.ratings if r.label == label)

    def counts(self) -> dict[str, int]:
        """How many decisions have each label, by label."""
        return {label: self.count(label) for label in LABELS}

    def costly(self, hand: int | None = None) -> list[Rating]:
        """The labelled decisions (of ``hand``, if given), in order."""
        return [r for r in self.ratings if r.label is not None and (hand is None or r.hand == hand)]

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON)."""
        return {
            "seat": self.seat,
            "playouts": self.playouts,
            "version": self.version,
            "total": self.total,
            "ratings": [r.to_dict() for r in self.ratings],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Review:
        """The review :meth:`to_dict` gave."""
        return cls(
            seat=int(data["seat"]),
            playouts=int(data["playouts"]),
            ratings=tuple(Rating.from_dict(r) for r in data["ratings"]),
            total=int(data["total"]),
            version=str(data["version"]),
        )


def review(
    game: GameRecord | LoadedGame | Replay,
    seat: int,
    playouts: int = RATING_PLAYOUTS,
    *,
    progress: Callable[[int, int], object] | None = None,
) -> Review:
    """Rate every decision of ``seat`` (``progress(done, total)`` after each)."""
    found = decisions(game, seat)
    ratings = []
    for i, decision in enumerate(found):
        ratings.append(rate(decision, playouts))
        if progress is not None:
            progress(i + 1, len(found))
    return Review(seat, playouts, tuple(ratings), len(found))


def check_seat_visible(replay: Replay, seat: int) -> None:
    """Refuse (:class:`CoachError`) to review a seat of an unfinished game other than its
    one person's: only that player's own decisions may be seen while it goes on."""
    if replay.finished:
        return
    owner = replay.owner
    if owner is None:
        raise CoachError(_("this game is still in progress and has no one player to review"))
    if seat != owner:
        raise CoachError(
            _("this game is still in progress: only its player's seat ({seat}) can be reviewed")
            .format(seat=owner)
        )


def default_seat(replay: Replay) -> int:
    """The seat a review is of by default: the game's one person, else seat 0."""
    owner = replay.owner
    return owner if owner is not None else 0


def score_series(game: GameRecord | Replay) -> tuple[tuple[int, ...], ...]:
    """Every side's scores at the start and after each hand: one tuple a point in time."""
    replay = game if isinstance(game, Replay) else Replay(game)
    points = [tuple(0 for _ in range(replay.rules.teams))]
    for frame in replay.frames:
        state = frame.state
        if frame.move and state.phase in (Phase.DEAL, Phase.OVER):
            points.append(tuple(state.scores))
    return tuple(points)


def record_key(record: GameRecord, seat: int, playouts: int) -> str:
    """The cache key of a review: the record's deals and moves and rules (not its names,
    id or counts), the seat, the playout count and :func:`evaluator_version`."""
    content = json.dumps(
        {
            "rules": record.rules.model_dump(mode="json"),
            "hands": [h.model_dump(mode="json") for h in record.hands],
            "seat": seat,
            "playouts": playouts,
            "version": evaluator_version(),
        },
        sort_keys=True,
    )
    return hashlib.sha256(content.encode()).hexdigest()[:40]
