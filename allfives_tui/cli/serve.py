"""``allfives serve``: the full game in a web browser, through textual-serve.

Each browser session is its own app process
(:mod:`allfives_tui.cli.serve_session`) with its own data folder under
``sessions/`` in the server's data folder, so sessions never share a lock, an
autosave or settings. The session runs the app in served mode, where no
server path can be typed or is shown (Save a copy… is a browser download,
Open replay… offers the session's own games or a file from the browser).

The server (:mod:`allfives_tui.cli.serve_server`) hands out
:file:`serve_page/app_index.html`, textual-serve's page made to load nothing
from another host (its web font is its own bundled Roboto Mono, not Google
Fonts) and to show the game's name, never the server's command line. It
listens on 127.0.0.1 unless ``--bind`` names another address.
"""

from __future__ import annotations

import argparse
import errno
import shlex
import socket
import sys
from pathlib import Path

from allfives_tui.cli.parser import PROG
from allfives_tui.locale import _
from allfives_tui.store.folder import data_dir

SESSIONS = "sessions"
"""The folder, in the server's data folder, that holds one folder per browser session."""


class ServeError(ValueError):
    """The server cannot start: a port in use, an address this machine does not have."""


def sessions_root() -> Path:
    """Where the sessions' data folders go: ``sessions/`` in the data folder."""
    return data_dir() / SESSIONS


def session_command(root: Path) -> str:
    """The shell command textual-serve runs for each browser session."""
    return " ".join(
        shlex.quote(part)
        for part in (sys.executable, "-m", "allfives_tui.cli.serve_session", str(root))
    )


def check_address(bind: str, port: int) -> None:
    """Raise :class:`ServeError` when ``bind``:``port`` cannot be listened on now."""
    try:
        infos = socket.getaddrinfo(bind, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as err:
        raise ServeError(
            _("cannot listen on {address}: {reason}").format(
                address=repr(bind), reason=err.strerror
            )
        ) from None
    family, kind, proto, _name, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as err:
            if err.errno == errno.EADDRINUSE:
                raise ServeError(
                    _("port {port} is in use on {address}: choose another with --port").format(
                        port=port, address=bind
                    )
                ) from None
            if err.errno == errno.EACCES:
                raise ServeError(
                    _(
                        "port {port} needs special rights here: choose one above 1023 with --port"
                    ).format(port=port)
                ) from None
            why = err.strerror or str(err)
            raise ServeError(
                _("cannot listen on {address} port {port}: {reason}").format(
                    address=bind, port=port, reason=why
                )
            ) from None


def run(args: argparse.Namespace) -> int:
    """Serve the game until Ctrl+C: 0 then; 1 when the server cannot start."""
    bind: str = args.bind
    port: int = args.port
    root = sessions_root()
    try:
        check_address(bind, port)
        root.mkdir(parents=True, exist_ok=True)
    except ServeError as err:
        print(f"{PROG} serve: {err}", file=sys.stderr)
        return 1
    except OSError as err:
        words = _("cannot make {folder}: {reason}").format(folder=root, reason=err.strerror or err)
        print(f"{PROG} serve: {words}", file=sys.stderr)
        return 1
    from allfives_tui.cli.serve_server import GameServer

    server = GameServer(
        session_command(root), host=bind, port=port, root=root, max_sessions=args.max_sessions
    )
    try:
        server.serve()
    except OSError as err:  # lost a race for the port since the check
        words = _("cannot listen on {address} port {port}: {reason}").format(
            address=bind, port=port, reason=err.strerror or err
        )
        print(f"{PROG} serve: {words}", file=sys.stderr)
        return 1
    return 0
