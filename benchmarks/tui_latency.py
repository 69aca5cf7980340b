"""How fast the game app starts and answers keys, at 80x24 and 200x60.

    python benchmarks/tui_latency.py [--runs 5] [--moves 40] [--profile cursor|play]
        [--lang CODE [--rounds 2]] [--help-against REV]

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

``--lang CODE`` measures the same figures in English and in that language side
by side in one run (the cold starts alternate, the keys' games alternate over
``--rounds``), so that both meet the same load of a shared machine, and prints
each language's figure over English's against its budget: cold start <= 1.1x,
keys <= 1.05x. For the keys it prints too the CPU time the app's thread spent
from each key to its frame (medians, each language's over English's): the work
done, which a loaded machine changes far less than the wall-clock figures.
``en_XA`` is the pseudo-locale (every message accented and a third longer),
built from the template for the run. ``--help-against REV``
times ``allfives --help`` here and at the git revision REV (its code taken with
``git archive``), alternately, and prints the medians and their difference
(budget: at most 50 ms slower), and the CPU time each used.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import RenderableType
    from textual.pilot import Pilot
    from textual.screen import Screen

ROOT = Path(__file__).resolve().parents[1]
SIZES = ((80, 24), (200, 60))

START_BUDGET = 0.5
"""Seconds from launch to the first frame."""
START_RATIO = 1.1
"""Another language's cold start over English's, at most."""
KEY_RATIO = 1.05
"""Another language's key to frame over English's, at most."""
HELP_BUDGET = 0.05
"""Seconds ``allfives --help`` may take beyond the revision it is timed against."""
PSEUDO = "en_XA"
"""The pseudo-locale's code: built from the template for the run."""
CURSOR_BUDGET = 0.006
"""Seconds from an arrow key to its frame."""
PLAY_BUDGET = 0.016
"""Seconds from the Enter that plays a tile to its frame."""
QUIET = 0.02
"""Seconds from the last frame to a measured key: more than one 60 fps beat."""

CHILD = """
import sys, time
t0 = float(sys.argv[1]); w, h = int(sys.argv[2]), int(sys.argv[3])
from allfives_tui.locale import use_language
use_language(sys.argv[4])  # as the command line does, before the app is made
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


def cold_start(width: int, height: int, runs: int, langs: tuple[str, ...]) -> dict[str, float]:
    """Median seconds from process launch to the first frame, in each of ``langs`` (their
    launches alternating)."""
    times: dict[str, list[float]] = {lang: [] for lang in langs}
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as data:
        env["ALLFIVES_DATA_DIR"] = data
        for _ in range(runs):
            for lang in langs:
                t0 = time.time()
                out = subprocess.run(
                    [sys.executable, "-c", CHILD, repr(t0), str(width), str(height), lang],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                )
                times[lang].append(float(out.stdout.strip().splitlines()[-1]))
    return {lang: statistics.median(each) for lang, each in times.items()}


@dataclass
class Latency:
    """Seconds from each key press to the frame that shows it, by kind of key; and the
    CPU seconds the app's thread spent meanwhile (what a loaded machine changes least)."""

    cursor: list[float] = field(default_factory=list)
    play: list[float] = field(default_factory=list)
    cursor_cpu: list[float] = field(default_factory=list)
    play_cpu: list[float] = field(default_factory=list)


async def key_latency(
    width: int, height: int, moves: int, profile: str | None = None, lang: str = "en"
) -> tuple[Latency, cProfile.Profile]:
    """Play ``moves`` turns of a seeded game in ``lang``, timing cursor keys and plays.

    With ``profile`` ("cursor" or "play") the profiler runs from each such
    key press to its frame, and only then.
    """
    from allfives_tui.locale import use_language
    from allfives_tui.table.settings import Settings
    from allfives_tui.ui.app import AllFivesApp
    from allfives_tui.ui.screens.dialog import Dialog
    from allfives_tui.ui.screens.game import GameScreen
    from engine import Play

    use_language(lang)
    app = AllFivesApp(Settings(seed=7, speed=0.0), start=True, speed=0.0)
    stamps: list[float] = []
    cpu_stamps: list[float] = []
    original = app._display
    profiler = cProfile.Profile()
    profiling = False

    def display(screen: Screen[Any], renderable: RenderableType | None) -> None:
        nonlocal profiling
        original(screen, renderable)
        if renderable is not None:
            stamps.append(time.perf_counter())
            cpu_stamps.append(time.thread_time())
            if profiling:
                profiler.disable()
                profiling = False

    app._display = display  # type: ignore[method-assign]  # timing this app's frames
    result = Latency()

    async def timed(pilot: Pilot[Any], key: str, kind: str) -> None:
        nonlocal profiling
        await pilot.pause(QUIET)
        while stamps and time.perf_counter() - stamps[-1] < QUIET:
            await asyncio.sleep(0.002)
        seen = len(stamps)
        if profile == kind:
            profiling = True
            profiler.enable()
        t0, c0 = time.perf_counter(), time.thread_time()
        await pilot.press(key)
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
        getattr(result, f"{kind}_cpu").append(cpu_stamps[seen] - c0)

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


def pseudo_locale() -> None:
    """Build the pseudo-locale from the template into a temporary folder, and find it."""
    sys.path.insert(0, str(ROOT))
    from allfives_tui.locale import EXTRA_ENV
    from tests.locale.pseudo import build

    folder = build(Path(tempfile.mkdtemp(prefix="allfives-bench-locale-")))
    os.environ[EXTRA_ENV] = os.pathsep.join(filter(None, (str(folder), os.environ.get(EXTRA_ENV))))


def help_times(rev: str, runs: int) -> dict[str, tuple[float, float]]:
    """``allfives --help`` here and at ``rev``, their runs alternating: for each, the
    median seconds from launch to exit and the median CPU seconds it used (user and
    system: what a loaded machine changes least)."""
    wall: dict[str, list[float]] = {"here": [], rev: []}
    cpu: dict[str, list[float]] = {"here": [], rev: []}
    with tempfile.TemporaryDirectory() as there:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", rev, "allfives_tui", "engine"],
            capture_output=True, check=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", there], input=archive, check=True)
        trees = {"here": str(ROOT), rev: there}
        for _ in range(runs):
            for name, tree in trees.items():
                env = {**os.environ, "PYTHONPATH": tree}
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                t0 = time.perf_counter()
                subprocess.run(
                    [sys.executable, "-m", "allfives_tui", "--help"],
                    env=env, cwd=tree, capture_output=True, check=True,
                )
                wall[name].append(time.perf_counter() - t0)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu[name].append(
                    after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                )
    return {
        name: (statistics.median(wall[name]), statistics.median(cpu[name])) for name in wall
    }


def main() -> int:
    """Print the figures for each terminal size against their budgets (and, with
    ``--lang``, each language's against English's)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="cold starts per size (and language)")
    parser.add_argument("--moves", type=int, default=40, help="turns measured per size")
    parser.add_argument("--profile", choices=("cursor", "play"), help="profile these keys")
    parser.add_argument(
        "--lang", metavar="CODE",
        help=f"measure this language beside English ({PSEUDO}: the pseudo-locale)",
    )
    parser.add_argument(
        "--rounds", type=int, default=2, help="with --lang: keys' games a language, alternating"
    )
    parser.add_argument(
        "--help-against", metavar="REV", help="time `allfives --help` here and at git REV"
    )
    args = parser.parse_args()
    os.environ["ALLFIVES_DATA_DIR"] = tempfile.mkdtemp(prefix="allfives-bench-")  # never yours
    if args.lang == PSEUDO:
        pseudo_locale()
    langs = ("en", args.lang) if args.lang and args.lang != "en" else ("en",)
    rounds = args.rounds if len(langs) > 1 else 1
    print(
        f"{'size':>8}  {'lang':>5}  {'cold start':>10}  {'cursor key':>10}  {'play a tile':>11}"
        "  keys"
    )
    ok = True
    profiler = None
    for w, h in SIZES:
        start = cold_start(w, h, args.runs, langs)
        latency = {lang: Latency() for lang in langs}
        for _ in range(rounds):
            for lang in langs:
                measured, profiler = asyncio.run(
                    key_latency(w, h, args.moves, args.profile, lang)
                )
                latency[lang].cursor += measured.cursor
                latency[lang].play += measured.play
                latency[lang].cursor_cpu += measured.cursor_cpu
                latency[lang].play_cpu += measured.play_cpu
        figures = {
            lang: (
                start[lang],
                statistics.median(latency[lang].cursor),
                statistics.median(latency[lang].play),
            )
            for lang in langs
        }
        for lang in langs:
            begin, cursor, play = figures[lang]
            ok &= begin <= START_BUDGET and cursor <= CURSOR_BUDGET and play <= PLAY_BUDGET
            print(
                f"{w:>4}x{h:<3}  {lang:>5}  {begin * 1000:>8.0f}ms  {cursor * 1000:>8.1f}ms  "
                f"{play * 1000:>9.1f}ms  {len(latency[lang].cursor)} cursor, "
                f"{len(latency[lang].play)} plays"
            )
        if len(langs) > 1:
            english, other = figures["en"], figures[langs[1]]
            ratios = [b / a for a, b in zip(english, other, strict=True)]
            ok &= ratios[0] <= START_RATIO and max(ratios[1:]) <= KEY_RATIO
            print(
                f"{'':>8}  {'ratio':>5}  {ratios[0]:>9.3f}x  {ratios[1]:>9.3f}x  "
                f"{ratios[2]:>10.3f}x  {langs[1]} over en"
            )
            cpu = {
                lang: (
                    statistics.median(latency[lang].cursor_cpu),
                    statistics.median(latency[lang].play_cpu),
                )
                for lang in langs
            }
            (en_cursor, en_play), (cursor, play) = cpu["en"], cpu[langs[1]]
            print(
                f"{'':>8}  {'CPU':>5}  {'':>10}  {en_cursor * 1000:>4.1f}/{cursor * 1000:<4.1f}ms"
                f"  {en_play * 1000:>5.1f}/{play * 1000:<4.1f}ms  the app thread's, en/"
                f"{langs[1]}: {cursor / en_cursor:.3f}x, {play / en_play:.3f}x"
            )
    print(
        f"budgets (medians): cold start <= {START_BUDGET * 1000:.0f} ms, "
        f"cursor key <= {CURSOR_BUDGET * 1000:.0f} ms, play a tile <= {PLAY_BUDGET * 1000:.0f} ms"
        + (
            f"; over English: cold start <= {START_RATIO}x, keys <= {KEY_RATIO}x"
            if len(langs) > 1 else ""
        )
    )
    if args.help_against:
        rev = args.help_against
        times = help_times(rev, args.runs)
        (here, here_cpu), (there, there_cpu) = times["here"], times[rev]
        ok &= here - there <= HELP_BUDGET
        print(
            f"allfives --help (medians of {args.runs}): {here * 1000:.0f} ms here, "
            f"{there * 1000:.0f} ms at {rev}: {(here - there) * 1000:+.0f} ms "
            f"(budget: <= {HELP_BUDGET * 1000:+.0f} ms); CPU {here_cpu * 1000:.0f} ms here, "
            f"{there_cpu * 1000:.0f} ms at {rev}: {(here_cpu - there_cpu) * 1000:+.0f} ms"
        )
    print("all budgets met" if ok else "SOME BUDGETS MISSED")
    if args.profile and profiler is not None:
        print(f"\nwhere the time goes, {args.profile} keys at {SIZES[-1][0]}x{SIZES[-1][1]}:")
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
