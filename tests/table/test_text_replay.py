"""``allfives replay FILE --text``: the plain-text game, checked line by line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from allfives_tui.cli import main
from engine.record import Seat
from tests.games import play_out
from tests.records import DATA, SMALL_RECORD, game_record

EXPECTED = """\
All Fives: 2 players, no partnerships, target 30, hand size five-each (5 tiles)
Seats: Ann (person, read as you), Bob (computer, greedy)
Scores: Ann : Bob

Hand 1: You lead
  Ann: 6-4 4-2 2-2 3-1 0-0
  Bob: 6-6 6-1 4-3 5-5 2-1
  Boneyard: 1-0 5-3 4-4 1-1 2-0 3-0 3-2 3-3 4-0 4-1 5-0 5-1 5-2 5-4 6-0 6-2 6-3 6-5
    1. Ann  6-4     +10  10 : 0
    2. Bob  6-6 E        10 : 0
    3. Ann  4-2 W        10 : 0
    4. Bob  6-1 E        10 : 0
    5. Ann  2-2 W    +5  15 : 0
    6. Bob  2-1 W        15 : 0
    7. Ann  3-1 W        15 : 0
    8. Bob  4-3 W    +5  15 : 5
    9. Ann  draw         15 : 5
   10. Ann  1-0 E        15 : 5
   11. Bob  draw         15 : 5
   12. Bob  draw         15 : 5
   13. Bob  4-4 W        15 : 5
   14. Ann  0-0 E        15 : 5
  You go out.
  Ann: 15 - 0 = 15   (Ann 0 pips -> 0)
  Bob: 5 - 20 = -15   (Bob 18 pips -> 20)
  Scores after hand 1: 15 : -15

Hand 2: You lead
  Ann: 5-5 0-0 1-0 1-1 2-0
  Bob: 5-0 2-1 2-2 3-0 3-1
  Boneyard: 3-2 3-3 4-0 4-1 4-2 4-3 4-4 5-1 5-2 5-3 5-4 6-0 6-1 6-2 6-3 6-4 6-5 6-6
    1. Ann  5-5     +10  25 : -15
    2. Bob  5-0 E   +10  25 : -5
    3. Ann  0-0 E   +10  35 : -5
  Game over: You win, 35 : -5
"""


def test_small_record_text_line_by_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "small.json"
    path.write_text(SMALL_RECORD)
    assert main(["replay", str(path), "--text"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    got = out.splitlines()
    want = EXPECTED.splitlines()
    for n, (g, w) in enumerate(zip(got, want, strict=False), start=1):
        assert g == w, f"line {n}"
    assert len(got) == len(want)


def test_text_does_not_touch_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "small.json"
    path.write_text(SMALL_RECORD)
    path.chmod(0o444)
    stat = path.stat()
    assert main(["replay", str(path), "--text"]) == 0
    assert path.read_text() == SMALL_RECORD
    assert path.stat().st_mtime_ns == stat.st_mtime_ns
    assert sorted(p.name for p in tmp_path.iterdir()) == ["small.json"]


def test_partnership_game_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = game_record(players=4, seed=3, partnerships=True)
    path = tmp_path / "four.json"
    path.write_text(record.to_json())
    assert main(["replay", str(path), "--text"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("All Fives: 4 players, partnerships, target 200")
    assert lines[3] == "Scores: Ann & Cat : Bob & Dan"
    assert sum(line.startswith("Hand ") for line in lines) == len(record.hands)
    moves = [line for line in lines if line[:6].strip().rstrip(".").isdigit()]
    assert len(moves) == sum(len(h.actions) for h in record.hands)
    final = record.final_state()
    assert lines[-1].endswith(" : ".join(str(s) for s in final.scores))
    assert lines[-1].startswith("  Game over: ")


def test_the_owners_side_wins_in_its_own_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The one person's side wins: "You and {partner} win", never "You & Cat win"."""
    record = game_record(players=4, seed=3, partnerships=True)
    winner = record.final_state().scores.index(max(record.final_state().scores))
    seats = list(record.seats)
    seats[winner] = Seat(name="Ann", kind="person")  # the winning side's first seat
    path = tmp_path / "four.json"
    path.write_text(record.model_copy(update={"seats": tuple(seats)}).to_json())
    assert main(["replay", str(path), "--text"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    partner = record.seats[winner + 2].name
    assert last.startswith(f"  Game over: You and {partner} win, ")


def test_unfinished_game_says_where_it_stops(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = game_record(players=2, seed=1).truncated(30)
    path = tmp_path / "part.json"
    path.write_text(record.to_json())
    assert main(["replay", str(path), "--text"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("(the record ends during hand 2, ")


@pytest.mark.parametrize(
    ("field", "value"),
    [("name", "\x1b[2J\x1b]0;pwned\x07Ann\nX"), ("level", "greedy\x1b[31m")],
)
def test_control_characters_in_seats_are_refused_and_never_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, value: str
) -> None:
    data = json.loads(SMALL_RECORD)
    seat = 0 if field == "name" else 1
    data["seats"][seat][field] = value
    path = tmp_path / "evil.json"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path), "--text"]) == 2
    captured = capsys.readouterr()
    assert "\x1b" not in captured.out + captured.err and "\x07" not in captured.err
    assert captured.err.strip() == (
        f"allfives: {path}: invalid record at seats.{seat}.{field}: "
        "control characters are not allowed"
    )


def test_passes_and_a_blocked_hand(capsys: pytest.CaptureFixture[str]) -> None:
    """A saved game with passes and blocked hands: the hand-end arithmetic of hand 4."""
    path = DATA / "blocked.json"
    assert main(["replay", str(path), "--text"]) == 0
    lines = capsys.readouterr().out.splitlines()
    end = lines.index("  Hand 4 is blocked.")
    assert lines[end - 3 : end + 4] == [
        "   28. Bob  2-2 W    +5  30 : 25",
        "   29. Ann  pass         30 : 25",
        "   30. Bob  2-1 E        30 : 25",
        "  Hand 4 is blocked.",
        "  Ann: 30 - 60 = -30   (Ann 62 pips -> 60)",
        "  Bob: 25 - 10 = 15   (Bob 12 pips -> 10)",
        "  Scores after hand 4: -30 : 15",
    ]
    assert lines[end + 5].startswith("Hand 5: ")


def _seeded(finished: bool) -> str:
    """A seeded game between a person and a computer, finished or cut after a few moves."""
    from allfives_tui.table.settings import Settings
    from allfives_tui.table.table import Table

    table = Table.from_settings(Settings(seed=4242, speed=0.0))
    return play_out(table, actions=None if finished else 4).record().to_json()


@pytest.mark.parametrize(
    ("finished", "reveal", "shown"),
    [(False, False, False), (False, True, True), (True, False, True)],
    ids=["in-progress", "in-progress-all", "finished"],
)
def test_the_seed_is_printed_only_where_every_hand_may_be_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], finished: bool, reveal: bool, shown: bool
) -> None:
    path = tmp_path / "game.json"
    path.write_text(_seeded(finished))
    assert main(["replay", str(path), "--text", *(["--all"] if reveal else [])]) == 0
    out = capsys.readouterr().out
    assert ("4242" in out) is shown  # the seed deals every hand again
    assert ("Seed: 4242" in out.splitlines()) is shown
    assert ("face down" in out) is not (finished or reveal)
