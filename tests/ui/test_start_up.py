"""Start-up with a data folder in a bad way (issue 14, items 1, 3, 9 and 10's clean-up).

A damaged ``current.json`` is set aside and a new game offered (only an
explicit ``--continue`` fails, with one line and status 2); a named pipe as
``current.json`` or ``settings.json`` never hangs the app; a remembered
setting that is no longer valid is dropped with a notice; the temporaries of
a killed save are removed. Each runs the real app: under ``App.run_test`` or
as a real process in a pseudo-terminal under a timeout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from allfives_tui.cli import main
from allfives_tui.store.folder import SETTINGS_MAX_BYTES, STALE_SECONDS
from allfives_tui.store.saves import has_unfinished, load_current, set_aside_damaged_current
from allfives_tui.store.settings_file import read_settings
from allfives_tui.table.settings import Settings
from allfives_tui.table.table import Table
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.screens.new_game import NewGameScreen
from engine.record import load
from tests.terminal import CTRL_Q, ROOT, Terminal
from tests.ui.helpers import settle


def _notices(app: AllFivesApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


def _game_json(seed: int = 3) -> str:
    return Table.from_settings(Settings(seed=seed)).record().to_json()


def _junk_tile_record() -> str:
    """A saved game whose first tile is ``[1, "a"]``: once a crash at start."""
    data = json.loads(_game_json())
    data["hands"][0]["deal"]["hands"][0][0] = [1, "a"]
    return json.dumps(data)


def _cli(*args: str, data_dir: Path, timeout: float = 20) -> subprocess.CompletedProcess[str]:
    """``allfives ARGS`` as a real process without a terminal, under a timeout."""
    env = {**os.environ, "ALLFIVES_DATA_DIR": str(data_dir), "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "allfives_tui", *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


# -- item 1: a damaged current.json ------------------------------------------------
async def test_a_damaged_save_is_set_aside_and_the_new_game_screen_opens(data_dir: Path) -> None:
    data_dir.mkdir()
    current = data_dir / "current.json"
    damaged = _junk_tile_record()
    current.write_text(damaged)
    app = AllFivesApp(speed=0.0)
    async with app.run_test(size=(100, 36)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert not app.screen.query("#continue")  # nothing to continue
        aside = list(data_dir.glob("current.damaged-*.json"))
        assert len(aside) == 1 and not current.exists()
        assert aside[0].read_text() == damaged  # kept as it was
        said = [n for n in _notices(app) if "set aside" in n]
        assert len(said) == 1 and str(aside[0]) in said[0]
        # and a new game is autosaved where the damaged one was
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        state = app.table.state
        await pilot.press("q")
    assert load(current).final_state() == state


def test_plain_allfives_sets_a_damaged_save_aside_and_says_so(data_dir: Path) -> None:
    data_dir.mkdir()
    (data_dir / "current.json").write_text(_junk_tile_record())
    with Terminal.allfives(data_dir=data_dir) as term:
        term.expect("new game")
        term.send(CTRL_Q)
        assert term.wait() == 0
    aside = list(data_dir.glob("current.damaged-*.json"))
    assert len(aside) == 1 and aside[0].name.count("-") == 2  # current.damaged-DATE-TIME.json
    assert term.printed == [
        "allfives: The saved game could not be read (invalid record at hands.0.deal.hands.0.0: "
        f"not a tile: [1, 'a'] (write it like 5-3)): it is set aside as {aside[0]}."
    ]
    assert "Traceback" not in term.text


def test_continue_with_a_damaged_save_exits_2_with_one_line(data_dir: Path) -> None:
    data_dir.mkdir()
    damaged = _junk_tile_record()
    (data_dir / "current.json").write_text(damaged)
    done = _cli("--continue", data_dir=data_dir)
    assert done.returncode == 2
    (aside,) = data_dir.glob("current.damaged-*.json")  # set aside, as a new game does
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(
        f"allfives: the saved game {data_dir / 'current.json'} cannot be continued: "
    )
    assert done.stderr.endswith(f"; it is set aside as {aside}\n")
    assert aside.read_text() == damaged and not (data_dir / "current.json").exists()


# -- item 3: named pipes never hang the start ----------------------------------------
def test_a_named_pipe_as_the_save_or_the_settings_does_not_hang_the_app(data_dir: Path) -> None:
    data_dir.mkdir()
    os.mkfifo(data_dir / "current.json")
    os.mkfifo(data_dir / "settings.json")
    with Terminal.allfives(data_dir=data_dir) as term:
        term.expect("new game", timeout=20)
        term.send(CTRL_Q)
        assert term.wait(timeout=20) == 0
    printed = term.printed
    assert len(printed) == 2
    assert printed[0] == (
        f"allfives: Could not read the settings in {data_dir / 'settings.json'}"
        ": not a regular file (a named pipe); using the defaults."
    )
    assert printed[1].startswith(
        "allfives: The saved game could not be read (not a regular file (a named pipe)): "
        f"it is set aside as {data_dir}/current.damaged-"
    )
    assert (data_dir / "settings.json").exists()  # the settings are not moved, only skipped
    assert list(data_dir.glob("current.damaged-*.json"))


def test_continue_with_named_pipes_says_so_at_once(data_dir: Path) -> None:
    data_dir.mkdir()
    os.mkfifo(data_dir / "current.json")
    os.mkfifo(data_dir / "settings.json")
    start = time.monotonic()
    done = _cli("--continue", data_dir=data_dir, timeout=20)
    assert time.monotonic() - start < 15
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert lines[0].startswith("allfives: Could not read the settings in ")
    assert "cannot be continued: not a regular file (a named pipe); it is set aside as " in (
        lines[1]
    )
    assert len(lines) == 2


def test_read_settings_refuses_what_is_not_a_small_plain_file(data_dir: Path) -> None:
    data_dir.mkdir()
    path = data_dir / "settings.json"
    os.mkfifo(path)
    settings, notices = read_settings()
    assert settings == Settings() and "not a regular file" in notices[0]
    path.unlink()
    path.mkdir()
    assert "a folder" in read_settings()[1][0]
    path.rmdir()
    path.write_text(" " * (SETTINGS_MAX_BYTES + 1))
    assert "over the size cap of 64 KiB" in read_settings()[1][0]
    path.write_text("[" * 50_000)
    assert "not valid JSON" in read_settings()[1][0]
    path.write_text("[1, 2]")
    assert "not a JSON object" in read_settings()[1][0]


# -- item 9: a remembered setting no longer valid --------------------------------------
def test_a_stale_setting_is_dropped_with_a_notice_and_continue_still_works(
    data_dir: Path,
) -> None:
    data_dir.mkdir()
    (data_dir / "settings.json").write_text(
        '{"players": 3, "target": 7, "speed": 9, "name": "Ana", "seed": 4}'
    )
    (data_dir / "current.json").write_text(_game_json(seed=11))
    with Terminal.allfives("--continue", data_dir=data_dir) as term:
        term.expect("Boneyard")
        term.send(CTRL_Q)
        assert term.wait() == 0
    assert term.printed == [
        "allfives: Dropped the remembered target 7, no longer valid: "
        "the target must be a multiple of 5.",
        "allfives: Dropped the remembered speed 9, no longer valid: "
        "the pace must be between 0 and 5 seconds a move, not 9.",
        "Game saved. Continue it with: allfives --continue   "
        f"({data_dir / 'current.json'})",
    ]


async def test_the_app_notifies_a_dropped_setting_and_keeps_the_others(data_dir: Path) -> None:
    data_dir.mkdir()
    (data_dir / "settings.json").write_text('{"players": 4, "target": 7, "name": "Ana"}')
    app = AllFivesApp(speed=0.0)
    async with app.run_test(size=(100, 36)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        assert screen.read_settings() == Settings(players=4, name="Ana")
        assert any("Dropped the remembered target 7" in n for n in _notices(app))


def test_an_explicit_bad_option_is_still_refused(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir.mkdir()
    (data_dir / "settings.json").write_text('{"players": 3, "target": 7}')
    # only remembered settings are dropped: a bad option given now is an error
    assert main(["--target", "12"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == (
        "allfives: Dropped the remembered target 7, no longer valid: "
        "the target must be a multiple of 5."
    )
    assert err[1] == "allfives: error: argument --target: the target must be a multiple of 5"


# -- item 10 (clean-up): temporaries a killed save left behind -------------------------
async def test_stale_temporaries_are_removed_at_start(data_dir: Path) -> None:
    data_dir.mkdir()
    stale_current = data_dir / ".current.json.k1ll3d.tmp"
    stale_settings = data_dir / ".settings.json.k1ll3d.tmp"
    fresh_settings = data_dir / ".settings.json.wr1t1ng.tmp"  # another instance's write
    other = data_dir / ".other.json.x.tmp"
    for tmp in (stale_current, stale_settings, fresh_settings, other):
        tmp.write_text("{")
    old = time.time() - 2 * STALE_SECONDS
    os.utime(stale_settings, (old, old))
    app = AllFivesApp(Settings(seed=2, speed=0.0), start=True, speed=0.0)
    async with app.run_test(size=(100, 36)) as pilot:
        await settle(pilot)
        assert not stale_current.exists() and not stale_settings.exists()
        assert fresh_settings.exists() and other.exists()
        await pilot.press("q")


# -- issue 32, item 3: a save that reads but cannot be resumed -------------------------
def _without_hands(duplicated: bool) -> str:
    """A saved game whose record holds no hands: ``"hands": []``, or a ``"hands"`` key
    given twice, the last one ``[]`` (JSON readers keep the last)."""
    data = json.loads(_game_json())
    if not duplicated:
        data["hands"] = []
        return json.dumps(data)
    text = json.dumps(data)
    assert text.endswith("}")
    return text[:-1] + ', "hands": []}'


@pytest.mark.parametrize("duplicated", [False, True], ids=["empty", "duplicated-key"])
async def test_a_save_without_hands_is_set_aside_at_start(
    data_dir: Path, duplicated: bool
) -> None:
    data_dir.mkdir()
    current = data_dir / "current.json"
    saved = _without_hands(duplicated)
    current.write_text(saved)
    app = AllFivesApp(speed=0.0)
    async with app.run_test(size=(100, 36)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert not app.screen.query("#continue")  # nothing to continue: no crash to come
        (aside,) = data_dir.glob("current.damaged-*.json")
        assert aside.read_text() == saved and not current.exists()
        said = [n for n in _notices(app) if "set aside" in n]
        assert said == [
            "The saved game could not be read (the record holds no hands to resume): "
            f"it is set aside as {aside}."
        ]


@pytest.mark.parametrize("duplicated", [False, True], ids=["empty", "duplicated-key"])
def test_continue_with_a_save_without_hands_exits_2_and_sets_it_aside(
    data_dir: Path, duplicated: bool
) -> None:
    data_dir.mkdir()
    (data_dir / "current.json").write_text(_without_hands(duplicated))
    done = _cli("--continue", data_dir=data_dir)
    (aside,) = data_dir.glob("current.damaged-*.json")
    assert done.returncode == 2
    assert done.stderr == (
        f"allfives: the saved game {data_dir / 'current.json'} cannot be continued: "
        f"the record holds no hands to resume; it is set aside as {aside}\n"
    )
    assert not list(data_dir.glob("crash-*.log"))
    # the next start finds nothing to continue and nothing to set aside
    assert load_current() is None and set_aside_damaged_current() is None


# -- issue 32, item 19: a symbolic link in a loop as current.json ------------------------
def test_continue_sets_a_symlink_loop_aside_as_a_new_game_does(data_dir: Path) -> None:
    data_dir.mkdir()
    current = data_dir / "current.json"
    current.symlink_to("current.json")  # a link to itself
    assert not has_unfinished()
    done = _cli("--continue", data_dir=data_dir)
    (aside,) = data_dir.glob("current.damaged-*.json")
    assert done.returncode == 2
    assert done.stderr.startswith(
        f"allfives: the saved game {current} cannot be continued: cannot read it: "
    )
    assert done.stderr.endswith(f"; it is set aside as {aside}\n")
    assert done.stderr.count("\n") == 1
    assert aside.is_symlink() and not os.path.lexists(current)
    # the new-game start: the same loop is set aside with its new name shown
    current.symlink_to("current.json")
    notice = set_aside_damaged_current()
    (second,) = set(data_dir.glob("current.damaged-*.json")) - {aside}
    assert notice is not None and notice.startswith("The saved game could not be read (cannot ")
    assert notice.endswith(f"it is set aside as {second}.")
