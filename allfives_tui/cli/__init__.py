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

from allfives_tui.cli.parser import COMMANDS, PROG, build_parser, parse
from allfives_tui.locale import UnknownLanguage, _, choose, use_language

__all__ = ["COMMANDS", "build_parser", "main"]


def asked_language(argv: Sequence[str]) -> str | None:
    """The code ``--lang CODE`` (or ``--lang=CODE``) gives, the last one before ``--``."""
    asked = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            asked = argv[i + 1]
        elif arg.startswith("--lang="):
            asked = arg.partition("=")[2]
    return asked


def remembered_language() -> str | None:
    """The language kept in ``settings.json`` (unchecked: :func:`choose` checks it), if any."""
    import json

    from allfives_tui.store.folder import SETTINGS, SETTINGS_MAX_BYTES, data_dir
    from engine.files import read_small_file

    try:
        data = json.loads(read_small_file(data_dir() / SETTINGS, SETTINGS_MAX_BYTES))
    except (OSError, ValueError, RecursionError):
        return None
    code = data.get("language") if isinstance(data, dict) else None
    return code if isinstance(code, str) and code else None


def speak(argv: Sequence[str]) -> None:
    """Speak the language this run asks for: ``--lang``, else the remembered setting, else
    the environment's; an unknown ``--lang`` ends the run (one line, status 2)."""
    asked = asked_language(argv)
    try:
        use_language(choose(asked, None if asked else remembered_language(), os.environ))
    except UnknownLanguage as err:
        use_language("en")
        line = _("{prog}: error: unknown language {code!r}: choose from {codes}").format(
            prog=PROG, code=err.code, codes=", ".join(err.offered)
        )
        print(line, file=sys.stderr)
        raise SystemExit(2) from None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status (2 for a bad command
    line, 1 for a crash: one line on stderr, the traceback in a crash log)."""
    speak(sys.argv[1:] if argv is None else argv)
    args = parse(argv)
    module, _help = COMMANDS[args.command]
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
