"""Deadlines on the monotonic clock: when a wait ends, whether it has, and what is left.

Every wait in the front-ends (a computer's move shown at its pace, a host's
time-out, a client's reconnection window, a dialog's key-ahead grace) is a
deadline made and read here, so the clock is read in one way everywhere. Each
function takes the clock as ``now`` (:func:`time.monotonic` by default), as the
:class:`~allfives_tui.table.driver.Driver` is given its ``now``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import overload

Clock = Callable[[], float]
"""A monotonic clock in seconds."""


def deadline_after(seconds: float, now: Clock = time.monotonic) -> float:
    """The deadline ``seconds`` from now."""
    return now() + seconds


def is_past(deadline: float | None, now: Clock = time.monotonic) -> bool:
    """True once ``deadline`` has come (``None``: no deadline, never past)."""
    return deadline is not None and now() >= deadline


@overload
def seconds_left(deadline: float, now: Clock = ...) -> float: ...
@overload
def seconds_left(deadline: None, now: Clock = ...) -> None: ...
def seconds_left(deadline: float | None, now: Clock = time.monotonic) -> float | None:
    """Seconds until ``deadline``, never below zero (``None``: no deadline, no limit)."""
    if deadline is None:
        return None
    return max(0.0, deadline - now())
