"""``apply`` returns a typed pair: unpacking it keeps both types (checked by mypy --strict).

``typing.assert_type`` does nothing when the tests run; the last test runs
mypy on this file, where a wrong type is an error.
"""

from __future__ import annotations

from pathlib import Path
from typing import assert_type

import pytest

from engine import Event, GameState, Rules, Step, apply, legal_actions, new_game, seeded_deal


def test_unpacking_a_step_keeps_its_types() -> None:
    state = new_game(Rules(players=2))
    dealt, dealt_events = apply(state, seeded_deal(state, 1))
    assert_type(dealt, GameState)
    assert_type(dealt_events, tuple[Event, ...])
    step = apply(dealt, legal_actions(dealt)[0])
    assert_type(step, Step)
    after, events = step
    assert_type(after, GameState)
    assert_type(events, tuple[Event, ...])
    assert_type(step.state, GameState)
    assert_type(step[1], tuple[Event, ...])
    assert after.hand_number == 1 and len(events) >= 1


def test_mypy_strict_agrees() -> None:
    api = pytest.importorskip("mypy.api")
    out, err, status = api.run(["--strict", "--no-error-summary", str(Path(__file__))])
    assert status == 0, out + err
