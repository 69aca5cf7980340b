"""Bad record files: ``allfives replay`` exits 2 with one line naming the file and the problem."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from allfives_tui.cli import main
from allfives_tui.store.saves import ReplayLoadError, read_replay
from allfives_tui.table.replay import Replay
from engine.record import MAX_BYTES
from tests.records import SMALL_RECORD

Edit = Callable[[dict[str, Any]], None]


def _edited(edit: Edit) -> str:
    data = json.loads(SMALL_RECORD)
    edit(data)
    return json.dumps(data)


def _set(path: tuple[Any, ...], value: Any) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        node: Any = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return edit


def _pop_boneyard(hand: int) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        data["hands"][hand]["deal"]["boneyard"].pop()

    return edit


CASES: list[tuple[str, str | bytes, str]] = [
    (
        "truncated",
        SMALL_RECORD[:700],
        "not a game record: the JSON stops in the middle (is the file truncated?)",
    ),
    ("truncated in a string", SMALL_RECORD[:696], "not a game record: the JSON stops"),
    ("not JSON", "hello, world\n", "not a game record: not valid JSON (line 1, column 1)"),
    ("binary", b"\x89PNG\r\n\x1a\n\x00\xff", "not a game record: text that is not valid UTF-8"),
    ("empty", "", "the file is empty, not a game record"),
    ("JSON list", "[1, 2, 3]", "not a game record: the JSON is not an object"),
    (
        "wrong format",
        _edited(_set(("format",), "chess-pgn")),
        "not a game record: format is 'chess-pgn', not 'allfives-record'",
    ),
    (
        "future version",
        _edited(_set(("version",), 7)),
        "the record is version 7, newer than this allfives reads (3): upgrade allfives",
    ),
    ("version zero", _edited(_set(("version",), 0)), "unknown record version 0"),
    (
        "tile twice",
        _edited(_set(("hands", 0, "deal", "hands", 0, 1), "6-4")),
        "hand 1: bad deal: tile 6-4 is dealt twice",
    ),
    (
        "tile missing",
        _edited(_pop_boneyard(1)),
        "hand 2: bad deal: the deal is missing 6-6",
    ),
    (
        "no such tile",
        _edited(_set(("hands", 0, "deal", "hands", 0, 1), "7-4")),
        "invalid record at hands.0.deal.hands.0.1: not a tile: '7-4'",
    ),
    (
        "illegal action",
        _edited(_set(("hands", 0, "actions", 4), "5-5 W")),
        "hand 1, move 5: illegal action '5-5 W': seat 0 does not hold 5-5",
    ),
    (
        "bad notation",
        _edited(_set(("hands", 1, "actions", 1), "5-0 X")),
        "hand 2, move 2: illegal action '5-0 X': not an end: 'X'",
    ),
    (
        "seats",
        _edited(_set(("seats",), [{"name": "Ann"}])),
        "the record has 1 seat for 2 players",
    ),
]


@pytest.mark.parametrize(("name", "content", "problem"), CASES, ids=[c[0] for c in CASES])
def test_bad_file_exits_2_with_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    content: str | bytes,
    problem: str,
) -> None:
    path = tmp_path / "game.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    before = path.read_bytes()
    for extra in (["--text"], []):
        assert main(["replay", str(path), *extra]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert err.count("\n") == 1, err
        assert err.startswith(f"allfives: {path}: {problem}"), err
        assert "Traceback" not in err
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["game.json"]


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "nowhere.json"
    assert main(["replay", str(path), "--text"]) == 2
    assert capsys.readouterr().err == f"allfives: {path}: no such file\n"
    assert not path.exists()


def test_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path), "--text"]) == 2
    assert capsys.readouterr().err == f"allfives: {tmp_path}: is a folder, not a game record\n"


def test_over_the_size_cap(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as fh:  # sparse: cheap to make
        fh.truncate(MAX_BYTES + 1)
    assert main(["replay", str(path), "--text"]) == 2
    err = capsys.readouterr().err
    assert err == f"allfives: {path}: the file is over the size cap of 2048 KiB\n"


def test_illegal_action_offers_the_good_part(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(_edited(_set(("hands", 1, "actions", 2), "draw")))
    with pytest.raises(ReplayLoadError) as info:
        read_replay(path)
    err = info.value
    assert err.message.startswith("hand 2, move 3: illegal action 'draw'")
    assert err.good_actions == 1 + 14 + 1 + 2
    assert err.salvage is not None
    replay = Replay(err.salvage)
    assert len(replay) == err.good_actions
    assert [f.text for f in replay.frames[-3:]] == ["deal", "5-5", "5-0 E"]
    assert replay.frames[-1].state.scores == (25, -5)


def test_bad_first_deal_offers_nothing(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(_edited(_pop_boneyard(0)))
    with pytest.raises(ReplayLoadError) as info:
        read_replay(path)
    assert info.value.salvage is None
    assert info.value.good_actions == 0


def test_record_without_hands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "blank.json"
    path.write_text(_edited(_set(("hands",), [])))
    assert main(["replay", str(path), "--text"]) == 2
    assert capsys.readouterr().err == f"allfives: {path}: the record holds no hands to replay\n"
