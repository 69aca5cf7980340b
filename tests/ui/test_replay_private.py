"""Replays of games still in progress and of hostile files (issue 14, items 1 and 11).

A record of an unfinished game (a ``ctrl+s`` copy, ``current.json``) replays
only from its player's seat: the other hands face down and their draws
unnamed, in the app's replay screen and in ``allfives replay`` (screen and
``--text``); ``--all`` shows everything, and a finished game opens every
hand. "Open replay…" in the game app shows a hostile file's one-line problem
and never crashes.
"""

from __future__ import annotations

import json
import os
import re
import socket
from collections import Counter
from pathlib import Path

import pytest
from textual.widgets import Input, Static

from allfives_tui.cli import main
from allfives_tui.store.saves import read_replay
from allfives_tui.table.replay import NOBODY, Replay
from allfives_tui.table.settings import Settings
from allfives_tui.table.table import Table
from allfives_tui.table.text import render_text
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.open_replay import OpenReplayScreen
from allfives_tui.ui.screens.replay import ReplayScreen
from allfives_tui.ui.screens.replay_app import ReplayApp
from allfives_tui.ui.widgets import HandView
from allfives_tui.ui.widgets.hand import display_order
from engine import Draw, Drew, Rules
from engine.players import make_player
from engine.record import GameRecord, Seat, parse_record
from tests.games import play_out
from tests.records import SMALL_RECORD, game_record
from tests.ui.helpers import settle

SIZE = (120, 40)
ANA = (Seat(name="Ana"), Seat(name="Bob", kind="computer", level="greedy"))


def _in_progress(seats: tuple[Seat, ...] = ANA, *, draws: int = 1) -> GameRecord:
    """A two-player game stopped mid-hand after each seat has drawn at least ``draws`` times."""
    rules = Rules(players=2, partnerships=False)

    def drawn(table: Table) -> bool:
        counts = Counter(m.seat for m in table.state.history if isinstance(m.action, Draw))
        return min(counts[0], counts[1]) >= draws and table.state.phase.name == "PLAY"

    for seed in range(1, 200):
        players = {i: make_player("greedy", seed + i) for i in range(2)}
        table = play_out(Table.new(rules, seats, seed), players=players, hands=1, until=drawn)
        if drawn(table):
            return GameRecord.from_state(table.state, seats, seed=seed)
    raise AssertionError("no seed gave a game with draws")


def _draws_named(screen: ReplayScreen) -> list[str]:
    """The words of every frame, as the replay screen says them."""
    said = []
    for index in range(len(screen.replay)):
        screen.go(index)
        said.append(str(screen._event_text()))
    return said


# -- the model -------------------------------------------------------------------------
def test_which_view_an_unfinished_game_is_replayed_from() -> None:
    assert Replay(_in_progress()).private_viewer() == 0  # Ana, the only person
    north_person = (Seat(name="Bob", kind="computer", level="greedy"), Seat(name="Ana"))
    assert Replay(_in_progress(north_person)).private_viewer() == 1
    hot_seat = (Seat(name="Ana"), Seat(name="Bea"))
    assert Replay(_in_progress(hot_seat)).private_viewer() == NOBODY
    computers = tuple(Seat(name=n, kind="computer", level="greedy") for n in ("A", "B"))
    assert Replay(_in_progress(computers)).private_viewer() == NOBODY
    assert Replay(parse_record(SMALL_RECORD)).private_viewer() is None  # the game is over


# -- the replay screen -------------------------------------------------------------------
async def test_an_unfinished_game_replays_from_its_players_seat_only() -> None:
    record = _in_progress()
    app = ReplayApp(Replay(record))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.viewer == 0
        for index in range(len(screen.replay)):
            screen.go(index)
            await pilot.pause()
            assert screen.query_one("#seat-1").has_class("-face-down")
            assert not screen.query_one("#seat-0").has_class("-face-down")
            assert screen.query_one("#hand-1", HandView).tiles == ()  # none of Bob's tiles
            shown = screen.query_one("#hand-0", HandView).tiles  # sorted, as the game shows it
            assert shown == tuple(display_order(screen.frame.state.hands[0]))
        status = str(screen.query_one("#replay-status", Static).render())
        assert "your view" in status and "game in progress" in status
        await pilot.press("v")  # the view does not change
        await pilot.pause()
        assert screen.viewer == 0
        # Bob's draws are never named, Ana's are
        bob_drew = [
            ev for f in screen.replay.frames for ev in f.events if isinstance(ev, Drew)
        ]
        assert any(ev.seat == 1 for ev in bob_drew) and any(ev.seat == 0 for ev in bob_drew)
        said = " ".join(_draws_named(screen))
        for ev in bob_drew:
            if ev.seat == 1 and ev.tile is not None:
                assert f"Bob draws {ev.tile}" not in said
        assert re.search(r"You draw \d-\d", said)
        assert "Bob draws a tile" in said


async def test_all_shows_everything_and_a_finished_game_opens_every_hand() -> None:
    app = ReplayApp(Replay(_in_progress()), reveal_all=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.viewer is None
        assert not screen.query(".-face-down")
        await pilot.press("v")
        assert screen.viewer == 0
    app = ReplayApp(Replay(parse_record(SMALL_RECORD)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.viewer is None
        assert not screen.query(".-face-down")


async def test_hot_seat_or_computer_only_games_in_progress_hide_every_hand() -> None:
    hot_seat = (Seat(name="Ana"), Seat(name="Bea"))
    app = ReplayApp(Replay(_in_progress(hot_seat)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.viewer == NOBODY
        assert screen.query_one("#seat-0").has_class("-face-down")
        assert screen.query_one("#seat-1").has_class("-face-down")
        assert "every hand face down" in str(screen.query_one("#replay-status", Static).render())
        said = " ".join(_draws_named(screen))
        assert not re.search(r"draws \d-\d", said)


async def test_ctrl_s_then_open_replay_in_the_game_app_hides_the_opponent(
    tmp_path: Path,
) -> None:
    """The issue's own steps: ctrl+s a game in progress, then Open replay… it."""
    copy = tmp_path / "copy.json"
    app = AllFivesApp(Settings(seed=5, speed=0.0, name="Ana"), start=True, speed=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+s")
        app.screen.query_one("#save-path", Input).value = str(copy)
        await pilot.press("enter")
        await pilot.pause()
        app.action_open_replay()
        await pilot.pause()
        field = app.screen.query_one(Input)
        field.value = str(copy)
        field.focus()
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.viewer == 0
        await pilot.press("end")
        await pilot.pause()
        north = screen.query_one("#hand-1", HandView)
        assert screen.query_one("#seat-1").has_class("-face-down")
        assert not north.tiles
        you = screen.query_one("#hand-0", HandView)
        assert app.table is not None
        assert you.tiles == tuple(display_order(app.table.state.hands[0]))  # sorted


# -- allfives replay --------------------------------------------------------------------
def test_replay_text_of_an_unfinished_game_shows_one_seat_unless_all(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _in_progress()
    path = tmp_path / "part.json"
    path.write_text(record.to_json())
    assert main(["replay", str(path), "--text"]) == 0
    text = capsys.readouterr().out
    deal = record.hands[0].deal
    ana = " ".join(str(t) for t in deal.hands[0])
    bob = " ".join(str(t) for t in deal.hands[1])
    assert f"  Ana: {ana}" in text
    assert bob not in text and f"  Bob: ({len(deal.hands[1])} tiles, face down)" in text
    assert f"  Boneyard: ({len(deal.boneyard)} tiles, face down)" in text
    assert not any(str(t) in text.split("Boneyard:")[1].splitlines()[0] for t in deal.boneyard)
    assert "The game is not over: shown as Ana saw it" in text
    assert main(["replay", str(path), "--text", "--all"]) == 0
    everything = capsys.readouterr().out
    assert f"  Bob: {bob}" in everything
    assert "  Boneyard: " + " ".join(str(t) for t in deal.boneyard) in everything
    assert "face down" not in everything


def test_replay_text_of_a_finished_game_is_unchanged() -> None:
    replay = Replay(game_record(players=2, seed=1))
    assert render_text(replay) == render_text(replay, reveal_all=True)
    assert "face down" not in render_text(replay)


def test_the_replay_command_takes_all(tmp_path: Path) -> None:
    from allfives_tui.cli.parser import parse

    assert parse(["replay", "x.json", "--all"]).reveal_all is True
    assert parse(["replay", "x.json"]).reveal_all is False


# -- Open replay… on hostile files -----------------------------------------------------
def _hostile_files(folder: Path) -> dict[str, str]:
    """Path -> the start of its one-line problem."""
    data = json.loads(SMALL_RECORD)
    data["hands"][0]["deal"]["hands"][0][0] = [1, "a"]
    junk_tile = folder / "junk-tile.json"
    junk_tile.write_text(json.dumps(data))
    huge = folder / "huge.json"
    huge.write_text(SMALL_RECORD.replace('"start": 0', '"start": ' + "9" * 5000, 1))
    nulls = folder / "null-tile.json"
    nulls.write_text(SMALL_RECORD.replace('"6-4", "4-2"', 'null, {}', 1))
    fifo = folder / "pipe.json"
    os.mkfifo(fifo)
    binary = folder / "binary.json"
    binary.write_bytes(bytes(range(256)) * 8)
    loop = folder / "loop.json"
    loop.symlink_to(loop)
    sock_path = folder / "sock"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(sock_path))
    sock.close()
    return {
        str(junk_tile): "invalid record at hands.0.deal.hands.0.0: not a tile",
        str(huge): "",
        str(nulls): "invalid record",
        str(fifo): "not a regular file (a named pipe)",
        str(binary): "not a game record",
        str(loop): "cannot read it",
        str(sock_path): "not a regular file",
        "/dev/zero": "not a regular file (a device)",
        str(folder): "is a folder, not a game record",
        "~no-such-user-here/game.json": "no such file",
        "bad\x00name.json": "no such file",
    }


async def test_open_replay_on_hostile_files_shows_one_line_and_never_crashes(
    tmp_path: Path,
) -> None:
    files = _hostile_files(tmp_path)
    app = AllFivesApp(autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        home = app.screen
        app.action_open_replay()
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, OpenReplayScreen)
        for path, problem in files.items():
            field = modal.query_one(Input)
            field.value = path
            field.focus()
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is modal, path
            shown = str(modal.query_one("#open-problem", Static).render())
            assert "\n" not in shown and shown.startswith(f"{path.strip()}: "), shown
            assert problem in shown, (path, shown)
            assert len(shown) < 300
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is home
    assert app.return_code in (None, 0)


def test_the_replay_command_gives_one_line_for_each_hostile_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for path in _hostile_files(tmp_path):
        if "\x00" in path or path.startswith("~"):
            continue
        assert main(["replay", path, "--text"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("allfives: "), err


def test_read_replay_of_hostile_files_raises_only_its_own_error(tmp_path: Path) -> None:
    from allfives_tui.store.saves import ReplayLoadError

    for path in _hostile_files(tmp_path):
        with pytest.raises(ReplayLoadError):
            read_replay(path)
