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
- a visitor reads the page and plays in their own language: the first of their
  browser's ``Accept-Language`` that there is a catalog for (English if none),
  or the one they chose on the page (``?lang=CODE``); the page's words are
  rendered from the catalog (:func:`page_words`) and its socket
  (``/ws/CODE``) starts the session's app in that language. A close's reason
  is a code (:data:`FULL`, :data:`STOPPED`) the page words;
- a paste over the size cap of a game file (:data:`~engine.record.MAX_BYTES`)
  never reaches the app: the page sends a short stand-in instead
  (:func:`~allfives_tui.ui.screens.open_served.oversized_paste`), and so does
  the server for a client that sent the text itself; a message that is not
  one of textual.js's is dropped, not the session.
"""

from __future__ import annotations

import asyncio
import gettext
import json
import logging
import re
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp_jinja2
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from allfives_tui.locale import N_, SOURCE, _, match, supported, translations
from allfives_tui.locale.formats import language_name
from allfives_tui.ui.screens.open_served import OVERSIZED_PASTE, oversized_paste
from engine.record import MAX_BYTES

log = logging.getLogger("textual-serve")

PAGE_FOLDER = Path(__file__).with_name("serve_page")
"""The folder of the page template (``app_index.html``)."""
TITLE = N_("All Fives")
"""The game's name, the page's title."""
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
FULL = "full"
STOPPED = "stopped"
"""The close reasons the page words: too many games already, the server stopped."""
PAGE_WORDS = {
    "title": TITLE,
    "tagline": N_("Dominoes against the computer, in your browser."),
    "start": N_("Start"),
    "ended": N_("Session ended."),
    "again": N_("Play again"),
    "open_file": N_("Open a game file…"),
    "open_file_hint": N_("Replay a game saved earlier (Save a copy… downloads one)"),
    "languages": N_("Other languages:"),
    "stopped": N_("All Fives: the server stopped."),
    "foreign": N_("This game's page must be opened from this server."),
}
"""The page's own words, by their place in the page (rendered in the visitor's language)."""
ACCEPT_MAX = 32
"""The most languages of an ``Accept-Language`` header that are looked at."""
_LANGUAGE_TAG = re.compile(r"^[A-Za-z]{1,8}([-_][A-Za-z0-9]{1,8})*$")

PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"
"""How a terminal brackets a paste (the app asks for bracketed pastes)."""


def same_origin(origin: str | None, host: str) -> bool:
    """True when a socket's ``Origin`` is the page's own server (or not given, as
    by a program rather than a page)."""
    if origin is None:
        return True
    return urlsplit(origin).netloc.lower() == host.lower()


def accepted(header: str) -> list[str]:
    """The language tags of an ``Accept-Language`` header, most wanted first (by their
    q-values; in their order where equal). ``*``, a q of 0 and what is not a language
    tag are left out."""
    wanted: list[tuple[float, int, str]] = []
    for i, item in enumerate(header.split(",")[:ACCEPT_MAX]):
        tag, *params = (part.strip() for part in item.split(";"))
        if not _LANGUAGE_TAG.match(tag):
            continue
        q = 1.0
        for param in params:
            name, _sep, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if 0 < q <= 1:
            wanted.append((-q, i, tag))
    return [tag for _q, _i, tag in sorted(wanted)]


def visitor_language(header: str | None, offered: Sequence[str] | None = None) -> str:
    """The language a visitor's page and game speak: the first of their browser's
    ``Accept-Language`` (``header``) there are words for, else English."""
    offered = supported() if offered is None else tuple(offered)
    for tag in accepted(header or ""):
        found = match(tag, offered)
        if found is not None:
            return found
    return SOURCE


def chosen_language(code: str | None, offered: Sequence[str] | None = None) -> str | None:
    """The language ``code`` (the visitor's own choice on the page) names, if any."""
    if not code or not _LANGUAGE_TAG.match(code):
        return None
    return match(code, supported() if offered is None else offered)


def page_words(words: gettext.NullTranslations, limit: int) -> dict[str, str]:
    """The page's own words in a visitor's language (``words``), :data:`FULL` as said
    with ``limit`` games at once."""
    said = {key: words.gettext(message) for key, message in PAGE_WORDS.items()}
    said[FULL] = full_text(words, limit)
    return said


def full_text(words: gettext.NullTranslations, limit: int) -> str:
    """What a visitor is told when ``limit`` games are being played already."""
    return words.ngettext(
        "All Fives: {count} game is being played here already; try again in a while.",
        "All Fives: {count} games are being played here already; try again in a while.",
        limit,
    ).format(count=limit)


def full_message(limit: int, language: str = SOURCE) -> bytes:
    """What a browser's terminal is shown when ``limit`` games are being played already
    (in ``language``)."""
    return f"\r\n  {full_text(translations(language)[1], limit)}\r\n".encode()


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

    async def _make_app(self) -> web.Application:
        """textual-serve's web application, and a socket that names its language
        (``/ws/CODE``: the page's own)."""
        app = await super()._make_app()
        app.router.add_get("/ws/{lang}", self.handle_websocket)
        return app

    async def on_startup(self, app: web.Application) -> None:
        """Give the page the size cap; say where to point a browser (the command
        line is not shown)."""
        page = aiohttp_jinja2.get_env(app).globals
        page["max_paste_bytes"] = MAX_BYTES
        page["oversized_paste"] = OVERSIZED_PASTE
        opening = _(
            "{title}: open {address} in a web browser (each visit plays in its own folder "
            "under {folder})."
        )
        address = page_url(self.host, self.port)
        self.console.print(
            opening.format(title=_(TITLE), address=address, folder=self.root),
            highlight=False,
            markup=False,
        )
        if self.host not in ("127.0.0.1", "::1", "localhost"):
            anyone = _("Listening on {address}: anyone who can reach this machine can play.")
            self.console.print(anyone.format(address=self.host), highlight=False, markup=False)
        self.console.print(_("Press Ctrl+C to stop."), highlight=False, markup=False)

    async def on_shutdown(self, app: web.Application) -> None:
        """Close every session's socket (the page words the reason); each app then quits."""
        for socket in list(self.sockets):
            await socket.close(code=GOING_AWAY, message=STOPPED.encode())

    def language(self, request: web.Request) -> str:
        """The language a request's visitor reads: their choice on the page (``?lang``, or
        the socket's ``/ws/CODE``), else their browser's ``Accept-Language``."""
        asked = request.match_info.get("lang") or request.query.get("lang")
        chosen = chosen_language(asked)
        if chosen is not None:
            return chosen
        return visitor_language(request.headers.get("Accept-Language"))

    async def handle_index(self, request: web.Request) -> web.Response:
        """The page, in the visitor's language, offering the others."""
        code, words = translations(self.language(request))
        context = {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "application": {"name": words.gettext(TITLE)},
            "lang": code,
            "html_lang": code.replace("_", "-"),
            "words": page_words(words, self.max_sessions),
            "others": [(c, language_name(c, capital=True)) for c in supported() if c != code],
        }
        return aiohttp_jinja2.render_template("app_index.html", request, context)

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """A browser's session: refused from another site or past the limit, else an
        app process, in the visitor's language, for as long as the socket lasts."""
        language = self.language(request)
        if not same_origin(request.headers.get("Origin"), request.host):
            # another site's page may not start or drive a game through the
            # player's browser (cross-site WebSocket hijacking)
            foreign = translations(language)[1].gettext(PAGE_WORDS["foreign"])
            raise web.HTTPForbidden(text=foreign)
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        if len(self.sockets) >= self.max_sessions:
            await websocket.prepare(request)
            await websocket.send_bytes(full_message(self.max_sessions, language))
            # the page words a close's reason in its "Session ended" box
            await websocket.close(code=FULL_CODE, message=FULL.encode())
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
                f"{self.command} --lang {shlex.quote(language)}",
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
