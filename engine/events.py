"""What :func:`engine.apply` reports: placements, draws, passes, hand and game ends."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.layout import End
from engine.tiles import Tile


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True)


class Dealt(_Event):
    """A hand was dealt; ``start`` leads."""

    kind: Literal["dealt"] = "dealt"
    hand_number: int
    start: int


class Placed(_Event):
    """``seat`` placed ``tile`` (on ``end``; ``None`` for the lead); ends added to ``total``."""

    kind: Literal["placed"] = "placed"
    seat: int
    tile: Tile
    end: End | None
    total: int
    points: int


class Drew(_Event):
    """``seat`` drew a tile. ``tile`` is known to the full state only; views see ``None``."""

    kind: Literal["drew"] = "drew"
    seat: int
    tile: Tile | None
    must_play: bool


class Passed(_Event):
    """``seat`` could not play and the boneyard was empty."""

    kind: Literal["passed"] = "passed"
    seat: int


class HandOver(_Event):
    """The hand ended: ``out_seat`` went out, or it was blocked (``out_seat`` is ``None``).

    Per seat: ``pips`` left in hand and the ``penalties`` (pips rounded to the
    nearest five) subtracted from that seat's team; ``scores`` per team after.
    """

    kind: Literal["hand_over"] = "hand_over"
    hand_number: int
    out_seat: int | None
    pips: tuple[int, ...]
    penalties: tuple[int, ...]
    scores: tuple[int, ...]

    @property
    def blocked(self) -> bool:
        """True when nobody went out."""
        return self.out_seat is None


class GameOver(_Event):
    """``winner`` (a team) reached the target; ``scores`` per team."""

    kind: Literal["game_over"] = "game_over"
    winner: int
    scores: tuple[int, ...]


Event = Annotated[Dealt | Placed | Drew | Passed | HandOver | GameOver, Field(discriminator="kind")]
"""Any event."""
