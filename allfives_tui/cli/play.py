"""``allfives [play]``: play All Fives full-screen against computer opponents.

Each option's value was checked on its own by :class:`Settings` while parsing;
here the remembered settings and the options are checked together, again by
:class:`Settings` (which asks the engine's rules about the target).
"""

from __future__ import annotations

import argparse
import sys

from pydantic import ValidationError

from allfives_tui.cli.parser import FLAGS, PROG, describe
from allfives_tui.table import storage
from allfives_tui.table.storage import PERSON, SEAT_NAMES, Settings
from engine.errors import RecordError
from engine.players import LEVELS

_OPTIONS = ("players", "partnerships", "hand_size", "target", "name", "seed", "speed", "auto_draw")
"""Settings fields set by the option of the same name."""


def settings_from(args: argparse.Namespace) -> Settings:
    """The remembered settings, overridden by the command's options.

    Raises :class:`~pydantic.ValidationError` when they do not go together.
    """
    data = storage.load_settings().model_dump()
    for field in _OPTIONS:
        value = getattr(args, field)
        if value is not None and value is not False:  # a switch only ever turns a setting on
            data[field] = value
    if args.level is not None:
        data["levels"] = [args.level] * 3
    for place, who in args.seats or ():
        places = SEAT_NAMES.get(data["players"], ())
        if place not in places:
            at = ", ".join(p.lower() for p in places)
            players = data["players"]
            raise SeatError(f"there is no {place.lower()} seat with {players} players ({at})")
        i = places.index(place)
        if who in LEVELS:
            data["levels"][i] = who
        else:
            data["levels"][i], data["names"][i] = PERSON, who
    return Settings.model_validate(data)


class SeatError(ValueError):
    """A ``--seat`` that names a place the table does not have."""


def _bad_option(err: ValidationError) -> int:
    loc = err.errors()[0]["loc"]
    field = str(loc[0]) if loc else ""
    where = f"argument {FLAGS[field]}: " if field in FLAGS else ""
    print(
        f"{PROG}: error: {where}{describe(err)}\nTry '{PROG} --help' for the options.",
        file=sys.stderr,
    )
    return 2


def run(args: argparse.Namespace) -> int:
    """Run the game; 2 for options that do not go together, 1 when there is nothing to continue."""
    try:
        settings = settings_from(args)
    except ValidationError as err:
        return _bad_option(err)
    except SeatError as err:
        print(f"{PROG}: error: argument --seat: {err}\nTry '{PROG} --help' for the options.",
              file=sys.stderr)
        return 2
    resume = None
    if args.resume:
        try:
            resume = storage.load_current()
        except RecordError as err:
            print(
                f"{PROG}: the saved game {storage.current_path()} cannot be continued: {err}",
                file=sys.stderr,
            )
            return 1
        if resume is None:
            print(
                f"{PROG}: there is no unfinished game to continue (start one with `{PROG}`)",
                file=sys.stderr,
            )
            return 1
    from allfives_tui.ui.app import AllFivesApp

    app = AllFivesApp(settings, resume=resume, start=args.start, speed=args.speed)
    app.run()
    if app.saved_on_exit is not None:
        print(f"Game saved. Continue it with: {PROG} --continue   ({app.saved_on_exit})")
    return 0
