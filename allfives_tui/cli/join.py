"""``allfives join HOST[:PORT]``: sit at a friend's table, full-screen.

The game screen is the one of a local game; the host's engine judges every
move. Nothing is autosaved here and no data-folder lock is taken; the only
thing kept is the seat's rejoin token (:mod:`allfives_tui.net.tokens`), so the
same command run again after a crash takes the seat back. A lost host is
tried again for a while; then the command says so in one line and exits 1.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from getpass import getuser

from allfives_tui.cli.parser import PROG
from allfives_tui.locale import _
from allfives_tui.net import tokens
from allfives_tui.net.client import JoinError, address, join
from allfives_tui.net.protocol import is_token
from allfives_tui.store.settings_file import load_settings
from allfives_tui.table.names import NAME_MAX, player_name
from allfives_tui.table.words import one_line

PASSWORD_ENV = "ALLFIVES_PASSWORD"


def _fail(message: str, status: int = 1) -> int:
    print(f"{PROG} join: {one_line(message)}", file=sys.stderr)
    return status


def run(args: argparse.Namespace) -> int:
    """Join a table; the exit status."""
    try:
        url = address(args.host)
    except JoinError as err:
        return _fail(str(err), 2)
    remembered = load_settings().name
    try:
        name = player_name(args.name or remembered or getuser())
    except ValueError as err:
        words = _("{problem} (--name: 1 to {most} printable characters)")
        return _fail(words.format(problem=err, most=NAME_MAX), 2)
    password = args.password if args.password is not None else os.environ.get(PASSWORD_ENV, "")
    if args.token is not None and not is_token(args.token):
        return _fail(_("{token} is not a rejoin token").format(token=repr(args.token[:40])), 2)
    token = args.token or tokens.recall(url, name)
    try:
        return asyncio.run(_play(url, args.host, name, password, token))
    except KeyboardInterrupt:
        return _fail(_("stopped"), 130)


async def _play(url: str, where: str, name: str, password: str, token: str | None) -> int:
    try:
        connection = await join(url, name, password, token)
    except JoinError as err:
        return _fail(str(err))
    tokens.remember(url, name, connection.token)
    from allfives_tui.ui.remote import RemoteApp

    app = RemoteApp(connection, connection.seat)
    await app.run_async()
    if app.crash_report is not None:
        print(app.crash_report, file=sys.stderr)
        return 1
    again = f"{PROG} join {where} --name {name}"
    if app.lost:
        return _fail(_("{lost}; when it is back: {again}").format(lost=app.lost, again=again))
    if app.remote is not None and not app.remote.is_over:
        left = _("You left the table; your seat is kept for a while: {again}")
        print(left.format(again=again), file=sys.stderr)
    return app.return_code or 0
