"""``allfives [play]``: play All Fives full-screen against computer opponents."""

from __future__ import annotations

import argparse
import sys

from pydantic import ValidationError

from allfives_tui.table import storage
from allfives_tui.table.storage import SPEEDS, Settings
from engine import HandSize
from engine.errors import RecordError
from engine.players import LEVELS


def _speed(text: str) -> float:
    if text in SPEEDS:
        return SPEEDS[text]
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a pace: give seconds (e.g. 0.5) or one of {', '.join(SPEEDS)}"
        ) from None
    if not 0 <= value <= 5:
        raise argparse.ArgumentTypeError("the pace must be between 0 and 5 seconds a move")
    return value


def _players(text: str) -> int:
    if text not in {"2", "3", "4"}:
        raise argparse.ArgumentTypeError(f"{text!r}: All Fives is for 2, 3 or 4 players")
    return int(text)


def _seed(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a seed: give a whole number")
    return int(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The play command's options (they pre-fill the new-game screen)."""
    parser.add_argument(
        "--continue", dest="resume", action="store_true", help="resume the unfinished game"
    )
    parser.add_argument("--seed", type=_seed, help="fix the shuffle (the same deals every time)")
    parser.add_argument("--players", type=_players, help="2, 3 or 4 players")
    parser.add_argument(
        "--partnerships", action="store_true", help="with 4 players, play in partnerships"
    )
    parser.add_argument(
        "--hand-size",
        choices=[h.value for h in HandSize],
        help="tiles per hand option (standard: 9/7/5)",
    )
    parser.add_argument("--target", type=int, help="points to win (a multiple of 5)")
    parser.add_argument("--level", choices=LEVELS, help="level of every computer seat")
    parser.add_argument("--name", help="your name at the table")
    parser.add_argument(
        "--speed",
        type=_speed,
        help=f"seconds a computer move takes to show, or {', '.join(SPEEDS)}",
    )
    parser.add_argument(
        "--auto-draw", action="store_true", help="draw and pass automatically when nothing fits"
    )
    parser.add_argument(
        "--start", action="store_true", help="skip the new-game screen and deal at once"
    )


def settings_from(args: argparse.Namespace) -> Settings:
    """The remembered settings, overridden by the command's options."""
    s = storage.load_settings()
    data = s.model_dump()
    if args.players is not None:
        data["players"] = args.players
    if args.partnerships:
        data["partnerships"] = True
    if args.hand_size is not None:
        data["hand_size"] = args.hand_size
    if args.target is not None:
        data["target"] = args.target
    if args.level is not None:
        data["levels"] = [args.level] * 3
    if args.name is not None:
        data["name"] = args.name
    if args.seed is not None:
        data["seed"] = args.seed
    if args.speed is not None:
        data["speed"] = args.speed
    if args.auto_draw:
        data["auto_draw"] = True
    settings = Settings.model_validate(data)
    settings.rules()  # raises ValueError on a bad combination
    return settings


def run(args: argparse.Namespace) -> int:
    """Run the game; 1 with a message when there is nothing to continue or an option is wrong."""
    try:
        settings = settings_from(args)
    except ValidationError as err:
        first = err.errors()[0]
        msg = str(first["msg"]).removeprefix("Value error, ")
        where = ".".join(str(p) for p in first["loc"])
        print(f"allfives: bad option{' --' + where if where else ''}: {msg}", file=sys.stderr)
        return 2
    except ValueError as err:
        print(f"allfives: bad option: {err}", file=sys.stderr)
        return 2
    resume = None
    if args.resume:
        try:
            resume = storage.load_current()
        except RecordError as err:
            print(
                f"allfives: the saved game {storage.current_path()} cannot be continued: {err}",
                file=sys.stderr,
            )
            return 1
        if resume is None:
            print(
                "allfives: there is no unfinished game to continue "
                "(start one with `allfives`)",
                file=sys.stderr,
            )
            return 1
    from allfives_tui.ui.app import AllFivesApp

    app = AllFivesApp(settings, resume=resume, start=args.start, speed=args.speed)
    app.run()
    if app.saved_on_exit is not None:
        print(f"Game saved. Continue it with: allfives --continue   ({app.saved_on_exit})")
    return 0
