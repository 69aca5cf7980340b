"""Tile glyphs: dominoes drawn as small boxes of box-drawing characters.

A horizontal tile is 5 cells wide and 3 tall; a vertical one 3 wide and 5 tall::

    ┌─┬─┐      ┌─┐
    │5│3│      │5│
    └─┴─┘      ├─┤
               │3│
               └─┘

The border says what kind of tile it is, so the difference never rests on
colour alone: ``plain`` (light lines), ``heavy`` (selected), ``double`` (the
spinner) and ``dashed`` (a tile that cannot be played now). A half shows its
number of pips as a digit.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

Border = Literal["plain", "heavy", "double", "dashed"]

H_WIDTH, H_HEIGHT = 5, 3
"""Size in cells of a horizontal tile."""
V_WIDTH, V_HEIGHT = 3, 5
"""Size in cells of a vertical tile."""

# top-left, horizontal, top-tee, top-right, vertical, left-tee, right-tee,
# bottom-left, bottom-tee, bottom-right
_BOXES: dict[str, str] = {
    "plain": "┌─┬┐│├┤└┴┘",
    "heavy": "┏━┳┓┃┣┫┗┻┛",
    "double": "╔═╦╗║╠╣╚╩╝",
    "dashed": "┌┄┬┐┆├┤└┴┘",
}


@lru_cache(maxsize=512)
def horizontal_glyph(
    left: int, right: int, border: Border = "plain", *, large: bool = False
) -> tuple[str, ...]:
    """Three rows drawing a tile lying west-east with ``left`` and ``right`` halves.

    ``large`` draws it 9 cells wide instead of 5.
    """
    tl, h, tt, tr, v, _lt, _rt, bl, bt, br = tuple(_BOXES[border])
    if large:
        return (
            f"{tl}{h * 3}{tt}{h * 3}{tr}",
            f"{v} {left} {v} {right} {v}",
            f"{bl}{h * 3}{bt}{h * 3}{br}",
        )
    return (
        f"{tl}{h}{tt}{h}{tr}",
        f"{v}{left}{v}{right}{v}",
        f"{bl}{h}{bt}{h}{br}",
    )


@lru_cache(maxsize=512)
def vertical_glyph(
    top: int, bottom: int, border: Border = "plain", *, large: bool = False
) -> tuple[str, ...]:
    """Five rows drawing a tile standing north-south with ``top`` and ``bottom`` halves.

    ``large`` draws it 5 cells wide instead of 3.
    """
    tl, h, _tt, tr, v, lt, rt, bl, _bt, br = tuple(_BOXES[border])
    if large:
        return (
            f"{tl}{h * 3}{tr}",
            f"{v} {top} {v}",
            f"{lt}{h * 3}{rt}",
            f"{v} {bottom} {v}",
            f"{bl}{h * 3}{br}",
        )
    return (
        f"{tl}{h}{tr}",
        f"{v}{top}{v}",
        f"{lt}{h}{rt}",
        f"{v}{bottom}{v}",
        f"{bl}{h}{br}",
    )
