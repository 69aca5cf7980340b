"""A game's seed and target have bounds: the engine refuses what the history cannot hold.

A seed is a whole number ``0 <= seed < SEED_LIMIT`` (2**63, an SQLite
integer) wherever a game takes one: :func:`engine.seeded_deal` and a record's
``seed``. A target is a positive multiple of 5 up to ``MAX_TARGET``, checked
by :class:`engine.Rules` and so by every record.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from engine import AllFivesError, RecordError, Rules, new_game, seeded_deal
from engine.record import GameRecord, load, parse_record
from engine.rng import SEED_LIMIT, check_game_seed
from engine.rules import MAX_TARGET
from tests.records import SMALL_RECORD

BAD_SEEDS: list[Any] = [
    SEED_LIMIT,
    SEED_LIMIT + 1,
    1180591620717411303424,
    2**64 - 1,
    10**40,
    -1,
    -(2**63),
    None,
    True,
    1.0,
    "7",
]


def test_the_bounds_are_what_an_sqlite_integer_and_the_settings_hold() -> None:
    assert SEED_LIMIT == 2**63
    assert MAX_TARGET == 10_000


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
def test_seeded_deal_refuses_a_seed_out_of_bounds_in_one_line(seed: Any) -> None:
    with pytest.raises(AllFivesError, match="a seed must be a whole number from 0 to ") as info:
        seeded_deal(new_game(), seed)
    message = str(info.value)
    assert "\n" not in message and len(message) < 200


@pytest.mark.parametrize("seed", [0, 1, 7, SEED_LIMIT - 1])
def test_seeds_in_bounds_deal(seed: int) -> None:
    assert check_game_seed(seed) == seed
    deal = seeded_deal(new_game(), seed)
    assert deal == seeded_deal(new_game(), seed)


def _record(**changes: Any) -> str:
    data = json.loads(SMALL_RECORD)
    for key, value in changes.items():
        if key == "target":
            data["rules"]["target"] = value
        else:
            data[key] = value
    return json.dumps(data)


@pytest.mark.parametrize(
    "seed", [SEED_LIMIT, 1180591620717411303424, 10**40, -1], ids=lambda s: str(s)[:12]
)
def test_a_record_with_a_seed_out_of_bounds_is_a_record_error(seed: int, tmp_path: Path) -> None:
    text = _record(seed=seed)
    with pytest.raises(RecordError, match="seed") as info:
        parse_record(text)
    assert "\n" not in str(info.value)
    path = tmp_path / "big-seed.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RecordError, match="seed"):
        load(path)


def test_a_record_with_the_largest_seed_loads() -> None:
    assert parse_record(_record(seed=SEED_LIMIT - 1)).seed == SEED_LIMIT - 1


def test_a_record_made_in_code_refuses_a_seed_out_of_bounds() -> None:
    record = parse_record(SMALL_RECORD)
    with pytest.raises(ValidationError, match="seed"):
        GameRecord.model_validate({**record.model_dump(), "seed": SEED_LIMIT})


@pytest.mark.parametrize("target", [MAX_TARGET + 5, 10**40, 2**63])
def test_rules_refuse_a_target_above_the_limit(target: int) -> None:
    with pytest.raises(ValidationError, match="at most 10,000"):
        Rules(target=target)


@pytest.mark.parametrize("target", [10**40, MAX_TARGET + 5])
def test_a_record_with_a_target_above_the_limit_is_a_record_error(target: int) -> None:
    with pytest.raises(RecordError, match=r"rules.*at most 10,000") as info:
        parse_record(_record(target=target))
    assert "\n" not in str(info.value) and len(str(info.value)) < 200


def test_the_largest_target_is_allowed() -> None:
    assert Rules(players=3, target=MAX_TARGET).target == MAX_TARGET
    assert parse_record(_record(target=MAX_TARGET)).rules.target == MAX_TARGET
