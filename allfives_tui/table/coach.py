"""The coach: every decision of a seat rated from its own view, hints, and the game's review.

No Textual here: the app, the replay pane and ``allfives analyse`` all rate
moves through this module, so they agree exactly.

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

:class:`Analyst` rates in a separate process (``multiprocessing``, spawned)
that can be paused between two small chunks of playouts, so the app pauses it
while a computer seat thinks. :class:`AnalysisCache` keeps finished reviews
in the data folder, keyed by the record, the seat, the playout count and
:func:`evaluator_version`, bounded in size; nothing is ever written into a
game record.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import multiprocessing
import os
import queue
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from allfives_tui.table.replay import Replay
from engine import Action, Phase, Play, SeatView, parse_action, to_text
from engine.errors import AllFivesError
from engine.files import atomic_write
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


def counted(n: int, one: str, many: str) -> str:
    """``"1 blunder"``, ``"2 blunders"``."""
    return f"{n} {one if n == 1 else many}"


def labels_line(review: Review) -> str:
    """``"5 inaccuracies, 3 mistakes, 1 blunder"``."""
    return ", ".join(
        counted(review.count(label), label, plural)
        for label, plural in zip(LABELS, ("inaccuracies", "mistakes", "blunders"), strict=True)
    )


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
    return _VERSION


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


_VERSION = _fingerprint()


def decisions(game: GameRecord | LoadedGame | Replay, seat: int) -> list[Decision]:
    """Every decision of ``seat`` in the game, in order.

    Raises :class:`CoachError` for a seat that is not in the game.
    """
    replay = game if isinstance(game, Replay) else Replay(game)
    players = replay.rules.players
    if not (isinstance(seat, int) and 0 <= seat < players):
        raise CoachError(
            f"there is no seat {seat} in this {players}-player game (seats 0 to {players - 1})"
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
        raise CoachError("there is nothing to hint: it is not this seat's turn")
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
        raise CoachError("this game is still in progress and has no one player to review")
    if seat != owner:
        raise CoachError(
            f"this game is still in progress: only its player's seat ({owner}) can be reviewed"
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


# -- the cache ----------------------------------------------------------------------------

CACHE_FOLDER = "analysis"
"""The cache's folder in the data folder."""
CACHE_MAX_FILES = 200
"""The most reviews the cache keeps; the least recently used go first."""
CACHE_MAX_BYTES = 8 * 1024 * 1024
"""The most bytes the cache keeps."""


CACHE_FILE_MAX_BYTES = 4 * 1024 * 1024
"""The most bytes one cached review may have (larger: damaged, dropped)."""

_STRICT = ConfigDict(extra="forbid", strict=True, frozen=True)


class CachedOption(BaseModel):
    """An :class:`Option` as the cache keeps it."""

    model_config = _STRICT

    action: str = Field(max_length=16)
    win: float
    win_se: float
    points: float
    points_se: float


class CachedRating(BaseModel):
    """A :class:`Rating` as the cache keeps it."""

    model_config = _STRICT

    index: int = Field(ge=0)
    hand: int = Field(ge=1)
    move: int = Field(ge=1)
    seat: int = Field(ge=0)
    played: str = Field(max_length=16)
    best: str = Field(max_length=16)
    loss: float
    loss_se: float
    points_loss: float
    label: Literal["inaccuracy", "mistake", "blunder"] | None
    options: tuple[CachedOption, ...] = Field(min_length=1)
    key: str = Field(max_length=64)

    def rating(self) -> Rating:
        """The rating kept."""
        options = tuple(Option(**o.model_dump()) for o in self.options)
        return Rating(**{**self.model_dump(), "options": options})


class CachedReview(BaseModel):
    """A cache file: a :class:`Review` (:meth:`Review.to_dict`), validated; nothing else."""

    model_config = _STRICT

    seat: int = Field(ge=0)
    playouts: int = Field(ge=1)
    version: str = Field(max_length=64)
    total: int = Field(ge=0)
    ratings: tuple[CachedRating, ...]

    def review(self) -> Review:
        """The review kept."""
        ratings = tuple(r.rating() for r in self.ratings)
        return Review(self.seat, self.playouts, ratings, self.total, self.version)


class AnalysisCache:
    """Finished reviews in a folder, one JSON file each, bounded in count and size.

    Reading a review touches its file, so the least recently used go first.
    A damaged or foreign file is ignored (and removed); any I/O error means a
    miss, never a failure.
    """

    def __init__(
        self,
        folder: Path,
        *,
        max_files: int = CACHE_MAX_FILES,
        max_bytes: int = CACHE_MAX_BYTES,
    ) -> None:
        self.folder = folder
        self.max_files = max_files
        self.max_bytes = max_bytes

    def _path(self, key: str) -> Path:
        return self.folder / f"{key}.json"

    def get(self, key: str) -> Review | None:
        """The review stored under ``key``, or ``None``.

        The file is read with :func:`~allfives_tui.table.storage.read_small_file`
        (at most :data:`CACHE_FILE_MAX_BYTES`; a pipe, a device or a link to one
        is refused, never waited on) and validated by :class:`CachedReview`. Any
        failure but a missing file drops the entry. It may take a while: call it
        off the UI thread.
        """
        from allfives_tui.table.storage import read_small_file

        path = self._path(key)
        try:
            data = read_small_file(path, CACHE_FILE_MAX_BYTES)
            found = CachedReview.model_validate_json(data).review()
        except FileNotFoundError:
            return None
        except Exception:  # RecursionError and MemoryError included: a damaged entry
            with contextlib.suppress(OSError):
                path.unlink()
            return None
        if found.version != evaluator_version():
            return None
        with contextlib.suppress(OSError):
            os.utime(path)
        return found

    def put(self, key: str, found: Review) -> None:
        """Keep ``found`` under ``key`` (only a complete review), then trim the cache."""
        if not found.complete:
            return
        try:
            atomic_write(self._path(key), json.dumps(found.to_dict()) + "\n")
        except OSError:
            return
        self.trim()

    def trim(self) -> None:
        """Drop the least recently used reviews beyond the bounds."""
        files = []
        try:
            for path in self.folder.glob("*.json"):
                with contextlib.suppress(OSError):
                    files.append((path.lstat(), path))
        except OSError:
            return
        files.sort(key=lambda sp: sp[0].st_mtime, reverse=True)
        total = 0
        for i, (st, path) in enumerate(files):
            total += st.st_size
            if i >= self.max_files or total > self.max_bytes:
                with contextlib.suppress(OSError):
                    path.unlink()


def default_cache() -> AnalysisCache:
    """The cache in the data folder."""
    from allfives_tui.table.storage import data_dir

    return AnalysisCache(data_dir() / CACHE_FOLDER)


# -- the background process ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Progress:
    """How far the analyst is with the job ``tag``: ``done`` of ``total`` decisions."""

    tag: str
    done: int
    total: int


class Analyst:
    """Rates decisions in a separate process, pausable, newest job first.

    :meth:`submit` a record and a seat under a ``tag``; :meth:`poll` returns the
    ratings and progress reports that came back since. A new job with the same
    tag replaces a waiting one (the game grew); decisions already rated (by
    their position key) are not rated again. :meth:`pause` holds the process
    between two chunks of playouts until :meth:`resume`.
    """

    def __init__(self, playouts: int = RATING_PLAYOUTS) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.playouts = playouts
        with _real_stderr():  # the queues' locks start multiprocessing's resource tracker
            self._jobs: Any = ctx.Queue()
            self._results: Any = ctx.Queue()
            self._go: Any = ctx.Event()
        self._go.set()
        self._process: Any = ctx.Process(
            target=_serve,
            args=(self._jobs, self._results, self._go, playouts),
            daemon=True,
            name="allfives-coach",
        )
        self._started = False
        self._closed = False
        self._pauses = 0
        self._lock = threading.Lock()

    def start(self) -> None:
        """Start the process (once)."""
        if not self._started and not self._closed:
            with _real_stderr():
                self._process.start()
            self._started = True

    @property
    def alive(self) -> bool:
        """True while the process runs."""
        return self._started and not self._closed and bool(self._process.is_alive())

    def submit(self, tag: str, record: GameRecord, seat: int) -> None:
        """Rate ``seat``'s decisions in ``record`` (those not rated yet), under ``tag``."""
        self.start()
        if not self._closed:
            self._jobs.put((tag, record.to_json(), seat))

    def pause(self) -> None:
        """Hold the analysis (pauses nest: each needs its :meth:`resume`)."""
        with self._lock:
            self._pauses += 1
            self._go.clear()

    def resume(self) -> None:
        """Let the analysis go on when no pause is left."""
        with self._lock:
            self._pauses = max(0, self._pauses - 1)
            if not self._pauses:
                self._go.set()

    @property
    def paused(self) -> bool:
        """True while held."""
        return not self._go.is_set()

    def poll(self) -> list[Rating | Progress | str]:
        """Everything that came back since the last poll: ratings, progress reports and
        error lines (text), in order; never waits."""
        out: list[Rating | Progress | str] = []
        while True:
            try:
                kind, payload = self._results.get_nowait()
            except queue.Empty:
                return out
            except (OSError, EOFError, ValueError):
                return out
            if kind == "rating":
                out.append(Rating.from_dict(payload[1]))
            elif kind == "progress":
                out.append(Progress(*payload))
            else:
                out.append(str(payload))

    def close(self) -> None:
        """Stop the process and free its queues."""
        if self._closed:
            return
        self._closed = True
        self._go.set()
        if self._started:
            with contextlib.suppress(OSError, ValueError):
                self._jobs.put(None)
            self._process.join(timeout=1.0)
            if self._process.is_alive():
                self._process.terminate()
                self._process.join(timeout=1.0)
        for q in (self._jobs, self._results):
            with contextlib.suppress(OSError, ValueError):
                q.cancel_join_thread()
                q.close()


def _has_fileno(stream: object) -> bool:
    try:
        return int(stream.fileno()) >= 0  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return False


@contextlib.contextmanager
def _real_stderr() -> Iterator[None]:
    """Lend ``sys.stderr`` the process's real one while the block runs.

    multiprocessing hands a spawned process (and its resource tracker) this
    process's stderr by descriptor; under a full-screen app ``sys.stderr`` is a
    capture without one. The child writes nothing to it.
    """
    saved = sys.stderr
    try:
        if not _has_fileno(saved) and sys.__stderr__ is not None:
            sys.stderr = sys.__stderr__
        yield
    finally:
        sys.stderr = saved


def _drain(jobs: Any, pending: dict[str, tuple[str, str, int]]) -> bool:
    """Move every queued job into ``pending`` (a newer job of a tag replaces the older);
    True when the end was asked for."""
    while True:
        try:
            item = jobs.get_nowait()
        except queue.Empty:
            return False
        if item is None:
            return True
        pending.pop(item[0], None)
        pending[item[0]] = item


def _serve(jobs: Any, results: Any, go: Any, playouts: int) -> None:  # pragma: no cover
    """The analyst process: rate what is asked, oldest tag first; exits on ``None`` or
    when the app has gone (its end of the queue closed).

    It writes nothing to the terminal it shares with a full-screen app: a failure
    goes back as an error line. (Run by :class:`Analyst` in the tests, in a process
    coverage does not follow.)
    """
    app_pid = os.getppid()
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)  # below the app and its computers: the analysis takes what is left
    _let_go_of_the_terminal()
    try:
        _rate_jobs(jobs, results, go, playouts)
    except (EOFError, OSError, KeyboardInterrupt):
        pass  # the app is gone
    except Exception as err:
        with contextlib.suppress(Exception):
            results.put(("error", f"the analysis stopped: {type(err).__name__}: {err}"))
    finally:
        if os.getppid() != app_pid:
            # the app has gone: never wait at exit to hand it results (the queue's
            # pipe may be full, with nobody left to read it)
            with contextlib.suppress(Exception):
                results.cancel_join_thread()


def _let_go_of_the_terminal() -> None:  # pragma: no cover
    """Point the process's standard streams, descriptors 0, 1 and 2, at the null device.

    A spawned process inherits them: holding the app's terminal or output pipe
    open would keep whoever reads that pipe waiting after the app has gone.
    """
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        if null > 2:
            os.close(null)
        sys.stdin = open(os.devnull)  # noqa: SIM115 - for the process's life
        sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115


def _rate_jobs(jobs: Any, results: Any, go: Any, playouts: int) -> None:  # pragma: no cover
    """:func:`_serve`'s loop."""
    parent = multiprocessing.parent_process()
    parent_pid = os.getppid()

    def orphaned() -> bool:
        if os.getppid() != parent_pid:  # re-parented: the app has gone
            return True
        return parent is not None and not parent.is_alive()

    def wait() -> None:  # before each chunk, and while paused: a killed app ends the process
        if os.getppid() != parent_pid:
            raise EOFError("the app has gone")
        while not go.wait(1.0):
            if orphaned():
                raise EOFError("the app has gone")

    rated: dict[str, Rating] = {}
    pending: dict[str, tuple[str, str, int]] = {}
    while True:
        if not pending:
            try:
                item = jobs.get(timeout=1.0)
            except queue.Empty:
                if orphaned():
                    return
                continue
            if item is None:
                return
            pending[item[0]] = item
        if _drain(jobs, pending):
            return
        tag, text, seat = pending.pop(next(iter(pending)))
        try:
            found = decisions(_load(text), seat)
        except (AllFivesError, ValueError) as err:
            results.put(("error", f"{tag}: {err}"))
            continue
        total = len(found)
        results.put(("progress", (tag, 0, total)))
        for done, decision in enumerate(found, start=1):
            if orphaned():
                return
            rating = rated.get(decision.key)
            if rating is None:
                rating = rate(decision, playouts, wait=wait)
                rated[decision.key] = rating
            results.put(("rating", (tag, rating.to_dict())))
            results.put(("progress", (tag, done, total)))
            if _drain(jobs, pending):
                return
            if tag in pending:
                break  # the game grew: its newer record is rated instead


def _load(text: str) -> LoadedGame:
    from engine.record import parse_game

    return parse_game(text)
