"""The ``allfives`` command line: the commands, the parser, and nothing that runs them.

Building the parser imports no Textual and no command module, so ``allfives
--help`` and the headless commands stay quick; each command's arguments are in
:mod:`~allfives_tui.cli.arguments` and are given to it only when it runs, and
argparse's own words come from :mod:`~allfives_tui.cli.argparse_words`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from allfives_tui.cli.argparse_words import Formatter, cut, quoted, speak_argparse, worded
from allfives_tui.cli.arguments import ADD_ARGUMENTS, add_play_arguments
from allfives_tui.locale import N_, _
from allfives_tui.table.words import level_description
from engine.players import LEVELS

PROG = "allfives"

COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("allfives_tui.cli.play", N_("play All Fives full-screen (the default command)")),
    "replay": ("allfives_tui.cli.replay", N_("replay a saved game, or print it as text")),
    "sim": ("allfives_tui.cli.sim", N_("play computer levels against each other, headless")),
    "host": ("allfives_tui.cli.host", N_("open a table to friends across the network, and play")),
    "join": ("allfives_tui.cli.join", N_("join a friend's table (allfives host) from a terminal")),
    "serve": ("allfives_tui.cli.serve", N_("serve the game to web browsers (one game per visit)")),
    "analyse": ("allfives_tui.cli.analyse", N_("rate every decision of a seat in a saved game")),
    "stats": ("allfives_tui.cli.stats", N_("your statistics from the game history")),
    "history": ("allfives_tui.cli.history", N_("list past games, or import saved games")),
}
"""Sub-command name -> (module whose ``run(args)`` runs it, one-line help)."""

DESCRIPTIONS: dict[str, str] = {
    "play": N_("Play All Fives full-screen (the default command)."),
    "replay": N_("Replay a saved game, or print it as text."),
    "sim": N_("Play computer levels against each other, headless."),
    "host": N_("Open a table to friends across the network, and play."),
    "join": N_("Join a friend's table (allfives host) from a terminal."),
    "serve": N_("Serve the game to web browsers (one game per visit)."),
    "analyse": N_("Rate every decision of a seat in a saved game."),
    "stats": N_("Your statistics from the game history."),
    "history": N_("List past games, or import saved games."),
}
"""Each sub-command's ``--help`` description."""

DEFAULT_COMMAND = "play"

USAGE = N_("""\
{prog} [-h] [--version] [play options]
       {prog} play [play options]
       {prog} replay FILE|--last|--game ID [--text] [--all]
       {prog} sim LEVEL LEVEL [LEVEL ...] [sim options]
       {prog} host [--port PORT] [--bind ADDR] [--password PW] [host options]
       {prog} join HOST[:PORT] [--name NAME] [--password PW]
       {prog} serve [--port PORT] [--bind ADDR] [--max-sessions N]
       {prog} analyse FILE [--seat N] [--playouts N] [--json]
       {prog} stats [--player NAME] [--level L] [--players N] [--since D]
                      [--until D] [--json]
       {prog} history [--search WORDS] [-n N] [--json]
       {prog} history import FILE_OR_FOLDER...""")
"""The usage lines (``{prog}``: :data:`PROG`), worded where the parser is built."""

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


def error_lines(prog: str, message: str) -> str:
    """A command-line error as every command says it: the error, then the pointer to
    ``--help`` (two lines, no final newline)."""
    line = _("{prog}: error: {message}").format(prog=prog, message=message)
    hint = _("Try '{prog} --help' for the options.").format(prog=prog)
    return f"{line}\n{hint}"


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (and a pointer to ``--help``), quoting
    at most :data:`QUOTED_CHARS` characters of a bad value."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, error_lines(self.prog, message) + "\n")

    def parse_args(  # type: ignore[override]  # (argparse's overloads: one form is used)
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        """The parsed ``args``; exits 2 naming (the start of) any argument left over."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            left = cut(" ".join(extras))
            self.error(_("unrecognized arguments: {arguments}").format(arguments=left))
        return parsed

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """A value outside an option's choices: one line, the value cut short."""
        if action.choices is not None and value not in action.choices:
            offered = ", ".join(map(repr, action.choices))
            raise argparse.ArgumentError(
                action,
                _("invalid choice: {value} (choose from {offered})").format(
                    value=quoted(value), offered=offered
                ),
            )


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
            ADD_ARGUMENTS[name](self.choices[name])
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
    lines = [f"  {name:<{width}}  {level_description(name)}" for name in LEVELS]
    return _("computer levels (games won, 2 players to 250):") + "\n" + "\n".join(lines)


LEVEL_COMMANDS = ("play", "sim")
"""The commands whose ``--help`` lists the computer levels (and the top one's does)."""

def build_parser(*, complete: bool = False) -> Parser:
    """The whole command line: the play options at the top (play is the default), and
    the sub-commands (each given its arguments when it runs; ``complete`` gives them
    all at once, for a caller that reads the parser)."""
    speak_argparse()
    parser = Parser(
        prog=PROG,
        usage=_(USAGE).format(prog=PROG),
        description=_(
            "All Fives dominoes in the terminal. With no command, opens the game\n"
            "(the play options below apply)."
        ),
        epilog=levels_help()
        + "\n\n"
        + _("Run '{prog} COMMAND --help' for a command's options.").format(prog=PROG),
        formatter_class=Formatter,
        add_help=False,
    )
    worded(parser)
    parser.add_argument("--version", action=_Version, help=_("print the version and exit"))
    add_play_arguments(parser.add_argument_group(_("play options")))
    sub = parser.add_subparsers(
        title=_("commands"), dest="command", metavar="COMMAND", prog=PROG, action=_Commands
    )
    for name, (_module, help_text) in COMMANDS.items():
        # play's own options default to "unset", so `allfives --seed 7 play` keeps the seed
        command = sub.add_parser(
            name,
            help=_(help_text),
            description=_(DESCRIPTIONS[name]),
            argument_default=argparse.SUPPRESS if name == DEFAULT_COMMAND else None,
            epilog=levels_help() if name in LEVEL_COMMANDS else None,
            formatter_class=Formatter,
            add_help=False,
        )
        worded(command)
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
