"""How fast the game app starts and answers keys, at 80x24 and 200x60.

    python benchmarks/tui_latency.py [--runs 5] [--keys 60]

* **cold start**: a fresh Python process, from launch to the first frame of
  the game screen (imports, settings, the deal, composing, the first render).
  Median of ``--runs`` launches. Target: <= 0.8 s.
* **key to screen**: during play, the time from a key press (arrows and
  number keys choosing tiles; Enter playing one) to the frame that shows the
  result. Median over ``--keys`` presses. Target: <= 30 ms.

The app runs headless (Textual's own test driver) with the frames it would
paint intercepted, so no terminal is needed. Saves go to a temporary folder.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIZES = ((80, 24), (200, 60))

CHILD = """
import sys, time
t0 = float(sys.argv[1]); w, h = int(sys.argv[2]), int(sys.argv[3])
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.table.storage import Settings

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


async def key_latency(width: int, height: int, keys: int) -> tuple[float, float]:
    """Median (selection keys, play key) seconds from a key press to its frame."""
    from allfives_tui.table.storage import Settings
    from allfives_tui.ui.app import AllFivesApp
    from allfives_tui.ui.screens.game import GameScreen
    from engine import Play

    app = AllFivesApp(Settings(seed=7, speed=0.0), start=True, speed=0.0)
    stamps: list[float] = []
    original = app._display

    def display(screen: object, renderable: object) -> None:
        if renderable is not None:
            stamps.append(time.perf_counter())
        original(screen, renderable)  # type: ignore[arg-type]

    app._display = display  # type: ignore[method-assign]
    select: list[float] = []
    play: list[float] = []

    async def frame_after(t0: float) -> float:
        for _ in range(2000):
            hit = [s for s in stamps if s >= t0]
            if hit:
                return hit[0] - t0
            await asyncio.sleep(0.0005)
        raise RuntimeError("no frame after the key")

    async with app.run_test(size=(width, height), headless=True) as pilot:
        n = 0
        while len(select) < keys:
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause(0.02)
            screen = app.screen
            if not isinstance(screen, GameScreen):
                await pilot.press("enter")  # deal the next hand / leave a summary
                if not isinstance(app.screen, GameScreen):
                    break
                continue
            if not screen.human_turn():
                continue
            legal = screen.legal()
            if not any(isinstance(a, Play) for a in legal):
                await pilot.press("d" if type(legal[0]).__name__ == "Draw" else "p")
                continue
            size = min(len(screen.shown_hand()), 9)
            keys_now: list[str] = ["right", "right", "left"] if size > 1 else []
            for key in keys_now + ["number"] * (size > 1):
                if key == "number":
                    choices = [k for k in range(1, size + 1) if k != screen.selected + 1]
                    key = str(choices[n % len(choices)])
                t0 = time.perf_counter()
                await pilot.press(key)
                select.append(await frame_after(t0))
                n += 1
            play_tile = next(a for a in legal if isinstance(a, Play)).tile
            screen.selected = screen.shown_hand().index(play_tile)
            screen.render_state()
            await pilot.pause()
            t0 = time.perf_counter()
            await pilot.press("enter")
            play.append(await frame_after(t0))
            if screen.choosing:
                await pilot.press("enter")
    return statistics.median(select), statistics.median(play)


def main() -> int:
    """Print the figures for each terminal size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="cold starts per size")
    parser.add_argument("--keys", type=int, default=60, help="selection keys per size")
    args = parser.parse_args()
    os.environ.setdefault("ALLFIVES_DATA_DIR", tempfile.mkdtemp(prefix="allfives-bench-"))
    print(f"{'size':>8}  {'cold start':>10}  {'key→screen':>10}  {'play→screen':>11}")
    ok = True
    for w, h in SIZES:
        start = cold_start(w, h, args.runs)
        sel, ply = asyncio.run(key_latency(w, h, args.keys))
        ok &= start <= 0.8 and sel <= 0.030
        print(f"{w:>4}x{h:<3}  {start * 1000:>8.0f}ms  {sel * 1000:>8.1f}ms  {ply * 1000:>9.1f}ms")
    print("targets: cold start <= 800 ms, key to screen <= 30 ms (median)")
    print("all targets met" if ok else "SOME TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
