"""One background writer: write jobs run in order on a single thread, so play never
waits on the disk.

:class:`BackgroundWriter` is what the autosave (:class:`~allfives_tui.store.saves.AutoSaver`)
and the history's recording (:class:`~allfives_tui.store.recorder.HistoryWriter`)
write through: :meth:`~BackgroundWriter.submit` queues a job, jobs run one at a
time in the order queued, :meth:`~BackgroundWriter.flush` waits for every queued
job, and :meth:`~BackgroundWriter.close` finishes them (and a last job, such as
closing a database) before the thread stops. A job that raises is reported to
``on_error`` (on the writer's thread) and its future holds the exception.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class BackgroundWriter:
    """Runs write jobs in order on one background thread named ``name``."""

    def __init__(
        self, name: str, *, on_error: Callable[[BaseException], None] | None = None
    ) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self._last: Future[Any] | None = None
        self.on_error = on_error

    def submit(self, job: Callable[[], T]) -> Future[T]:
        """Queue ``job``; its future gives what it returns (or what it raised)."""
        future = self._pool.submit(self._run, job)
        self._last = future
        return future

    def _run(self, job: Callable[[], T]) -> T:
        try:
            return job()
        except BaseException as err:
            if self.on_error is not None:
                with contextlib.suppress(Exception):
                    self.on_error(err)
            raise

    @property
    def pending(self) -> bool:
        """True while a queued job has not finished yet."""
        last = self._last
        return last is not None and not last.done()

    def flush(self, timeout: float | None = None) -> None:
        """Wait (at most ``timeout`` seconds) for every queued job to finish.

        A job's failure is not raised here: ``on_error`` has it.
        """
        if self._last is not None:
            with contextlib.suppress(Exception):
                self._last.result(timeout)

    def close(self, last: Callable[[], object] | None = None) -> None:
        """Finish every queued job, then ``last`` (when given), and stop the thread."""
        if last is not None:
            self.submit(last)
        self._pool.shutdown(wait=True)
