"""The engine's public API under bad arguments: a clear ValueError, never a crash.

Issue 14, items 1 and 19: junk given as a tile raised TypeError from the
Tile validator; a directly built GameState took a current seat out of range
(-1 collides with CHANCE), a must-play tile not in the hand and ``winner=7``;
``apply(None)``, ``parse_tile(None)`` and ``seeded_deal(g, None)`` raised
AttributeError or TypeError; a megabyte of text became a megabyte error line;
``Rules(players="3")`` complained about the target.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from engine import (
    DRAW,
    AllFivesError,
    GameState,
    NotationError,
    Rules,
    Tile,
    apply,
    legal_actions,
    new_game,
    parse_action,
    parse_tile,
    seeded_deal,
)

BAD_TILES: list[Any] = [
    [1, "a"],
    [None, {}],
    ["1", 2],
    [[], 3],
    [True, 1],
    [1, False],
    [1.5, 2],
    [7, 1],
    [-1, 0],
    [10**4000, 1],
    (3, None),
    {"high": "a", "low": 1},
    {"high": None, "low": 1},
    {"high": 9, "low": 1},
    None,
    5,
    1.5,
    object(),
    "",
    "x" * 1_000_000,
    "7-1",
]


@pytest.mark.parametrize("value", BAD_TILES, ids=lambda v: repr(v)[:20])
def test_any_bad_tile_is_a_clear_value_error(value: Any) -> None:
    with pytest.raises(ValueError) as info:
        Tile.model_validate(value)
    message = str(info.value)
    assert "not supported between" not in message
    assert len(message) < 600, message[:700]
    assert "0" * 50 not in message and "x" * 50 not in message


def test_a_pair_of_incomparable_halves_names_the_tile() -> None:
    with pytest.raises(ValueError, match=r"not a tile: \[1, 'a'\]"):
        Tile.model_validate([1, "a"])
    with pytest.raises(ValueError, match=r"not a tile: \[None, \{\}\]"):
        Tile.model_validate([None, {}])


def test_good_tiles_still_validate_in_every_form() -> None:
    six_four = Tile(high=6, low=4)
    for value in ("6-4", "4-6", [6, 4], [4, 6], (4, 6), {"high": 6, "low": 4}, six_four):
        assert Tile.model_validate(value) == six_four


@pytest.mark.parametrize("value", [None, 5, b"5-3", ["5-3"], "x" * 1_000_000])
def test_parse_tile_refuses_anything_but_short_text(value: Any) -> None:
    with pytest.raises(NotationError) as info:
        parse_tile(value)
    assert len(str(info.value)) < 200


@pytest.mark.parametrize("value", [None, "5-3 E", "x" * 1_000_000, 5, DRAW.model_dump()])
def test_apply_refuses_what_is_not_an_action(value: Any) -> None:
    state = new_game(Rules(players=2))
    state = apply(state, seeded_deal(state, 1)).state
    with pytest.raises(AllFivesError, match="not an action") as info:
        apply(state, value)
    assert len(str(info.value)) < 200


def test_a_megabyte_action_text_is_a_short_error() -> None:
    with pytest.raises(NotationError) as info:
        parse_action("5-3 " + "E" * 1_000_000)
    assert len(str(info.value)) < 200


@pytest.mark.parametrize("seed", [None, "1", 1.5, [1]])
def test_seeded_deal_needs_a_whole_number(seed: Any) -> None:
    with pytest.raises(AllFivesError, match="a seed must be a whole number") as info:
        seeded_deal(new_game(), seed)
    assert "_seed" not in str(info.value)


def test_rules_name_the_bad_players_not_the_target() -> None:
    for players in ("3", 3.0, True, None, [3]):
        with pytest.raises(ValidationError) as info:
            Rules(players=players)  # type: ignore[arg-type]
        errors = info.value.errors()
        assert [e["loc"] for e in errors] == [("players",)], errors
    with pytest.raises(ValidationError, match="players"):
        Rules(players=5)
    assert Rules(players=3).target == 200


def _midgame() -> GameState:
    state = new_game(Rules(players=3))
    state = apply(state, seeded_deal(state, 4)).state
    for _ in range(3):
        state = apply(state, legal_actions(state)[0]).state
    assert state.current is not None
    return state


@pytest.mark.parametrize("current", [-1, 3, 7, -4])
def test_a_state_refuses_a_current_seat_out_of_range(current: int) -> None:
    data = dict(_midgame())
    with pytest.raises(ValidationError, match="current"):
        GameState.model_validate({**data, "current": current})


def test_a_state_refuses_a_must_play_tile_not_in_the_hand() -> None:
    state = _midgame()
    seat = state.current
    assert seat is not None
    elsewhere = state.hands[(seat + 1) % 3][0]
    with pytest.raises(ValidationError, match="must_play"):
        GameState.model_validate({**dict(state), "must_play": elsewhere})


@pytest.mark.parametrize("winner", [7, -1, 3])
def test_a_state_refuses_a_winner_out_of_range(winner: int) -> None:
    with pytest.raises(ValidationError, match="winner"):
        GameState.model_validate({**dict(new_game(Rules(players=3))), "winner": winner})


def test_a_consistent_state_still_validates() -> None:
    state = _midgame()
    assert GameState.model_validate(dict(state)) == state
    assert GameState.model_validate_json(state.model_dump_json()) == state


@pytest.mark.parametrize("seat", [None, "0", 1.0, -1, 3])
def test_a_view_of_no_seat_is_a_clear_error(seat: Any) -> None:
    with pytest.raises(ValueError, match="no seat"):
        _midgame().view(seat)
