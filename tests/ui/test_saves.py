"""Autosave, kill -9, continue, save a copy, and the play command's options."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from textual.widgets import Input

from allfives_tui.cli import main
from allfives_tui.store.folder import current_path
from allfives_tui.store.saves import load_current
from allfives_tui.store.settings_file import load_settings, save_settings
from allfives_tui.table.settings import Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.screens.new_game import NewGameScreen
from allfives_tui.ui.screens.save_as import SaveAsScreen
from engine.record import load
from tests.ui.helpers import settle

CHILD = textwrap.dedent(
    """
    import asyncio, sys
    from allfives_tui.ui.app import AllFivesApp
    from allfives_tui.table.settings import Settings
    from tests.ui.helpers import settle

    async def main():
        app = AllFivesApp(Settings(seed=3, speed=0.0, auto_draw=True), start=True, speed=0.0)
        async with app.run_test(size=(100, 36)) as pilot:
            for _ in range(4):
                await settle(pilot)
                await pilot.press("enter")
                if app.screen.choosing:
                    await pilot.press("enter")
                await settle(pilot)
                app.saver.flush()
                print(len(app.table.state.actions), flush=True)
            print("READY", flush=True)
            sys.stdin.read()  # until killed (or the test's end closes stdin)

    asyncio.run(main())
    """
)


def test_kill_9_loses_nothing_saved_and_continue_resumes_exactly(data_dir: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "ALLFIVES_DATA_DIR": str(data_dir), "PYTHONPATH": str(root)}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD], env=env, cwd=root, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
    )
    counts = []
    assert child.stdout is not None
    for line in child.stdout:
        if line.strip() == "READY":
            break
        counts.append(int(line))
    child.send_signal(signal.SIGKILL)
    child.wait(10)
    assert child.stdin is not None
    child.stdin.close()
    assert child.returncode == -signal.SIGKILL
    assert len(counts) == 4 and counts[-1] > counts[0]
    game = load_current()
    assert game is not None
    assert len(game.state.actions) == counts[-1]
    assert not list(data_dir.glob(".*.tmp"))  # no half-written files left


async def test_continue_resumes_the_saved_game_exactly() -> None:
    app = AllFivesApp(Settings(seed=8, speed=0.0), start=True, speed=0.0)
    async with app.run_test(size=(100, 36)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        if isinstance(app.screen, GameScreen) and app.screen.choosing:
            await pilot.press("enter")
        await settle(pilot)
        assert app.table is not None
        state = app.table.state
        await pilot.press("q")
    assert app.saved_on_exit == current_path()
    game = load_current()
    assert game is not None and game.state == state
    again = AllFivesApp(resume=game, speed=0.0)
    async with again.run_test(size=(100, 36)) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, GameScreen)
        assert again.table is not None
        assert again.table.state == state
        assert again.table.seed == 8


async def test_the_new_game_screen_offers_continue_and_remembers_settings() -> None:
    app = AllFivesApp(Settings(players=3, name="Ana", seed=21, speed=0.0), start=True, speed=0.0)
    async with app.run_test(size=(100, 36)) as pilot:
        await settle(pilot)
        await pilot.press("q")
    settings = Settings(players=3, name="Ana", seed=21, speed=0.0)
    save_settings(settings)
    app = AllFivesApp(speed=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        assert screen.read_settings() == settings
        assert screen.query_one("#continue")
        await pilot.click("#continue")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.table is not None
        assert app.table.names == ("Ana", "West", "East")


async def test_the_new_game_screen_rejects_a_bad_target() -> None:
    app = AllFivesApp(Settings(), speed=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.click("#target")
        await pilot.press("1", "2", "3", "enter")
        assert isinstance(app.screen, NewGameScreen)
        assert "multiple of 5" in str(app.screen.query_one("#form-error").render())


async def test_ctrl_s_saves_a_copy_where_the_player_says(tmp_path: Path) -> None:
    app = AllFivesApp(Settings(seed=5, speed=0.0), start=True, speed=0.0)
    target = tmp_path / "copy.json"
    async with app.run_test(size=(100, 36)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SaveAsScreen)
        field = app.screen.query_one("#save-path", Input)
        field.value = str(tmp_path / "no-such-folder" / "x.json")
        await pilot.press("enter")
        assert "there is no folder" in str(app.screen.query_one("#save-error").render())
        field.value = str(target)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.table is not None
        state = app.table.state
    assert load(target).final_state() == state


def test_continue_with_no_saved_game_says_so_and_exits_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--continue"]) == 1
    assert "no unfinished game to continue" in capsys.readouterr().err


def test_continue_with_a_damaged_save_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    current_path().parent.mkdir(parents=True)
    current_path().write_text('{"format": "allfives-record", "version": 1}')
    assert main(["--continue"]) == 2
    err = capsys.readouterr().err
    assert "cannot be continued" in err and "rules" in err
    assert len(err.splitlines()) == 1


def test_bad_options_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--players", "5"])
    assert exc.value.code == 2
    assert "2, 3 or 4 players" in capsys.readouterr().err
    assert main(["--target", "123"]) == 2
    assert "multiple of 5" in capsys.readouterr().err


async def test_an_unwritable_data_folder_is_reported_not_fatal(data_dir: Path) -> None:
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    data_dir.write_text("a file where the folder should be")
    app = AllFivesApp(Settings(seed=5, speed=0.0), start=True, speed=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.saver is not None
        app.saver.flush()
        await pilot.press("enter")
        if isinstance(app.screen, GameScreen) and app.screen.choosing:
            await pilot.press("enter")
        await settle(pilot)
        assert app.saver is not None
        assert app.saver.error is not None
        assert any("not being saved" in str(n.message) for n in app._notifications)
        await pilot.press("q")
    assert app.saved_on_exit is None


async def test_enter_starts_the_game_and_the_settings_are_remembered() -> None:
    app = AllFivesApp(Settings(players=4, partnerships=True, seed=9, speed=0.0), speed=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        rules = app.table.state.rules
        assert rules.players == 4 and rules.partnerships and rules.target == 200
        assert app.table.given_names == (None, None, None, None)  # the places' names
        assert app.table.names == ("South", "West", "North", "East")
    assert load_settings().players == 4
