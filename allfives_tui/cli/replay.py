"""``allfives replay FILE [--text] [--all]``: step through a saved game, or print it as text.

A file that cannot be replayed exits with status 2 and one line on stderr,
``allfives: FILE: problem``. When the actions before a bad one are sound, the
full-screen replay first offers to replay up to the last good one. Nothing here
ever writes to the file. A game still in progress is shown as its player saw
it (the other hands face down) unless ``--all`` asks for everything. The
arguments are in :mod:`allfives_tui.cli.parser`.
"""

from __future__ import annotations

import argparse
import os
import sys

from allfives_tui.table.storage import ReplayLoadError, read_replay
from allfives_tui.table.text import render_text
from allfives_tui.table.words import one_line, printable


def _fail(file: str, message: str) -> int:
    print(f"allfives: {printable(file)}: {one_line(message)}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """Replay ``args.file``; 0 on success, 2 for a file that cannot be replayed."""
    file: str = args.file
    try:
        replay = read_replay(file)
    except ReplayLoadError as err:
        if args.text or err.salvage is None or not (sys.stdin.isatty() and sys.stdout.isatty()):
            return _fail(file, err.message)
        from allfives_tui.ui.screens.replay import ReplayApp

        ReplayApp(error=err, path=file, reveal_all=args.reveal_all).run()
        return _fail(file, err.message)
    if args.text:
        try:
            sys.stdout.write(render_text(replay, reveal_all=args.reveal_all))
            sys.stdout.flush()
        except BrokenPipeError:  # e.g. piped into `head`: stop quietly
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 0
    from allfives_tui.ui.screens.replay import ReplayApp

    ReplayApp(replay=replay, title=file, reveal_all=args.reveal_all).run()
    return 0
