"""What a record that stops replaying offers: where its sound beginning ends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from allfives_tui.store.saves import ReplayLoadError, read_replay
from tests.records import SMALL_RECORD


def _spoiled(tmp_path: Path, move: int) -> Path:
    """SMALL_RECORD with hand 1's ``move`` (1-based) replaced by a tile nobody holds."""
    data = json.loads(SMALL_RECORD)
    data["hands"][0]["actions"][move - 1] = "5-5 W"
    path = tmp_path / f"bad-{move}.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("bad_move", "good_part", "frames"),
    [(5, "hand 1, move 4", 5), (2, "hand 1, move 1", 2), (1, "the deal of hand 1", 1)],
)
def test_the_good_part_ends_just_before_the_bad_move(
    tmp_path: Path, bad_move: int, good_part: str, frames: int
) -> None:
    with pytest.raises(ReplayLoadError) as caught:
        read_replay(_spoiled(tmp_path, bad_move))
    err = caught.value
    assert err.message.startswith(f"hand 1, move {bad_move}: illegal action '5-5 W'")
    assert err.good_part == good_part
    assert err.salvage is not None
    assert len(err.salvage.steps) == frames == err.good_actions


def test_nothing_to_salvage_names_no_good_part(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    with pytest.raises(ReplayLoadError) as caught:
        read_replay(path)
    assert caught.value.salvage is None
    assert caught.value.good_part is None
