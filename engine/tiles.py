"""Tiles of the double-six set and their text form (``"5-3"``, high pip first)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce
from operator import or_
from typing import Any

from pydantic import BaseModel, ConfigDict, model_serializer, model_validator

from engine.errors import AllFivesError, NotationError, shown

MAX_PIP = 6
SET_SIZE = 28


def tile_id(high: int, low: int) -> int:
    """The index (0..27) of tile ``high-low`` in :data:`ALL_TILES`."""
    return high * (high + 1) // 2 + low


class Tile(BaseModel):
    """One domino, ``high >= low``; written and serialised as ``"high-low"``."""

    model_config = ConfigDict(frozen=True)

    high: int
    low: int

    @model_validator(mode="before")
    @classmethod
    def _coerce(cls, data: Any) -> Any:
        # Any input that is not a tile is refused here with a ValueError that
        # shows (a short piece of) it: never max() on halves that do not compare.
        if isinstance(data, str):
            return _parse_pair(data)
        if isinstance(data, (tuple, list)):
            if len(data) == 2 and _is_whole(data[0]) and _is_whole(data[1]):
                a, b = data
                return {"high": max(a, b), "low": min(a, b)}
            raise AllFivesError(
                f"not a tile: {shown(data)} (two pips from 0 to {MAX_PIP}, like [5, 3])",
                code="not-a-tile-pair",
                details={"value": shown(data), "most": MAX_PIP},
            )
        if isinstance(data, dict):
            if {"high", "low"} <= data.keys():
                a, b = data["high"], data["low"]
                if _is_whole(a) and _is_whole(b):
                    return {**data, "high": max(a, b), "low": min(a, b)}
            return data  # pydantic names the missing or mistyped half
        if isinstance(data, Tile):
            return data
        raise AllFivesError(
            f"not a tile: {shown(data)} (write it like 5-3)",
            code="not-a-tile",
            details={"value": shown(data)},
        )

    @model_validator(mode="after")
    def _check(self) -> Tile:
        if not (0 <= self.low <= self.high <= MAX_PIP):
            raise AllFivesError(
                f"no such tile {shown(self.high)}-{shown(self.low)} in a double-six set",
                code="no-such-tile",
                details={"value": f"{shown(self.high)}-{shown(self.low)}"},
            )
        return self

    @model_serializer(mode="plain")
    def _to_text(self) -> str:
        return f"{self.high}-{self.low}"

    @property
    def id(self) -> int:
        """Index of this tile in :data:`ALL_TILES`."""
        return tile_id(self.high, self.low)

    @property
    def is_double(self) -> bool:
        """True for a double such as ``5-5``."""
        return self.high == self.low

    @property
    def pips(self) -> int:
        """Total pips on the tile."""
        return self.high + self.low

    def has(self, pip: int) -> bool:
        """True when either half shows ``pip``."""
        return pip == self.high or pip == self.low

    def other(self, pip: int) -> int:
        """The half opposite a half showing ``pip``."""
        if pip == self.high:
            return self.low
        if pip == self.low:
            return self.high
        raise ValueError(f"tile {self} has no {pip}")

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __repr__(self) -> str:
        return f"Tile('{self.high}-{self.low}')"

    def __lt__(self, other: Tile) -> bool:
        return (self.high, self.low) < (other.high, other.low)


def _is_whole(value: object) -> bool:
    """True for a whole number (an ``int``, not a ``bool``)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_pair(text: str) -> dict[str, int]:
    parts = [p.strip() for p in text.strip().split("-")]
    if len(parts) != 2 or not all(len(p) == 1 and p in "0123456789" for p in parts):
        raise NotationError(
            f"not a tile: {shown(text)} (write it like 5-3)", code="not-a-tile", text=text
        )
    a, b = int(parts[0]), int(parts[1])
    if a > MAX_PIP or b > MAX_PIP:
        raise NotationError(
            f"not a tile: {shown(text)} (pips run from 0 to {MAX_PIP})",
            code="tile-pips",
            text=text,
            details={"most": MAX_PIP},
        )
    return {"high": max(a, b), "low": min(a, b)}


def _build_all() -> tuple[Tile, ...]:
    tiles = []
    for high in range(MAX_PIP + 1):
        for low in range(high + 1):
            tiles.append(Tile(high=high, low=low))
    return tuple(tiles)


ALL_TILES: tuple[Tile, ...] = _build_all()
"""The 28 tiles, indexed by :func:`tile_id` (so ``ALL_TILES[t.id] == t``)."""

_INTERNED_ID: dict[int, int] = {id(t): i for i, t in enumerate(ALL_TILES)}


def tile_ids(tiles: Iterable[Tile]) -> list[int]:
    """The ids of ``tiles`` (quick for the interned tiles of :data:`ALL_TILES`)."""
    try:
        return [_INTERNED_ID[id(t)] for t in tiles]
    except KeyError:
        return [t.id for t in tiles]


_INTERNED_BIT: dict[int, int] = {id(t): 1 << i for i, t in enumerate(ALL_TILES)}


def tile_mask(tiles: Iterable[Tile]) -> int:
    """The bit mask of ``tiles`` by id (bit ``t.id`` set for each tile ``t``)."""
    try:
        return reduce(or_, map(_INTERNED_BIT.__getitem__, map(id, tiles)), 0)
    except KeyError:
        return reduce(or_, (1 << t.id for t in tiles), 0)


_BY_TEXT: dict[str, Tile] = {}
for _t in ALL_TILES:
    _BY_TEXT[f"{_t.high}-{_t.low}"] = _t
    _BY_TEXT[f"{_t.low}-{_t.high}"] = _t


def parse_tile(text: str) -> Tile:
    """Parse ``"5-3"`` (either order) into the tile; raise :class:`NotationError`."""
    if not isinstance(text, str):
        raise NotationError(
            f"a tile is written as text like 5-3, not {shown(text)}",
            code="tile-not-text",
            details={"value": shown(text)},
        )
    tile = _BY_TEXT.get(text.strip())
    if tile is None:
        _parse_pair(text)  # raises a precise message
        raise NotationError(  # pragma: no cover
            f"not a tile: {shown(text)}", code="not-a-tile", text=text
        )
    return tile


# Compact tables used by the rules core (index = tile id).
HIGH: tuple[int, ...] = tuple(t.high for t in ALL_TILES)
LOW: tuple[int, ...] = tuple(t.low for t in ALL_TILES)
PIPS: tuple[int, ...] = tuple(t.pips for t in ALL_TILES)
IS_DOUBLE: tuple[bool, ...] = tuple(t.is_double for t in ALL_TILES)
PIP_MASK: tuple[int, ...] = tuple((1 << t.high) | (1 << t.low) for t in ALL_TILES)
