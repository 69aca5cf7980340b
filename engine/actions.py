"""Actions: place a tile, draw, pass, and the deal (the chance step)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine import core
from engine._fast import make
from engine.layout import ENDS, End
from engine.tiles import ALL_TILES, Tile


class Play(BaseModel):
    """Place ``tile`` on ``end``; ``end`` is ``None`` for the lead."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["play"] = "play"
    tile: Tile
    end: End | None = None

    def __str__(self) -> str:
        return str(self.tile) if self.end is None else f"{self.tile} {self.end.value}"

    def __repr__(self) -> str:
        return f"Play({str(self)!r})"


class Draw(BaseModel):
    """Draw one tile from the boneyard (only when nothing in hand can be played)."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["draw"] = "draw"

    def __str__(self) -> str:
        return "draw"

    def __repr__(self) -> str:
        return "Draw()"


class Pass(BaseModel):
    """Pass the turn (only when nothing can be played and the boneyard is empty)."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["pass"] = "pass"

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "Pass()"


class Deal(BaseModel):
    """The chance step that starts a hand: every hand, the boneyard's order, the starter.

    ``boneyard[0]`` is the first tile drawn.
    """

    model_config = ConfigDict(frozen=True)

    kind: Literal["deal"] = "deal"
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    start: int

    def __str__(self) -> str:
        from engine.notation import to_text

        return to_text(self)


Action = Annotated[Play | Draw | Pass | Deal, Field(discriminator="kind")]
"""Any action: a discriminated union on ``kind``."""

MoveAction = Play | Draw | Pass
"""An action a seat takes during a hand (anything but the deal)."""

DRAW: Draw = make(Draw, {"kind": "draw"})
PASS: Pass = make(Pass, {"kind": "pass"})

_ENDS_OR_LEAD: tuple[End | None, ...] = (*ENDS, None)

PLAY_ACTIONS: tuple[Play, ...] = tuple(
    make(Play, {"kind": "play", "tile": ALL_TILES[code // 5], "end": _ENDS_OR_LEAD[code % 5]})
    for code in range(core.DRAW)
)
"""Interned plays indexed by the core's action code."""

ACTIONS_BY_CODE: tuple[Play | Draw | Pass, ...] = (*PLAY_ACTIONS, DRAW, PASS)


INTERNED_CODES: dict[int, int] = {id(a): code for code, a in enumerate(ACTIONS_BY_CODE)}
"""The core code of each interned action, keyed by the object's ``id``."""


def action_code(action: Play | Draw | Pass) -> int:
    """The rules core's code for a move action."""
    code = INTERNED_CODES.get(id(action))
    if code is not None:
        return code
    kind = action.kind
    if kind == "play":
        play: Play = action  # type: ignore[assignment]
        end = play.end
        t = play.tile
        return (t.high * (t.high + 1) // 2 + t.low) * 5 + (core.LEAD if end is None else end.slot)
    return core.DRAW if kind == "draw" else core.PASS
