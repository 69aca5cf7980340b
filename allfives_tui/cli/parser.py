"""The ``allfives`` command line: every command's options, and nothing that runs them.

Building the parser imports no Textual and no command module (only the
settings model and the engine's names of levels and hand sizes), so
``allfives --help`` and the headless commands stay quick. Values are checked by
whoever owns them: a play option by :class:`~allfives_tui.table.settings.Settings`,
the sim options by :class:`engine.match.MatchConfig` and the engine's rules;
the parser itself only turns text into numbers and offers the fixed choices.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from pydantic import ValidationError

from allfives_tui.net.protocol import DEFAULT_PORT
from allfives_tui.table.settings import SPEEDS, Settings
from engine.errors import shown
from engine.players import LEVELS, REGISTRY
from engine.players.expert import DEFAULT_BUDGET
from engine.problems import problem_words
from engine.rules import HandSize

PROG = "allfives"

COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("allfives_tui.cli.play", "play All Fives full-screen (the default command)"),
    "replay": ("allfives_tui.cli.replay", "replay a saved game, or print it as text"),
    "sim": ("allfives_tui.cli.sim", "play computer levels against each other, headless"),
    "host": ("allfives_tui.cli.host", "open a table to friends across the network, and play"),
    "join": ("allfives_tui.cli.join", "join a friend's table (allfives host) from a terminal"),
    "serve": ("allfives_tui.cli.serve", "serve the game to web browsers (one game per visit)"),
    "analyse": ("allfives_tui.cli.analyse", "rate every decision of a seat in a saved game"),
    "stats": ("allfives_tui.cli.stats", "your statistics from the game history"),
    "history": ("allfives_tui.cli.history", "list past games, or import saved games"),
}
"""Sub-command name -> (module whose ``run(args)`` runs it, one-line help)."""

DEFAULT_COMMAND = "play"

USAGE = f"""\
{PROG} [-h] [--version] [play options]
       {PROG} play [play options]
       {PROG} replay FILE|--last|--game ID [--text] [--all]
       {PROG} sim LEVEL LEVEL [LEVEL ...] [sim options]
       {PROG} host [--port PORT] [--bind ADDR] [--password PW] [host options]
       {PROG} join HOST[:PORT] [--name NAME] [--password PW]
       {PROG} serve [--port PORT] [--bind ADDR] [--max-sessions N]
       {PROG} analyse FILE [--seat N] [--playouts N] [--json]
       {PROG} stats [--player NAME] [--level L] [--players N] [--since D] [--until D] [--json]
       {PROG} history [--search WORDS] [-n N] [--json] | history import FILE_OR_FOLDER..."""

FLAGS: dict[str, str] = {
    "players": "--players",
    "partnerships": "--partnerships",
    "hand_size": "--hand-size",
    "target": "--target",
    "levels": "--level",
    "names": "--seat",
    "name": "--name",
    "seed": "--seed",
    "speed": "--speed",
    "auto_draw": "--auto-draw",
}
"""Settings field -> the play option that sets it."""


QUOTED_CHARS = 80
"""The most of a bad value an error line quotes."""


def quoted(value: object) -> str:
    """A bad value as an error line quotes it: its repr, at most :data:`QUOTED_CHARS` long."""
    return shown(value, QUOTED_CHARS)


def _cut(text: str) -> str:
    """``text`` on one line, at most :data:`QUOTED_CHARS` characters (then "…")."""
    text = " ".join(text.split())
    return text if len(text) <= QUOTED_CHARS else text[:QUOTED_CHARS] + "…"


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (and a pointer to ``--help``), quoting
    at most :data:`QUOTED_CHARS` characters of a bad value."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\nTry '{self.prog} --help' for the options.\n")

    def parse_args(  # type: ignore[override]  # (argparse's overloads: one form is used)
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        """The parsed ``args``; exits 2 naming (the start of) any argument left over."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {_cut(' '.join(extras))}")
        return parsed

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """A value outside an option's choices: one line, the value cut short."""
        if action.choices is not None and value not in action.choices:
            offered = ", ".join(map(repr, action.choices))
            raise argparse.ArgumentError(
                action, f"invalid choice: {quoted(value)} (choose from {offered})"
            )


def describe(err: ValidationError) -> str:
    """The first problem of a validation error, as a short sentence."""
    first = err.errors()[0]
    kind = first["type"]
    if kind in {"int_parsing", "int_type", "int_from_float"}:
        return f"{quoted(first['input'])} is not a whole number"
    if kind in {"float_parsing", "float_type"}:
        return f"{quoted(first['input'])} is not a number"
    return problem_words(first)


PLACES = ("west", "north", "east")
"""The places ``--seat`` names (seat 0, the first person, sits south)."""


def seat_choice(text: str) -> tuple[str, str]:
    """``"north=Ana"`` -> ``("North", "Ana")``: a place and who sits there."""
    place, sep, who = text.partition("=")
    place, who = place.strip().lower(), who.strip()
    if not sep or place not in PLACES or not who:
        raise argparse.ArgumentTypeError(
            f"{quoted(text)}: give PLACE=WHO, PLACE one of {', '.join(PLACES)}, "
            f"WHO a level ({', '.join(LEVELS)}) or a person's name"
        )
    return place.capitalize(), who


def setting(field: str) -> Callable[[str], Any]:
    """An argparse ``type`` that has :class:`Settings` check the value of one field."""

    def convert(text: str) -> Any:
        try:
            return Settings.check_one(field, text)
        except ValidationError as err:
            raise argparse.ArgumentTypeError(describe(err)) from None

    convert.__name__ = field
    return convert


class _Version(argparse.Action):
    """``--version``: looks the version up only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        from allfives_tui import __version__

        print(f"{PROG} {__version__}")
        parser.exit()


def add_play_arguments(parser: argparse._ActionsContainer) -> None:
    """The play command's options (they pre-fill the new-game screen)."""
    parser.add_argument(
        "--continue", dest="resume", action="store_true", help="resume the unfinished game"
    )
    parser.add_argument(
        "--seed",
        type=setting("seed"),
        metavar="N",
        help="fix the shuffle: the same deals every time (a whole number, 0 to 2**63 - 1)",
    )
    parser.add_argument("--players", type=setting("players"), metavar="N", help="2, 3 or 4 players")
    parser.add_argument(
        "--partnerships", action="store_true", help="with 4 players, play in partnerships"
    )
    parser.add_argument(
        "--hand-size",
        choices=[h.value for h in HandSize],
        help="tiles per hand (standard: 9/7/5 with 2/3/4 players)",
    )
    parser.add_argument(
        "--target",
        type=setting("target"),
        metavar="POINTS",
        help="points to win, a multiple of 5 (default: 250 with 2 players, 200 with 3 or 4)",
    )
    parser.add_argument("--level", choices=LEVELS, help="level of every computer seat")
    parser.add_argument(
        "--seat",
        dest="seats",
        action="append",
        type=seat_choice,
        metavar="PLACE=WHO",
        help="who sits at west, north or east: a computer level, or a person's name "
        "(hot-seat: people share this terminal); e.g. --seat north=Ana --seat west=expert",
    )
    parser.add_argument("--name", type=setting("name"), help="your name at the table")
    parser.add_argument(
        "--speed",
        type=setting("speed"),
        metavar="PACE",
        help=f"seconds a computer move takes to show (0 to 5), or one of {', '.join(SPEEDS)}",
    )
    parser.add_argument(
        "--auto-draw", action="store_true", help="draw and pass automatically when nothing fits"
    )
    parser.add_argument(
        "--start", action="store_true", help="skip the new-game screen and deal at once"
    )


def add_replay_arguments(parser: argparse._ActionsContainer) -> None:
    """The ``replay`` command's arguments."""
    parser.add_argument(
        "file", metavar="FILE", nargs="?", help="a saved game record (JSON)"
    )
    parser.add_argument(
        "--last", action="store_true", help="the newest game in the history, instead of a FILE"
    )
    parser.add_argument(
        "--game", metavar="ID",
        help="a game in the history by its id (its first characters do; allfives history "
        "lists them), instead of a FILE",
    )
    parser.add_argument(
        "--text",
        action="store_true",
        help="print the game as plain text, hand by hand, instead of opening the replay screen",
    )
    parser.add_argument(
        "--all",
        dest="reveal_all",
        action="store_true",
        help="show every hand and the boneyard even when the game is not over "
        "(a game in progress is otherwise shown as its player saw it)",
    )


def _whole(low: int, high: int | None, out_of_range: str) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` (to ``high``), else
    ``out_of_range`` (a format string of ``value``) as the error."""

    def parse(text: str) -> int:
        value = _integer(text)
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(out_of_range.format(value=quoted(value)))
        return value

    return parse


def _integer(text: str) -> int:
    """An argparse type: a whole number (its range is checked by whoever uses it)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a whole number") from None


_integer.__name__ = "whole number"


def _number(text: str) -> float:
    """An argparse type: a number (its range is checked by whoever uses it)."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a number") from None


_workers = _whole(1, None, "at least 1 worker, not {value}")
_port = _whole(1, 65535, "a port is 1 to 65535, not {value}")
_sessions = _whole(1, None, "at least 1 session, not {value}")
_playouts = _whole(1, None, "at least 1 playout, not {value}")
_players = _whole(2, 4, "All Fives is for 2, 3 or 4 players, not {value}")
_count = _whole(1, None, "at least 1, not {value}")


def add_sim_arguments(parser: argparse._ActionsContainer) -> None:
    """The ``sim`` command's arguments (checked by the engine's match config and rules)."""
    from engine.match import MAX_BUDGET, MAX_PLAYOUTS

    parser.add_argument(
        "levels",
        nargs="+",
        choices=LEVELS,
        metavar="LEVEL",
        help=f"one level per player, 2 to 4 ({', '.join(LEVELS)}); "
        "with --partnerships, one per partnership",
    )
    parser.add_argument(
        "-n", "--games", type=_integer, default=100,
        help="games to play (rounded up to whole duplicate deals; default 100)",
    )
    parser.add_argument(
        "--partnerships", action="store_true",
        help="four players, seats 0+2 (first level) against 1+3 (second level)",
    )
    parser.add_argument(
        "--target", type=_integer, default=0, metavar="POINTS",
        help="points to win, a multiple of 5 up to 10000 "
        "(default: 250 with 2 players, 200 with 3 or 4)",
    )
    parser.add_argument(
        "--hand-size", choices=[h.value for h in HandSize], default=HandSize.STANDARD.value,
        help="hand size option (default standard)",
    )
    parser.add_argument(
        "--seed", type=_integer, default=0, metavar="N",
        help="match seed, 0 to 2**63 - 1 (default 0)",
    )
    parser.add_argument(
        "--budget", type=_number, default=DEFAULT_BUDGET, metavar="SECONDS",
        help=f"searching levels' budget in CPU seconds a move, at most {MAX_BUDGET:g} "
        f"(default {DEFAULT_BUDGET}; master: 4x)",
    )
    parser.add_argument(
        "--playouts", type=_integer, default=None, metavar="N",
        help=f"searching levels' playouts a move, at most {MAX_PLAYOUTS:,} (master: 4x); "
        "with --no-budget, reproducible games",
    )
    parser.add_argument(
        "--no-budget", action="store_true",
        help="no time cap for the searching levels (needs --playouts)",
    )
    parser.add_argument(
        "-w", "--workers", type=_workers, default=os.cpu_count() or 1, metavar="N",
        help="worker processes (default: one per core)",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def add_serve_arguments(parser: argparse._ActionsContainer) -> None:
    """The ``serve`` command's options."""
    parser.add_argument(
        "--port", type=_port, default=8000, help="the port to listen on (default 8000)"
    )
    parser.add_argument(
        "--bind", default="127.0.0.1", metavar="ADDR",
        help="the address to listen on (default 127.0.0.1: this machine only; "
        "0.0.0.0 lets other machines play)",
    )
    parser.add_argument(
        "--max-sessions", type=_sessions, default=10, metavar="N",
        help="games at once, one app process each (default 10); more browsers are asked "
        "to come back later",
    )


def add_analyse_arguments(parser: argparse._ActionsContainer) -> None:
    """The ``analyse`` command's arguments."""
    from allfives_tui.coach.ratings import RATING_PLAYOUTS

    parser.add_argument("file", metavar="FILE", help="a saved game record (JSON)")
    parser.add_argument(
        "--seat", type=_integer, default=None, metavar="N",
        help="the seat to review, 0 first (default: the game's one person, else 0)",
    )
    parser.add_argument(
        "--playouts", type=_playouts, default=RATING_PLAYOUTS, metavar="N",
        help=f"playouts per legal action behind each rating (default {RATING_PLAYOUTS}, "
        "as the app rates)",
    )
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a number of seconds") from None
    if not 0 <= value <= 24 * 3600:
        raise argparse.ArgumentTypeError(f"0 to 86400 seconds, not {_cut(text)}")
    return value


def _open_seats(text: str) -> int:
    value = _workers(text) if text != "0" else 0
    if value > 3:
        raise argparse.ArgumentTypeError(f"at most 3 seats besides the host's, not {value}")
    return value


def add_host_arguments(parser: argparse._ActionsContainer) -> None:
    """The ``host`` command's options (the rules are checked by the engine)."""
    parser.add_argument(
        "--port",
        type=_port,
        default=DEFAULT_PORT,
        help=f"the port to listen on (default {DEFAULT_PORT})",
    )
    parser.add_argument(
        "--bind", default="127.0.0.1", metavar="ADDR",
        help="the address to listen on (default 127.0.0.1: this computer only; "
        "0.0.0.0 lets your network in, through the firewall)",
    )
    parser.add_argument(
        "--password", metavar="PW",
        help="a password the players must know (or $ALLFIVES_PASSWORD); it is never sent",
    )
    parser.add_argument("--name", type=setting("name"), help="your name at the table")
    parser.add_argument(
        "--no-seat", action="store_true",
        help="only serve: no screen, no seat; start when the open seats are taken",
    )
    parser.add_argument(
        "--open", type=_open_seats, metavar="N",
        help="seats open for people besides the host's (the rest are computers; default all)",
    )
    parser.add_argument("--players", type=setting("players"), metavar="N", help="2, 3 or 4 players")
    parser.add_argument(
        "--partnerships", action="store_true", help="with 4 players, play in partnerships"
    )
    parser.add_argument(
        "--target", type=setting("target"), metavar="POINTS",
        help="points to win, a multiple of 5 (default: 250 with 2 players, 200 with 3 or 4)",
    )
    parser.add_argument("--level", choices=LEVELS, help="level of every computer seat")
    parser.add_argument("--seed", type=setting("seed"), metavar="N", help="fix the shuffle")
    parser.add_argument(
        "--speed", type=setting("speed"), metavar="PACE",
        help=f"seconds a computer move takes to show (0 to 5), or one of {', '.join(SPEEDS)}",
    )
    parser.add_argument(
        "--grace", type=_seconds, default=60.0, metavar="SECONDS",
        help="how long a disconnected player keeps their seat before the computer plays it "
        "(default 60)",
    )
    parser.add_argument(
        "--summary-timeout", type=_seconds, default=60.0, metavar="SECONDS",
        help="how long the next hand waits for everyone to close the summary (default 60)",
    )
    parser.add_argument(
        "--new", action="store_true",
        help="start a new game even if an unfinished one is kept for this port",
    )


def add_join_arguments(parser: argparse._ActionsContainer) -> None:
    """The ``join`` command's arguments."""
    parser.add_argument(
        "host", metavar="HOST[:PORT]", help=f"the host's address (port {DEFAULT_PORT})"
    )
    parser.add_argument("--name", type=setting("name"), help="your name at the table")
    parser.add_argument(
        "--password", metavar="PW", help="the table's password (or $ALLFIVES_PASSWORD)"
    )
    parser.add_argument(
        "--token", metavar="TOKEN",
        help="rejoin a seat with its token (kept for you in the data folder anyway)",
    )


def add_stats_arguments(parser: argparse._ActionsContainer) -> None:
    """The ``stats`` command's options (dates are checked by the command)."""
    parser.add_argument(
        "--player", metavar="NAME",
        help="whose statistics (default: your name in the settings; in hot-seat games, "
        "each person's own)",
    )
    parser.add_argument(
        "--level", choices=[*LEVELS, "person"], help="only games against this opponent level"
    )
    parser.add_argument("--players", type=_players, metavar="N", help="only games of N players")
    parser.add_argument("--since", metavar="YYYY-MM-DD", help="only games from this day on")
    parser.add_argument("--until", metavar="YYYY-MM-DD", help="only games up to this day")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")


def add_history_arguments(parser: argparse._ActionsContainer) -> None:
    """``history`` lists the past games; ``history import`` adds saved records."""
    parser.add_argument(
        "--search", metavar="WORDS", help="only games whose date, players or result hold WORDS"
    )
    parser.add_argument("-n", "--limit", type=_count, metavar="N", help="only the newest N")
    parser.add_argument("--json", action="store_true", help="print the list as JSON")
    if isinstance(parser, argparse.ArgumentParser):
        actions = parser.add_subparsers(dest="action", metavar="ACTION", title="actions")
        into = actions.add_parser(
            "import",
            help="add saved games (ctrl+s copies, old current.json files) to the history",
            description="Add saved games to the history, skipping those it holds already.",
        )
        into.add_argument(
            "paths", nargs="+", metavar="FILE_OR_FOLDER",
            help="record files, or folders whose .json files are imported",
        )


_ADD_ARGUMENTS: dict[str, Callable[[argparse._ActionsContainer], None]] = {
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


class _Commands(argparse._SubParsersAction):  # type: ignore[type-arg]
    """The sub-commands, each given its arguments only when it is the one run (or asked
    for its ``--help``): the command line of ``allfives stats`` need not import what
    ``allfives analyse`` takes its defaults from."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.filled: set[str] = set()
        """The commands given their arguments."""

    def fill(self, name: str) -> None:
        """Give the command ``name`` its arguments (once)."""
        if name not in self.filled:
            _ADD_ARGUMENTS[name](self.choices[name])
            self.filled.add(name)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        if isinstance(values, Sequence) and values and values[0] in self.choices:
            self.fill(str(values[0]))
        super().__call__(parser, namespace, values, option_string)


def levels_help() -> str:
    """The computer levels, one line each: what each is and how strong it measured."""
    width = max(map(len, LEVELS))
    lines = [f"  {name:<{width}}  {REGISTRY[name].description}" for name in LEVELS]
    return "computer levels (games won, 2 players to 250):\n" + "\n".join(lines)


LEVEL_COMMANDS = ("play", "sim")
"""The commands whose ``--help`` lists the computer levels (and the top one's does)."""


def build_parser(*, complete: bool = False) -> Parser:
    """The whole command line: the play options at the top (play is the default), and
    the sub-commands (each given its arguments when it runs; ``complete`` gives them
    all at once, for a caller that reads the parser)."""
    parser = Parser(
        prog=PROG,
        usage=USAGE,
        description="All Fives dominoes in the terminal. With no command, opens the game\n"
        "(the play options below apply).",
        epilog=f"{levels_help()}\n\nRun '{PROG} COMMAND --help' for a command's options.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    add_play_arguments(parser.add_argument_group("play options"))
    sub = parser.add_subparsers(
        title="commands", dest="command", metavar="COMMAND", prog=PROG, action=_Commands
    )
    for name, (_, help_text) in COMMANDS.items():
        # play's own options default to "unset", so `allfives --seed 7 play` keeps the seed
        sub.add_parser(
            name,
            help=help_text,
            description=help_text[:1].upper() + help_text[1:] + ".",
            argument_default=argparse.SUPPRESS if name == DEFAULT_COMMAND else None,
            epilog=levels_help() if name in LEVEL_COMMANDS else None,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
    if complete:
        assert isinstance(sub, _Commands)
        for name in COMMANDS:
            sub.fill(name)
    return parser


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The parsed command line (``sys.argv`` by default); exits 2 on a bad one."""
    args = build_parser().parse_args(sys.argv[1:] if argv is None else list(argv))
    if args.command is None:
        args.command = DEFAULT_COMMAND
    return args
