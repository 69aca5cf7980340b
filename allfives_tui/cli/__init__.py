"""The ``allfives`` command: play (the default), ``replay FILE [--text]``, ``sim``.

Each sub-command lives in its own module exposing ``add_arguments(parser)`` and
``run(args) -> int``; this module only parses and dispatches.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# sub-command name -> (module with add_arguments/run, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("allfives_tui.cli.play", "Play All Fives (the default)"),
    "replay": ("allfives_tui.cli.replay", "Replay a saved game file"),
    "sim": ("allfives_tui.cli.sim", "Play computer players against each other headless"),
}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every registered sub-command."""
    parser = argparse.ArgumentParser(
        prog="allfives",
        description="All Fives dominoes in the terminal.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        sp = sub.add_parser(name, help=help_text, description=help_text)
        importlib.import_module(module).add_arguments(sp)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if "play" in COMMANDS and (not args_list or args_list[0].startswith("-")) and not (
        set(args_list) & {"-h", "--help"}
    ):
        args_list = ["play", *args_list]
    parser = build_parser()
    if not COMMANDS:
        parser.exit(2, "allfives: no commands are available yet in this build\n")
    args = parser.parse_args(args_list)
    if args.command is None:
        parser.print_help()
        return 2
    module, _ = COMMANDS[args.command]
    result: int = importlib.import_module(module).run(args)
    return result


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
