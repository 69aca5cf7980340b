"""The app in served mode (a browser session): no server path is typed, read or shown.

The real app under ``App.run_test``, with ``served=True`` as ``allfives serve``
runs it: Save a copy… takes a file name and keeps the copy in the session's
folder; Open replay… lists the session's games or takes a game's text
(pasted, or sent by the page's "Open a game file…"), never a path.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static

from allfives_tui.table.settings import Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.confirm import ConfirmScreen
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.screens.open_served import ServedOpenReplayScreen, oversized_paste
from allfives_tui.ui.screens.replay import ReplayScreen
from allfives_tui.ui.screens.save_as import SaveAsScreen, download_name
from allfives_tui.ui.served import ServedApp
from engine.record import MAX_BYTES, GameRecord, parse_game, save
from tests.ui.helpers import settle, until


def served_app() -> AllFivesApp:
    return AllFivesApp(Settings(seed=5, speed=0.0), start=True, speed=0.0, served=True)


def shown(screen: Screen[Any]) -> str:
    """Every Static's text and every listed option on ``screen``."""
    texts = [str(s.render()) for s in screen.query(Static)]
    for options in screen.query(OptionList):
        texts.extend(str(o.prompt) for o in options.options)
    return "\n".join(texts)


async def play_one(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await pilot.press("enter")
    app = pilot.app
    if isinstance(app.screen, GameScreen) and app.screen.choosing:
        await pilot.press("enter")
    await settle(pilot)


def record_on_the_table(app: AllFivesApp) -> GameRecord:
    """The record of the game ``app`` has on the table."""
    assert app.table is not None
    return app.table.record()


@pytest.mark.parametrize(
    "text",
    ["/etc/passwd", "../outside.json", "saved/../../outside", "~/x.json", "a\\b.json", ".hidden"],
)
def test_a_download_name_is_a_file_name_only(text: str) -> None:
    with pytest.raises(ValueError):
        download_name(text)


def test_a_download_name_gets_json_added() -> None:
    assert download_name(" my-game ") == "my-game.json"
    assert download_name("Game_2.JSON") == "Game_2.JSON"


async def test_save_a_copy_downloads_and_writes_no_path_typed(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Paths typed into Save a copy… are refused (nothing written there); a name is
    kept in the session's saved/ folder and delivered (outside a browser: into the
    session's downloads/ folder), and the message names no folder."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    app = served_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await play_one(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SaveAsScreen) and screen.served
        assert "Download a copy of this game" in shown(screen)
        field = screen.query_one("#save-path", Input)
        assert field.value.startswith("allfives-") and "/" not in field.value
        for typed in (str(elsewhere / "x.json"), "/tmp/x.json", "../x.json"):
            field.value = typed
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is screen
            assert "file name only" in str(screen.query_one("#save-error").render())
        field.value = "my game"
        await pilot.press("enter")
        await pilot.pause()
        assert "only letters" in str(screen.query_one("#save-error").render())
        field.value = "my-game"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is not screen
        kept = data_dir / "saved" / "my-game.json"
        assert parse_game(kept.read_text()).record == record_on_the_table(app)
        delivered = data_dir / "downloads" / "my-game.json"
        wanted = kept.read_text()
        # delivered by a thread
        await until(pilot, lambda: delivered.is_file() and delivered.read_text() == wanted)
        messages = [n.message for n in app._notifications]
        assert any("Downloading my-game.json" in m for m in messages)
        assert not any(str(data_dir) in m for m in messages)
    assert list(elsewhere.iterdir()) == []
    assert not (tmp_path / "x.json").exists()


async def test_open_replay_lists_the_sessions_games_and_asks_for_no_path(data_dir: Path) -> None:
    app = served_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await play_one(pilot)
        assert app.saver is not None
        app.saver.flush()
        app.action_open_replay()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ServedOpenReplayScreen)
        assert not screen.query(Input)  # nowhere to type a path
        text = shown(screen)
        assert "This session's game, in progress" in text
        assert str(data_dir) not in text and "current.json" not in text
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        assert app.screen.source == "this session's game"


async def test_a_pasted_path_is_never_read_a_pasted_game_is_replayed(
    data_dir: Path, tmp_path: Path
) -> None:
    """A server file's path pasted into Open replay… is only text that is not a game;
    the game's own text opens, and is kept among the session's games."""
    app = served_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await play_one(pilot)
        record = record_on_the_table(app)
        secret = save(record, tmp_path / "server-game.json")
        app.action_open_replay()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ServedOpenReplayScreen)
        app.post_message(events.Paste(str(secret)))
        await pilot.pause()
        assert app.screen is screen
        problem = str(screen.query_one("#open-problem", Static).render())
        assert problem.startswith("the game you opened: ") and "JSON" in problem
        assert not list((data_dir / "uploaded").glob("*.json"))  # a bad one is not kept
        app.post_message(events.Paste(secret.read_text().replace("\n", "\r")))  # as xterm sends
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        assert app.screen.replay.record == record
        [kept] = (data_dir / "uploaded").glob("*.json")
        assert parse_game(kept.read_text()).record == record


async def test_a_game_pasted_during_play_opens_in_the_replay(data_dir: Path) -> None:
    """The page's "Open a game file…" pastes the file wherever the app is."""
    app = served_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await play_one(pilot)
        record = record_on_the_table(app)
        app.post_message(events.Paste(record.to_json()))
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)  # the game goes on where it was


async def test_served_messages_never_name_the_session_folder(data_dir: Path) -> None:
    app = served_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        app.notify(f"The game is not being saved: could not autosave to {data_dir}/current.json")
        await pilot.pause()
        [message] = [n.message for n in app._notifications]
        assert str(data_dir) not in message
        assert "this session's folder/current.json" in message


async def test_outside_serve_save_a_copy_still_asks_for_a_path() -> None:
    app = AllFivesApp(Settings(seed=5, speed=0.0), start=True, speed=0.0)
    async with app.run_test(size=(100, 32)) as pilot:
        await play_one(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SaveAsScreen) and not app.screen.served
        assert "/" in app.screen.query_one("#save-path", Input).value


async def test_a_session_keeps_its_newest_twenty_uploads(data_dir: Path) -> None:
    """Pasting game after game never fills the server's disk: uploaded/ keeps the
    newest 20 (here 21 games pasted before, then two through the app)."""
    app = served_app()
    uploaded = data_dir / "uploaded"
    async with app.run_test(size=(100, 32)) as pilot:
        await play_one(pilot)
        text = record_on_the_table(app).to_json()
        uploaded.mkdir()
        earlier = [uploaded / f"game-20260101-0000{i:02}.json" for i in range(21)]
        for i, path in enumerate(earlier):  # pasted a minute apart, the oldest first
            path.write_text(text)
            os.utime(path, (1_767_225_600 + 60 * i,) * 2)
        for _ in range(2):
            app.action_open_replay()
            await pilot.pause()
            assert isinstance(app.screen, ServedOpenReplayScreen)
            app.screen.open_text(text)
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen)
            await pilot.press("q")
            await pilot.pause()
        kept = set(uploaded.glob("*.json"))
        assert len(kept) == 20
        assert kept & set(earlier) == set(earlier[3:])  # the three oldest went


async def test_any_save_dialog_in_a_served_app_takes_a_file_name_only(
    data_dir: Path, tmp_path: Path
) -> None:
    """A save dialog opened without saying it is served (as Past games' export does)
    still refuses a path in a served app, and starts from a bare name."""
    app = served_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await play_one(pilot)
        target = tmp_path / "export.json"
        app.push_screen(SaveAsScreen(record_on_the_table(app), str(target)))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SaveAsScreen) and screen.served
        field = screen.query_one("#save-path", Input)
        assert field.value == "export.json"
        field.value = str(target)
        await pilot.press("enter")
        await pilot.pause()
        assert "file name only" in str(screen.query_one("#save-error").render())
        assert not target.exists()
        field.value = "export.json"
        await pilot.press("enter")
        await pilot.pause()
        assert (data_dir / "saved" / "export.json").is_file() and not target.exists()


async def test_a_game_pasted_while_a_field_has_the_focus_opens_in_the_replay() -> None:
    """The page's "Open a game file…" while the new-game screen's name field has the
    focus: the game opens, and the name stays as it was."""
    app = ServedApp()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        name = app.screen.query_one("#name", Input)
        name.focus()
        await pilot.pause()
        before = name.value
        text = played_record().to_json()
        app.post_message(events.Paste(text.replace("\n", "\r")))
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        assert name.value == before


async def test_quitting_a_served_game_asks_first() -> None:
    app = ServedApp()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+n")  # start (the new-game screen's key)
        await play_one(pilot)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "cannot be continued" in shown(app.screen)
        await pilot.press("n")  # keep playing
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.is_running
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
    assert app.return_code == 0


def played_record() -> GameRecord:
    """A short game's record (two moves), made through the table as the app does."""
    from allfives_tui.table.table import Table

    table = Table.from_settings(Settings(seed=4, speed=0.0))  # dealt already
    for _ in range(2):
        turn = table.turn()
        assert turn is not None
        table.act(turn.seat, turn.legal[0])
    return table.record()


async def test_the_pages_stand_in_for_a_paste_over_the_cap_says_so(data_dir: Path) -> None:
    """What the page pastes instead of text over the cap (even with a field focused)
    opens Open replay… with the size-cap line; nothing is kept; Esc goes back."""
    app = ServedApp()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        start = app.screen
        name = start.query_one("#name", Input)
        name.focus()
        await pilot.pause()
        before = name.value
        app.post_message(events.Paste(oversized_paste(20 * 1024 * 1024)))
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ServedOpenReplayScreen)
        problem = str(screen.query_one("#open-problem", Static).render())
        assert problem == (
            f"the game you opened: the file is over the size cap of {MAX_BYTES // 1024} KiB"
        )
        assert not (data_dir / "uploaded").exists()
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is start and name.value == before
