"""The statistics equal an independent recomputation from the stored records, over a few
hundred random games (2-4 players, partnerships, other people at the table, abandoned
games), with and without filters."""

from __future__ import annotations

import itertools
import math
import random
from collections import defaultdict
from datetime import date, timedelta
from pathlib import Path

import pytest

from allfives_tui.store.history import History
from allfives_tui.store.stats import Filters, empty, query
from engine import GameOver, HandOver, Placed
from engine.intervals import Z95, wilson
from engine.record import GameRecord
from tests.store.games import random_game
from tests.store.oracle import compute

GAMES = 300


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("stats") / "history.sqlite"
    rng = random.Random(18)
    with History(path) as history:
        for i in range(GAMES):
            history.record(random_game(rng, i))
    return path


def _expected(records: list[GameRecord], name: str, keep: Filters) -> dict[str, object]:
    """The statistics worked out again from the records alone, by replaying them."""
    rows = []
    for record in records:
        seat = next((i for i, s in enumerate(record.seats)
                     if s.name == name and s.kind == "person"), None)
        if seat is None:
            continue
        rules = record.rules
        team = seat % 2 if rules.partnerships else seat
        opponents = [
            (s.level if s.kind == "computer" else s.kind)
            for i, s in enumerate(record.seats) if (i % 2 if rules.partnerships else i) != team
        ]
        day = date.fromisoformat(str(record.created)[:10])
        if keep.level and keep.level not in opponents:
            continue
        if keep.players and rules.players != keep.players:
            continue
        if (keep.since and day < keep.since) or (keep.until and day > keep.until):
            continue
        side = [i for i in range(rules.players)
                if (i % 2 if rules.partnerships else i) == team]
        hand_nets: list[int] = []  # the side's, as the scoreboard counts them
        scored = 0
        winner = None
        for step in record.steps():
            if step.move == 0:
                scored = 0
            for e in step.events:
                if isinstance(e, Placed) and e.seat in side:
                    scored += e.points
                if isinstance(e, HandOver):
                    hand_nets.append(scored - sum(e.penalties[i] for i in side))
                    scored = -10**9  # this hand is counted
                if isinstance(e, GameOver):
                    winner = e.winner
                    if scored > -10**9:
                        hand_nets.append(scored)
        rows.append((record.created, winner, team, hand_nets, record.game_id))
    rows.sort(key=lambda r: str(r[0]))
    finished = [r for r in rows if r[1] is not None]
    wins = [r for r in finished if r[1] == r[2]]
    nets = [n for r in rows for n in r[3]]
    streak = best_streak = 0
    for r in finished:
        streak = streak + 1 if r[1] == r[2] else 0
        best_streak = max(best_streak, streak)
    return {
        "games": len(rows),
        "finished": len(finished),
        "wins": len(wins),
        "hands": len(nets),
        "net": sum(nets),
        "best": max(nets) if nets else None,
        "streak": best_streak,
    }


def _interval(wins: int, n: int) -> tuple[float, float]:
    """The Wilson interval as the roots of (p - p̂)² = z² p (1 - p) / n."""
    z2 = 1.959963984540054**2
    ph = wins / n
    a, b, c = 1 + z2 / n, -(2 * ph + z2 / n), ph * ph
    root = math.sqrt(max(0.0, b * b - 4 * a * c))
    return ((-b - root) / (2 * a), (-b + root) / (2 * a))


@pytest.mark.parametrize(
    "keep",
    [
        Filters(),
        Filters(level="random"),
        Filters(players=2),
        Filters(players=4, level="greedy"),
        Filters(since=date(2026, 1, 20), until=date(2026, 2, 28)),
    ],
    ids=["all", "vs-random", "2p", "4p-greedy", "dates"],
)
def test_statistics_equal_a_recomputation_from_the_records(stored: Path, keep: Filters) -> None:
    with History(stored) as history:
        records = [history.load(g.game_id).record for g in history.games()]
        games = history.player_games("You")
    assert len(records) == GAMES
    stats = compute(games, "You", keep)
    want = _expected(records, "You", keep)
    assert isinstance(want["games"], int)
    assert want["games"] > 20  # the filter keeps enough to mean something
    got = {
        "games": stats.games, "finished": stats.finished, "wins": stats.wins,
        "hands": stats.hands, "net": stats.net,
        "best": stats.best.net if stats.best else None, "streak": stats.streak,
    }
    assert got == want
    assert stats.abandoned == stats.games - stats.finished
    if stats.finished:
        assert stats.rate == pytest.approx(stats.wins / stats.finished)
        assert (stats.low, stats.high) == pytest.approx(_interval(stats.wins, stats.finished))
    assert sum(g.games for g in stats.groups) == stats.games
    assert sum(g.wins for g in stats.groups) == stats.wins
    assert sum(w.wins + w.losses + w.abandoned for w in stats.weeks) == stats.games
    assert stats.per_hand == pytest.approx(stats.net / stats.hands)


@pytest.mark.parametrize(
    "keep",
    [
        Filters(),
        Filters(level="random"),
        Filters(level="person", players=3),
        Filters(players=4),
        Filters(since=date(2026, 1, 20), until=date(2026, 2, 28)),
        Filters(until=date(2026, 1, 4)),
    ],
)
def test_the_database_works_out_the_same_statistics(stored: Path, keep: Filters) -> None:
    with History(stored) as history:
        games = history.player_games("You")
        assert query(history, "You", keep) == compute(games, "You", keep)
        guest = history.player_games("Guest0")
        assert query(history, "Guest0", keep) == compute(guest, "Guest0", keep)


def test_the_database_statistics_in_another_time_zone(
    stored: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    monkeypatch.setenv("TZ", "Pacific/Auckland")
    time.tzset()
    keep = Filters(since=date(2026, 1, 10), until=date(2026, 1, 31))
    with History(stored) as history:
        want = compute(history.player_games("You"), "You", keep)
        assert query(history, "You", keep) == want
    assert want.weeks and all(w.start.weekday() == 0 for w in want.weeks)


def test_each_group_equals_a_recomputation(stored: Path) -> None:
    with History(stored) as history:
        records = {g.game_id: history.load(g.game_id).record for g in history.games()}
        games = history.player_games("You")
    stats = compute(games, "You")
    by_label: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for g in games:
        record = records[g.game_id]
        final = record.final_state()
        rules = record.rules
        others = sorted(
            (s.level if s.kind == "computer" else s.kind) or ""
            for i, s in enumerate(record.seats)
            if i and rules.team_of(i) != rules.team_of(0)
        )
        label = f"{rules.players}p vs {'+'.join(others)}"
        if rules.partnerships:
            mate = record.seats[2]
            label = f"{rules.players}p with {mate.level or mate.kind} vs {'+'.join(others)}"
        c = by_label[label]
        c[0] += 1
        c[1] += final.is_terminal
        c[2] += final.is_terminal and final.winner == rules.team_of(0)
    assert {g.label: [g.games, g.finished, g.wins] for g in stats.groups} == dict(by_label)
    assert any("with" in g.label for g in stats.groups)  # partnerships are there


def test_another_person_at_the_table_has_their_own_statistics(stored: Path) -> None:
    with History(stored) as history:
        people = history.people()
        assert people[0] == "You" and "Guest0" in people
        guest = compute(history.player_games("Guest0"), "Guest0")
        records = [history.load(g.game_id).record for g in history.games()]
    assert guest.games == _expected(records, "Guest0", Filters())["games"]


def test_points_a_hand_by_opponent_level_equal_a_recomputation(stored: Path) -> None:
    with History(stored) as history:
        records = [history.load(g.game_id).record for g in history.games()]
        stats = compute(history.player_games("You"), "You")
    by = {p.level: (p.games, p.hands) for p in stats.by_level}
    for level in ("random", "greedy", "person"):
        mine = [r for r in records if any(
            (s.level if s.kind == "computer" else s.kind) == level
            for i, s in enumerate(r.seats) if r.rules.team_of(i) != r.rules.team_of(0))]
        want = _expected(mine, "You", Filters())
        assert by[level] == (want["games"], want["hands"])
    per = {p.level: p.per_hand for p in stats.by_level}
    assert list(per) == ["random", "greedy", "person"]  # weakest level first
    assert sum(p.wins + p.losses + p.abandoned for p in stats.periods(5)) == stats.games
    assert len(stats.periods(5)) <= 5


def test_wilson_interval_edges() -> None:
    assert wilson(0, 0, Z95) == (0.0, 1.0)
    low, high = wilson(10, 10, Z95)
    assert high == pytest.approx(1.0) and 0.69 < low < 0.73
    low, high = wilson(50, 100, Z95)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)


def test_games_per_week_and_weeks(stored: Path) -> None:
    with History(stored) as history:
        stats = compute(history.player_games("You"), "You")
    assert stats.first is not None and stats.last is not None
    days = (stats.last - stats.first).days + 1
    assert stats.per_week == pytest.approx(stats.games / (days / 7))
    mondays = [w.start for w in stats.weeks]
    assert all(d.weekday() == 0 for d in mondays)
    assert all(b - a == timedelta(days=7) for a, b in itertools.pairwise(mondays))


def test_no_games_give_the_empty_statistics(tmp_path: Path) -> None:
    keep = Filters(level="greedy")
    with History(tmp_path / "history.sqlite") as history:
        assert query(history, "You", keep) == empty("You", keep) == compute([], "You", keep)
