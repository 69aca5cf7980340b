"""The agreed rules of a game: players, partnerships, hand sizes and target."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.errors import AllFivesError, not_a_member, shown


class HandSize(StrEnum):
    """How many tiles each player draws at the start of a hand."""

    STANDARD = "standard"
    FIVE_EACH = "five-each"
    SEVEN_FIVE = "seven-five"

    @classmethod
    def _missing_(cls, value: object) -> HandSize:
        raise not_a_member("a hand size", value, cls, code="not-a-hand-size")


_HAND_SIZES: dict[HandSize, dict[int, int]] = {
    HandSize.STANDARD: {2: 9, 3: 7, 4: 5},
    HandSize.FIVE_EACH: {2: 5, 3: 5, 4: 5},
    HandSize.SEVEN_FIVE: {2: 7, 3: 5, 4: 5},
}

DEFAULT_TARGETS: dict[int, int] = {2: 250, 3: 200, 4: 200}

MAX_TARGET = 10_000
"""The highest target a game may have (a positive multiple of 5 up to it)."""


class Rules(BaseModel):
    """Rules options, recorded in every saved game.

    ``target`` defaults to 250 with two players and 200 with three or four.
    ``target`` is a positive multiple of 5, at most :data:`MAX_TARGET`.
    ``partnerships`` (seats 0+2 against 1+3) needs four players. ``players``
    must be a whole number (strictly: ``"3"`` or ``3.0`` is refused as the
    players, not read as 3 and then blamed on the target).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: int = Field(default=2, ge=2, le=4, strict=True)
    partnerships: bool = False
    hand_size: HandSize = HandSize.STANDARD
    target: int = Field(default=0, ge=0)

    @model_validator(mode="before")
    @classmethod
    def _default_target(cls, data: Any) -> Any:
        if isinstance(data, dict) and not data.get("target"):
            players = data.get("players", 2)
            if isinstance(players, int) and players in DEFAULT_TARGETS:
                data = {**data, "target": DEFAULT_TARGETS[players]}
        return data

    @model_validator(mode="after")
    def _check(self) -> Rules:
        if self.partnerships and self.players != 4:
            raise AllFivesError(
                "partnerships need exactly 4 players",
                code="partnerships-of-four",
                details={"players": self.players},
            )
        if self.target <= 0:
            raise AllFivesError(
                "the target must be a positive number of points",
                code="target-positive",
                details={"target": self.target},
            )
        if self.target > MAX_TARGET:
            raise AllFivesError(
                f"the target must be at most {MAX_TARGET:,} points",
                code="target-too-high",
                details={"target": self.target, "most": MAX_TARGET},
            )
        if self.target % 5:
            raise AllFivesError(
                "the target must be a multiple of 5",
                code="target-multiple-of-5",
                details={"target": self.target},
            )
        return self

    @property
    def tiles_per_hand(self) -> int:
        """Tiles each player draws at the start of a hand."""
        return _HAND_SIZES[self.hand_size][self.players]

    @property
    def teams(self) -> int:
        """Number of scoring sides: 2 with partnerships, else one per player."""
        return 2 if self.partnerships else self.players

    def team_of(self, seat: int) -> int:
        """The scoring side of ``seat`` (partners 0+2 are team 0, 1+3 team 1).

        A ``seat`` that is not one of the game's raises :class:`~engine.errors.AllFivesError`.
        """
        if type(seat) is not int or not 0 <= seat < self.players:
            raise AllFivesError(f"no seat {shown(seat)} in a {self.players}-player game")
        return seat % 2 if self.partnerships else seat

    def seats_of(self, team: int) -> tuple[int, ...]:
        """The seats that score for ``team`` (not a side of the game: AllFivesError)."""
        if type(team) is not int or not 0 <= team < self.teams:
            raise AllFivesError(f"no side {shown(team)} among the game's {self.teams} sides")
        return tuple(s for s in range(self.players) if self.team_of(s) == team)
