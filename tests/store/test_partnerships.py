"""Partnership games in the history: both partners share their side's result and its
points, as the scoreboard counted them, in the stored rows, in each person's win rate
and points a hand, and in a history upgraded from an older schema."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from allfives_tui.store.history import History
from allfives_tui.store.recorder import record_game
from allfives_tui.store.stats import query
from engine import GameOver, HandOver
from engine.record import GameRecord, Seat
from tests.store.games import play
from tests.store.oracle import compute
from tests.store.test_migrations import FIXTURE, _copy

PEOPLE = (Seat(name="Ana"), Seat(name="Bo"), Seat(name="Cy"), Seat(name="Di"))
"""Four people at one table (hot seat): seats 0 and 2 against seats 1 and 3."""


def _won_by(team: int) -> GameRecord:
    """The first partnership game of the seeds 1, 2, ... that ``team`` wins."""
    for seed in range(1, 100):
        record = play(PEOPLE, seed, partnerships=True, target=100)
        if record.final_state().winner == team:
            return record
    raise AssertionError(f"no game won by team {team}")


def _side_hands(record: GameRecord) -> list[tuple[int, int]]:
    """Each counted hand's net points of team 0 and team 1, from the scoreboard's totals."""
    before = (0, 0)
    out = []
    for step in record.steps():
        ended = False
        for event in step.events:
            if isinstance(event, HandOver) or (isinstance(event, GameOver) and not ended):
                after = (event.scores[0], event.scores[1])
                out.append((after[0] - before[0], after[1] - before[1]))
                before = after
            ended = isinstance(event, HandOver)
    return out


@pytest.fixture
def game(data_dir: Path) -> GameRecord:
    record = _won_by(0)
    assert record_game(record).recorded
    return record


def test_both_partners_of_the_winning_side_count_a_win_and_the_others_a_loss(
    game: GameRecord,
) -> None:
    with History() as history:
        rows = history.conn.execute("SELECT seat, team, won FROM seats ORDER BY seat").fetchall()
        assert rows == [(0, 0, 1), (1, 1, 0), (2, 0, 1), (3, 1, 0)]
        for name, won in (("Ana", True), ("Bo", False), ("Cy", True), ("Di", False)):
            for stats in (query(history, name), compute(history.player_games(name), name)):
                assert (stats.games, stats.finished) == (1, 1)
                assert stats.wins == int(won)
                assert stats.rate == (1.0 if won else 0.0)
                assert stats.streak == int(won)
                assert [(g.games, g.wins) for g in stats.groups] == [(1, int(won))]
            assert [g.won for g in history.player_games(name)] == [won]


def test_a_partner_s_points_are_the_side_s_net_points_as_the_scoreboard_showed(
    game: GameRecord,
) -> None:
    final = game.final_state().scores
    hands = _side_hands(game)
    assert sum(h[0] for h in hands) == final[0] and sum(h[1] for h in hands) == final[1]
    with History() as history:
        for seat, name in enumerate(("Ana", "Bo", "Cy", "Di")):
            team = seat % 2
            nets = [h[team] for h in hands]
            for stats in (query(history, name), compute(history.player_games(name), name)):
                assert stats.net == final[team]
                assert stats.hands == len(hands)
                assert stats.per_hand == pytest.approx(final[team] / len(hands))
                assert stats.best is not None and stats.best.net == max(nets)
                assert [g.net for g in stats.groups] == [final[team]]
                assert [p.hands for p in stats.by_level] == [len(hands)]
            (game_row,) = history.player_games(name)
            assert game_row.points - game_row.penalties == game_row.score == final[team]


def test_an_older_history_s_partnership_rows_become_the_side_s(tmp_path: Path) -> None:
    old = _copy(FIXTURE, tmp_path / "old")
    conn = sqlite3.connect(old)
    (key,) = conn.execute("SELECT id FROM games WHERE partnerships = 1").fetchone()
    solo_before = conn.execute(
        "SELECT game, seat, points, penalties, best, hands FROM seats WHERE game != ? "
        "ORDER BY game, seat", (key,)).fetchall()
    conn.close()
    with History(old) as history:
        game_id = history.conn.execute(
            "SELECT game_id FROM games WHERE id = ?", (key,)).fetchone()[0]
        record = history.load(game_id).record
        upgraded = history.conn.execute(
            "SELECT seat, points, penalties, best, hands, score FROM seats WHERE game = ? "
            "ORDER BY seat", (key,)).fetchall()
        solo_after = history.conn.execute(
            "SELECT game, seat, points, penalties, best, hands FROM seats WHERE game != ? "
            "ORDER BY game, seat", (key,)).fetchall()
    assert solo_after == solo_before  # games without partners are as they were
    with History(tmp_path / "new" / "history.sqlite") as fresh:
        fresh.record(record)
        written = fresh.conn.execute(
            "SELECT seat, points, penalties, best, hands, score FROM seats ORDER BY seat"
        ).fetchall()
    assert upgraded == written  # the same figures as a game recorded today
    final = record.final_state().scores
    hands = _side_hands(record)
    for seat, points, penalties, best, counted, score in upgraded:
        team = seat % 2
        assert points - penalties == score == final[team]
        assert best == max(h[team] for h in hands) and counted == len(hands)
