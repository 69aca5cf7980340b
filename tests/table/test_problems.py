"""What the engine reports, worded by the front-end: in English, the engine's own words."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from allfives_tui.table.problems import problem_text, validation_text
from allfives_tui.table.words import Names
from engine import Rules
from engine.errors import AllFivesError
from engine.problems import PROBLEMS, UNKNOWN_PROBLEM, problem_words
from tests.engine_errors import check_errors, notation_errors, record_errors, refusals

DIFFERENT = {
    # the JSON parser's and the codec's English are theirs: the place is told instead
    "not-json", "not-utf8", "too-deep",
    # a person's kind, a type's name and a level are tokens: left out of the words
    "invalid-field level-not-computer", "n not-text", "c needs-budget-or-playouts",
    # a count: the front-end's English says "1 hand"
    "r deal-hands",
}
"""The errors whose English words are the front-end's own (why, beside each)."""


def _engine_words(err: AllFivesError) -> str:
    """The engine's message, less a refusal's rule (a token the front-end leaves out)."""
    return re.sub(r" \[[a-z-]+\]", "", str(err))


def test_the_english_is_the_engines(tmp_path: Path) -> None:
    errors: dict[str, AllFivesError] = {
        **record_errors(tmp_path),
        **{f"n {k}": v for k, v in notation_errors().items()},
        **{f"r {k}": v for k, v in refusals().items()},
        **{f"c {k}": v for k, v in check_errors().items()},
    }
    differ = {
        name: (problem_text(err), _engine_words(err))
        for name, err in errors.items()
        if problem_text(err) != _engine_words(err)
    }
    assert set(differ) == DIFFERENT, differ


SAMPLES: dict[str, dict[str, Any]] = {
    "string_too_short": {"min_length": 1},
    "string_too_long": {"max_length": 40},
    "string_pattern_mismatch": {"pattern": "^[a-z]+$"},
    "greater_than": {"gt": 0},
    "greater_than_equal": {"ge": 0},
    "less_than": {"lt": 5},
    "less_than_equal": {"le": 4},
    "literal_error": {"expected": "'allfives-record'"},
    "enum": {"expected": "'standard', 'five-each' or 'seven-five'"},
    "model_type": {"class_name": "Seat"},
    "too_short": {"field_type": "List", "min_length": 2, "actual_length": 1},
    "too_long": {"field_type": "Tuple", "max_length": 1, "actual_length": 3},
    "union_tag_invalid": {"tag": "x", "discriminator": "'kind'", "expected_tags": "'a', 'b'"},
    "union_tag_not_found": {"discriminator": "'kind'"},
}


@pytest.mark.parametrize("kind", sorted(PROBLEMS))
def test_a_pydantic_error_in_the_engines_english(kind: str) -> None:
    error = {"type": kind, "ctx": SAMPLES.get(kind, {})}
    assert validation_text(error) == problem_words(error)


def test_an_unknown_pydantic_error_and_a_validators_own_words() -> None:
    assert validation_text({"type": "no_such_type"}) == UNKNOWN_PROBLEM
    coded = AllFivesError("x", code="target-multiple-of-5")
    assert validation_text({"type": "value_error", "ctx": {"error": coded}}) == (
        "the target must be a multiple of 5"
    )


def test_a_refusal_names_the_seats_as_the_reader_does() -> None:
    went_out = refusals()["start-player went out"]  # seat 1 went out, seat 0 was to start
    assert problem_text(went_out) == "seat 1 went out last hand and must start, not seat 0"
    names = Names(("Ana", None), Rules(players=2), you=1)
    assert problem_text(went_out, names) == "you went out last hand and must start, not Ana"
    names = Names((None, "Bo"), Rules(players=2), you=0)
    assert problem_text(went_out, names) == "Bo went out last hand and must start, not South"
