"""``allfives stats``, ``allfives history``, ``history import`` and ``replay --last/--game``,
run as commands in new processes against a real history; ``sim`` never records."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from allfives_tui.store.history import History, history_path
from engine.record import Seat
from tests.cli.helpers import PARSER_MODULES, PROBE
from tests.store.games import T0, play, random_game
from tests.store.oracle import compute

ROOT = Path(__file__).resolve().parents[2]
SEATS = (Seat(name="You"), Seat(name="North", kind="computer", level="greedy"))


def _run(*argv: str, data: Path, columns: int = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ALLFIVES_DATA_DIR": str(data), "TZ": "UTC", "COLUMNS": str(columns)}
    return subprocess.run(
        [sys.executable, "-m", "allfives_tui", *argv],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=120, check=False,
    )


@pytest.fixture
def filled(data_dir: Path) -> Path:
    rng = random.Random(4)
    with History() as h:
        for i in range(30):
            h.record(random_game(rng, i, person=None), now=T0)  # the first person unnamed
    return data_dir


@pytest.mark.parametrize("argv", [["stats"], ["history"], ["stats", "--json"]])
def test_stats_and_history_load_no_textual_and_no_other_command(
    argv: list[str], filled: Path
) -> None:
    env = {**os.environ, "ALLFIVES_DATA_DIR": str(filled)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=120, check=False,
    )
    report = json.loads(done.stderr.splitlines()[-1])
    assert report["status"] == 0
    assert report["loaded"] == sorted([*PARSER_MODULES, f"allfives_tui.cli.{argv[0]}"])


@pytest.mark.parametrize(
    "argv", [["history"], ["history", "--json"], ["stats"], ["stats", "--json"]]
)
def test_a_reader_that_goes_away_ends_the_command_quietly(
    argv: list[str], filled: Path
) -> None:
    """``allfives history --json | head -1``: no traceback when the pipe closes."""
    env = {**os.environ, "ALLFIVES_DATA_DIR": str(filled)}
    child = subprocess.Popen(
        [sys.executable, "-m", "allfives_tui", *argv], cwd=ROOT, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert child.stdout is not None
    child.stdout.close()  # gone before the command writes a line
    _, errors = child.communicate(timeout=120)
    assert child.returncode == 1
    assert errors == ""


def test_stats_json_equals_the_statistics(filled: Path) -> None:
    done = _run("stats", "--json", data=filled)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    with History() as h:
        want = compute(h.player_games("south"), "south").to_json()
    assert {k: v for k, v in data.items() if k != "people"} == json.loads(json.dumps(want))
    assert data["people"][0] == "south"  # the default name's place code: language-neutral


def test_stats_fit_80_columns_a_row_a_group_and_one_game_is_one(filled: Path) -> None:
    done = _run("stats", data=filled, columns=80)
    assert done.returncode == 0, done.stderr
    with History() as h:
        stats = compute(h.player_games("south"), "south")
    lines = done.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), lines
    table = lines[1 : 3 + len(stats.groups)]  # the header, a row a group, "all"
    assert table[0].split()[0] == "Opponents" and table[-1].split()[0] == "all"
    for row, group in zip(table[1:-1], stats.groups, strict=True):
        assert row.startswith(group.label + " "), row  # the whole label, on its row
    assert len(lines) == 3 + len(stats.groups) + 3  # title, header, rows, all, 3 lines
    one = filled / "one"
    one.mkdir()
    with History(history_path(one)) as h1:
        h1.record(play((Seat(), *SEATS[1:]), 3), now=T0)  # the first person unnamed
    done = _run("stats", data=one, columns=80)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("South: 1 game (1 finished, 0 abandoned)")
    assert "1 games" not in done.stdout


def test_stats_table_and_filters(filled: Path) -> None:
    done = _run("stats", data=filled)
    assert done.returncode == 0, done.stderr
    with History() as h:
        stats = compute(h.player_games("south"), "south")
    assert done.stdout.startswith(f"South: {stats.games} games")
    assert "95% CI" in done.stdout and stats.groups[0].label in done.stdout
    assert f"Longest winning streak {stats.streak}" in done.stdout
    two = json.loads(_run("stats", "--json", "--players", "2", data=filled).stdout)
    assert 0 < two["games"] < stats.games
    dated = json.loads(
        _run("stats", "--json", "--since", "2026-01-10", "--until", "2026-01-12",
             data=filled).stdout)
    assert 0 < dated["games"] <= 8
    guest = _run("stats", "--player", "Guest0", data=filled)
    assert guest.stdout.startswith("Guest0: ")
    by_place = _run("stats", "--player", "south", data=filled)
    assert by_place.stdout.startswith(f"South: {stats.games} games")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["stats", "--since", "yesterday"], "'yesterday' is not a date"),
        (["stats", "--since", "2026-02-01", "--until", "2026-01-01"], "is after --until"),
        (["stats", "--players", "5"], "--players"),
        (["stats", "--level", "godlike"], "--level"),
    ],
)
def test_bad_stats_options_get_one_line_and_exit_2(
    argv: list[str], message: str, data_dir: Path
) -> None:
    done = _run(*argv, data=data_dir)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("argv", [["--since", ""], ["--until", " "], ["--json", "--since", ""]])
def test_an_empty_date_is_refused_in_one_line(argv: list[str], filled: Path) -> None:
    done = _run("stats", *argv, data=filled)
    assert done.returncode == 2
    assert done.stderr == "allfives: '' is not a date: write it like 2026-03-31\n"
    assert done.stdout == ""


def test_no_history_yet(data_dir: Path) -> None:
    for argv in (["stats"], ["history"]):
        done = _run(*argv, data=data_dir)
        assert done.returncode == 0 and "No games in the history yet" in done.stdout
    assert not history_path().exists()
    done = _run("replay", "--last", data=data_dir)
    assert done.returncode == 2
    assert done.stderr == "allfives: there are no games in the history yet\n"


def test_history_lists_newest_first_and_searches(filled: Path) -> None:
    done = _run("history", "--json", data=filled)
    listed = json.loads(done.stdout)
    assert len(listed) == 30
    assert [g["started"] for g in listed] == sorted((g["started"] for g in listed), reverse=True)
    found = json.loads(_run("history", "--json", "--search", "abandoned", data=filled).stdout)
    assert found and all(g["result"].startswith("abandoned") for g in found)
    text = _run("history", "-n", "3", data=filled).stdout
    assert listed[0]["id"][:8] in text and listed[3]["id"][:8] not in text


def test_replay_last_and_game_id_print_the_stored_game(filled: Path) -> None:
    with History() as h:
        newest = h.games()[0]
        older = h.games()[5]
    last = _run("replay", "--last", "--text", "--all", data=filled)
    assert last.returncode == 0, last.stderr
    assert last.stdout.startswith("All Fives: ")
    by_id = _run("replay", "--game", newest.game_id[:10], "--text", "--all", data=filled)
    assert by_id.stdout == last.stdout
    other = _run("replay", "--game", older.game_id, "--text", "--all", data=filled)
    assert other.returncode == 0 and other.stdout != last.stdout
    missing = _run("replay", "--game", "zzz", data=filled)
    assert missing.returncode == 2 and "no game zzz in the history" in missing.stderr
    both = _run("replay", "x.json", "--last", data=filled)
    assert both.returncode == 2
    assert both.stderr.startswith(
        "allfives replay: error: give one of FILE, --last and --game ID, not more\n")
    neither = _run("replay", data=filled)
    assert neither.returncode == 2
    assert "required: FILE (or --last, or --game ID)" in neither.stderr


def test_import_a_folder_skips_duplicates_and_reports_bad_files(
    data_dir: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "saved"
    folder.mkdir()
    games = [play(SEATS, s) for s in range(3)]
    for i, g in enumerate(games):
        (folder / f"game{i}.json").write_text(g.to_json())
    # an earlier save of game 0 under another id, and game 1 twice
    earlier = games[0].truncated(games[0].action_count - 5).model_copy(update={"game_id": "ab"})
    (folder / "earlier.json").write_text(earlier.to_json())
    (folder / "copy-of-1.json").write_text(games[1].to_json())
    (folder / "broken.json").write_text('{"format": "allfives-record", "version": 2, ')
    (folder / "notes.txt").write_text("not json, not looked at")
    done = _run("history", "import", str(folder), data=data_dir)
    assert done.returncode == 2
    assert done.stderr == (
        f"allfives: {folder / 'broken.json'}: not a game record: the JSON stops in the middle "
        "(is the file truncated?)\n"
    )
    # earlier.json comes before game0.json: game 0 replaces its earlier save
    assert done.stdout == (
        "Added 3 games, skipped 1 already in the history, 1 replaced an earlier save of the "
        "same game, 1 could not be read.\n"
    )
    with History() as h:
        assert {g.game_id for g in h.games()} == {g.game_id for g in games}
    again = _run("history", "import", str(folder / "game2.json"), data=data_dir)
    assert again.returncode == 0
    assert again.stdout == "Added 0 games, skipped 1 already in the history.\n"
    missing = _run("history", "import", str(tmp_path / "nope.json"), data=data_dir)
    assert missing.returncode == 2 and missing.stderr.endswith("nope.json: no such file\n")


def test_sim_never_records(data_dir: Path) -> None:
    done = _run("sim", "greedy", "random", "-n", "2", "-w", "1", "--quiet", data=data_dir)
    assert done.returncode == 0, done.stderr
    assert not history_path().exists()


def test_an_empty_import_path_is_refused_and_nothing_is_imported(
    data_dir: Path, tmp_path: Path
) -> None:
    here = tmp_path / "here"
    here.mkdir()
    (here / "game.json").write_text(play(SEATS, 1).to_json())
    env = {**os.environ, "ALLFIVES_DATA_DIR": str(data_dir), "PYTHONPATH": str(ROOT)}
    for argv in (["history", "import", ""], ["history", "import", str(here / "game.json"), ""]):
        done = subprocess.run(
            [sys.executable, "-m", "allfives_tui", *argv],
            capture_output=True, text=True, cwd=here, env=env, timeout=120, check=False,
        )
        assert done.returncode == 2
        assert done.stderr == "allfives: history import: an empty path names no file nor folder\n"
        assert done.stdout == ""
        assert not history_path().exists()


def _out_of_range(**change: int) -> str:
    """A sound record's JSON with ``seed`` or ``target`` replaced."""
    data = json.loads(play(SEATS, 2).to_json())
    if "seed" in change:
        data["seed"] = change["seed"]
    if "target" in change:
        data["rules"]["target"] = change["target"]
    return json.dumps(data)


@pytest.mark.parametrize(
    "change",
    [{"seed": 1180591620717411303424}, {"seed": 2**63}, {"seed": -1}, {"target": 10**40},
     {"target": 10**5}, {"seed": 10**300}],
    ids=["seed-2**70", "seed-2**63", "seed-minus-1", "target-10**40", "target-10**5",
         "seed-10**300"],
)
def test_importing_a_seed_or_target_out_of_range_says_so_in_one_line(
    data_dir: Path, tmp_path: Path, change: dict[str, int]
) -> None:
    bad = tmp_path / "big.json"
    bad.write_text(_out_of_range(**change))
    good = tmp_path / "good.json"
    good.write_text(play(SEATS, 3).to_json())
    done = _run("history", "import", str(bad), str(good), data=data_dir)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"allfives: {bad}: ")
    assert max(len(number) for number in re.findall(r"[0-9]+", line)) <= 80
    assert ("seed" if "seed" in change else "target") in line
    assert done.stdout == "Added 1 game, skipped 0 already in the history, 1 could not be read.\n"
    with History() as h:
        assert h.count() == 1
