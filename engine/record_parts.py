"""The parts of a game record: its seats, and each hand's deal and actions.

See :mod:`engine.record` for the whole record and :mod:`engine.record_versions` for
what each format version holds.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator

from engine.actions import Deal
from engine.errors import AllFivesError, shown
from engine.tiles import MAX_PIP, Tile

SeatKind = Literal["person", "computer", "remote"]
"""Who plays a seat: a person at this table, the computer, or a player elsewhere."""

Place = Literal["south", "west", "north", "east"]
"""Where a seat sits at the table: its place code (the same in every language)."""
PLACES: dict[int, tuple[Place, ...]] = {
    2: ("south", "north"),
    3: ("south", "west", "east"),
    4: ("south", "west", "north", "east"),
}
"""Each seat's place, by the number of players: seat 0 (the first person) sits south and
play goes clockwise; partners (seats 0 and 2, 1 and 3) sit opposite."""
PLACE_NAMES: dict[Place, str] = {
    "south": "South", "west": "West", "north": "North", "east": "East"
}
"""Each place's name in English: the default name of a seat that sits there (a front-end
words it in its reader's language)."""


def place_of(seat: int, players: int) -> Place:
    """The place of ``seat`` at a table of ``players`` (see :data:`PLACES`)."""
    places = PLACES.get(players)
    if places is None or not 0 <= seat < len(places):
        raise AllFivesError(
            f"no seat {shown(seat)} at a table of {shown(players)}",
            code="no-such-seat",
            details={"value": shown(seat)},
        )
    return places[seat]


def no_control_characters(value: str | None) -> str | None:
    if value is not None and any(unicodedata.category(ch) in ("Cc", "Cs") for ch in value):
        raise AllFivesError("control characters are not allowed", code="control-characters")
    return value


class Seat(BaseModel):
    """Who sat in a seat: a person, a computer (with its level) or a remote player.

    ``name`` is the name given, or ``None`` for the default name of the seat's place
    (:func:`place_of`), which a reader words in its own language (:meth:`name_at`
    gives the English). ``kind`` ``"human"`` (the word of format 1) is read as
    ``"person"``. ``level`` is required for a computer and must be ``None``
    otherwise. ``take_backs`` counts the moves this seat took back during the game.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str | None = Field(default=None, min_length=1, max_length=40)
    kind: SeatKind = "person"
    level: str | None = Field(default=None, min_length=1, max_length=20)
    take_backs: int = Field(default=0, ge=0)

    @field_validator("kind", mode="before")
    @classmethod
    def _human_is_a_person(cls, value: object) -> object:
        return "person" if value == "human" else value

    @field_validator("name", "level")
    @classmethod
    def _printable(cls, value: str | None) -> str | None:
        return no_control_characters(value)

    @model_validator(mode="after")
    def _level_for_computers_only(self) -> Seat:
        if self.kind == "computer" and self.level is None:
            raise AllFivesError("a computer seat needs its level", code="computer-without-level")
        if self.kind != "computer" and self.level is not None:
            raise AllFivesError(
                f"only a computer seat has a level, not a {self.kind}'s",
                code="level-not-computer",
                details={"kind": self.kind},
            )
        return self

    def name_at(self, seat: int, players: int) -> str:
        """The seat's name in English: its name, else its place's (``"North"``)."""
        return self.name if self.name is not None else PLACE_NAMES[place_of(seat, players)]

    @property
    def is_person(self) -> bool:
        """True for a seat played by a person at this table."""
        return self.kind == "person"

    @property
    def is_computer(self) -> bool:
        """True for a seat the computer plays."""
        return self.kind == "computer"


def _tile_input(value: object) -> object:
    """A tile as a record may write it, checked before :class:`Tile` sees it.

    Records write ``"5-3"``; a pair ``[5, 3]`` or ``{"high": 5, "low": 3}`` of
    whole numbers from 0 to 6 is read too. Anything else (a pair of text and
    a number, a null, a number thousands of digits long) is refused here in
    words that echo at most a short piece of it.
    """
    if isinstance(value, Tile):
        return value
    if isinstance(value, str):
        if len(value) > 12:
            raise _not_a_tile(value)
        return value
    halves: tuple[object, ...] | None = None
    if isinstance(value, (list, tuple)) and len(value) == 2:
        halves = tuple(value)
    elif isinstance(value, dict) and set(value) == {"high", "low"}:
        halves = (value["high"], value["low"])
    if halves is None or not all(
        isinstance(h, int) and not isinstance(h, bool) and 0 <= h <= MAX_PIP for h in halves
    ):
        raise _not_a_tile(value)
    return value


def _not_a_tile(value: object) -> AllFivesError:
    return AllFivesError(
        f"not a tile: {shown(value)} (write it like 5-3)",
        code="not-a-tile",
        details={"value": shown(value)},
    )


RecordTile = Annotated[Tile, BeforeValidator(_tile_input)]
"""A tile in a record: :func:`_tile_input` checks what the file holds, then :class:`Tile`."""


class DealRecord(BaseModel):
    """One hand's deal: each seat's tiles, the boneyard in drawing order, the starter."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    hands: tuple[tuple[RecordTile, ...], ...] = Field(max_length=4)
    boneyard: tuple[RecordTile, ...] = Field(max_length=28)
    start: int = Field(ge=0, le=3)

    def to_action(self) -> Deal:
        """The deal as an engine action."""
        return Deal(hands=self.hands, boneyard=self.boneyard, start=self.start)


class HandRecord(BaseModel):
    """One hand: its deal and its actions in notation."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    deal: DealRecord
    actions: tuple[str, ...] = Field(default=(), max_length=200)
