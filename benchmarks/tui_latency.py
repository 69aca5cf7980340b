"""How fast the game app starts and answers keys, at 80x24 and 200x60.

    python benchmarks/tui_latency.py [--runs 5] [--moves 40] [--profile cursor|play]

Three figures a terminal size, each a median, against its budget:

* **cold start**: a fresh Python process, from launch to the first frame of
  the game screen (imports, settings, the deal, composing, the first render).
  Median of ``--runs`` launches. Budget: <= 0.5 s.
* **cursor key**: during play, an arrow key moving the selection in the hand,
  to the frame that shows it (the hand, the ends the tile fits and the
  prompt change; nothing else). Budget: <= 6 ms.
* **play a tile**: the Enter that plays a tile, to the frame that shows the
  table after it (board, hand, scores, log). Budget: <= 16 ms.

Each of the ``--moves`` turns measured gives three cursor keys and one play.
Textual paints at most 60 frames a second, on a fixed beat: a key pressed
within 1/60 s of the last frame waits for the next beat whatever its cost.
Each measured key is therefore pressed a little over a beat after the last
frame, so the figures are the app's own work, not where the beat fell.
``--profile cursor`` or ``--profile play`` also prints where the time goes
(cProfile, only from each key press to its frame), for 200x60.

The app runs headless (Textual's own test driver) with the frames it would
paint intercepted, so no terminal is needed. Saves go to a temporary folder.
A hand's summary is left with Enter at once (its grace set to none), so the
game goes on into the next hands until ``--moves`` plays are timed.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIZES = ((80, 24), (200, 60))

START_BUDGET = 0.5
"""Seconds from launch to the first frame."""
CURSOR_BUDGET = 0.006
"""Seconds from an arrow key to its frame."""
PLAY_BUDGET = 0.016
"""Seconds from the Enter that plays a tile to its frame."""
QUIET = 0.02
"""Seconds from the last frame to a measured key: more than one 60 fps beat."""

CHILD = """
import sys, time
t0 = float(sys.argv[1]); w, h = int(sys.argv[2]), int(sys.argv[3])
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.table.settings import Settings

app = AllFivesApp(Settings(seed=7, speed=5.0), start=True, speed=5.0)
stamps = []
original = app._display
def display(screen, renderable):
    if renderable is not None and not stamps:
        stamps.append(time.time())
    original(screen, renderable)
app._display = display

async def first_frame(pilot):
    while not stamps:
        await pilot.pause(0.001)
    print(stamps[0] - t0)
    app.exit()

app.run(headless=True, size=(w, h), auto_pilot=first_frame)
"""


def cold_start(width: int, height: int, runs: int) -> float:
    """Median seconds from process launch to the first frame."""
    times = []
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as data:
        env["ALLFIVES_DATA_DIR"] = data
        for _ in range(runs):
            t0 = time.time()
            out = subprocess.run(
                [sys.executable, "-c", CHILD, repr(t0), str(width), str(height)],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            times.append(float(out.stdout.strip().splitlines()[-1]))
    return statistics.median(times)


@dataclass
class Latency:
    """Seconds from each key press to the frame that shows it, by kind of key."""

    cursor: list[float] = field(default_factory=list)
    play: list[float] = field(default_factory=list)


async def key_latency(
    width: int, height: int, moves: int, profile: str | None = None
) -> tuple[Latency, cProfile.Profile]:
    """Play ``moves`` turns of a seeded game, timing cursor keys and plays.

    With ``profile`` ("cursor" or "play") the profiler runs from each such
    key press to its frame, and only then.
    """
    from allfives_tui.table.settings import Settings
    from allfives_tui.ui.app import AllFivesApp
    from allfives_tui.ui.screens.dialog import Dialog
    from allfives_tui.ui.screens.game import GameScreen
    from engine import Play

    app = AllFivesApp(Settings(seed=7, speed=0.0), start=True, speed=0.0)
    stamps: list[float] = []
    original = app._display
    profiler = cProfile.Profile()
    profiling = False

    def display(screen: object, renderable: object) -> None:
        nonlocal profiling
        original(screen, renderable)  # type: ignore[arg-type]
        if renderable is not None:
            stamps.append(time.perf_counter())
            if profiling:
                profiler.disable()
                profiling = False

    app._display = display  # type: ignore[method-assign]
    result = Latency()

    async def timed(pilot: object, key: str, kind: str) -> None:
        nonlocal profiling
        await pilot.pause(QUIET)  # type: ignore[attr-defined]
        while stamps and time.perf_counter() - stamps[-1] < QUIET:
            await asyncio.sleep(0.002)
        seen = len(stamps)
        if profile == kind:
            profiling = True
            profiler.enable()
        t0 = time.perf_counter()
        await pilot.press(key)  # type: ignore[attr-defined]
        for _ in range(4000):
            if len(stamps) > seen:
                break
            await asyncio.sleep(0.0005)
        else:
            raise RuntimeError(f"no frame after {key!r}")
        if profiling:
            profiler.disable()
            profiling = False
        getattr(result, kind).append(stamps[seen] - t0)

    async with app.run_test(size=(width, height), headless=True) as pilot:
        while len(result.play) < moves:
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause(0.02)
            screen = app.screen
            if not isinstance(screen, GameScreen):
                if isinstance(screen, Dialog):
                    screen.grace = None  # Enter acts at once, not after the dialog's grace
                await pilot.press("enter")  # deal the next hand / leave a summary
                await pilot.pause()
                if not isinstance(app.screen, GameScreen):
                    break
                continue
            if not screen.human_turn():
                continue
            legal = screen.legal()
            plays = [a for a in legal if isinstance(a, Play)]
            if not plays:
                await pilot.press("d" if type(legal[0]).__name__ == "Draw" else "p")
                continue
            # a drawn tile that fits is played at once: the cursor keys do nothing then
            if len(screen.shown_hand()) > 1 and not screen.choices().drawn_to_play:
                for key in ("right", "right", "left"):
                    await timed(pilot, key, "cursor")
            tile = plays[0].tile
            index = screen.shown_hand().index(tile)
            if index < 9:
                await pilot.press(str(index + 1))
            else:
                screen.selected = index
            if sum(1 for a in plays if a.tile == tile) > 1:
                await pilot.press("enter")  # choose among the ends: the next Enter plays
            await timed(pilot, "enter", "play")
    return result, profiler


def main() -> int:
    """Print the figures for each terminal size against their budgets."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="cold starts per size")
    parser.add_argument("--moves", type=int, default=40, help="turns measured per size")
    parser.add_argument("--profile", choices=("cursor", "play"), help="profile these keys")
    args = parser.parse_args()
    os.environ["ALLFIVES_DATA_DIR"] = tempfile.mkdtemp(prefix="allfives-bench-")  # never yours
    print(f"{'size':>8}  {'cold start':>10}  {'cursor key':>10}  {'play a tile':>11}  keys")
    ok = True
    profiler = None
    for w, h in SIZES:
        start = cold_start(w, h, args.runs)
        latency, profiler = asyncio.run(key_latency(w, h, args.moves, args.profile))
        cursor, play = statistics.median(latency.cursor), statistics.median(latency.play)
        ok &= start <= START_BUDGET and cursor <= CURSOR_BUDGET and play <= PLAY_BUDGET
        print(
            f"{w:>4}x{h:<3}  {start * 1000:>8.0f}ms  {cursor * 1000:>8.1f}ms  "
            f"{play * 1000:>9.1f}ms  {len(latency.cursor)} cursor, {len(latency.play)} plays"
        )
    print(
        f"budgets (medians): cold start <= {START_BUDGET * 1000:.0f} ms, "
        f"cursor key <= {CURSOR_BUDGET * 1000:.0f} ms, play a tile <= {PLAY_BUDGET * 1000:.0f} ms"
    )
    print("all budgets met" if ok else "SOME BUDGETS MISSED")
    if args.profile and profiler is not None:
        print(f"\nwhere the time goes, {args.profile} keys at {SIZES[-1][0]}x{SIZES[-1][1]}:")
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
