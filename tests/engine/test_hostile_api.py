"""The engine's public API under bad arguments: a clear ValueError, never a crash.

Issue 14, items 1 and 19: junk given as a tile raised TypeError from the
Tile validator; a directly built GameState took a current seat out of range
(-1 collides with CHANCE), a must-play tile not in the hand and ``winner=7``;
``apply(None)``, ``parse_tile(None)`` and ``seeded_deal(g, None)`` raised
AttributeError or TypeError; a megabyte of text became a megabyte error line;
``Rules(players="3")`` complained about the target.
"""

from __future__ import annotations

import inspect
from enum import EnumMeta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

import engine
from engine import (
    ALL_TILES,
    DRAW,
    PASS,
    AllFivesError,
    End,
    GameState,
    HandSize,
    NotationError,
    Phase,
    Rng,
    Rules,
    Tile,
    apply,
    legal_actions,
    new_game,
    parse_action,
    parse_tile,
    seeded_deal,
)
from engine.errors import shown

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
            Rules(players=players)  # type: ignore[arg-type]  # not an int, on purpose
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


# -- every public name under wrongly typed arguments (issue 32, item 18) -------------

_LEAKS = (
    "object has no attribute",
    "not subscriptable",
    "unsupported operand",
    "is not iterable",
    "not supported between",
    "unhashable type",
    "object is not callable",
    "argument must be",
    "positional argument",
    "keyword argument",
    "list index out of range",
    "tuple index out of range",
)
"""Words of Python's own errors: such a message is about the engine's code, not the input."""


def _sample_objects() -> list[Any]:
    state = _midgame()
    seat = state.current
    assert seat is not None
    deal = seeded_deal(new_game(), 3)
    played = apply(new_game(), deal)
    return [
        Rules(),
        Rules(players=4, partnerships=True),
        new_game(),
        state,
        state.view(seat),
        state.layout,
        state.hands[seat][0],
        DRAW,
        PASS,
        deal,
        played,
        played.events[0],
        state.history[0],
        Rng(5),
        Phase.PLAY,
        End.W,
        HandSize.FIVE_EACH,
        ALL_TILES,
        AllFivesError("x"),
    ]


_SAMPLES = _sample_objects()

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-8, max_value=40),
    st.floats(),
    st.text(max_size=12),
    st.binary(max_size=6),
    st.lists(st.one_of(st.integers(-2, 8), st.text(max_size=4), st.none()), max_size=4),
    st.tuples(st.integers(-2, 8), st.integers(-2, 8)),
    st.dictionaries(st.text(max_size=6), st.one_of(st.integers(-2, 8), st.none()), max_size=3),
    st.builds(object),
    st.sampled_from(_SAMPLES),
    st.lists(st.sampled_from(_SAMPLES), max_size=3),
)
"""Values of every shape: plain junk, and engine objects where another kind belongs."""


def _callables() -> list[str]:
    names = []
    for name in engine.__all__:
        value = getattr(engine, name)
        if isinstance(value, type) or inspect.isfunction(value):
            names.append(name)
    return names


def _assert_clear(error: BaseException, call: str) -> None:
    assert isinstance(error, ValueError), f"{call} raised {type(error).__name__}: {error}"
    message = str(error)
    assert message.strip(), f"{call} raised {type(error).__name__} with no message"
    assert len(message.splitlines()[0]) <= 300, f"{call}: {message[:400]}"
    for leak in _LEAKS:
        assert leak not in message, f"{call} leaked {leak!r}: {message[:400]}"


def _parameters(target: Any) -> list[inspect.Parameter]:
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):  # an enum: one value
        return [inspect.Parameter("value", inspect.Parameter.POSITIONAL_ONLY)]
    return [
        p
        for p in signature.parameters.values()
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        and not (isinstance(target, EnumMeta) and p.default is not p.empty)
    ]


@pytest.mark.parametrize("name", _callables())
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_public_name_refuses_wrong_types_with_a_clear_value_error(
    name: str, data: st.DataObject
) -> None:
    target = getattr(engine, name)
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for parameter in _parameters(target):
        if parameter.default is not parameter.empty and data.draw(st.booleans(), "default"):
            continue
        value = data.draw(JUNK, parameter.name)
        if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            args.append(value)
        else:
            kwargs[parameter.name] = value
    call = f"{name}(*{shown(args, 200)}, **{shown(kwargs, 200)})"
    try:
        target(*args, **kwargs)
    except Exception as error:
        _assert_clear(error, call)
    if isinstance(target, type) and issubclass(target, BaseModel):
        value = data.draw(JUNK, "validated")
        try:
            target.model_validate(value)
        except Exception as error:
            _assert_clear(error, f"{name}.model_validate({shown(value, 200)})")


@pytest.mark.parametrize(
    ("method", "values"),
    [
        ("view", ["0", None, 1.5, [0], -1, 9]),
        ("seat_score", ["0", None, 1.5, [0], -1, 9, 10**30]),
        ("known_voids", ["0", None, 1.5, [0], -1, 9]),
    ],
)
def test_a_state_s_methods_refuse_a_seat_that_is_not_one(method: str, values: list[Any]) -> None:
    state = _midgame()
    for value in values:
        with pytest.raises(ValueError) as info:
            getattr(state, method)(value)
        _assert_clear(info.value, f"{method}({value!r})")
        with pytest.raises(ValueError) as info:
            getattr(state.view(0), method)(value) if method != "view" else state.view(value)
        _assert_clear(info.value, f"view.{method}({value!r})")


@pytest.mark.parametrize(
    ("method", "values"),
    [("team_of", ["0", None, 1.5, -1, 4]), ("seats_of", ["0", None, 1.5, -1, 3])],
)
def test_the_rules_methods_refuse_a_seat_or_side_that_is_not_one(
    method: str, values: list[Any]
) -> None:
    rules = Rules(players=3)
    for value in values:
        with pytest.raises(ValueError) as info:
            getattr(rules, method)(value)
        _assert_clear(info.value, f"{method}({value!r})")


@pytest.mark.parametrize("bound", [0, -3, None, "5", 1.5, True])
def test_rng_below_refuses_a_bound_that_is_not_a_positive_whole_number(bound: Any) -> None:
    with pytest.raises(ValueError) as info:
        Rng(1).below(bound)
    _assert_clear(info.value, f"below({bound!r})")


# -- a hand-built GameState that cannot happen is refused (issue 32, item 18) --------


def _finished() -> GameState:
    state = new_game(Rules(players=2, target=30))
    seed = 0
    while not state.is_terminal:
        if state.is_chance:
            seed += 1
            state = apply(state, seeded_deal(state, seed)).state
        else:
            state = apply(state, legal_actions(state)[0]).state
    assert state.winner is not None
    return state


def test_a_finished_game_without_a_winner_is_refused() -> None:
    state = _finished()
    assert GameState.model_validate(dict(state)) == state
    with pytest.raises(ValidationError, match="winner: a finished game needs a winning side"):
        GameState.model_validate({**dict(state), "winner": None})


def test_a_winner_before_the_end_is_refused() -> None:
    with pytest.raises(ValidationError, match="winner: a game in the play phase has no winner"):
        GameState.model_validate({**dict(_midgame()), "winner": 1})


@pytest.mark.parametrize("phase", [Phase.DEAL, Phase.PLAY])
def test_a_game_not_over_in_which_a_side_reached_the_target_is_refused(phase: Phase) -> None:
    state = _finished()
    data = {**dict(state), "phase": phase, "winner": None}
    if phase is Phase.PLAY:
        data["current"] = 0
    with pytest.raises(ValidationError, match="has reached the target of 30"):
        GameState.model_validate(data)
    midgame = _midgame()
    target = midgame.rules.target
    with pytest.raises(ValidationError, match=f"side 2 has reached the target of {target}"):
        GameState.model_validate({**dict(midgame), "scores": (0, -5, target)})


def test_a_seat_to_play_between_hands_is_refused() -> None:
    with pytest.raises(ValidationError, match="current: no seat is to play in the deal phase"):
        GameState.model_validate({**dict(new_game(Rules(players=3))), "current": 1})


@pytest.mark.parametrize("voids", [(128, 0, 0), (0, -1, 0), (0, 0), (0, 0, 0, 0), (0, 0, 2**70)])
def test_voids_out_of_range_are_refused(voids: tuple[int, ...]) -> None:
    with pytest.raises(ValidationError, match="voids: one bit mask of the pip values"):
        GameState.model_validate({**dict(_midgame()), "voids": voids})


@pytest.mark.parametrize("start", [3, -1, 9, -4])
def test_a_next_start_out_of_range_is_refused(start: int) -> None:
    for state in (_midgame(), new_game(Rules(players=3))):
        with pytest.raises(ValidationError, match=f"next_start: no seat {start} in a 3-player"):
            GameState.model_validate({**dict(state), "next_start": start})


def test_a_next_start_in_range_is_kept() -> None:
    state = GameState.model_validate({**dict(_midgame()), "next_start": 2})
    assert state.next_start == 2 and state.core().next_start == 2


def test_extra_fields_are_refused() -> None:
    state = _midgame()
    with pytest.raises(ValidationError, match="cheat"):
        GameState.model_validate({**dict(state), "cheat": 1})
    with pytest.raises(ValidationError, match="boneyard"):
        GameState.model_validate_json(state.view(0).model_dump_json()[:-1] + ', "boneyard": []}')
    view = state.view(0)
    with pytest.raises(ValidationError, match="hands"):
        type(view).model_validate({**dict(view), "hands": state.hands})


def test_a_tile_held_twice_is_refused() -> None:
    state = _midgame()
    hands = [list(h) for h in state.hands]
    twice = hands[1][0]
    hands[0][0] = twice
    with pytest.raises(ValidationError, match=f"the tile {twice} is held twice"):
        GameState.model_validate({**dict(state), "hands": tuple(map(tuple, hands))})
    with pytest.raises(ValidationError, match=f"the tile {twice} is held twice"):
        GameState.model_validate({**dict(state), "boneyard": (*state.boneyard, twice)})
    fresh = new_game(Rules(players=2))
    with pytest.raises(ValidationError, match="the tile 6-6 is held twice"):
        GameState.model_validate({**dict(fresh), "hands": (("6-6", "6-6"), ())})
