"""A chart of one or more series: lines, bars or stacked bars (a Plotext plot).

:class:`SeriesChart` draws a :class:`ChartData` (a title, labels along the x
axis and named series of numbers) with :mod:`textual_plotext`, in the app's
theme. It knows nothing of games: the statistics screen gives it results week
by week and points a hand by opponents; the coach gives it scores move by move.
With no data it says so in the middle of the plot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, cast

from rich.text import Text
from textual.app import RenderResult
from textual.reactive import reactive
from textual_plotext import PlotextPlot

from allfives_tui.locale import _

ChartKind = Literal["line", "bar", "stacked"]
"""How the series are drawn: lines, bars side by side, or bars stacked."""

MAX_TICKS = 8
"""At most this many labels along the x axis (every n-th label shows)."""


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
        """Lay the data out on the plot, then let Plotext draw it."""
        data = self.data
        if data is None:
            return Text()  # nothing to draw yet (the figures are still coming): no Plotext pass
        plt = self.plt
        bars = cast(Any, plt)  # the bundled stub says label=/one colour; Plotext takes labels=
        plt.clear_figure()
        if data.is_empty:
            plt.title(data.title)
            plt.xticks([], [])
            plt.yticks([], [])
            plt.text(data.empty or _("nothing to show yet"), 0.5, 0.5, alignment="center")
            plt.xlim(0, 1)
            plt.ylim(0, 1)
            return super().render()
        plt.title(data.title)
        xs = [float(x) for x in range(1, len(data.x_labels) + 1)]
        names = [s.label for s in data.series]
        colors = [s.color or "default" for s in data.series]
        values = [list(s.values) for s in data.series]
        if data.kind == "line":
            for s, color in zip(data.series, colors, strict=True):
                plt.plot(xs, list(s.values), label=s.label, color=color, marker="braille")
            ticks, shown = thin_ticks(data.x_labels)
            plt.xticks(ticks, shown)
        elif data.kind == "stacked":
            bars.stacked_bar(list(data.x_labels), values, labels=names, color=colors, width=0.6)
            ticks, shown = thin_ticks(data.x_labels)
            plt.xticks(ticks, shown)
        elif len(values) == 1:
            plt.bar(list(data.x_labels), values[0], color=colors[0], width=0.6)
        else:
            bars.multiple_bar(list(data.x_labels), values, labels=names, color=colors)
        if data.y_label:
            plt.ylabel(data.y_label)
        return super().render()

    def watch_data(self) -> None:
        self.refresh()
