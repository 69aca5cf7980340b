"""The analyst: a separate process that rates decisions in the background.

:class:`Analyst` rates in a spawned ``multiprocessing`` process that can be
paused between two small chunks of playouts, so the app pauses it while a
computer seat thinks.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from allfives_tui.coach.ratings import RATING_PLAYOUTS, Rating, decisions, rate
from allfives_tui.locale import _
from engine.errors import AllFivesError
from engine.record import GameRecord, LoadedGame


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
            elif kind == "stopped":
                out.append(_("the analysis stopped: {why}").format(why=payload))
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
    goes back to the app, which words it (this process speaks no language of its
    own). (Run by :class:`Analyst` in the tests, in a process coverage does not
    follow.)
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
            results.put(("stopped", f"{type(err).__name__}: {err}"))
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
