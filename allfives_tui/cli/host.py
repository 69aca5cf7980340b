"""``allfives host``: open one table to friends across the network, and play at it.

The host listens on ``127.0.0.1`` unless ``--bind`` says otherwise, prints the
address to give friends, and (unless ``--no-seat``) opens the waiting room on
this terminal, where the host chooses which seats are people and which are
computers and starts. With ``--no-seat`` it only serves: it prints what
happens and starts once every open seat has a player. The game's record and
the players' rejoin tokens are kept in the data folder (``host-PORT``): the
same command run again reopens an unfinished game (``--new`` starts afresh).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import os
import socket
import sys
from getpass import getuser

from pydantic import ValidationError

from allfives_tui.cli.arguments import describe
from allfives_tui.cli.parser import PROG
from allfives_tui.locale import _, pgettext
from allfives_tui.net.host import Host, HostConfig
from allfives_tui.net.hostfiles import (
    HostBusyError,
    HostFiles,
    HostFilesError,
    SavedSeats,
    host_folder,
)
from allfives_tui.store.settings_file import load_settings
from allfives_tui.table.names import player_name
from allfives_tui.table.words import one_line
from engine import Rules
from engine.errors import shown
from engine.players import LEVELS
from engine.record import LoadedGame

PASSWORD_ENV = "ALLFIVES_PASSWORD"
"""A table's password may come from this variable instead of ``--password``."""


def _fail(message: str, status: int = 1) -> int:
    print(f"{PROG} host: {one_line(message)}", file=sys.stderr)
    return status


def lan_address() -> str | None:
    """This machine's address on its network, as friends would type it (no packet is sent)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("10.255.255.255", 1))
        address: str = s.getsockname()[0]
        return address
    return None


def bind_problem(bind: str) -> str | None:
    """Why ``bind`` is not an address to listen on (``None`` when it is one)."""
    if not bind.strip():
        return _(
            "--bind needs an address: 127.0.0.1 (this computer only) or 0.0.0.0 (your network)"
        )
    try:
        socket.getaddrinfo(bind, None, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as err:
        why = err.strerror if isinstance(err, OSError) and err.strerror else _("not a host name")
        return _("cannot listen on {address}: {reason}").format(address=shown(bind, 80), reason=why)
    return None


def default_name() -> str:
    """The host's name at the table when none is given or remembered: the login name, as
    a joiner's (a name, the same in every language), else "Host"."""
    with contextlib.suppress(OSError, KeyError, ValueError):
        return player_name(getuser())
    return pgettext("player name", "Host")


def join_hint(bind: str, port: int, password: bool) -> str:
    """What the host tells friends: the command that joins this table."""
    where = bind
    if bind in {"0.0.0.0", "::", ""}:
        where = lan_address() or socket.gethostname()
    if ":" in where and not where.startswith("["):
        where = f"[{where}]"
    secret = " --password …" if password else ""
    return f"{PROG} join {where}:{port} --name NAME{secret}"


def run(args: argparse.Namespace) -> int:
    """Host a table; the exit status."""
    problem = bind_problem(args.bind)
    if problem is not None:
        return _fail(problem, 2)
    settings = load_settings()
    players = args.players or settings.players
    try:
        rules = Rules(
            players=players,
            partnerships=bool(args.partnerships) and players == 4,
            target=args.target or 0,
        )
    except ValidationError as err:
        return _fail(describe(err), 2)
    if args.partnerships and players != 4:
        return _fail(_("partnerships need 4 players (--players 4)"), 2)
    password = args.password if args.password is not None else os.environ.get(PASSWORD_ENV, "")
    files = HostFiles(host_folder(args.port))
    try:
        files.acquire()
        resume = None if args.new else files.unfinished()
    except HostFilesError as err:
        files.close()
        if isinstance(err, HostBusyError):
            return _fail(str(err))
        return _fail(_("{problem} (--new starts a new game over it)").format(problem=err))
    config = HostConfig(
        rules=resume[0].record.rules if resume else rules,
        level=args.level or next((lv for lv in settings.levels if lv in LEVELS), "greedy"),
        password=password,
        seed=args.seed,
        pace=args.speed if args.speed is not None else settings.speed,
        grace=args.grace,
        summary_timeout=args.summary_timeout,
        host_seat=not args.no_seat,
        host_name=args.name or settings.name or default_name(),
        auto_start=args.no_seat,
        open_seats=args.open,
    )
    try:
        return asyncio.run(_serve(config, files, resume, args))
    except KeyboardInterrupt:
        stopped = _("stopped; run the same command to reopen the game.")
        print(f"{PROG} host: {stopped}", file=sys.stderr)
        return 130
    finally:
        files.close()


async def _serve(
    config: HostConfig,
    files: HostFiles,
    resume: tuple[LoadedGame, SavedSeats] | None,
    args: argparse.Namespace,
) -> int:
    try:
        host = Host(config, files, resume=resume)
    except ValueError as err:
        return _fail(str(err))
    try:
        port = await host.start(args.bind, args.port)
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            why = _("the port is in use (try another --port)")
        else:
            why = err.strerror or str(err)
        return _fail(
            _("cannot listen on {address}: {reason}").format(
                address=f"{args.bind[:80]}:{args.port}", reason=why
            )
        )
    try:
        local = args.bind in {"127.0.0.1", "localhost", "::1"}
        where = f"ws://{args.bind}:{port}"
        hint = join_hint(args.bind, port, bool(config.password))
        if resume is not None:
            game = resume[0].state
            print(
                _(
                    "Reopened the unfinished game (hand {hand}) from {folder}, "
                    "with its own rules and seats (--new starts a new game)."
                ).format(hand=game.hand_number, folder=files.folder)
            )
        hosting = (
            _("Hosting All Fives on {address} (this computer only: --bind 0.0.0.0 lets your "
              "network in).")
            if local
            else _("Hosting All Fives on {address}.")
        )
        print(hosting.format(address=where))
        print(_("Friends join with: {command}").format(command=hint))
        if args.no_seat:
            host.say = lambda text: print(one_line(text), flush=True)
            await host.finished.wait()
            await asyncio.sleep(0.5)  # the players' last messages go out before the close
            if host.errors:
                return _fail(_("the game stopped: {problem}").format(problem=host.errors[0]))
            record = files.folder / "record.json"
            print(_("The game is over; its record is {path}.").format(path=record))
            return 0
        from allfives_tui.ui.remote import RemoteApp

        link = host.local_link()
        joins = _("Friends join with: {command}").format(command=hint)
        app = RemoteApp(link, 0, owner=True, address=joins)
        await app.run_async()
        if app.crash_report is not None:
            print(app.crash_report, file=sys.stderr)
            return 1
        if app.lost:
            return _fail(app.lost)
        table = host.table
        if table is not None and not table.is_over:
            print(
                _(
                    "The game is kept in {folder}: run the same command to reopen it "
                    "(your friends rejoin with the same join command)."
                ).format(folder=files.folder),
                file=sys.stderr,
            )
        return app.return_code or 0
    finally:
        await host.close()
