"""Waiting on a condition, never on the clock: bounded polls that fail the test.

:func:`until` is for a test on an asyncio loop (the loop runs while it waits);
:func:`block_until` is for a plain test (a process, a file, a socket). Each
checks its condition, and between two checks only takes the polling step; past
``timeout`` seconds it raises :class:`AssertionError` naming what never came.
A Textual app under ``run_test`` waits with ``tests.ui.helpers.until``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

TIMEOUT = 10.0
"""How long a condition may take by default, in seconds."""

STEP = 0.01
"""The polling step, in seconds."""


def _never(what: str, condition: object, timeout: float) -> AssertionError:
    return AssertionError(f"{what or condition} not so within {timeout} s")


async def until(
    condition: Callable[[], object], timeout: float = TIMEOUT, what: str = ""
) -> None:
    """Let the loop run until ``condition()`` is true."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise _never(what, condition, timeout)
        await asyncio.sleep(STEP)


def block_until(
    condition: Callable[[], object], timeout: float = TIMEOUT, what: str = ""
) -> None:
    """Block until ``condition()`` is true."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise _never(what, condition, timeout)
        time.sleep(STEP)
