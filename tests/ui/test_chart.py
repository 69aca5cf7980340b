"""The charts' axes and legend: ticks at round values, the legend under the plot, and a
lone bar drawn as a bar (pure functions, then the widget drawn in a real app)."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.app import App, ComposeResult

from allfives_tui.locale import use_language
from allfives_tui.ui.widgets.chart import (
    ChartData,
    Series,
    SeriesChart,
    legend_rows,
    round_ticks,
    value_range,
)


@pytest.mark.parametrize(
    "low,high,ticks",
    [
        (0, 16.7, (0, 5, 10, 15, 20)),
        (0, 3.2, (0, 5, 10)),
        (-3.5, 35.6, (-10, 0, 10, 20, 30, 40)),
        (0, 65, (0, 25, 50, 75)),
        (0, 230, (0, 50, 100, 150, 200, 250)),
        (-12, -2, (-15, -10, -5, 0)),
        (0, 0, (0, 5, 10)),
    ],
)
def test_point_ticks_step_by_five_ten_or_twenty_five(
    low: float, high: float, ticks: tuple[int, ...]
) -> None:
    assert round_ticks(low, high) == ticks


@pytest.mark.parametrize(
    "high,ticks",
    [
        (1, (0, 1, 2)),
        (1.67, (0, 1, 2)),
        (5, (0, 1, 2, 3, 4, 5)),
        (6, (0, 2, 4, 6)),
        (15, (0, 5, 10, 15)),
        (40, (0, 10, 20, 30, 40)),
    ],
)
def test_game_counts_are_ticked_in_whole_numbers(high: float, ticks: tuple[int, ...]) -> None:
    assert round_ticks(0, high, counts=True) == ticks


def test_ticks_are_three_to_six_round_values_over_many_ranges() -> None:
    for counts, steps in ((False, (5, 10, 25, 50, 100, 250)), (True, (1, 2, 5, 10, 20, 50, 100))):
        for low in (0, -3, -17, -60):
            for tenths in range(0, 3000, 7):
                high = tenths / 10
                ticks = round_ticks(low, high, counts=counts)
                assert 3 <= len(ticks) <= 6, (low, high, ticks)
                assert ticks[0] <= low and ticks[-1] >= high
                step = ticks[1] - ticks[0]
                assert step in steps and all(t % step == 0 for t in ticks)
                assert 0 in ticks


def test_stacked_bars_are_ticked_to_their_totals() -> None:
    data = ChartData(
        "Results", ("01-05", "01-12"),
        (Series("won", (4.0, 1.0)), Series("lost", (2.0, 3.0)), Series("abandoned", (1.0, 0))),
        kind="stacked", counts=True,
    )
    assert value_range(data) == (0.0, 7.0)


def test_the_legend_is_one_row_when_it_fits_and_more_when_it_does_not() -> None:
    data = ChartData(
        "Scores", ("0", "1"),
        (Series("North and South", (0, 30)), Series("East and West", (0, 20)),
         Series("target 200", (200, 200))),
    )
    one = legend_rows(data, 80)
    assert [Text.from_ansi(r).plain for r in one] == [
        "▇▇ North and South   ▇▇ East and West   ▇▇ target 200"
    ]
    narrow = [Text.from_ansi(r).plain for r in legend_rows(data, 38)]
    assert narrow == ["▇▇ North and South   ▇▇ East and West", "▇▇ target 200"]
    assert all(len(r) <= 38 for r in narrow)
    lone = ChartData("Points", ("a",), (Series("net", (3.0,)),), kind="bar")
    assert legend_rows(lone, 80) == []


class _Charts(App[None]):
    def __init__(self, data: ChartData) -> None:
        super().__init__()
        self.data = data

    def compose(self) -> ComposeResult:
        yield SeriesChart(self.data)


async def _drawn(data: ChartData, size: tuple[int, int]) -> list[str]:
    app = _Charts(data)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        chart = app.query_one(SeriesChart)
        rendered = chart.render()
        assert isinstance(rendered, Text)
        lines = rendered.plain.split("\n")
        assert len(lines) == chart.size.height
        return lines


ONE_WEEK = ChartData(
    "Results over time", ("01-05",),
    (Series("won", (4.0,), "green"), Series("lost", (2.0,), "red"),
     Series("abandoned", (0.0,), "gray")),
    kind="stacked", counts=True,
)


@pytest.mark.parametrize("size", [(40, 12), (100, 30)])
async def test_one_week_is_a_bar_with_whole_ticks_and_the_legend_under_the_plot(
    size: tuple[int, int],
) -> None:
    lines = await _drawn(ONE_WEEK, size)
    assert lines[-1].split() == ["▇▇", "won", "▇▇", "lost", "▇▇", "abandoned"]
    plot = lines[:-1]
    assert "▇" not in "".join(plot)  # the legend is nowhere over the lines
    frame = next(i for i, line in enumerate(plot) if "┌" in line)
    inside = [line for line in plot[frame + 1 :] if "┤" in line or "│" in line[:4]]
    bar = [line.count("█") for line in inside if "█" in line]
    width = size[0]
    assert bar and max(bar) <= width // 4  # a bar among empty places, not a filled box
    labels = [line.split("┤")[0].strip() for line in plot if "┤" in line]
    assert labels == ["6", "4", "2", "0"]


async def test_points_are_ticked_in_round_values() -> None:
    data = ChartData(
        "Points a hand by opponent level", ("random", "greedy", "person"),
        (Series("net", (15.5, 32.5, 11.1)),), kind="bar",
    )
    lines = await _drawn(data, (40, 12))
    labels = [line.split("┤")[0].strip() for line in lines if "┤" in line]
    assert labels == ["40", "30", "20", "10", "0"]
    assert "▇" not in "".join(lines)  # one series: no legend


def test_a_short_plot_has_fewer_ticks_never_less_round() -> None:
    assert round_ticks(0, 15, counts=True, most=3) == (0, 10, 20)
    assert round_ticks(0, 36, most=3) == (0, 25, 50)
    assert round_ticks(0, 36, most=1) == (0, 50)


async def test_the_ticks_are_numbers_in_the_charts_language() -> None:
    """An Italian chart groups thousands as Italian does ("1.000", "2.500")."""
    data = ChartData("Points", ("a", "b"), (Series("net", (800.0, 2300.0)),), kind="bar")
    use_language("it")
    try:
        lines = await _drawn(data, (40, 14))
    finally:
        use_language("en")
    labels = [line.split("┤")[0].strip() for line in lines if "┤" in line]
    assert labels == ["2.500", "2.000", "1.500", "1.000", "500", "0"]
    english = await _drawn(data, (40, 14))
    assert next(line.split("┤")[0].strip() for line in english if "┤" in line) == "2,500"
