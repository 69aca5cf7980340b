"""Make the SVG screenshots in ``screenshots/`` from the real app.

    python -m allfives_tui.screenshots [--out screenshots] [--lang CODE ...]

Every picture is a fixed seed at a fixed terminal size, so running it again
gives the same files. Saves go to a temporary folder, never the user's.
Besides the English pictures, the game screen is drawn in every language with a
catalog (``game-<lang>-80x24.svg``); ``--lang CODE`` draws only the game screen,
in that language.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from allfives_tui.locale import SOURCE, UnknownLanguage, match, supported, use_language
from engine import GameState, Phase, Rules, apply, new_game, seeded_deal
from engine.record import GameRecord, Seat
from engine.rng import Rng

SEATS = (Seat(), Seat(kind="computer", level="greedy"))
"""The first person and a computer, with their places' default names (You and North)."""
HOT_SEATS = (
    Seat(name="Ben"),
    Seat(kind="computer", level="greedy"),
    Seat(name="Ana"),
    Seat(kind="computer", level="greedy"),
)
"""Two people sharing the terminal, partners against two computers."""
CREATED = "2026-01-01T00:00:00+00:00"


def random_play(
    seed: int,
    moves: int | None = None,
    *,
    players: int = 2,
    partnerships: bool = False,
    target: int = 0,
    hands: int = 1,
) -> GameState:
    """Seeded random legal play: ``moves`` moves into hand 1, or else ``hands`` whole hands.

    With ``moves`` it stops early rather than end the hand; the game also stops
    when a side wins. Screenshots and the app's tests start from these states.
    """
    state = new_game(Rules(players=players, partnerships=partnerships, target=target))
    rng = Rng(seed)
    done = 0
    while not state.is_terminal:
        if state.is_chance:
            if state.hand_number >= hands:
                break
            state = apply(state, seeded_deal(state, seed)).state
            continue
        if moves is not None and done >= moves:
            break
        legal = state.legal_actions()
        nxt = apply(state, legal[rng.below(len(legal))]).state
        if moves is not None and nxt.phase is not Phase.PLAY:
            break
        done += 1
        state = nxt
    return state


def mid_game() -> GameState:
    """The mid-game position of the screenshots and the snapshot tests: the cross
    open on all four ends with bent lines, and the human to play."""
    return random_play(12, 12)


def _record(state: GameState, seats: tuple[Seat, ...] = SEATS) -> GameRecord:
    return GameRecord.from_state(state, seats, seed=1, created=CREATED, game_id="0" * 32)


def hot_seat_game() -> GameRecord:
    """A hot-seat partnership game a few moves in (it opens behind a cover)."""
    return _record(random_play(4, 3, players=4, partnerships=True), HOT_SEATS)


def played_game(seed: int, target: int = 60) -> GameRecord:
    """A finished game: You played by the heuristic level against greedy North."""
    from allfives_tui.table.driver import computer_player
    from allfives_tui.table.table import Table
    from engine.players import make_player

    table = Table(
        new_game(Rules(players=2, target=target)), SEATS, seed, created=CREATED, game_id="1" * 32
    )
    you = make_player("heuristic", seed=seed)
    north = computer_player(seed, 1, table.seats[1].level)
    while not table.is_over:
        turn = table.turn()
        if turn is None:
            table.deal()
            continue
        chooser = you if turn.seat == 0 else north
        table.act(turn.seat, chooser.choose(turn.view, turn.legal))
    return table.record()


Shot = tuple[str, tuple[int, int], GameRecord | None, Callable[..., Awaitable[None]] | None]


async def _game_over(app: object, pilot: Any) -> None:
    """The game-over screen once Enter has gone to "New game", as a person sees it."""
    from allfives_tui.ui.screens.game_over import KEY_AHEAD_GRACE

    await pilot.pause(KEY_AHEAD_GRACE + 0.1)


async def _game_report(app: object, pilot: Any) -> None:
    """From the game-over screen, the game report once its review is complete."""
    from allfives_tui.ui.screens.report import ReportScreen

    await pilot.press("g")
    report = pilot.app.screen
    assert isinstance(report, ReportScreen)
    for _ in range(6000):
        if report.review is not None and report.review.complete:
            break
        await pilot.pause(0.1)


async def _open_replay(app: object, pilot: Any) -> None:
    from allfives_tui.ui.app import AllFivesApp
    from allfives_tui.ui.screens.replay import ReplayScreen

    assert isinstance(app, AllFivesApp)
    record = _record(random_play(14, None, target=0, hands=1))
    # a game still in progress: every hand shown, as `allfives replay --all` does
    app.push_screen(ReplayScreen(record, reveal_all=True))


def language_shot(code: str) -> Shot:
    """The game screen of the mid-game position at 80x24, for language ``code``."""
    return (f"game-{code}-80x24.svg", (80, 24), _record(mid_game()), None)


def shots() -> list[Shot]:
    """(file name, terminal size, game to resume or None, extra step) for each picture."""
    return [
        ("new-game.svg", (80, 24), None, None),
        ("mid-game-80x24.svg", (80, 24), _record(mid_game()), None),
        ("mid-game-large.svg", (140, 40), _record(random_play(1, 19)), None),
        ("hand-summary.svg", (80, 24), _record(random_play(3, None)), None),
        ("game-over.svg", (80, 24), _record(random_play(5, None, target=60, hands=20)), _game_over),
        ("replay.svg", (100, 32), None, _open_replay),
        ("hot-seat-cover.svg", (80, 24), hot_seat_game(), None),
        ("game-report.svg", (100, 30), played_game(7), _game_report),
    ]


async def _shoot(
    out: Path,
    name: str,
    size: tuple[int, int],
    record: GameRecord | None,
    step: Callable[..., Awaitable[None]] | None,
) -> Path:
    from allfives_tui.table.settings import Settings
    from allfives_tui.ui.app import AllFivesApp

    app = AllFivesApp(Settings(speed=0.0), resume=record, speed=0.0, autosave=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        if step is not None:
            await step(app, pilot)
            for _ in range(3):
                await pilot.pause(0.1)
        await pilot.pause()
        path = out / name
        path.write_text(app.export_screenshot(title=f"allfives — {name[:-4]}"), encoding="utf-8")
    return path


def planned(asked: Sequence[str] | None = None) -> list[tuple[str, Shot]]:
    """Each picture to draw and the language to draw it in: every picture in English and
    the game screen in every other language with a catalog; with ``asked`` (codes), the
    game screen in each of those (:class:`UnknownLanguage` for one with no catalog)."""
    offered = supported()
    if asked is None:
        english = [(SOURCE, shot) for shot in shots()]
        return english + [(code, language_shot(code)) for code in offered if code != SOURCE]
    unknown = [code for code in asked if match(code, offered) is None]
    if unknown:
        raise UnknownLanguage(", ".join(unknown), offered)
    codes = [match(code, offered) or SOURCE for code in asked]
    return [(code, language_shot(code)) for code in codes]


def main(argv: list[str] | None = None) -> int:
    """Write every screenshot (with ``--lang``, the game screen in those languages); print
    where."""
    parser = argparse.ArgumentParser(description="Make the SVG screenshots of allfives.")
    parser.add_argument("--out", default="screenshots", help="folder for the SVG files")
    parser.add_argument(
        "--lang",
        action="append",
        metavar="CODE",
        help="draw only the game screen, in this language (again for more); "
        "by default every picture, and the game screen in every language with a catalog",
    )
    args = parser.parse_args(argv)
    try:
        wanted = planned(args.lang)
    except UnknownLanguage as err:
        parser.error(f"no catalog for {err.code}: choose from {', '.join(err.offered)}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    os.environ["ALLFIVES_DATA_DIR"] = tempfile.mkdtemp(prefix="allfives-shots-")
    try:
        for code, (name, size, record, step) in wanted:
            use_language(code)
            path = asyncio.run(_shoot(out, name, size, record, step))
            print(path)
    finally:
        use_language(SOURCE)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
