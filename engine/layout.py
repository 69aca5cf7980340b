"""The layout (tableau): the lead, the spinner and its four arms, open ends."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from engine import core
from engine._fast import fields, make, maker
from engine.errors import not_a_member
from engine.tiles import ALL_TILES, Tile


class End(StrEnum):
    """An open end of the layout: west and east along the main line, north and south arms."""

    W = "W"
    E = "E"
    N = "N"
    S = "S"

    @classmethod
    def _missing_(cls, value: object) -> End:
        raise not_a_member("an end", value, cls, code="not-an-end")

    @property
    def slot(self) -> int:
        """The end's index in the rules core (W=0, E=1, N=2, S=3)."""
        return _END_INDEX[self]

    @property
    def word(self) -> str:
        """The end's name in words: ``"west"``, ``"east"``, ``"north"``, ``"south"``."""
        return _END_WORD[self]


ENDS: tuple[End, ...] = (End.W, End.E, End.N, End.S)
_END_INDEX = {e: i for i, e in enumerate(ENDS)}
_END_WORD = {End.W: "west", End.E: "east", End.N: "north", End.S: "south"}


class Placement(BaseModel):
    """A tile on an arm: ``outer`` is the pip facing away from the centre."""

    model_config = ConfigDict(frozen=True)

    tile: Tile
    outer: int

    @property
    def inner(self) -> int:
        """The pip touching the previous tile."""
        return self.tile.other(self.outer)


PLACEMENTS: dict[int, Placement] = {
    t.id * 8 + pip: make(Placement, {"tile": t, "outer": pip})
    for t in ALL_TILES
    for pip in {t.high, t.low}
}
"""Interned placements keyed by the core's ``tile * 8 + outer`` code."""


class OpenEnd(BaseModel):
    """An end where a tile may be placed, and the pip value it needs."""

    model_config = ConfigDict(frozen=True)

    end: End
    value: int


class Layout(BaseModel):
    """The tiles on the table.

    The lead lies with its low pip to the west and its high pip to the east.
    ``west`` and ``east`` run outward from the lead; ``north`` and ``south``
    outward from the spinner.
    ``spinner_at`` places the spinner on the main line: 0 is the lead, ``-k``
    the k-th tile of the west arm, ``+k`` the k-th tile of the east arm.
    ``ends`` (the pip each end needs, -1 when closed) and ``counts`` (what
    each end adds to the total) are derived by the rules core.
    """

    model_config = ConfigDict(frozen=True)

    lead: Tile | None = None
    west: tuple[Placement, ...] = ()
    east: tuple[Placement, ...] = ()
    north: tuple[Placement, ...] = ()
    south: tuple[Placement, ...] = ()
    spinner_at: int | None = None
    ends: tuple[int, int, int, int] = (-1, -1, -1, -1)
    counts: tuple[int, int, int, int] = (0, 0, 0, 0)

    @property
    def spinner(self) -> Tile | None:
        """The spinner (the hand's first double), if one has been played."""
        if self.spinner_at is None:
            return None
        if self.spinner_at == 0:
            return self.lead
        arm = self.east if self.spinner_at > 0 else self.west
        return arm[abs(self.spinner_at) - 1].tile

    @property
    def total(self) -> int:
        """The open ends added up as the rules score them."""
        return sum(self.counts)

    @property
    def is_empty(self) -> bool:
        """True before the lead."""
        return self.lead is None

    def open_ends(self) -> tuple[OpenEnd, ...]:
        """Every end a tile may be placed on now (empty before the lead)."""
        return tuple(
            OpenEnd(end=e, value=v) for e, v in zip(ENDS, self.ends, strict=True) if v >= 0
        )

    def arm(self, end: End) -> tuple[Placement, ...]:
        """The placements on one arm, outward."""
        return {End.W: self.west, End.E: self.east, End.N: self.north, End.S: self.south}[end]

    def tiles(self) -> tuple[Tile, ...]:
        """Every tile on the table."""
        if self.lead is None:
            return ()
        arms = self.west + self.east + self.north + self.south
        return (self.lead, *(p.tile for p in arms))

    def main_line(self) -> tuple[tuple[Tile, int, int], ...]:
        """The main line west to east as ``(tile, west pip, east pip)``."""
        if self.lead is None:
            return ()
        west = [(p.tile, p.outer, p.inner) for p in reversed(self.west)]
        east = [(p.tile, p.inner, p.outer) for p in self.east]
        return (*west, (self.lead, self.lead.low, self.lead.high), *east)

    def to_core(self) -> core.Layout:
        """The compact form, with open ends recomputed by the rules core."""
        lay = core.Layout()
        if self.lead is not None:
            lay.lead = self.lead.id
            arms = (self.west, self.east, self.north, self.south)
            lay.tips = [arm[-1].tile.id * 8 + arm[-1].outer if arm else -1 for arm in arms]
            lay.lengths = [len(arm) for arm in arms]
            if self.spinner_at is not None:
                lay.spinner = self.spinner.id if self.spinner else -1
                if self.spinner_at == 0:
                    lay.spinner_arm = core.LEAD
                else:
                    lay.spinner_arm = core.E if self.spinner_at > 0 else core.W
                    lay.spinner_index = abs(self.spinner_at) - 1
            lay.recount()
        return lay


EMPTY_LAYOUT = Layout()


def spinner_position(lay: core.Layout) -> int | None:
    """:attr:`Layout.spinner_at` for a compact layout."""
    if lay.spinner_arm < 0:
        return None
    if lay.spinner_arm == core.LEAD:
        return 0
    if lay.spinner_arm == core.E:
        return lay.spinner_index + 1
    return -(lay.spinner_index + 1)


_ARM_NAMES = ("west", "east", "north", "south")
_LEAD = core.LEAD


def next_layout(previous: Layout, lay: core.Layout, end: int) -> Layout:
    """The layout snapshot after one placement on ``end`` (core layout ``lay`` after it).

    The unchanged arms are shared with ``previous``.
    """
    values = fields(previous).copy()
    if end == _LEAD:
        values["lead"] = ALL_TILES[lay.lead]
    else:
        name = _ARM_NAMES[end]
        values[name] = (*values[name], PLACEMENTS[lay.tips[end]])
    if values["spinner_at"] is None and lay.spinner >= 0:
        values["spinner_at"] = spinner_position(lay)
    values["ends"] = tuple(lay.ends)
    values["counts"] = tuple(lay.counts)
    return _new_layout(values, None)


_new_layout = maker(Layout)
