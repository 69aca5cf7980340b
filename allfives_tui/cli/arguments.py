"""Every command's arguments and the types that turn their text into values.

Building them imports no Textual and no command module (only the settings model
and the engine's names of levels and hand sizes). Values are checked by whoever
owns them: a play option by :class:`~allfives_tui.table.settings.Settings`, the
sim options by :class:`engine.match.MatchConfig` and the engine's rules; the
types here only turn text into numbers and offer the fixed choices.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import ValidationError

from allfives_tui.cli.argparse_words import Formatter, cut, quoted, worded
from allfives_tui.locale import N_, _
from allfives_tui.locale.formats import number
from allfives_tui.net import DEFAULT_PORT
from allfives_tui.table.names import player_name
from allfives_tui.table.problems import validation_text
from allfives_tui.table.settings import SPEEDS, Settings
from engine.players import LEVELS
from engine.players.expert import DEFAULT_BUDGET
from engine.rules import MAX_TARGET, HandSize


def describe(err: ValidationError) -> str:
    """The first problem of a validation error, as a short sentence."""
    first = err.errors()[0]
    kind = first["type"]
    if kind in {"int_parsing", "int_type", "int_from_float"}:
        return _("{value} is not a whole number").format(value=quoted(first["input"]))
    if kind in {"float_parsing", "float_type"}:
        return _("{value} is not a number").format(value=quoted(first["input"]))
    return validation_text(first)


PLACES = ("west", "north", "east")
"""The places ``--seat`` names (seat 0, the first person, sits south)."""


def seat_choice(text: str) -> tuple[str, str]:
    """``"north=Ana"`` -> ``("north", "Ana")``: a place code and who sits there."""
    place, sep, who = text.partition("=")
    place, who = place.strip().lower(), who.strip()
    if not sep or place not in PLACES or not who:
        raise argparse.ArgumentTypeError(
            _(
                "{value}: give PLACE=WHO, PLACE one of {places}, "
                "WHO a level ({levels}) or a person's name"
            ).format(value=quoted(text), places=", ".join(PLACES), levels=", ".join(LEVELS))
        )
    return place, who


def given_name(text: str) -> str:
    """An argparse ``type`` for ``--name``: a name given (never blank: leaving ``--name``
    out keeps the remembered name, or the default)."""
    try:
        return player_name(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _add_level(
    parser: argparse._ActionsContainer, levels: Sequence[str], message: str
) -> None:
    """``--level LEVEL``, one of ``levels``: they are listed in its help (``message``, a
    marked message with ``{levels}``), not in the usage line, which they would widen."""
    parser.add_argument(
        "--level", choices=levels, metavar="LEVEL",
        help=_(message).format(levels=", ".join(levels)),
    )


def setting(field: str) -> Callable[[str], Any]:
    """An argparse ``type`` that has :class:`Settings` check the value of one field."""

    def convert(text: str) -> Any:
        try:
            return Settings.check_one(field, text)
        except ValidationError as err:
            raise argparse.ArgumentTypeError(describe(err)) from None

    convert.__name__ = field
    return convert


def add_play_arguments(parser: argparse._ActionsContainer) -> None:
    """The play command's options (they pre-fill the new-game screen)."""
    parser.add_argument(
        "--continue", dest="resume", action="store_true", help=_("resume the unfinished game")
    )
    parser.add_argument(
        "--seed",
        type=setting("seed"),
        metavar="N",
        help=_("fix the shuffle: the same deals every time (a whole number, 0 to 2**63 - 1)"),
    )
    parser.add_argument(
        "--players", type=setting("players"), metavar="N", help=_("2, 3 or 4 players")
    )
    parser.add_argument(
        "--partnerships", action="store_true", help=_("with 4 players, play in partnerships")
    )
    parser.add_argument(
        "--hand-size",
        choices=[h.value for h in HandSize],
        help=_("tiles per hand (standard: 9/7/5 with 2/3/4 players)"),
    )
    parser.add_argument(
        "--target",
        type=setting("target"),
        metavar="POINTS",
        help=_("points to win, a multiple of 5 (default: 250 with 2 players, 200 with 3 or 4)"),
    )
    _add_level(parser, LEVELS, N_("level of every computer seat: {levels}"))
    parser.add_argument(
        "--seat",
        dest="seats",
        action="append",
        type=seat_choice,
        metavar="PLACE=WHO",
        help=_("who sits at west, north or east: a computer level, or a person's name "
        "(hot-seat: people share this terminal); e.g. --seat north=Ana --seat west=expert"),
    )
    parser.add_argument("--name", type=given_name, help=_("your name at the table"))
    parser.add_argument(
        "--speed",
        type=setting("speed"),
        metavar="PACE",
        help=_("seconds a computer move takes to show (0 to 5), or one of {speeds}").format(
            speeds=", ".join(SPEEDS)
        ),
    )
    parser.add_argument(
        "--auto-draw", action="store_true", help=_("draw and pass automatically when nothing fits")
    )
    parser.add_argument(
        "--start", action="store_true", help=_("skip the new-game screen and deal at once")
    )


def add_replay_arguments(parser: argparse._ActionsContainer) -> None:
    """The ``replay`` command's arguments."""
    parser.add_argument(
        "file", metavar="FILE", nargs="?", help=_("a saved game record (JSON)")
    )
    parser.add_argument(
        "--last", action="store_true", help=_("the newest game in the history, instead of a FILE")
    )
    parser.add_argument(
        "--game", metavar="ID",
        help=_("a game in the history by its id (its first characters do; allfives history "
        "lists them), instead of a FILE"),
    )
    parser.add_argument(
        "--text",
        action="store_true",
        help=_("print the game as plain text, hand by hand, instead of opening the replay screen"),
    )
    parser.add_argument(
        "--all",
        dest="reveal_all",
        action="store_true",
        help=_("show every hand and the boneyard even when the game is not over "
        "(a game in progress is otherwise shown as its player saw it)"),
    )


def _whole(low: int, high: int | None, out_of_range: str) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` (to ``high``), else
    ``out_of_range`` (a format string of ``value``) as the error."""

    def parse(text: str) -> int:
        value = _integer(text)
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(_(out_of_range).format(value=quoted(value)))
        return value

    return parse


def _integer(text: str) -> int:
    """An argparse type: a whole number (its range is checked by whoever uses it)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{value} is not a whole number").format(value=quoted(text))
        ) from None


_integer.__name__ = "whole number"


def _number(text: str) -> float:
    """An argparse type: a number (its range is checked by whoever uses it)."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{value} is not a number").format(value=quoted(text))
        ) from None


_workers = _whole(1, None, N_("at least 1 worker, not {value}"))
_port = _whole(1, 65535, N_("a port is 1 to 65535, not {value}"))
_sessions = _whole(1, None, N_("at least 1 session, not {value}"))
_playouts = _whole(1, None, N_("at least 1 playout, not {value}"))
_players = _whole(2, 4, N_("All Fives is for 2, 3 or 4 players, not {value}"))
_count = _whole(1, None, N_("at least 1, not {value}"))


class LevelChoices(tuple[str, ...]):
    """The levels, as argparse ``choices`` that also take ``LEVEL@SECONDS`` (a side's
    own budget, checked by the engine's match config): a name is in them when its
    level is."""

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and super().__contains__(name.partition("@")[0])


def add_sim_arguments(parser: argparse._ActionsContainer) -> None:
    """The ``sim`` command's arguments (checked by the engine's match config and rules)."""
    from engine.match import MAX_BUDGET, MAX_PLAYOUTS

    parser.add_argument(
        "levels",
        nargs="+",
        choices=LevelChoices(LEVELS),
        metavar="LEVEL",
        help=_(
            "one level per player, 2 to 4 ({levels}); with --partnerships, one per "
            "partnership; LEVEL@SECONDS gives a searching level its own --budget"
        ).format(levels=", ".join(LEVELS)),
    )
    parser.add_argument(
        "-n", "--games", type=_integer, default=100,
        help=_("games to play (rounded up to whole duplicate deals; default 100)"),
    )
    parser.add_argument(
        "--partnerships", action="store_true",
        help=_("four players, seats 0+2 (first level) against 1+3 (second level)"),
    )
    parser.add_argument(
        "--target", type=_integer, default=0, metavar="POINTS",
        help=_("points to win, a multiple of 5 up to {most} "
        "(default: 250 with 2 players, 200 with 3 or 4)").format(most=number(MAX_TARGET)),
    )
    parser.add_argument(
        "--hand-size", choices=[h.value for h in HandSize], default=HandSize.STANDARD.value,
        help=_("hand size option (default standard)"),
    )
    parser.add_argument(
        "--seed", type=_integer, default=0, metavar="N",
        help=_("match seed, 0 to 2**63 - 1 (default 0)"),
    )
    parser.add_argument(
        "--budget", type=_number, default=DEFAULT_BUDGET, metavar="SECONDS",
        help=_(
            "searching levels' budget in CPU seconds a move, at most {most} "
            "(default {default}; master: 4x)"
        ).format(most=number(MAX_BUDGET, 2), default=number(DEFAULT_BUDGET, 2)),
    )
    parser.add_argument(
        "--playouts", type=_integer, default=None, metavar="N",
        help=_(
            "searching levels' playouts a move, at most {most} (master: 4x); "
            "with --no-budget, reproducible games"
        ).format(most=number(MAX_PLAYOUTS)),
    )
    parser.add_argument(
        "--no-budget", action="store_true",
        help=_(
            "no time cap for the searching levels (needs --playouts where "
            "LEVEL@SECONDS names none)"
        ),
    )
    parser.add_argument(
        "-w", "--workers", type=_workers, default=os.cpu_count() or 1, metavar="N",
        help=_("worker processes (default: one per core)"),
    )
    parser.add_argument("--json", action="store_true", help=_("print the results as JSON"))
    parser.add_argument("--quiet", action="store_true", help=_("no progress bar"))


def add_serve_arguments(parser: argparse._ActionsContainer) -> None:
    """The ``serve`` command's options."""
    parser.add_argument(
        "--port", type=_port, default=8000, help=_("the port to listen on (default 8000)")
    )
    parser.add_argument(
        "--bind", default="127.0.0.1", metavar="ADDR",
        help=_("the address to listen on (default 127.0.0.1: this machine only; "
        "0.0.0.0 lets other machines play)"),
    )
    parser.add_argument(
        "--max-sessions", type=_sessions, default=10, metavar="N",
        help=_("games at once, one app process each (default 10); more browsers are asked "
        "to come back later"),
    )


def add_analyse_arguments(parser: argparse._ActionsContainer) -> None:
    """The ``analyse`` command's arguments."""
    from allfives_tui.coach.ratings import RATING_PLAYOUTS

    parser.add_argument("file", metavar="FILE", help=_("a saved game record (JSON)"))
    parser.add_argument(
        "--seat", type=_integer, default=None, metavar="N",
        help=_("the seat to review, 0 first (default: the game's one person, else 0)"),
    )
    parser.add_argument(
        "--playouts", type=_playouts, default=RATING_PLAYOUTS, metavar="N",
        help=_(
            "playouts per legal action behind each rating (default {default}, as the app rates)"
        ).format(default=number(RATING_PLAYOUTS)),
    )
    parser.add_argument("--json", action="store_true", help=_("print the review as JSON"))
    parser.add_argument("--quiet", action="store_true", help=_("no progress bar"))


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{value} is not a number of seconds").format(value=quoted(text))
        ) from None
    if not 0 <= value <= 24 * 3600:
        shown_text = cut(text)
        words = _("0 to 86400 seconds, not {value}").format(value=shown_text)
        raise argparse.ArgumentTypeError(words)
    return value


def _open_seats(text: str) -> int:
    value = _workers(text) if text != "0" else 0
    if value > 3:
        raise argparse.ArgumentTypeError(
            _("at most 3 seats besides the host's, not {value}").format(value=value)
        )
    return value


def add_host_arguments(parser: argparse._ActionsContainer) -> None:
    """The ``host`` command's options (the rules are checked by the engine)."""
    parser.add_argument(
        "--port",
        type=_port,
        default=DEFAULT_PORT,
        help=_("the port to listen on (default {port})").format(port=DEFAULT_PORT),
    )
    parser.add_argument(
        "--bind", default="127.0.0.1", metavar="ADDR",
        help=_("the address to listen on (default 127.0.0.1: this computer only; "
        "0.0.0.0 lets your network in, through the firewall)"),
    )
    parser.add_argument(
        "--password", metavar="PW",
        help=_("a password the players must know (or $ALLFIVES_PASSWORD); it is never sent"),
    )
    parser.add_argument("--name", type=given_name, help=_("your name at the table"))
    parser.add_argument(
        "--no-seat", action="store_true",
        help=_("only serve: no screen, no seat; start when the open seats are taken"),
    )
    parser.add_argument(
        "--open", type=_open_seats, metavar="N",
        help=_("seats open for people besides the host's (the rest are computers; default all)"),
    )
    parser.add_argument(
        "--players", type=setting("players"), metavar="N", help=_("2, 3 or 4 players")
    )
    parser.add_argument(
        "--partnerships", action="store_true", help=_("with 4 players, play in partnerships")
    )
    parser.add_argument(
        "--target", type=setting("target"), metavar="POINTS",
        help=_("points to win, a multiple of 5 (default: 250 with 2 players, 200 with 3 or 4)"),
    )
    _add_level(parser, LEVELS, N_("level of every computer seat: {levels}"))
    parser.add_argument("--seed", type=setting("seed"), metavar="N", help=_("fix the shuffle"))
    parser.add_argument(
        "--speed", type=setting("speed"), metavar="PACE",
        help=_("seconds a computer move takes to show (0 to 5), or one of {speeds}").format(
            speeds=", ".join(SPEEDS)
        ),
    )
    parser.add_argument(
        "--grace", type=_seconds, default=60.0, metavar="SECONDS",
        help=_("how long a disconnected player keeps their seat before the computer plays it "
        "(default 60)"),
    )
    parser.add_argument(
        "--summary-timeout", type=_seconds, default=60.0, metavar="SECONDS",
        help=_("how long the next hand waits for everyone to close the summary (default 60)"),
    )
    parser.add_argument(
        "--new", action="store_true",
        help=_("start a new game even if an unfinished one is kept for this port"),
    )


def add_join_arguments(parser: argparse._ActionsContainer) -> None:
    """The ``join`` command's arguments."""
    parser.add_argument(
        "host",
        metavar="HOST[:PORT]",
        help=_("the host's address (port {port})").format(port=DEFAULT_PORT),
    )
    parser.add_argument("--name", type=given_name, help=_("your name at the table"))
    parser.add_argument(
        "--password", metavar="PW", help=_("the table's password (or $ALLFIVES_PASSWORD)")
    )
    parser.add_argument(
        "--token", metavar="TOKEN",
        help=_("rejoin a seat with its token (kept for you in the data folder anyway)"),
    )


def add_stats_arguments(parser: argparse._ActionsContainer) -> None:
    """The ``stats`` command's options (dates are checked by the command)."""
    parser.add_argument(
        "--player", metavar="NAME",
        help=_("whose statistics (default: your name in the settings; in hot-seat games, "
        "each person's own)"),
    )
    _add_level(
        parser, [*LEVELS, "person"], N_("only games against this opponent level: {levels}")
    )
    parser.add_argument("--players", type=_players, metavar="N", help=_("only games of N players"))
    parser.add_argument("--since", metavar="YYYY-MM-DD", help=_("only games from this day on"))
    parser.add_argument("--until", metavar="YYYY-MM-DD", help=_("only games up to this day"))
    parser.add_argument("--json", action="store_true", help=_("print the figures as JSON"))


def add_history_arguments(parser: argparse._ActionsContainer) -> None:
    """``history`` lists the past games; ``history import`` adds saved records."""
    parser.add_argument(
        "--search", metavar="WORDS", help=_("only games whose date, players or result hold WORDS")
    )
    parser.add_argument("-n", "--limit", type=_count, metavar="N", help=_("only the newest N"))
    parser.add_argument("--json", action="store_true", help=_("print the list as JSON"))
    if isinstance(parser, argparse.ArgumentParser):
        actions = parser.add_subparsers(dest="action", metavar="ACTION", title=_("actions"))
        into = actions.add_parser(
            "import",
            help=_("add saved games (ctrl+s copies, old current.json files) to the history"),
            description=_("Add saved games to the history, skipping those it holds already."),
            formatter_class=Formatter,
            add_help=False,
        )
        worded(into)
        into.add_argument(
            "paths", nargs="+", metavar="FILE_OR_FOLDER",
            help=_("record files, or folders whose .json files are imported"),
        )


ADD_ARGUMENTS: dict[str, Callable[[argparse._ActionsContainer], None]] = {
    "play": add_play_arguments,
    "replay": add_replay_arguments,
    "sim": add_sim_arguments,
    "host": add_host_arguments,
    "join": add_join_arguments,
    "serve": add_serve_arguments,
    "analyse": add_analyse_arguments,
    "stats": add_stats_arguments,
    "history": add_history_arguments,
}
