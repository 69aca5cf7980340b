"""The web server of ``allfives serve``: textual-serve's, made safe to leave running.

:class:`GameServer` is textual-serve's :class:`~textual_serve.server.Server`
with its page replaced (:file:`serve_page/app_index.html`) and its socket
handler rewritten (after textual-serve 1.1's own) so that

- a socket from another site's page (a foreign ``Origin``) is refused: no
  other site can start or drive a game through the player's browser;
- at most ``max_sessions`` games (app processes) run at once; past that a
  socket is closed with the reason, which the page shows;
- the terminal size a browser asks for is kept within :data:`MAX_COLUMNS` x
  :data:`MAX_ROWS`, so no one can make a session draw a screen of a billion
  cells;
- stopping the server (Ctrl+C) closes every session's socket with a reason,
  and each session's app then quits (and tidies its folder) at once;
- a paste over the size cap of a game file (:data:`~engine.record.MAX_BYTES`)
  never reaches the app: the page sends a short stand-in instead
  (:func:`~allfives_tui.ui.screens.open_served.oversized_paste`), and so does
  the server for a client that sent the text itself; a message that is not
  one of textual.js's is dropped, not the session.
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp_jinja2
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from allfives_tui.ui.screens.open_served import OVERSIZED_PASTE, oversized_paste
from engine.record import MAX_BYTES

log = logging.getLogger("textual-serve")

PAGE_FOLDER = Path(__file__).with_name("serve_page")
"""The folder of the page template (``app_index.html``)."""
TITLE = "All Fives"
FULL_CODE = 4029
"""The WebSocket close code (an application's own, 4000-4999) for "too many games"."""
GOING_AWAY = 1001
"""The WebSocket close code for a server that is stopping."""
MAX_COLUMNS = 400
MAX_ROWS = 200
"""The largest terminal a browser may ask a session for (a 4K screen at a small font fits)."""
MAX_MESSAGE = 8 * MAX_BYTES
"""The largest socket message a session takes (larger ends it): a paste of
:data:`~engine.record.MAX_BYTES`, escaped as JSON (``"`` as ``\\"``, a control
character as six), fits."""
PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"
"""How a terminal brackets a paste (the app asks for bracketed pastes)."""


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


def bounded_input(data: str) -> str:
    """What a session's app is sent for a browser's ``data`` (its keys or a paste):
    ``data`` itself, or, over :data:`~engine.record.MAX_BYTES`, the stand-in for
    an oversized paste (nothing, for input not bracketed as a paste)."""
    size = len(data.encode("utf-8", "replace"))
    if size <= MAX_BYTES + len(PASTE_START) + len(PASTE_END):
        return data
    if not data.startswith(PASTE_START):
        return ""
    body = size - len(PASTE_START) - (len(PASTE_END) if data.endswith(PASTE_END) else 0)
    return f"{PASTE_START}{oversized_paste(body)}{PASTE_END}"


def clamp_size(width: int, height: int) -> tuple[int, int]:
    """A terminal size within 1..:data:`MAX_COLUMNS` x 1..:data:`MAX_ROWS`."""
    return max(1, min(width, MAX_COLUMNS)), max(1, min(height, MAX_ROWS))


class GameAppService(AppService):
    """One session's app process, whose terminal size stays within bounds."""

    async def start(self, width: int, height: int) -> None:
        """Start the app at a bounded size."""
        await super().start(*clamp_size(width, height))

    async def set_terminal_size(self, width: int, height: int) -> None:
        """Resize the app's terminal, within bounds."""
        await super().set_terminal_size(*clamp_size(width, height))


class GameServer(Server):
    """textual-serve's server for the game: our page, bounded and stoppable sessions."""

    def __init__(
        self, command: str, *, host: str, port: int, root: Path, max_sessions: int
    ) -> None:
        """Run ``command`` for each session (its folder under ``root``), at most
        ``max_sessions`` at once."""
        super().__init__(command, host=host, port=port, title=TITLE, templates_path=PAGE_FOLDER)
        self.root = root
        self.max_sessions = max_sessions
        self.sockets: set[web.WebSocketResponse] = set()
        """The sockets of the sessions running now."""

    async def on_startup(self, app: web.Application) -> None:
        """Give the page the size cap; say where to point a browser (the command
        line is not shown)."""
        page = aiohttp_jinja2.get_env(app).globals
        page["max_paste_bytes"] = MAX_BYTES
        page["oversized_paste"] = OVERSIZED_PASTE
        self.console.print(
            f"{TITLE}: open {page_url(self.host, self.port)} in a web browser "
            f"(each visit plays in its own folder under {self.root}).",
            highlight=False,
        )
        if self.host not in ("127.0.0.1", "::1", "localhost"):
            self.console.print(
                f"Listening on {self.host}: anyone who can reach this machine can play.",
                highlight=False,
            )
        self.console.print("Press Ctrl+C to stop.", highlight=False)

    async def on_shutdown(self, app: web.Application) -> None:
        """Close every session's socket; each app then quits."""
        for socket in list(self.sockets):
            await socket.close(code=GOING_AWAY, message=f"{TITLE}: the server stopped.".encode())

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """A browser's session: refused from another site or past the limit, else an
        app process for as long as the socket lasts."""
        if not same_origin(request.headers.get("Origin"), request.host):
            # another site's page may not start or drive a game through the
            # player's browser (cross-site WebSocket hijacking)
            raise web.HTTPForbidden(text="This game's page must be opened from this server.")
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        if len(self.sockets) >= self.max_sessions:
            await websocket.prepare(request)
            message = full_message(self.max_sessions)
            await websocket.send_bytes(message)
            # the page shows a close's reason in its "Session ended" box
            await websocket.close(code=FULL_CODE, message=message.strip())
            return websocket
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        service: GameAppService | None = None

        async def close() -> None:
            await websocket.close()

        self.sockets.add(websocket)
        try:
            await websocket.prepare(request)
            service = GameAppService(
                self.command,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=close,
                download_manager=self.download_manager,
                debug=self.debug,
            )
            await service.start(width, height)
            await self._process_messages(websocket, service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # one session's trouble never stops the server
            log.exception(error)
        finally:
            self.sockets.discard(websocket)
            if service is not None:
                await service.stop()
        return websocket

    async def _process_messages(
        self, websocket: web.WebSocketResponse, app_service: AppService
    ) -> None:
        """Pass a browser's keys, pastes (within the cap), size and focus to its app;
        answer its pings. A message that is none of these is dropped."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope: Any = json.loads(message.data)
            except ValueError:
                continue
            if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
                continue
            kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            if kind == "stdin" and isinstance(data, str):
                data = bounded_input(data)
                if data:
                    await app_service.send_bytes(data.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(data, dict):
                width, height = data.get("width"), data.get("height")
                if isinstance(width, int) and isinstance(height, int):
                    await app_service.set_terminal_size(width, height)
            elif kind == "ping":
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await app_service.blur()
            elif kind == "focus":
                await app_service.focus()


def page_url(bind: str, port: int) -> str:
    """The address to open: ``http://127.0.0.1:8000/`` (an IPv6 address in brackets)."""
    host = "127.0.0.1" if bind in ("", "0.0.0.0") else "::1" if bind == "::" else bind
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"
