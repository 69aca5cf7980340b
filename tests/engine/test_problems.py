"""Validation problems are worded from each error's type and ctx, never its msg."""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from engine.problems import PROBLEMS, UNKNOWN_PROBLEM, problem_words


class Colour(Enum):
    RED = "red"
    BLUE = "blue"


class A(BaseModel):
    kind: Literal["a"] = "a"


class B(BaseModel):
    kind: Literal["b"] = "b"


class Sample(BaseModel):
    model_config = ConfigDict(extra="forbid")

    whole: int = 0
    number: float = 0.0
    flag: bool = False
    name: Annotated[str, Field(min_length=1, max_length=3, pattern=r"^[a-z]*$")] = "a"
    two: Annotated[str, Field(min_length=2)] = "ab"
    low: Annotated[int, Field(ge=2, le=5)] = 2
    strict: Annotated[int, Field(gt=0, lt=9)] = 1
    mode: Literal["x", "y"] = "x"
    colour: Colour = Colour.RED
    items: Annotated[list[int], Field(min_length=1, max_length=2)] = [1]
    pair: tuple[int, int] = (0, 0)
    mapping: dict[str, int] = {}
    child: A = A()
    either: Annotated[A | B, Field(discriminator="kind")] = A()
    even: int = 0

    @field_validator("even")
    @classmethod
    def _even(cls, value: int) -> int:
        if value % 2:
            raise ValueError(f"{value} is odd")
        return value


BAD: list[dict[str, Any]] = [
    {"whole": "x"}, {"whole": 1.5}, {"whole": []}, {"number": "x"}, {"number": []},
    {"flag": "maybe"}, {"flag": []}, {"name": 5}, {"name": ""}, {"name": "abcd"},
    {"name": "A"}, {"two": "a"}, {"low": 1}, {"low": 6}, {"strict": 0}, {"strict": 9},
    {"mode": "z"}, {"colour": "green"}, {"items": "x"}, {"items": []}, {"items": [1, 2, 3]},
    {"pair": 3}, {"mapping": 3}, {"child": 3}, {"either": {"kind": "c"}}, {"either": {}},
    {"other": 1},
]


@pytest.mark.parametrize("data", BAD, ids=lambda d: ",".join(d))
def test_each_error_type_reads_as_pydantics_english_without_its_msg(data: dict[str, Any]) -> None:
    with pytest.raises(ValidationError) as caught:
        Sample.model_validate(data)
    error = caught.value.errors()[0]
    assert error["type"] in PROBLEMS
    worded = problem_words({k: v for k, v in error.items() if k != "msg"})
    assert worded == error["msg"]


def test_a_validators_own_words_are_kept_and_an_unknown_type_is_worded_generically() -> None:
    with pytest.raises(ValidationError) as caught:
        Sample.model_validate({"even": 3})
    error = caught.value.errors()[0]
    assert problem_words(error) == "3 is odd"
    assert problem_words({"type": "no_such_type", "msg": "ignored"}) == UNKNOWN_PROBLEM
    assert problem_words({"type": "greater_than", "ctx": {}}) == "Input should be greater than ?"
