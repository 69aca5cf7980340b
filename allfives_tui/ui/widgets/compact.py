"""Textual's compact style for buttons, inputs and selects, set the cheap way.

``Button(..., compact=True)`` (and ``Input``'s, ``Select``'s) sets a reactive
whose class toggle restyles the widget at once, before it is even in the DOM:
a whole stylesheet pass per widget, thrown away when the widget mounts and is
styled again. :func:`compact` gives the widget the same value and class
without that pass, so a screen of compact widgets opens sooner.
"""

from __future__ import annotations

from typing import Any, TypeVar

from textual.reactive import Reactive
from textual.widget import Widget

W = TypeVar("W", bound=Widget)

COMPACT_CLASS = "-textual-compact"
"""The class Textual's widgets toggle with their ``compact`` reactive."""


def compact(widget: W) -> W:
    """``widget`` (a Button, Input or Select) in the compact style (no borders),
    styled when it mounts."""
    setting: Any = getattr(type(widget), "compact", None)
    if not isinstance(setting, Reactive):
        raise TypeError(f"{type(widget).__name__} has no compact style")
    widget.set_reactive(setting, True)
    widget.add_class(COMPACT_CLASS, update=False)
    return widget
