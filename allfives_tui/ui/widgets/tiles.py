"""Tile glyphs: dominoes drawn as small boxes of box-drawing characters.

A horizontal tile is 5 cells wide and 3 tall; a vertical one 3 wide and 5 tall::

    ┌─┬─┐      ┌─┐
    │5│3│      │5│
    └─┴─┘      ├─┤
               │3│
               └─┘

The border says what kind of tile it is, so the difference never rests on
colour alone: ``plain`` (light lines), ``heavy`` (selected), ``double`` (the
spinner) and ``dashed`` (a tile that cannot be played now).
"""

from __future__ import annotations

from typing import Literal

from engine import Tile

Border = Literal["plain", "heavy", "double", "dashed"]

H_WIDTH, H_HEIGHT = 5, 3
"""Size in cells of a horizontal tile."""
V_WIDTH, V_HEIGHT = 3, 5
"""Size in cells of a vertical tile."""

# top-left, horizontal, top-tee, top-right, vertical, left-tee, cross(unused),
# right-tee, bottom-left, bottom-tee, bottom-right
_BOXES: dict[str, str] = {
    "plain": "┌─┬┐│├┤└┴┘",
    "heavy": "┏━┳┓┃┣┫┗┻┛",
    "double": "╔═╦╗║╠╣╚╩╝",
    "dashed": "┌┄┬┐┆├┤└┴┘",
}


def pip_char(pip: int) -> str:
    """The character for one half: its number of pips as a digit."""
    return str(pip)


def horizontal_glyph(
    left: int, right: int, border: Border = "plain", *, large: bool = False
) -> list[str]:
    """Three rows drawing a tile lying west-east with ``left`` and ``right`` halves.

    ``large`` draws it 9 cells wide instead of 5.
    """
    tl, h, tt, tr, v, _lt, _rt, bl, bt, br = tuple(_BOXES[border])
    if large:
        return [
            f"{tl}{h * 3}{tt}{h * 3}{tr}",
            f"{v} {pip_char(left)} {v} {pip_char(right)} {v}",
            f"{bl}{h * 3}{bt}{h * 3}{br}",
        ]
    return [
        f"{tl}{h}{tt}{h}{tr}",
        f"{v}{pip_char(left)}{v}{pip_char(right)}{v}",
        f"{bl}{h}{bt}{h}{br}",
    ]


def vertical_glyph(
    top: int, bottom: int, border: Border = "plain", *, large: bool = False
) -> list[str]:
    """Five rows drawing a tile standing north-south with ``top`` and ``bottom`` halves.

    ``large`` draws it 5 cells wide instead of 3.
    """
    tl, h, _tt, tr, v, lt, rt, bl, _bt, br = tuple(_BOXES[border])
    if large:
        return [
            f"{tl}{h * 3}{tr}",
            f"{v} {pip_char(top)} {v}",
            f"{lt}{h * 3}{rt}",
            f"{v} {pip_char(bottom)} {v}",
            f"{bl}{h * 3}{br}",
        ]
    return [
        f"{tl}{h}{tr}",
        f"{v}{pip_char(top)}{v}",
        f"{lt}{h}{rt}",
        f"{v}{pip_char(bottom)}{v}",
        f"{bl}{h}{br}",
    ]


def tile_glyph(tile: Tile, *, vertical: bool = False, border: Border = "plain") -> list[str]:
    """A tile drawn high pip first (left, or top when ``vertical``)."""
    if vertical:
        return vertical_glyph(tile.high, tile.low, border)
    return horizontal_glyph(tile.high, tile.low, border)


def tile_text(tile: Tile) -> str:
    """A one-line form of a tile, for logs and messages: ``"5-3"``."""
    return f"{tile.high}-{tile.low}"
