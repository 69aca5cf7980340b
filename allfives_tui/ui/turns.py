"""The turn loop's work off the UI thread: a computer's move and the pace after it.

The App runs :func:`computer_move` in a thread worker for each computer turn
(or automatic draw) its :class:`~allfives_tui.table.driver.Driver` asks for,
and hands the action back to the driver on the UI thread.
"""

from __future__ import annotations

import threading

from allfives_tui.coach.table_coach import TableCoach
from allfives_tui.table.deadline import seconds_left
from allfives_tui.table.driver import AskComputer, Automatic, Driver
from allfives_tui.ui.coaching import paused
from engine import Action


class Pace:
    """The wait after a computer's move, so a person can follow it; :meth:`stop`
    cuts the wait in progress short."""

    def __init__(self) -> None:
        self._waiting: threading.Event | None = None

    def wait(self, seconds: float) -> None:
        """(A worker thread.) Wait ``seconds``, or until stopped."""
        if seconds > 0:
            waiting = threading.Event()
            self._waiting = waiting
            waiting.wait(seconds)

    def stop(self) -> None:
        """End the wait in progress at once."""
        if self._waiting is not None:
            self._waiting.set()


def computer_move(
    driver: Driver, step: AskComputer | Automatic, coach: TableCoach | None, pace: Pace
) -> Action:
    """(A worker thread.) A computer's action from its seat's view (the coach's
    analysis waits meanwhile) or the automatic draw, with the autosave on disk;
    then the pace is waited out."""
    with paused(coach if isinstance(step, AskComputer) else None):
        action = driver.think(step)
    pace.wait(seconds_left(step.not_before))
    return action
