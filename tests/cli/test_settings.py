"""Settings: the one validator of the new-game settings, whoever gives them."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from allfives_tui.store.folder import SETTINGS, data_dir
from allfives_tui.store.settings_file import read_settings
from allfives_tui.table.settings import SPEEDS, Settings


def _problem(data: dict[str, object]) -> tuple[tuple[int | str, ...], str]:
    with pytest.raises(ValidationError) as info:
        Settings.model_validate(data)
    first = info.value.errors()[0]
    return first["loc"], str(first["msg"])


def test_named_and_numbered_speeds() -> None:
    for name, seconds in SPEEDS.items():
        assert Settings.model_validate({"speed": name}).speed == seconds
    assert Settings.model_validate({"speed": "0.5"}).speed == 0.5
    assert _problem({"speed": "turbo"}) == (
        ("speed",),
        "Value error, 'turbo' is not a pace: give seconds (e.g. 0.5) or one of "
        "instant, fast, normal, slow",
    )
    assert _problem({"speed": 5.5})[0] == ("speed",)
    assert _problem({"speed": float("inf")})[0] == ("speed",)


def test_players_seed_and_name() -> None:
    assert _problem({"players": 5}) == (
        ("players",),
        "Value error, All Fives is for 2, 3 or 4 players, not 5",
    )
    assert _problem({"players": 1})[0] == ("players",)
    assert _problem({"seed": -1})[0] == ("seed",)
    assert Settings(seed=0).seed == 0
    assert _problem({"name": "\x1b[2J"})[0] == ("name",)


def test_the_target_is_checked_by_the_rules_with_the_players() -> None:
    assert _problem({"target": 7}) == (
        ("target",),
        "Value error, the target must be a multiple of 5",
    )
    assert Settings(players=3, target=0).rules().target == 200
    assert Settings(players=2).rules().target == 250
    assert Settings(target=150).rules().target == 150
    # a wrong player count is the error reported, not the target
    assert _problem({"players": 9, "target": 7})[0] == ("players",)


def test_one_setting_checked_alone() -> None:
    assert Settings.check_one("speed", "slow") == SPEEDS["slow"]
    assert Settings.check_one("players", "3") == 3
    assert Settings.check_one("target", "7") == 7  # the rules' check needs the players
    with pytest.raises(ValidationError):
        Settings.check_one("players", "5")
    with pytest.raises(ValidationError):
        Settings.check_one("target", "-5")


def test_a_remembered_setting_no_longer_valid_is_dropped_and_the_rest_kept() -> None:
    path = data_dir() / SETTINGS
    path.parent.mkdir(parents=True)
    path.write_text('{"players": 3, "target": 7, "name": "Ana"}')
    settings, notices = read_settings()
    assert settings == Settings(players=3, name="Ana")
    assert notices == (
        "Dropped the remembered target 7, no longer valid: the target must be a multiple of 5.",
    )
    path.write_text('{"players": 3, "target": 150, "name": "Ana", "speed": "fast"}')
    loaded, notices = read_settings()
    assert (loaded.players, loaded.target, loaded.name, loaded.speed) == (3, 150, "Ana", 0.3)
    assert notices == ()
