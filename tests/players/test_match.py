"""Headless matches and ``allfives sim`` (short, seeded: long matches live in benchmarks/)."""

from __future__ import annotations

import json

import pytest

from allfives_tui.cli import main
from engine.intervals import wilson
from engine.match import MatchConfig, percentile, play_game, run_match


def test_greedy_beats_random_over_fixed_seeded_deals() -> None:
    # 12 deals, each played from both seats: greedy wins about 99 % of such
    # games, so 20 of 24 cannot be luck (random would need p < 1e-4).
    result = run_match(MatchConfig(entrants=("greedy", "random"), games=24, seed=2024))
    greedy, rnd = result.sides
    assert greedy.games == rnd.games == 24
    assert greedy.wins + rnd.wins == 24
    assert greedy.wins >= 20
    assert greedy.points_per_hand > rnd.points_per_hand


def test_duplicate_deals_give_both_sides_the_same_tiles() -> None:
    config = MatchConfig(entrants=("greedy", "random"), games=2, seed=5)
    assert config.deals == 1 and config.rotations == 2
    # Each deal is played from both seats: side 0 sits at seat 0, then at seat 1.
    assert [config.entrant_of(s, 0) for s in range(2)] == [0, 1]
    assert [config.entrant_of(s, 1) for s in range(2)] == [1, 0]
    first = play_game(config, deal=0, rotation=0)
    second = play_game(config, deal=0, rotation=1)
    assert (first.deal, first.rotation, second.deal, second.rotation) == (0, 0, 0, 1)
    # Greedy gets the same tiles as random had: over the pair, both sides' seats
    # were dealt the same hands, so greedy's edge shows in both games.
    assert first.winner == 0 and second.winner == 0


def test_partnership_rotation_swaps_the_teams() -> None:
    config = MatchConfig(entrants=("heuristic", "greedy"), partnerships=True, games=2, seed=1)
    assert config.seats == 4 and config.rotations == 2
    assert [config.entrant_of(s, 0) for s in range(4)] == [0, 1, 0, 1]
    assert [config.entrant_of(s, 1) for s in range(4)] == [1, 0, 1, 0]
    result = run_match(config)
    assert len(result.games) == 2
    assert sum(s.wins for s in result.sides) == 2


def test_results_do_not_depend_on_worker_count() -> None:
    config = MatchConfig(entrants=("heuristic", "greedy"), games=4, seed=3)
    one = run_match(config, workers=1)
    two = run_match(config, workers=2)
    assert [g.winner for g in one.games] == [g.winner for g in two.games]
    assert [g.net_points for g in one.games] == [g.net_points for g in two.games]


def test_expert_match_is_reproducible_with_fixed_playouts() -> None:
    config = MatchConfig(
        entrants=("expert", "greedy"), games=2, seed=8, budget=None, playouts=24, target=100
    )
    a = run_match(config)
    b = run_match(config)
    assert [g.net_points for g in a.games] == [g.net_points for g in b.games]


def test_config_is_checked() -> None:
    with pytest.raises(ValueError, match="unknown computer level"):
        MatchConfig(entrants=("greedy", "wizard"))
    with pytest.raises(ValueError, match="2 to 4"):
        MatchConfig(entrants=("greedy",))
    with pytest.raises(ValueError, match="two levels"):
        MatchConfig(entrants=("greedy", "random", "greedy"), partnerships=True)


def test_statistics() -> None:
    low, high = wilson(95, 100)
    assert 0.88 < low < 0.90 and 0.97 < high < 0.99
    assert wilson(0, 0) == (0.0, 1.0)
    assert percentile([3.0, 1.0, 2.0, 4.0], 0.5) == 2.0
    assert percentile([float(i) for i in range(1, 101)], 0.95) == 95.0


def test_sim_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "greedy", "random", "-n", "4", "--workers", "1", "--seed", "4"]) == 0
    out, err = capsys.readouterr()
    assert "win rate" in out and "95% CI" in out and "median move" in out
    assert "greedy" in out and "random" in out
    assert "4/4 games" in err  # the progress bar


def test_sim_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["sim", "heuristic", "greedy", "--partnerships", "-n", "2", "-w", "1", "--json", "--quiet"]
    )
    assert code == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert err == ""
    assert data["config"]["players"] == 4 and data["config"]["partnerships"] is True
    assert data["config"]["target"] == 200
    sides = data["sides"]
    assert [s["level"] for s in sides] == ["heuristic", "greedy"]
    assert sum(s["wins"] for s in sides) == 2
    for side in sides:
        low, high = side["ci95"]
        assert 0 <= low <= side["win_rate"] <= high <= 1
        assert side["median_move_s"] <= side["p95_move_s"]


@pytest.mark.parametrize(
    "argv",
    [
        ["sim", "greedy"],
        ["sim", "greedy", "random", "--games", "0"],
        ["sim", "greedy", "wizard"],
        ["sim", "greedy", "random", "--target", "12"],
        ["sim", "greedy", "random", "--budget", "-1"],
        ["sim", "greedy", "random", "greedy", "--partnerships"],
        ["sim", "expert", "random", "--no-budget"],
    ],
)
def test_sim_bad_flags_fail_clearly(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    assert code == 2
    err = capsys.readouterr().err
    assert "error" in err


def test_sim_reports_the_search_effort_per_decision(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sim", "expert", "greedy", "-n", "2", "--target", "100", "--quiet"]
    assert main([*argv, "--playouts", "40", "--no-budget", "--json"]) == 0
    expert, greedy = json.loads(capsys.readouterr().out)["sides"]
    assert expert["searched_decisions"] > 5 and greedy["searched_decisions"] == 0
    # 40 playouts a decision, fewer where racing dropped an action after 16 worlds
    assert 32 <= expert["median_playouts"] <= 42
    assert 0 < expert["playouts_per_decision"] <= 42
    assert greedy["playouts_per_decision"] == 0
    assert main([*argv, "--playouts", "40", "--no-budget"]) == 0
    out = capsys.readouterr().out
    assert "playouts/decision" in out and "nodes/decision" in out
    assert "CPU time of the deciding thread" in out
