"""The level registry: one entry per level, LEVELS and make_player derived from it."""

from __future__ import annotations

import pytest

from engine.players import LEVELS, REGISTRY, ExpertPlayer, Level, Player, make_player


def test_levels_are_the_registry_weakest_first() -> None:
    assert (
        LEVELS
        == tuple(REGISTRY)
        == (
            "random",
            "greedy",
            "heuristic",
            "montecarlo",
            "expert",
            "master",
        )
    )


def test_the_master_is_the_expert_with_four_times_its_limits() -> None:
    from engine.players import MasterPlayer

    master = make_player("master", seed=2)
    assert isinstance(master, MasterPlayer) and isinstance(master, ExpertPlayer)
    assert (master.budget, master.playouts) == (1.0, None)
    fixed = make_player("master", seed=2, budget=None, playouts=50)
    assert isinstance(fixed, MasterPlayer)
    assert (fixed.budget, fixed.playouts) == (None, 200)
    with pytest.raises(ValueError, match="the time budget must be"):
        make_player("master", budget=float("nan"))


@pytest.mark.parametrize("level", LEVELS)
def test_every_entry_makes_its_level_and_says_what_it_does(level: str) -> None:
    entry = REGISTRY[level]
    assert isinstance(entry, Level)
    player = entry.factory(3, None, 10)
    assert isinstance(player, Player) and player.level == level
    assert make_player(level, seed=3, budget=None, playouts=10).level == level
    assert entry.description and "\n" not in entry.description


def test_the_registry_is_read_only() -> None:
    with pytest.raises(TypeError):  # writes to the read-only mapping on purpose
        REGISTRY["grandmaster"] = REGISTRY["expert"]  # type: ignore[index]


def test_make_player_passes_the_search_limits_to_the_expert() -> None:
    expert = make_player("expert", seed=9, budget=None, playouts=123)
    assert isinstance(expert, ExpertPlayer)
    assert (expert.seed, expert.budget, expert.playouts) == (9, None, 123)
    with pytest.raises(ValueError, match="unknown computer level 'grandmaster'; choose one of"):
        make_player("grandmaster")
