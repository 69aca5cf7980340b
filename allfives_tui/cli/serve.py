"""``allfives serve``: the full game in a web browser, through textual-serve.

Each browser session is its own app process
(:mod:`allfives_tui.cli.serve_session`) with its own data folder under
``sessions/`` in the server's data folder, so sessions never share a lock, an
autosave or settings. The session runs the app in served mode, where no
server path can be typed or is shown (Save a copy… is a browser download,
Open replay… offers the session's own games or a file from the browser).

The page is :file:`serve_page/app_index.html`, textual-serve's page made to
load nothing from another host (its web font is its own bundled Roboto Mono,
not Google Fonts) and to show the game's name, never the server's command
line. The server listens on 127.0.0.1 unless ``--bind`` names another address.
"""

from __future__ import annotations

import argparse
import errno
import shlex
import socket
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from allfives_tui.cli.parser import PROG
from allfives_tui.table import storage

PAGE_FOLDER = Path(__file__).with_name("serve_page")
"""The folder of the page template (``app_index.html``)."""
SESSIONS = "sessions"
"""The folder, in the server's data folder, that holds one folder per browser session."""
TITLE = "All Fives"
DEFAULT_BIND = "127.0.0.1"
DEFAULT_PORT = 8000
FULL_CODE = 4029
"""The WebSocket close code (an application's own, 4000-4999) for "too many games"."""


class ServeError(ValueError):
    """The server cannot start: a port in use, an address this machine does not have."""


def sessions_root() -> Path:
    """Where the sessions' data folders go: ``sessions/`` in the data folder."""
    return storage.data_dir() / SESSIONS


def session_command(root: Path) -> str:
    """The shell command textual-serve runs for each browser session."""
    return " ".join(
        shlex.quote(part)
        for part in (sys.executable, "-m", "allfives_tui.cli.serve_session", str(root))
    )


def page_url(bind: str, port: int) -> str:
    """The address to open: ``http://127.0.0.1:8000`` (an IPv6 address in brackets)."""
    host = "127.0.0.1" if bind in ("", "0.0.0.0") else "::1" if bind == "::" else bind
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def check_address(bind: str, port: int) -> None:
    """Raise :class:`ServeError` when ``bind``:``port`` cannot be listened on now."""
    try:
        infos = socket.getaddrinfo(bind, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as err:
        raise ServeError(f"cannot listen on {bind!r}: {err.strerror}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as err:
            if err.errno == errno.EADDRINUSE:
                raise ServeError(
                    f"port {port} is in use on {bind}: choose another with --port"
                ) from None
            if err.errno == errno.EACCES:
                raise ServeError(
                    f"port {port} needs special rights here: choose one above 1023 with --port"
                ) from None
            why = err.strerror or str(err)
            raise ServeError(f"cannot listen on {bind} port {port}: {why}") from None


def same_origin(origin: str | None, host: str) -> bool:
    """True when a socket's ``Origin`` is the page's own server (or not given, as
    by a program rather than a page)."""
    if origin is None:
        return True
    return urlsplit(origin).netloc.lower() == host.lower()


def full_message(limit: int) -> bytes:
    """What a browser is shown when ``limit`` games are being played already."""
    games = "game is" if limit == 1 else "games are"
    return (
        f"\r\n  {TITLE}: {limit} {games} being played here already; "
        "try again in a while.\r\n"
    ).encode()


def make_server(bind: str, port: int, root: Path, max_sessions: int = 10) -> Any:
    """The textual-serve server of the game, its page replaced by ours; at most
    ``max_sessions`` games (app processes) at once."""
    from aiohttp import web
    from textual_serve.server import Server

    class GameServer(Server):
        """textual-serve's server, announcing the game's address (not the command)
        and starting no more than ``max_sessions`` sessions at once."""

        sessions = 0

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            if not same_origin(request.headers.get("Origin"), request.host):
                # another site's page may not start or drive a game through the
                # player's browser (cross-site WebSocket hijacking)
                raise web.HTTPForbidden(text="This game's page must be opened from this server.")
            if self.sessions >= max_sessions:
                refused = web.WebSocketResponse()
                await refused.prepare(request)
                message = full_message(max_sessions)
                await refused.send_bytes(message)
                # the page shows a close's reason in its "Session ended" box
                await refused.close(code=FULL_CODE, message=message.strip())
                return refused
            self.sessions += 1
            try:
                return await super().handle_websocket(request)
            finally:
                self.sessions -= 1

        async def on_startup(self, app: Any) -> None:
            self.console.print(
                f"{TITLE}: open {page_url(bind, port)} in a web browser "
                f"(each visit plays in its own folder under {root}).",
                highlight=False,
            )
            if bind not in ("127.0.0.1", "::1", "localhost"):
                self.console.print(
                    f"Listening on {bind}: anyone who can reach this machine can play.",
                    highlight=False,
                )
            self.console.print("Press Ctrl+C to stop.", highlight=False)

    return GameServer(
        session_command(root),
        host=bind,
        port=port,
        title=TITLE,
        templates_path=PAGE_FOLDER,
    )


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
        print(f"{PROG} serve: cannot make {root}: {err.strerror or err}", file=sys.stderr)
        return 1
    try:
        import textual_serve  # noqa: F401
    except ImportError:
        print(f"{PROG} serve: textual-serve is not installed (pip install textual-serve)",
              file=sys.stderr)
        return 1
    server = make_server(bind, port, root, args.max_sessions)
    try:
        server.serve()
    except OSError as err:  # lost a race for the port since the check
        print(f"{PROG} serve: cannot listen on {bind} port {port}: {err.strerror or err}",
              file=sys.stderr)
        return 1
    return 0
