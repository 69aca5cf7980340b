"""The ``allfives`` command: play (the default), ``replay FILE [--text]``, ``sim``.

The options of every command are in :mod:`allfives_tui.cli.parser`; each
command's module (``play``, ``replay``, ``sim``) has ``run(args) -> int`` and
is imported only when that command runs, so a headless command never loads
Textual or the other commands.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from collections.abc import Sequence

from allfives_tui.cli.parser import COMMANDS, build_parser, parse

__all__ = ["COMMANDS", "build_parser", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status (2 for a bad command
    line, 1 for a crash: one line on stderr, the traceback in a crash log)."""
    args = parse(argv)
    module, _ = COMMANDS[args.command]
    try:
        status: int = importlib.import_module(module).run(args)
    except BrokenPipeError:
        # the reader went away (``allfives history --json | head``): stop
        # quietly with status 1, as rich's console does for the tables, and
        # keep Python from complaining as it flushes the closed stdout
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as err:  # a crash no command handled: one line, the traceback logged
        from allfives_tui.ui.crash import crash_line

        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
        print(crash_line(f"allfives {args.command}", err), file=sys.stderr)
        status = 1
    crash = sys.modules.get("allfives_tui.ui.crash")
    if crash is not None:  # an app crashed (its command printed the line): end now,
        crash.finish(status)  # without waiting for a thread it left at work
    return status


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
