"""The coach's hints: the order they are shown in, and their CPU-time budget."""

from __future__ import annotations

import threading
import time

from allfives_tui.coach import ratings
from allfives_tui.coach.ratings import Decision, Option, hint, shown_order
from allfives_tui.ui.widgets.hint import hint_text
from engine import parse_action, to_text
from engine.players.evaluate import ActionValue
from tests.coach.helpers import short_game


def _decision(index: int) -> Decision:
    return next(d for d in ratings.decisions(short_game(), 0) if d.index == index)


def _shown(value: ActionValue) -> tuple[int, float]:
    return round(100 * value.win), round(value.points, 1)


def test_options_shown_alike_in_win_chance_go_by_expected_points() -> None:
    # seat 0's decision at frame 11 of the short game: two options both show 54%
    values = hint(_decision(11).view, playouts=200, budget=60.0)
    shown = [_shown(v) for v in values]
    assert shown == sorted(shown, reverse=True)
    wins = [w for w, _ in shown]
    assert len(set(wins)) < len(wins), "a tie in the win chance shown"
    lines = str(hint_text([Option.of(v) for v in values])).splitlines()[1:]
    assert [line[2:9].strip() for line in lines] == [
        to_text(v.action) for v in values[: len(lines)]
    ]


def test_the_hint_orders_ties_by_what_the_panel_shows() -> None:
    def value(text: str, win: float, points: float) -> ActionValue:
        return ActionValue(parse_action(text), win, 0.01, points, 0.1, 100)

    given = (
        value("6-6 E", 0.601, 1.0),
        value("5-5 W", 0.598, 2.5),
        value("draw", 0.700, -1.0),
        value("4-4 N", 0.602, 1.0),
    )
    lines = str(hint_text([Option.of(v) for v in shown_order(given)])).splitlines()[1:]
    assert [line[2:9].strip() for line in lines] == ["draw", "5-5 W", "6-6 E"]
    assert lines[0].startswith("▶ ")
    # options shown exactly alike keep the search's order
    assert [to_text(v.action) for v in shown_order(given)][2:] == ["6-6 E", "4-4 N"]


def test_a_hint_keeps_its_cpu_budget_with_a_huge_playout_count() -> None:
    view = _decision(7).view
    assert len(view.legal_actions()) > 2
    budget = 0.05
    spent: list[float] = []

    def think() -> None:
        start = time.thread_time()
        hint(view, playouts=10**6, budget=budget)
        spent.append(time.thread_time() - start)

    thread = threading.Thread(target=think, daemon=True)
    thread.start()
    thread.join(timeout=120)  # a bound for a hint that ignores its budget, not a pace
    assert spent, "the hint ran on past its budget"
    assert spent[0] < budget + 0.5, f"{spent[0]:.3f} CPU s for a {budget} s budget"
