"""The deadline helper, on a clock the test moves by hand."""

from __future__ import annotations

from allfives_tui.table.deadline import deadline_after, is_past, seconds_left


class Clock:
    """A clock that moves only when told."""

    def __init__(self, start: float = 100.0) -> None:
        self.time = start

    def __call__(self) -> float:
        return self.time


def test_a_deadline_is_past_once_its_time_comes() -> None:
    clock = Clock()
    deadline = deadline_after(2.5, clock)
    assert deadline == 102.5
    assert not is_past(deadline, clock)
    clock.time = 102.4
    assert not is_past(deadline, clock)
    clock.time = 102.5
    assert is_past(deadline, clock)


def test_seconds_left_counts_down_and_stops_at_zero() -> None:
    clock = Clock()
    deadline = deadline_after(3.0, clock)
    assert seconds_left(deadline, clock) == 3.0
    clock.time = 101.0
    assert seconds_left(deadline, clock) == 2.0
    clock.time = 200.0
    assert seconds_left(deadline, clock) == 0.0


def test_no_deadline_never_passes_and_leaves_no_limit() -> None:
    clock = Clock()
    clock.time = 1e12
    assert not is_past(None, clock)
    assert seconds_left(None, clock) is None


def test_the_default_clock_is_monotonic() -> None:
    deadline = deadline_after(-1.0)
    assert is_past(deadline)
    assert seconds_left(deadline) == 0.0
    assert not is_past(deadline_after(3600.0))
