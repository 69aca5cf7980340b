"""A chart of one or more series: lines, bars or stacked bars (a Plotext plot).

:class:`SeriesChart` draws a :class:`ChartData` (a title, labels along the x
axis and named series of numbers) with :mod:`textual_plotext`, in the app's
theme. It knows nothing of games: the statistics screen gives it results week
by week and points a hand by opponents; the coach gives it scores move by move.
With no data it says so in the middle of the plot.

The values axis is marked at round values (:func:`round_ticks`), the legend is a
row of its own under the plot (never over the lines), and bars keep a bar's
width however few there are.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, cast

from plotext import _utility as plotext_utility  # type: ignore[import-untyped]
from rich.text import Text
from textual.app import RenderResult
from textual.reactive import reactive
from textual_plotext import PlotextPlot

from allfives_tui.locale import _, formats


def _no_duplicates(data: Iterable[Any]) -> list[Any]:
    """``data`` without repeats, in its order."""
    return list(dict.fromkeys(data))


# Plotext drops repeated points and labels through a set, so where two labels meet the
# one drawn last (and a chart's look) changed with the interpreter's hash seed: the
# same, in the data's order.
plotext_utility.no_duplicates = _no_duplicates

ChartKind = Literal["line", "bar", "stacked"]
"""How the series are drawn: lines, bars side by side, or bars stacked."""

MAX_TICKS = 8
"""At most this many labels along the x axis (every n-th label shows)."""

POINT_STEPS = (5, 10, 25)
"""The steps between ticks of points (then ten times them, and so on)."""
COUNT_STEPS = (1, 2, 5)
"""The steps between ticks of counts (then ten times them, and so on)."""
FEWEST_TICKS, MOST_TICKS = 3, 6
"""How many ticks the values axis has."""
BAR_WIDTH = 0.6
"""A bar's width, as a share of the room between two bars."""
MIN_PLOT_ROWS = 6
"""The legend gives way when the plot would have fewer rows than this."""
BAR_SLOTS = 5
"""Bars take the room of at least this many (empty places either side), so a lone bar
stays a bar."""
LEGEND_MARK = "▇▇"
"""The coloured mark before a series' name in the legend."""
LEGEND_GAP = 3
"""Blank cells between two series in the legend."""


@dataclass(frozen=True, slots=True)
class Series:
    """One named run of values, one per x label."""

    label: str
    values: tuple[float, ...]
    color: str | None = None
    """A Plotext colour name ("green", "red"…), or the chart's next colour."""


@dataclass(frozen=True, slots=True)
class ChartData:
    """What a chart shows."""

    title: str
    x_labels: tuple[str, ...]
    series: tuple[Series, ...]
    kind: ChartKind = "line"
    y_label: str = ""
    counts: bool = False
    """The values are counts (games): the ticks are whole numbers (else points)."""
    empty: str = ""
    """Said in the middle of the chart when there is no value to draw (by default,
    that there is nothing to show yet)."""

    @property
    def is_empty(self) -> bool:
        """True when there is no value to draw."""
        return not self.x_labels or not any(s.values for s in self.series)


def thin_ticks(labels: tuple[str, ...], most: int = MAX_TICKS) -> tuple[list[float], list[str]]:
    """Tick positions (1-based) and labels for at most ``most`` of ``labels``, evenly."""
    if not labels:
        return [], []
    step = max(1, -(-len(labels) // most))
    keep = list(range(0, len(labels), step))
    return [float(i + 1) for i in keep], [labels[i] for i in keep]


def _steps(counts: bool) -> Iterator[int]:
    """The steps between ticks, smallest first: 5, 10, 25, 50… (counts: 1, 2, 5, 10…)."""
    scale = 1
    while True:
        for step in COUNT_STEPS if counts else POINT_STEPS:
            yield step * scale
        scale *= 10


def round_ticks(
    low: float, high: float, *, counts: bool = False, most: int = MOST_TICKS
) -> tuple[int, ...]:
    """Three to six (at most ``most``) ticks at round values from at most ``low`` (or 0)
    to at least ``high`` (or 0): points in 5s, 10s or 25s (50s, 100s… for larger ranges),
    counts in 1s, 2s or 5s (10s, 20s…), the smallest step that needs no more than that;
    a range too small for three ticks of the smallest step is widened upwards (downwards
    when it is all below zero)."""
    most = max(2, min(most, MOST_TICKS))
    low, high = min(low, high, 0.0), max(low, high, 0.0)
    for step in _steps(counts):
        first = math.floor(low / step)
        last = math.ceil(high / step)
        if last - first + 1 <= most:
            break
    while last - first + 1 < min(FEWEST_TICKS, most):
        if high <= 0 < -low:
            first -= 1
        else:
            last += 1
    return tuple(step * n for n in range(first, last + 1))


def value_range(data: ChartData) -> tuple[float, float]:
    """The lowest and highest value the chart draws (stacked bars: their totals)."""
    if data.kind == "stacked":
        columns = list(zip(*(s.values for s in data.series), strict=False))
        return (0.0, max((sum(c) for c in columns), default=0.0))
    values = [v for s in data.series for v in s.values]
    return (min(values, default=0.0), max(values, default=0.0))


def legend_rows(data: ChartData, width: int) -> list[str]:
    """The legend, each series' colour mark and name, in as few rows of ``width`` cells as
    hold it (a name longer than a row has a row of its own); none for a lone series."""
    if len(data.series) < 2 or data.is_empty:
        return []
    rows: list[list[Series]] = [[]]
    used = 0
    for s in data.series:
        size = len(LEGEND_MARK) + 1 + len(s.label)
        if rows[-1] and used + LEGEND_GAP + size > width:
            rows.append([])
            used = 0
        used += (LEGEND_GAP if rows[-1] else 0) + size
        rows[-1].append(s)
    return [
        (" " * LEGEND_GAP).join(
            plotext_utility.colorize(LEGEND_MARK, s.color or "default") + " " + s.label for s in row
        )
        for row in rows
    ]


class SeriesChart(PlotextPlot):
    """A plot of :class:`ChartData` (set :attr:`data`, or call :meth:`show`); blank
    until it has some."""

    DEFAULT_CSS = """
    SeriesChart {
        width: 1fr;
        height: 1fr;
        min-height: 6;
    }
    """

    data: reactive[ChartData | None] = reactive(None)

    def __init__(
        self,
        data: ChartData | None = None,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.set_reactive(SeriesChart.data, data)

    def show(self, data: ChartData | None) -> None:
        """Draw ``data`` instead."""
        self.data = data

    def render(self) -> RenderResult:
        """Lay the data out on the plot, let Plotext draw it, and put the legend under it."""
        data = self.data
        if data is None:
            return Text()  # nothing to draw yet (the figures are still coming): no Plotext pass
        width, height = self.size
        legend = legend_rows(data, width)
        if height - len(legend) < MIN_PLOT_ROWS:
            legend = []
        plot_height = height - len(legend)
        self._lay_out(data, plot_height)
        plot = self._plot
        plot.plotsize(width, plot_height)
        plot._set_size(width, plot_height)  # as PlotextPlot.render does
        plot.theme(self._get_plotext_theme_name(self.app.theme))
        text = Text.from_ansi(plot.build().rstrip("\n"))
        if legend:
            background = self.app.theme_variables.get("surface", "")
            for row in legend:
                line = Text.from_ansi(row)
                pad = max(0, width - line.cell_len)
                line = Text(" " * (pad // 2)) + line + Text(" " * (pad - pad // 2))
                line.stylize(f"on {background}" if background else "")
                text.append("\n")
                text.append(line)
        return text

    def _lay_out(self, data: ChartData, plot_height: int) -> None:
        """Give Plotext the title, the series and the axes' ticks, for a plot
        ``plot_height`` rows high."""
        plt = self.plt
        bars = cast(Any, plt)  # the bundled stub says label=/one colour; Plotext takes labels=
        plt.clear_figure()
        plt.title(data.title)
        if data.is_empty:
            plt.xticks([], [])
            plt.yticks([], [])
            plt.text(data.empty or _("nothing to show yet"), 0.5, 0.5, alignment="center")
            plt.xlim(0, 1)
            plt.ylim(0, 1)
            return
        count = len(data.x_labels)
        # bars among empty places (at least BAR_SLOTS), so a lone week's bar is a bar,
        # not a box filling the chart
        before = max(0, BAR_SLOTS - count) // 2 if data.kind != "line" else 0
        slots = max(count, BAR_SLOTS) if data.kind != "line" else count
        xs = [float(x) for x in range(1, slots + 1)]
        colors = [s.color or "default" for s in data.series]
        values = [
            [0.0] * before + list(s.values) + [0.0] * (slots - before - count)
            for s in data.series
        ]
        if data.kind == "line":
            for s, color in zip(values, colors, strict=True):
                plt.plot(xs, s, color=color, marker="braille")
        elif data.kind == "stacked":
            bars.stacked_bar(xs, values, color=colors, width=BAR_WIDTH)
        elif len(values) == 1:
            plt.bar(xs, values[0], color=colors[0], width=BAR_WIDTH)
        else:
            bars.multiple_bar(xs, values, color=colors)
        ticks, shown = thin_ticks(data.x_labels)
        plt.xticks([t + before for t in ticks], shown)
        low, high = value_range(data)
        # no more ticks than the plot has rows (the title, the frame and the x labels
        # take four, a y label one more), so that none is dropped
        rows = plot_height - 4 - (1 if data.y_label else 0)
        yticks = round_ticks(low, high, counts=data.counts, most=rows)
        plt.ylim(yticks[0], yticks[-1])
        plt.yticks([float(t) for t in yticks], [formats.number(t) for t in yticks])
        if data.y_label:
            plt.ylabel(data.y_label)

    def watch_data(self) -> None:
        self.refresh()
