"""The race-to-the-target model the expert evaluates playouts with."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.players.race import point_scale, win_chance

needs = st.integers(min_value=1, max_value=300)
targets = st.sampled_from([100, 150, 200, 250, 300])


@given(needs, needs, targets)
def test_the_two_sides_chances_add_up_to_one(a: int, b: int, target: int) -> None:
    assert win_chance(a, b, target) + win_chance(b, a, target) == pytest.approx(1.0)


@given(needs, needs, targets)
def test_needing_less_never_lowers_the_chance(a: int, b: int, target: int) -> None:
    assert win_chance(max(a - 5, 1), b, target) >= win_chance(a, b, target)
    assert win_chance(a, b + 5, target) >= win_chance(a, b, target)


def test_equal_needs_are_even() -> None:
    for need in (1, 40, 250):
        assert win_chance(need, need, 250) == 0.5


def test_near_the_target_the_side_about_to_get_there_is_all_but_home() -> None:
    assert win_chance(5, 100, 250) > 0.95
    assert win_chance(100, 5, 250) < 0.05
    # The same 20-point lead is worth more the fewer points are left to play for.
    assert win_chance(20, 40, 250) > win_chance(200, 220, 250) > 0.5


@pytest.mark.parametrize("target", [100, 200, 250])
def test_early_in_a_game_a_point_is_worth_about_a_point(target: int) -> None:
    scale = point_scale(target)
    for lead in (5, 10):
        value = scale * (2 * win_chance(target - lead, target, target) - 1)
        assert value == pytest.approx(lead, rel=0.05)
    assert scale * (2 * win_chance(target, target - 10, target) - 1) == pytest.approx(-10, rel=0.05)
