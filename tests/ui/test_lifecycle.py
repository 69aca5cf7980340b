"""The app's life as a process (issue 14, items 5, 7 and 10).

- A crash exits non-zero, keeps the autosave, and prints one line naming
  where the game is kept and the crash log holding the traceback.
- Two ``allfives`` on one data folder: one autosaves (an OS lock, freed when
  its process ends, even by ``kill -9``); the other says the game is open
  elsewhere and offers a separate game, not autosaved, or quitting. Replays,
  ``sim`` and help never take the lock.
- ``kill -9`` during fast computer play loses at most the action in progress.

Every test runs real processes: ``allfives`` in a pseudo-terminal, or a
child running the real app headless, each under a timeout.
"""

from __future__ import annotations

import gc
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from allfives_tui.store.folder import current_path
from allfives_tui.store.lock import GameLock
from allfives_tui.store.saves import load_current
from allfives_tui.table.settings import Settings
from allfives_tui.table.table import Table
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.new_game import NewGameScreen
from engine.record import load
from tests.terminal import CTRL_Q, ROOT, Terminal
from tests.ui.helpers import settle
from tests.waiting import block_until


def _env(data_dir: Path) -> dict[str, str]:
    return {**os.environ, "ALLFIVES_DATA_DIR": str(data_dir), "PYTHONPATH": str(ROOT)}


def _wait_for_file(path: Path, timeout: float = 20.0) -> None:
    block_until(path.exists, timeout, f"{path} written")


def _computer_leads(players: int = 4) -> int:
    """A seed at which a computer seat leads the first hand."""
    return next(
        seed
        for seed in range(1, 100)
        if Table.from_settings(Settings(players=players, seed=seed)).to_act != 0
    )


# -- item 5: a crash ---------------------------------------------------------------
CRASHING = textwrap.dedent(
    """
    import sys
    from allfives_tui.ui import app as app_module

    # A fault injected into a real handler: the first computer move is applied
    # (and autosaved), then the handler raises, as a bug in it would.
    applied = app_module.AllFivesApp._answered

    def crashing(self, *args):
        applied(self, *args)
        raise RuntimeError("provoked crash for the test")

    app_module.AllFivesApp._answered = crashing
    from allfives_tui.cli import main
    raise SystemExit(main(sys.argv[1:]))
    """
)


def test_a_crash_exits_non_zero_keeps_the_game_and_names_the_crash_log(data_dir: Path) -> None:
    seed = _computer_leads()
    argv = [sys.executable, "-c", CRASHING, "--start", "--players", "4", "--seed", str(seed),
            "--speed", "0"]
    with Terminal(argv, data_dir) as term:
        status = term.wait(timeout=30)
    assert status == 1
    current = data_dir / "current.json"
    logs = list(data_dir.glob("crash-*.log"))
    assert len(logs) == 1
    assert term.printed == [
        "allfives crashed (RuntimeError: provoked crash for the test): the game is kept in "
        f"{current} (allfives --continue resumes it); the crash log with the traceback is "
        f"{logs[0]}"
    ]
    assert re.fullmatch(r"crash-\d{8}-\d{6}-\d+\.log", logs[0].name)
    log = logs[0].read_text()
    assert log.startswith("Traceback (most recent call last):")
    assert "in crashing" in log and "RuntimeError: provoked crash for the test" in log
    assert "Traceback" not in term.text  # the traceback went to the log, not the terminal
    # the autosave holds the game with the computer's move that came before the crash
    game = load_current()
    assert game is not None
    assert game.record.action_count == 2 and game.record.seed == seed
    # and the crash freed the lock: the game continues in a new process
    with Terminal.allfives("--continue", data_dir=data_dir) as again:
        again.expect("Boneyard")
        again.send(CTRL_Q)
        assert again.wait() == 0
    assert "open in another" not in again.text


# -- item 7: two instances -----------------------------------------------------------
def test_a_second_instance_offers_a_separate_game_or_quitting(data_dir: Path) -> None:
    current = data_dir / "current.json"
    with Terminal.allfives("--start", "--seed", "3", "--speed", "0", data_dir=data_dir) as first:
        first.expect("Boneyard")
        _wait_for_file(current)
        first_game = load(current)
        pid = first.process.pid

        # the second says so and quits when told to, printing no "Game saved"
        with Terminal.allfives("--start", "--seed", "4", data_dir=data_dir) as second:
            second.expect(r"\[y/N\]")
            second.send("n\r")
            assert second.wait() == 1
        assert second.printed[0] == (
            f"The game in progress is open in another allfives (process {pid}), "
            "which autosaves it."
        )
        assert second.printed[-1] == (
            f"allfives: quit; the game stays open in another allfives (process {pid})"
        )
        assert "Game saved" not in second.text

        # --continue is refused at once: that game is being played elsewhere
        done = subprocess.run(
            [sys.executable, "-m", "allfives_tui", "--continue"],
            env=_env(data_dir), cwd=ROOT, capture_output=True, text=True, timeout=20,
        )
        assert done.returncode == 1
        assert done.stderr == (
            f"allfives: the game in progress is open in another allfives (process {pid}): "
            "continue it there\n"
        )

        # a separate game: played, not autosaved, and it says so
        with Terminal.allfives("--start", "--seed", "4", "--speed", "0",
                               data_dir=data_dir) as second:
            second.expect(r"\[y/N\]")
            second.send("y\r")
            second.expect("Boneyard")
            second.expect("not autosaved")  # the notification in the app
            second.send(CTRL_Q)
            assert second.wait() == 0
        assert "Game saved" not in second.text
        assert second.printed[-1] == (
            f"allfives: The game in progress is open in another allfives (process {pid}), "
            "which saves it: this is a separate game and is not autosaved (ctrl+s saves a copy)."
        )
        assert load(current).game_id == first_game.game_id  # the first's game, untouched

        first.send(CTRL_Q)
        assert first.wait() == 0
    assert first.printed == [
        f"Game saved. Continue it with: allfives --continue   ({current})"
    ]
    assert load(current).game_id == first_game.game_id


def test_without_a_terminal_the_second_instance_only_says_so(data_dir: Path) -> None:
    holder = GameLock()
    assert holder.acquire()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "allfives_tui"],
            env=_env(data_dir), cwd=ROOT, capture_output=True, text=True, timeout=20,
            stdin=subprocess.DEVNULL,
        )
    finally:
        holder.release()
    assert done.returncode == 1
    assert done.stderr == (
        f"allfives: the game in progress is open in another allfives (process {os.getpid()}): "
        "quit it there first (or run this one in a terminal to start a separate game)\n"
    )


def test_kill_9_frees_the_lock_and_replay_sim_and_help_never_take_it(data_dir: Path) -> None:
    current = data_dir / "current.json"
    with Terminal.allfives("--start", "--seed", "3", "--speed", "0", data_dir=data_dir) as first:
        first.expect("Boneyard")
        _wait_for_file(current)
        # while it plays: replay (text and screen), sim and help all run
        for argv in (
            ["replay", str(current), "--text"],
            ["--help"],
            ["replay", "--help"],
            ["sim", "random", "random", "-n", "2", "--workers", "1", "--quiet"],
        ):
            done = subprocess.run(
                [sys.executable, "-m", "allfives_tui", *argv],
                env=_env(data_dir), cwd=ROOT, capture_output=True, text=True, timeout=60,
            )
            assert done.returncode == 0, (argv, done.stderr)
            assert "open in another" not in done.stdout + done.stderr
        with Terminal.allfives("replay", str(current), data_dir=data_dir) as replay:
            replay.expect("your view")
            replay.send("q")
            assert replay.wait() == 0
        assert "open in another" not in replay.text
        os.killpg(first.process.pid, signal.SIGKILL)
        first.process.wait(10)
    # the killed process's lock is gone with it
    lock = GameLock()
    assert lock.acquire()
    lock.release()
    # and a replay running does not hold the game back from a new allfives
    with Terminal.allfives("replay", str(current), data_dir=data_dir) as replay:
        replay.expect("your view")
        with Terminal.allfives("--continue", data_dir=data_dir) as game:
            game.expect("Boneyard")
            game.send(CTRL_Q)
            assert game.wait() == 0
        assert "Game saved" in game.text and "open in another" not in game.text
        replay.send("q")
        assert replay.wait() == 0


async def test_an_app_that_finds_the_lock_taken_plays_a_separate_game(data_dir: Path) -> None:
    first = AllFivesApp(Settings(seed=2, speed=0.0), start=True, speed=0.0)
    async with first.run_test(size=(100, 36)) as pilot:
        await settle(pilot)
        await pilot.press("q")
    saved = load(current_path())
    holder = GameLock()  # another process, as far as the app can tell
    assert holder.acquire()
    try:
        app = AllFivesApp(speed=0.0)
        async with app.run_test(size=(100, 36)) as pilot:
            await pilot.pause()
            assert app.separate and app.saver is None
            screen = app.screen
            assert isinstance(screen, NewGameScreen)
            assert not screen.query("#continue")  # that game is being played elsewhere
            assert any("not autosaved" in str(n.message) for n in app._notifications)
            await pilot.press("enter")
            await settle(pilot)
            await pilot.press("q")
        assert app.saved_on_exit is None
    finally:
        holder.release()
    assert load(current_path()) == saved


async def test_start_up_objects_leave_full_collections_while_the_app_runs(
    data_dir: Path,
) -> None:
    """What start-up made is frozen out of the collector's full passes while the app
    runs (no frame pays for a full pass over it) and handed back at exit."""
    assert gc.get_freeze_count() == 0
    app = AllFivesApp(Settings(speed=0.0), speed=0.0, autosave=False)
    async with app.run_test(size=(100, 36)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        frozen = gc.get_freeze_count()
        assert frozen > 10_000  # the modules, styles and first screen, not a handful
        tracked = len(gc.get_objects())
        assert tracked < frozen  # a full pass now meets a fraction of what is alive
        await pilot.press("q")
    assert gc.get_freeze_count() == 0


# -- item 10: kill -9 loses at most the action in progress ---------------------------
FAST_PLAY = textwrap.dedent(
    """
    import asyncio, json
    from allfives_tui.store.folder import current_path
    from allfives_tui.table.settings import Settings
    from allfives_tui.ui.app import AllFivesApp
    from allfives_tui.ui.screens.game import GameScreen

    def on_disk():
        try:
            data = json.loads(current_path().read_bytes())
        except (OSError, ValueError):
            return "-", 0
        return data["game_id"], sum(1 + len(h["actions"]) for h in data["hands"])

    class Shown(AllFivesApp):
        def _changed(self, events):
            # just applied: what the disk holds now, before anything else happens
            saved_id, saved = on_disk()
            super()._changed(events)  # the new snapshot is on the screen
            record = self.table.record()
            same = saved_id == record.game_id
            print(record.game_id, record.action_count, saved if same else -1, flush=True)

    async def main():
        settings = Settings(players=4, seed=SEED, speed=0.0, auto_draw=True)
        app = Shown(settings, start=True, speed=0.0)
        async with app.run_test(size=(100, 36)) as pilot:
            while True:
                await pilot.pause()
                screen = app.screen
                # a person is never quicker than the disk: only the computers race it
                if not isinstance(screen, GameScreen):
                    app.saver.flush()
                    await pilot.press("enter")  # a hand's summary: deal the next hand
                elif screen.human_turn() and not screen.choices().legal_is_automatic:
                    app.saver.flush()
                    await pilot.press("enter")
                    if screen.choosing:
                        app.saver.flush()
                        await pilot.press("enter")

    asyncio.run(main())
    """
)


@pytest.mark.parametrize("seed", [5, 6])
def test_kill_9_during_computer_play_loses_at_most_the_action_in_progress(
    data_dir: Path, seed: int
) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", FAST_PLAY.replace("SEED", str(seed))],
        env=_env(data_dir), stdout=subprocess.PIPE, text=True, cwd=ROOT,
    )
    assert child.stdout is not None
    lines: list[str] = []
    try:
        # kill in a burst of computer moves (a line within 10 ms of the one before),
        # when saves, if they were not waited for, would fall behind
        last = time.monotonic()
        for line in child.stdout:
            lines.append(line)
            now = time.monotonic()
            quick, last = now - last < 0.01, now
            if len(lines) >= 400 or (len(lines) >= 100 and quick):
                break
        child.send_signal(signal.SIGKILL)
        lines.extend(child.stdout.read().splitlines())
        child.wait(10)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(10)
    assert child.returncode == -signal.SIGKILL
    assert len(lines) >= 100
    # as each action was applied, the state before it was already on disk
    behind = [line for line in lines if -1 < int(line.split()[2]) < int(line.split()[1]) - 1]
    assert not behind, behind[:5]
    game_id, shown, _ = lines[-1].split()
    game = load_current()
    assert game is not None and game.record.game_id == game_id
    saved = game.record.action_count
    assert int(shown) - 1 <= saved <= int(shown), (saved, shown)
