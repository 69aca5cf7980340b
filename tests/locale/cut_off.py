"""Messages cut off on screen, in any language: each widget's words shown whole.

:func:`cut_off` asks every text widget of the screen on top for its whole content (its
render at its width, with no limit of height) and compares it with what the screen shows
in the widget's visible content region: a word the widget holds but the screen does not
show, or an ellipsis that only the widget's width put there, is a message cut off. It
needs no markers, so it holds for the real catalogs as for English and the pseudo-locale
(whose markers :func:`markers_cut` reads, per widget). Widgets drawn line by line (the
board, the hand, the log) and those that scroll are not text widgets; for the pseudo-locale
:func:`markers_cut` covers them.
"""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.errors import NoWidget
from textual.geometry import Region
from textual.visual import Visual
from textual.widget import Widget

from tests.locale.pseudo import CLOSE, OPEN
from tests.ui.helpers import screen_text

WIDE = 1000
"""A width no message fills: a widget's content rendered this wide shows no ellipsis of
its own width's making."""
ELLIPSIS = "…"


def _squeezed(text: str) -> str:
    return "".join(text.split())


def _leaves(app: App[Any]) -> list[tuple[Widget, Region]]:
    """Every widget of the screen on top without children, with the part of its content
    region the screen shows (widgets not shown left out)."""
    screen = app.screen
    found = []
    for widget in screen.query("*"):
        if widget.children or not widget.display:
            continue
        try:
            geometry = screen.find_widget(widget)
        except NoWidget:
            continue
        shown = widget.content_region.intersection(geometry.visible_region)
        if shown.area:
            found.append((widget, shown))
    return found


def _scrolls(widget: Widget) -> bool:
    """The widget, or a container it is in, scrolls: what lies beyond is not cut off."""
    return any(
        isinstance(node, Widget) and (node.allow_vertical_scroll or node.allow_horizontal_scroll)
        for node in (widget, *widget.ancestors)
    )


def _drawn_by_lines(widget: Widget) -> bool:
    return type(widget).render_line is not Widget.render_line


def _shown(rows: list[str], region: Region) -> str:
    return "\n".join(row[region.x : region.right] for row in rows[region.y : region.bottom])


def cut_off(app: App[Any]) -> list[str]:
    """The text widgets of the screen on top whose content the screen does not show whole:
    one line each, naming the widget, its content and what shows of it."""
    rows = screen_text(app).split("\n")
    found = []
    for widget, region in _leaves(app):
        if _drawn_by_lines(widget) or _scrolls(widget):
            continue
        visual = widget._render()
        style = widget.visual_style
        width = widget.size.width
        whole = "\n".join(
            strip.text for strip in Visual.to_strips(widget, visual, width, None, style)
        )
        wide = "".join(strip.text for strip in Visual.to_strips(widget, visual, WIDE, None, style))
        shown = _shown(rows, region)
        if _squeezed(shown) != _squeezed(whole) or whole.count(ELLIPSIS) > wide.count(ELLIPSIS):
            found.append(f"{widget!r} holds {whole.strip()!r} but shows {shown.strip()!r}")
    return found


def markers_cut(app: App[Any]) -> list[str]:
    """Under the pseudo-locale, the widgets of the screen on top that show a message cut
    off: a marker left open, or (where the widget does not scroll) a closing marker
    without its opening one. One line each, naming the widget and what it shows."""
    rows = screen_text(app).split("\n")
    found = []
    for widget, region in _leaves(app):
        shown = _shown(rows, region)
        depth, unopened = 0, False
        for ch in shown:
            depth += (ch == OPEN) - (ch == CLOSE)
            if depth < 0:
                unopened, depth = True, 0
        # a log scrolled to its end shows its first entry's end, not its beginning
        if depth or (unopened and not _scrolls(widget)):
            found.append(f"{widget!r} shows {shown.strip()!r}")
    return found
