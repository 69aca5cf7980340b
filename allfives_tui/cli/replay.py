"""``allfives replay FILE [--text] [--all]``: step through a saved game, or print it as text.

``--last`` (the newest game) or ``--game ID`` (its first characters do) replays a
game from the history instead of a file.

A file that cannot be replayed exits with status 2 and one line on stderr,
``allfives: FILE: problem``; a crash exits with status 1 and one line naming
the crash log that holds the traceback. When the actions before a bad one are sound, the
full-screen replay first offers to replay up to the last good one. Nothing here
ever writes to the file. A game still in progress is shown as its player saw
it (the other hands face down) unless ``--all`` asks for everything. The
arguments are in :mod:`allfives_tui.cli.parser`.
"""

from __future__ import annotations

import argparse
import os
import sys

from allfives_tui.cli.parser import PROG, error_lines
from allfives_tui.locale import _
from allfives_tui.store.saves import ReplayLoadError, read_replay
from allfives_tui.table.replay import Replay
from allfives_tui.table.text import render_text
from allfives_tui.table.words import one_line, printable


def _fail(file: str, message: str) -> int:
    print(f"allfives: {printable(file)}: {one_line(message)}", file=sys.stderr)
    return 2


def from_history(args: argparse.Namespace) -> tuple[Replay, str] | str:
    """The game ``--last`` or ``--game ID`` names, and its title; or one line saying why not."""
    from allfives_tui.store.history import History, HistoryError, history_path

    if not history_path().exists():
        return _("there are no games in the history yet")
    try:
        with History() as history:
            if args.last:
                game_id = history.last_game_id()
                if game_id is None:
                    return _("there are no games in the history yet")
            else:
                found = history.find(args.game)
                if not found:
                    return _("no game {id} in the history (allfives history lists them)").format(
                        id=printable(args.game)
                    )
                if len(found) > 1:
                    return _("more than one game starts with {id}: give more of its id").format(
                        id=printable(args.game)
                    )
                game_id = found[0]
            game = history.load(game_id)
    except HistoryError as err:
        return str(err)
    return Replay(game), _("game {id} from the history").format(id=game_id[:8])


def run(args: argparse.Namespace) -> int:
    """Replay ``args.file`` (or a game of the history); 0 on success, 2 for a file that
    cannot be replayed."""
    last: bool = getattr(args, "last", False)
    game: str | None = getattr(args, "game", None)
    file: str | None = args.file
    given = sum((file is not None, last, game is not None))
    if given != 1:
        problem = (
            _("the following arguments are required: FILE (or --last, or --game ID)")
            if not given
            else _("give one of FILE, --last and --game ID, not more")
        )
        print(error_lines(f"{PROG} replay", problem), file=sys.stderr)
        return 2
    if file is None:
        found = from_history(args)
        if isinstance(found, str):
            print(f"allfives: {one_line(found)}", file=sys.stderr)
            return 2
        replay, title = found
        return show(replay, title, args)
    try:
        replay = read_replay(file)
    except ReplayLoadError as err:
        if args.text or err.salvage is None or not (sys.stdin.isatty() and sys.stdout.isatty()):
            return _fail(file, err.message)
        from allfives_tui.ui.screens.replay_app import ReplayApp

        app = ReplayApp(error=err, path=file, reveal_all=args.reveal_all)
        app.run()
        if app.crash_report is not None:
            print(app.crash_report, file=sys.stderr)
            return 1
        return _fail(file, err.message)
    return show(replay, file, args)


def show(replay: Replay, title: str, args: argparse.Namespace) -> int:
    """Print ``replay`` as text (``--text``) or open the replay screen."""
    if args.text:
        try:
            sys.stdout.write(render_text(replay, reveal_all=args.reveal_all))
            sys.stdout.flush()
        except BrokenPipeError:  # e.g. piped into `head`: stop quietly
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 0
    from allfives_tui.ui.screens.replay_app import ReplayApp

    app = ReplayApp(replay=replay, title=title, reveal_all=args.reveal_all)
    app.run()
    if app.crash_report is not None:
        print(app.crash_report, file=sys.stderr)
        return 1
    return 0
