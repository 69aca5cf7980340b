"""The replay screen as SVG snapshots (fixed records, fixed terminal sizes)."""

from __future__ import annotations

from collections.abc import Callable

from allfives_tui.table.replay import Replay
from allfives_tui.ui.screens.replay_app import ReplayApp
from engine.record import parse_record
from tests.records import DATA, SMALL_RECORD

FOUR = DATA / "four.json"
"""A four-player partnership game to 200, saved once so the snapshot never drifts."""

SnapCompare = Callable[..., bool]


def test_replay_screen_mid_hand(snap_compare: SnapCompare) -> None:
    """The small record after Ann's 2-2 W (+5): spinner cross, both hands, scores, move list."""
    app = ReplayApp(Replay(parse_record(SMALL_RECORD)), title="small.json")
    assert snap_compare(app, press=["right"] * 5, terminal_size=(100, 32))


def test_replay_screen_seat_view_four_players(snap_compare: SnapCompare) -> None:
    """A four-player partnership game in hand 2, seen by Ann (the others' tiles face down)."""
    app = ReplayApp(Replay(parse_record(FOUR.read_text())), title="four.json")
    assert snap_compare(
        app, press=["pagedown", "right", "right", "right", "v"], terminal_size=(120, 40)
    )
