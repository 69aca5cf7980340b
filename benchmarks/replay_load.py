"""Replay speed: loading a long game's record, and each step to the screen.

Budgets: reading + validating the record of a long
game (4 players to 200) at most 100 ms; each step at most 30 ms to the screen.

    python benchmarks/replay_load.py            # print the figures
    python benchmarks/replay_load.py --check    # exit 1 if over budget

"Load" is ``read_replay``: read the file, parse the JSON, make the engine's
checks, and replay every action once through the engine, keeping every
snapshot (the replay model). ``engine.record.load`` is timed beside it: it
validates the same way but keeps no snapshots. "Step" is a key press in the headless app until every
widget has handled it, plus the compositor rendering the whole screen.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from textual import events

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from allfives_tui.store.saves import read_replay
from engine import Rules, apply, legal_actions, new_game, seeded_deal
from engine.players import make_player
from engine.record import GameRecord, Seat, load, save

LOAD_BUDGET_MS = 100.0
STEP_BUDGET_MS = 30.0


def long_game(seed: int = 3) -> GameRecord:
    """A whole 4-player partnership game to 200 between greedy players."""
    rules = Rules(players=4, partnerships=True)
    state = new_game(rules)
    players = [make_player("greedy", seed + i) for i in range(4)]
    while not state.is_terminal:
        if state.is_chance:
            state = apply(state, seeded_deal(state, seed)).state
        else:
            seat = state.current
            assert seat is not None
            state = apply(state, players[seat].choose(state.view(seat), legal_actions(state))).state
    seats = [Seat(name=n, kind="computer", level="greedy") for n in ("Ann", "Bob", "Cat", "Dan")]
    return GameRecord.from_state(state, seats, seed=seed)


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (
        f"median {statistics.median(ordered):6.1f} ms  p95 {p95:6.1f} ms  max {ordered[-1]:6.1f} ms"
    )


def bench_load(path: Path, runs: int) -> tuple[list[float], list[float], list[float]]:
    """Milliseconds per run: ``read_replay`` (wall, and CPU), and the engine's ``load``."""
    wall, cpu, engine_ms = [], [], []
    for _ in range(runs):
        c0 = time.process_time()
        t0 = time.perf_counter()
        replay = read_replay(path)
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        assert len(replay) == replay.record.action_count
        t1 = time.perf_counter()
        load(path)
        engine_ms.append((time.perf_counter() - t1) * 1000)
    return wall, cpu, engine_ms


async def bench_steps(
    record: GameRecord, steps: int, size: tuple[int, int]
) -> tuple[list[float], list[float], list[float], list[float]]:
    """Per step (→, ←, PgDn mixed), in ms: key to the frame on screen (wall clock, and
    this process's CPU time, which a busy machine does not inflate), key to the last
    repaint it caused, and a full repaint of every cell (the worst case, as after a resize).

    "Key" is the moment the key event reaches the app; "on screen" is the end of
    the first compositor update (what the driver writes to the terminal) after
    the screen has handled the key.
    """
    from allfives_tui.ui.screens.replay import ReplayScreen
    from allfives_tui.ui.screens.replay_app import ReplayApp

    first: list[float] = []
    cpu: list[float] = []
    last: list[float] = []
    full: list[float] = []
    async with ReplayApp(record).run_test(size=size) as pilot:
        await pilot.pause()
        app = pilot.app
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        painted: list[float] = []
        keyed: list[float] = []
        painted_cpu: list[float] = []
        keyed_cpu: list[float] = []
        refresh = screen._compositor_refresh
        on_event = app.on_event

        def timed_refresh() -> None:
            refresh()
            painted.append(time.perf_counter())
            painted_cpu.append(time.process_time())

        async def timed_event(event: Any) -> None:
            if isinstance(event, events.Key):
                keyed.append(time.perf_counter())
                keyed_cpu.append(time.process_time())
            await on_event(event)

        # timing this one screen's paints and this app's keys
        screen._compositor_refresh = timed_refresh  # type: ignore[method-assign]
        app.on_event = timed_event  # type: ignore[method-assign]
        keys = ["right"] * 6 + ["left"] * 2 + ["pagedown"]
        for i in range(steps):
            for stamps in (painted, keyed, painted_cpu, keyed_cpu):
                stamps.clear()
            before = screen.index
            await pilot.press(keys[i % len(keys)])
            await pilot.pause()
            if screen.index == before or not painted or not keyed:
                continue
            first.append((painted[0] - keyed[0]) * 1000)
            cpu.append((painted_cpu[0] - keyed_cpu[0]) * 1000)
            last.append((painted[-1] - keyed[0]) * 1000)
            t1 = time.perf_counter()
            screen._compositor.render_strips()
            full.append((time.perf_counter() - t1) * 1000)
    return first, cpu, last, full


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; with ``--check``, fail when over budget."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="loads to time")
    parser.add_argument("--steps", type=int, default=150, help="steps to time")
    parser.add_argument("--check", action="store_true", help="exit 1 when over budget")
    args = parser.parse_args(argv)

    record = long_game()
    with tempfile.TemporaryDirectory() as tmp:
        path = save(record, Path(tmp) / "long.json")
        size = path.stat().st_size
        load_ms, cpu_ms, engine_ms = bench_load(path, args.runs)
    print(
        f"record: 4 players to 200, {len(record.hands)} hands, "
        f"{record.action_count} actions, {size / 1024:.1f} KiB"
    )
    print(f"load + validate + every snapshot  {_ms(load_ms)}   budget {LOAD_BUDGET_MS:.0f} ms")
    print(f"  same, CPU time only             {_ms(cpu_ms)}")
    print(f"  (engine.record.load alone       {_ms(engine_ms)})")
    ok = max(load_ms) <= LOAD_BUDGET_MS
    for w, h in ((80, 24), (120, 40)):
        first, cpu, last, full = asyncio.run(bench_steps(record, args.steps, (w, h)))
        pad = " " * len(f"step {w}x{h}: ")
        print(f"step {w}x{h}: key to frame on screen {_ms(first)}   budget {STEP_BUDGET_MS:.0f} ms")
        print(f"{pad}  same, CPU time only {_ms(cpu)}")
        print(f"{pad}key to last repaint   {_ms(last)}")
        print(f"{pad}full-screen repaint   {_ms(full)}")
        ok = ok and statistics.median(first) <= STEP_BUDGET_MS
    print("within budget" if ok else "OVER BUDGET")
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    raise SystemExit(main())
