"""Game history speed and size, with 10,000 games recorded through the real path.

Budgets: with 10,000 games in the history, opening
the statistics screen at most 100 ms; ``allfives stats`` at most 300 ms from a
new process; recording a finished game at most 20 ms. The database's size per
game is reported.

    nice -n 10 python benchmarks/history.py              # 10,000 games, print the figures
    python benchmarks/history.py --games 2000 --check    # exit 1 if over budget
    python benchmarks/history.py --keep /tmp/hist        # keep the data folder

Games: a pool of distinct whole games (2 to 4 players, sometimes partnerships,
default targets, random and greedy computers and a person left unnamed; about one in
seven abandoned part way) is played by the engine; each of the 10,000 recordings
is a pool game under a fresh game id and its own start time, recorded as the
app's writer thread records it (:class:`~allfives_tui.store.recorder.Recorder`:
replay the record, insert it in one transaction on the database it keeps open).
"Recording" is that call timed on the last 200 games; 30 more are recorded by
``record_game``, which opens and closes the database (as the first game of a
session does). "Statistics screen" is the headless app from pushing
:class:`StatsScreen` until its first frame with the figures, table and charts is
drawn (what a person sees), seven times in one app, and the first opening in
each of five new apps (through the app's action, half a second after start, as a
person opens it); beside it, the time until the app is idle after that (Pilot's
``pause``, which waits for a 20 ms slice without work, so it adds at least that
and the small frames Textual draws after the first). "allfives stats" is the wall
time of a new ``python -m allfives_tui stats`` process (the command's own
start-up, imports and query included; the file cache is warm).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from allfives_tui.store.history import History, history_path
from allfives_tui.store.recorder import Recorder, record_game
from allfives_tui.table.places import owner_key
from engine import Rules, apply, new_game, seeded_deal
from engine.players import make_player
from engine.record import GameRecord, Seat, new_game_id
from engine.state import Phase

STATS_SCREEN_BUDGET_MS = 100.0
STATS_COMMAND_BUDGET_MS = 300.0
RECORD_BUDGET_MS = 20.0
ROOT = Path(__file__).resolve().parents[1]
START = datetime(2024, 1, 1, 9, 0, tzinfo=UTC)


def pool_game(rng: random.Random) -> GameRecord:
    """One whole (or abandoned) game between engine players, the person in seat 0 left
    unnamed (the history knows them as ``south``), the computers with their places' names."""
    players = rng.choice((2, 2, 3, 4))
    partnerships = players == 4 and rng.random() < 0.4
    seats = [Seat()] + [
        Seat(kind="computer", level=rng.choice(("random", "greedy"))) for _ in range(players - 1)
    ]
    seed = rng.randrange(1, 10**9)
    bots = [make_player(s.level or "greedy", seed=seed * 8 + i) for i, s in enumerate(seats)]
    stop = rng.randrange(20, 200) if rng.random() < 0.15 else None
    state = new_game(Rules(players=players, partnerships=partnerships))
    actions = 0
    while state.phase is not Phase.OVER and (stop is None or actions < stop):
        if state.phase is Phase.DEAL:
            state = apply(state, seeded_deal(state, seed)).state
        else:
            seat = state.current
            assert seat is not None
            view = state.view(seat)
            state = apply(state, bots[seat].choose(view, view.legal_actions())).state
        actions += 1
    return GameRecord.from_state(state, seats, seed=seed)


def fill(
    folder: Path, games: int, pool_size: int, rng: random.Random
) -> tuple[list[float], list[float]]:
    """Record ``games`` games into the history in ``folder``, as the app's writer thread
    does; the last 200 recordings' ms, and 30 more recorded one by one (opening and
    closing the database each time, as a first game after start does)."""
    pool = [pool_game(rng) for _ in range(pool_size)]
    path = history_path(folder)
    recorder = Recorder(path)
    times: list[float] = []
    once: list[float] = []
    for i in range(games + 30):
        base = pool[i % pool_size]
        when = START + timedelta(hours=7 * i + rng.randrange(0, 6))
        record = base.model_copy(
            update={"game_id": new_game_id(), "created": when.isoformat(timespec="seconds")}
        )
        start = time.perf_counter()
        if i < games:
            outcome = recorder.record(record, now=when + timedelta(minutes=20))
        else:
            if i == games:
                recorder.close()
            outcome = record_game(record, path=path, now=when + timedelta(minutes=20))
        elapsed = (time.perf_counter() - start) * 1000
        if not outcome.recorded:
            raise SystemExit(f"recording failed: {outcome.line}")
        if games - 200 <= i < games:
            times.append(elapsed)
        elif i >= games:
            once.append(elapsed)
        if (i + 1) % 1000 == 0:
            print(f"  recorded {i + 1} games", file=sys.stderr)
    return times, once


def _first_complete_frame(screen: Any) -> list[float]:
    """A list that gets the time at which ``screen`` has drawn its first frame after
    its figures came (``screen.loaded``)."""
    drawn: list[float] = []
    render_update = screen._compositor.render_update

    def timed(*args: Any, **kwargs: Any) -> Any:
        complete = screen.loaded  # the figures were in the widgets to draw
        result = render_update(*args, **kwargs)
        if complete and not drawn:
            drawn.append(time.perf_counter())
        return result

    screen._compositor.render_update = timed
    return drawn


async def stats_screen(
    runs: int, baseline: list[float], cpu: list[float], idle: list[float]
) -> list[float]:
    """Milliseconds from pushing the statistics screen until its first frame with the
    figures (table and charts) is drawn; into ``idle``, until the app is idle after it
    (Pilot's ``pause``: at least one 20 ms slice of its own, and the frames Textual
    draws after the first); into ``baseline``, from pushing the help screen until it
    shows; into ``cpu``, the process's CPU time until idle, all threads."""
    from allfives_tui.table.settings import Settings
    from allfives_tui.ui.app import AllFivesApp
    from allfives_tui.ui.screens.help import HelpScreen
    from allfives_tui.ui.screens.stats import StatsScreen

    app = AllFivesApp(Settings(speed=0.0), speed=0.0, autosave=False)
    times: list[float] = []
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        for _ in range(runs):
            plain = HelpScreen()
            start = time.perf_counter()
            app.push_screen(plain)
            await pilot.pause()
            plain._compositor.render_update(full=True)
            baseline.append((time.perf_counter() - start) * 1000)
            app.pop_screen()
            await pilot.pause()
            screen = StatsScreen(owner_key(""))
            drawn = _first_complete_frame(screen)
            start = time.perf_counter()
            cpu_start = time.process_time()
            app.push_screen(screen)
            while not screen.loaded:
                await asyncio.sleep(0.0005)
            await pilot.pause()
            idle.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - cpu_start) * 1000)
            assert drawn, "no frame was drawn with the figures"
            times.append((drawn[0] - start) * 1000)
            assert screen.stats is not None and screen.stats.games > 0
            app.pop_screen()
            await pilot.pause()
    return times


async def _first_open() -> float:
    """In this (new) process: start the app, wait until it is idle, open the
    statistics through the app's own action (its code imported or not, as a person
    finds it); milliseconds until the first frame with the figures."""
    from allfives_tui.table.settings import Settings
    from allfives_tui.ui.app import AllFivesApp

    app = AllFivesApp(Settings(speed=0.0), speed=0.0, autosave=False)
    seen: dict[str, Any] = {}
    push = app.push_screen

    def watched(screen: Any, *args: Any, **kwargs: Any) -> Any:
        if type(screen).__name__ == "StatsScreen":
            seen["screen"], seen["drawn"] = screen, _first_complete_frame(screen)
        return push(screen, *args, **kwargs)

    app.push_screen = watched  # type: ignore[method-assign]  # watching this app's screens
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.pause(0.5)  # a person does not open it in the first half second
        start = time.perf_counter()
        app.action_statistics()
        while "screen" not in seen or not seen["screen"].loaded:
            await asyncio.sleep(0.0005)
        await pilot.pause()
    return float(seen["drawn"][0] - start) * 1000


def first_opens(folder: Path, runs: int) -> list[float]:
    """Milliseconds of the statistics' first opening in a new app, each in a new
    process (:func:`_first_open`)."""
    env = {**os.environ, "ALLFIVES_DATA_DIR": str(folder)}
    times = []
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, __file__, "--first-open"],
            capture_output=True, text=True, cwd=ROOT, env=env, check=True,
        )
        times.append(float(done.stdout.split()[-1]))
    return times


def stats_command(
    folder: Path, runs: int, *argv: str, cpu: list[float] | None = None
) -> list[float]:
    """Wall milliseconds of ``allfives stats`` (or ``argv``) in a new process (and its
    CPU time, user + system, into ``cpu``)."""
    import resource

    env = {**os.environ, "ALLFIVES_DATA_DIR": str(folder)}
    times: list[float] = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "allfives_tui", *(argv or ("stats",))],
            capture_output=True, text=True, cwd=ROOT, env=env, check=False,
        )
        times.append((time.perf_counter() - start) * 1000)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if cpu is not None:
            cpu.append(
                (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
            )
        if done.returncode != 0:
            raise SystemExit(f"allfives stats failed: {done.stderr.strip()}")
    return times


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    median = statistics.median(ordered)
    return f"median {median:6.1f} ms  p95 {p95:6.1f} ms  max {ordered[-1]:6.1f} ms"


def main() -> int:
    """Fill a history, time the three budgets, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--pool", type=int, default=300, help="distinct games played")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--keep", type=Path, help="fill this data folder and keep it")
    parser.add_argument("--check", action="store_true", help="exit 1 if over a budget")
    parser.add_argument(
        "--measure-only", action="store_true",
        help="time an existing --keep folder without recording more games",
    )
    parser.add_argument("--first-open", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.first_open:  # one measure of first_opens, in its own process
        print(f"{asyncio.run(_first_open()):.2f}")
        return 0
    folder = args.keep or Path(tempfile.mkdtemp(prefix="allfives-history-"))
    folder.mkdir(parents=True, exist_ok=True)
    os.environ["ALLFIVES_DATA_DIR"] = str(folder)
    rng = random.Random(args.seed)
    start = time.perf_counter()
    if args.measure_only:
        recording, once = [0.0], [0.0]
    else:
        recording, once = fill(folder, args.games, min(args.pool, args.games), rng)
    filled = time.perf_counter() - start
    with History(history_path(folder)) as history:
        history.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        count = history.count()
        hands = history.conn.execute("SELECT count(DISTINCT game || '.' || hand) FROM hands")
        hand_count = hands.fetchone()[0]
    size = history_path(folder).stat().st_size
    help_screen: list[float] = []
    screen_cpu: list[float] = []
    screen_idle: list[float] = []
    command_cpu: list[float] = []
    version_cpu: list[float] = []
    screen = asyncio.run(stats_screen(7, help_screen, screen_cpu, screen_idle))
    first = first_opens(folder, 5)
    command = stats_command(folder, 7, cpu=command_cpu)
    version = stats_command(folder, 7, "--version", cpu=version_cpu)
    print(f"history: {count} games, {hand_count} hands, filled in {filled:.0f} s ({folder})")
    print(f"database: {size / 1e6:.1f} MB, {size / count / 1024:.2f} KiB a game")
    print(f"record a game (writer, last 200):  {_ms(recording)}  budget {RECORD_BUDGET_MS:.0f}")
    print(f"record a game (open+close, 30):    {_ms(once)}")
    print(f"open the statistics screen:        {_ms(screen)}  budget "
          f"{STATS_SCREEN_BUDGET_MS:.0f}")
    print(f"  the first in a new app (5 apps)  {_ms(first)}")
    print(f"  the same, until the app is idle  {_ms(screen_idle)}")
    print(f"allfives stats, new process:       {_ms(command)}  budget "
          f"{STATS_COMMAND_BUDGET_MS:.0f}")
    print(f"  beside: the help screen          {_ms(help_screen)}")
    print(f"  beside: allfives --version       {_ms(version)}")
    print("CPU time (less touched by other jobs on the machine):")
    print(f"  the statistics screen opening    {_ms(screen_cpu)}")
    print(f"  allfives stats                   {_ms(command_cpu)}")
    print(f"  allfives --version               {_ms(version_cpu)}")
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")
    over = (
        statistics.median(recording) > RECORD_BUDGET_MS
        or statistics.median(screen) > STATS_SCREEN_BUDGET_MS
        or statistics.median(first) > STATS_SCREEN_BUDGET_MS
        or statistics.median(command) > STATS_COMMAND_BUDGET_MS
    )
    if args.check and over:
        print("over budget", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
