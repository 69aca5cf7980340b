"""load_game / parse_game: the record with every replayed step, the sound part of a
record that stops replaying, and RecordError as the only error for any input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import RecordError, new_game
from engine.record import (
    LoadedGame,
    RecordStep,
    load,
    load_game,
    parse_game,
    parse_record,
    save,
)
from tests.records import DATA, SMALL_RECORD, game_record


def test_load_game_keeps_every_step_of_the_replay(tmp_path: Path) -> None:
    record = game_record(players=3, seed=5)
    path = save(record, tmp_path / "game.json")
    loaded = load_game(path)
    assert isinstance(loaded, LoadedGame)
    assert loaded.record == record == load(path)
    assert list(loaded.steps) == list(record.steps())
    assert len(loaded.steps) == record.action_count
    assert loaded.state == record.final_state()
    step = loaded.steps[1]
    assert isinstance(step, RecordStep)
    hand, move, state, events = step  # still unpacks like the 4-tuple of steps()
    assert (hand, move) == (step.hand, step.move) == (1, 1)
    assert state is step.state and events == step.events
    with pytest.raises(AttributeError):  # writes to a frozen field on purpose
        loaded.record = record  # type: ignore[misc]


@pytest.mark.parametrize("path", sorted(DATA.glob("*.json")), ids=lambda p: p.name)
def test_version_1_files_load_with_their_steps(path: Path) -> None:
    loaded = load_game(path)
    assert [s.move for s in loaded.steps].count(0) == len(loaded.record.hands)
    assert loaded.state == loaded.record.final_state()


def test_a_record_without_hands_has_no_steps() -> None:
    data = json.loads(SMALL_RECORD)
    data["hands"] = []
    loaded = parse_game(json.dumps(data))
    assert loaded.steps == ()
    assert loaded.state == new_game(loaded.record.rules)


def bad_move(hand: int, move: int, text: str) -> str:
    data = json.loads(SMALL_RECORD)
    data["hands"][hand]["actions"][move] = text
    return json.dumps(data)


def test_an_illegal_action_offers_the_sound_part() -> None:
    with pytest.raises(RecordError) as info:
        parse_game(bad_move(1, 2, "draw"))
    err = info.value
    assert str(err).startswith("hand 2, move 3: illegal action 'draw'")
    assert err.good_actions == 1 + 14 + 1 + 2
    partial = err.partial
    assert partial is not None
    assert partial.record.action_count == len(partial.steps) == err.good_actions
    assert list(partial.steps) == list(partial.record.steps())
    assert partial.state.scores == (25, -5)
    # The sound part is itself a good record: it saves and loads.
    assert parse_record(partial.record.to_json()) == partial.record


def test_a_deal_among_the_moves_is_one_clear_error() -> None:
    with pytest.raises(RecordError) as info:
        parse_game(bad_move(0, 1, "deal 0 | 6-6 / 1-1"))
    assert str(info.value).startswith("hand 1, move 2: illegal action 'deal 0 | 6-6 / 1-1'")
    assert info.value.partial is not None and len(info.value.partial.steps) == 2


def test_a_bad_first_deal_offers_nothing() -> None:
    data = json.loads(SMALL_RECORD)
    data["hands"][0]["deal"]["boneyard"].pop()
    with pytest.raises(RecordError) as info:
        parse_game(json.dumps(data))
    assert info.value.partial is None and info.value.good_actions == 0


def test_errors_before_the_replay_offer_nothing() -> None:
    for text in ("", "{", "[]", '{"format": "allfives-record", "version": 1}'):
        with pytest.raises(RecordError) as info:
            parse_game(text)
        assert info.value.partial is None


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "the file is empty, not a game record"),
        (" \n\t", "the file is empty, not a game record"),
        (SMALL_RECORD[:700], "not a game record: the JSON stops in the middle"),
        (SMALL_RECORD[:696], "not a game record: the JSON stops in the middle"),
        ("{nope", "not a game record: not valid JSON"),
        (b"\x89PNG\r\n\x1a\n\x00\xff", "not a game record: not valid JSON"),
        ("[" * 100_000, "not a game record: JSON nested too deeply"),
        ('{"format": "allfives-record", "version": NaN}', "the record's version nan is not"),
    ],
)
def test_unreadable_text(text: str | bytes, problem: str) -> None:
    with pytest.raises(RecordError) as info:
        parse_game(text)
    assert str(info.value).startswith(problem)


def test_file_errors(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="no such file"):
        load_game(tmp_path / "missing.json")
    with pytest.raises(RecordError, match="is a folder"):
        load_game(tmp_path)
    path = tmp_path / "small.json"
    path.write_text(SMALL_RECORD)
    assert load_game(path).record == parse_record(SMALL_RECORD)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
KEYS = st.sampled_from(
    ["format", "version", "game_id", "rules", "seats", "hands", "created", "seed"]
)


@st.composite
def tampered(draw: st.DrawFn) -> str:
    """A record (version 1 or 3) with a few of its values, at the top or deep
    inside, replaced by arbitrary JSON."""
    base = SMALL_RECORD if draw(st.booleans()) else game_record(players=3, seed=5).to_json()
    data: Any = json.loads(base)
    for _ in range(draw(st.integers(1, 3))):
        container: Any = data
        key: Any = draw(KEYS)
        while True:
            child = container.get(key) if isinstance(container, dict) else container[key]
            if not isinstance(child, dict | list) or not child or draw(st.booleans()):
                break
            container = child
            if isinstance(child, dict):
                key = draw(st.sampled_from(sorted(child)))
            else:
                key = draw(st.integers(0, len(child) - 1))
        container[key] = draw(JSON)
    return json.dumps(data)


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(text=tampered())
def test_tampered_records_load_or_raise_record_error_only(text: str) -> None:
    try:
        loaded = parse_game(text)
    except RecordError:
        return
    assert loaded.record.version == 3
    assert parse_record(loaded.record.to_json()) == loaded.record


@settings(max_examples=200, deadline=None, derandomize=True)
@given(data=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_arbitrary_bytes_raise_record_error_only(data: bytes) -> None:
    with pytest.raises(RecordError):
        parse_game(data)
