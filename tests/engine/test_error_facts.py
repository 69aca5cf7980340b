"""The engine's errors carry what a front-end needs to word them: a code and the facts."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic import ValidationError

from engine import DRAW, PASS, AllFivesError, End, HandSize, Play, Rules, Tile
from engine.record import Seat
from engine.rng import check_game_seed
from tests.engine_errors import boneyard_empty, notation_errors, record_errors, refusals


def tile(text: str) -> Tile:
    high, low = sorted(map(int, text.split("-")), reverse=True)
    return Tile(high=high, low=low)


def test_every_refusal_names_its_rule_and_its_facts() -> None:
    found = refusals()
    facts = {
        name: (err.rule, err.code, err.seat, err.tile, err.end, err.needs, err.drawn)
        for name, err in found.items()
    }
    assert facts == {
        "must-play draw": ("must-play", "must-play", 1, None, None, None, None),
        "must-play pass": ("must-play", "must-play", 1, None, None, None, None),
        "draw-before-pass": ("draw-before-pass", "draw-before-pass", 1, None, None, None, None),
        "own-tile": ("own-tile", "own-tile", 1, tile("3-3"), End.E, None, None),
        "match-end": ("match-end", "match-end", 1, tile("2-2"), End.E, 6, None),
        "match-end without an end": ("match-end", "match-end", 1, tile("4-1"), None, None, None),
        "spinner-sides-first": (
            "spinner-sides-first", "spinner-sides-first", 0, tile("6-5"), End.N, None, None
        ),
        "lead": ("lead", "lead", 0, tile("6-4"), End.E, None, None),
        "play-drawn-tile": (
            "play-drawn-tile", "play-drawn-tile", 1, tile("2-1"), End.W, None, tile("5-3")
        ),
        "game-over": ("game-over", "game-over", None, None, None, None, None),
        "deal-first": ("deal-first", "deal-first", None, None, None, None, None),
        "deal-between-hands": (
            "deal-between-hands", "deal-between-hands", None, None, None, None, None
        ),
        "deal-tiles twice": ("deal-tiles", "deal-tiles", None, tile("0-0"), None, None, None),
        "deal-tiles missing": ("deal-tiles", "deal-tiles", None, None, None, None, None),
        "deal-hands": ("deal-hands", "deal-hands", None, None, None, None, None),
        "deal-hand-size": ("deal-hand-size", "deal-hand-size", 0, None, None, None, None),
        "start-player no seat": ("start-player", "start-player", None, None, None, None, None),
        "start-player went out": ("start-player", "start-player", 1, None, None, None, None),
    }
    assert found["must-play draw"].action == DRAW
    assert found["must-play pass"].action == PASS
    assert found["own-tile"].action == Play(tile=tile("3-3"), end=End.E)
    assert found["deal-tiles missing"].details == {"missing": (tile("5-3"),)}
    assert found["deal-hands"].details == {"count": 1, "expected": 2}
    assert found["deal-hand-size"].details == {"count": 8, "expected": 9}
    assert found["start-player no seat"].details == {"value": "2"}
    assert found["start-player went out"].details == {"value": 0}
    assert boneyard_empty().code == "boneyard-empty"


def test_the_message_stays_the_engines_english() -> None:
    err = refusals()["match-end"]
    assert str(err) == "2-2 does not match the east end, which needs a 6 [match-end]"


def test_every_notation_problem_names_its_code_and_the_text() -> None:
    found = notation_errors()
    assert found["not-an-end"].text == "5-3 Q" and found["not-an-end"].part == "Q"
    assert found["deal-start"].part == "x"
    assert found["not-an-action"].text == "hello there friend"
    assert found["too-long"].details == {"length": 500, "most": 400}
    assert found["not-text"].text is None and found["not-text"].details == {"type": "int"}
    assert found["tile-pips"].text == "9-3" and found["tile-pips"].details == {"most": 6}
    assert found["tile-not-text"].details == {"value": "7"}


def test_every_record_problem_names_its_code_and_its_place(tmp_path: Path) -> None:
    found = record_errors(tmp_path)
    illegal = found["illegal-action"]
    assert (illegal.hand, illegal.move, illegal.details) == (1, 2, {"action": "'3-3 E'"})
    assert illegal.cause is not None and illegal.cause.code == "own-tile"
    assert found["bad-deal"].hand == 1 and found["bad-deal"].cause is not None
    assert found["after-game-over"].details == {"action": "'draw'"}
    assert found["version-too-new"].details == {"version": "99", "newest": 3}
    assert found["not-json"].details == {"line": 1, "column": 2}
    assert found["wrong-format"].details == {"format": "'chess-pgn'", "expected": "allfives-record"}
    field = found["invalid-field less_than_equal"]
    assert field.details == {"where": "rules.players"}
    assert field.invalid is not None and field.invalid["ctx"] == {"le": 4}
    assert found["invalid-field tile-pips"].cause is not None
    assert found["is-a-folder"].details["reason"] == "is a folder"


def test_validators_raise_coded_errors_inside_pydantic() -> None:
    cases: list[tuple[Callable[[], object], str]] = [
        (lambda: Rules(players=3, partnerships=True), "partnerships-of-four"),
        (lambda: Rules(players=2, target=12), "target-multiple-of-5"),
        (lambda: Seat(name="A", kind="computer"), "computer-without-level"),
        (lambda: Tile(high=9, low=1), "no-such-tile"),
        (lambda: Tile.model_validate([1, "x"]), "not-a-tile-pair"),
    ]
    for make, code in cases:
        with pytest.raises(ValidationError) as err:
            make()
        cause = err.value.errors()[0]["ctx"]["error"]
        assert isinstance(cause, AllFivesError) and cause.code == code
    with pytest.raises(AllFivesError) as seed:
        check_game_seed(-3)
    assert seed.value.code == "game-seed" and seed.value.details["value"] == "-3"
    with pytest.raises(AllFivesError) as size:
        HandSize("huge")
    assert size.value.code == "not-a-hand-size"
    assert size.value.details == {"value": "'huge'", "choices": ("standard", "five-each",
                                                                "seven-five")}


def test_a_coded_error_survives_a_round_trip_through_pickle() -> None:
    err = AllFivesError("x", code="empty", details={"n": 1})
    back = pickle.loads(pickle.dumps(err))
    assert (str(back), back.code, back.details) == ("x", "empty", {"n": 1})
