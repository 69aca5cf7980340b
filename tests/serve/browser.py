"""Driving ``allfives serve`` in a real browser: Debian's Chromium through Playwright.

The browser is the system's ``/usr/bin/chromium`` (``ALLFIVES_CHROMIUM`` names
another), launched through ``executable_path`` with a new empty profile; no
browser is ever downloaded. Outside CI a missing browser or Playwright skips
the browser tests with the reason; in CI (``CI=true``) it fails them.

The screen is read from the page's xterm.js buffer (``window.allfivesTerminal``,
which the page keeps for this), and keys and clicks go to the page as a
person's would.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.waiting import block_until

CHROMIUM = os.environ.get("ALLFIVES_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}

SCREEN_JS = """() => {
    const t = window.allfivesTerminal;
    if (!t) return "";
    const b = t.buffer.active;
    const out = [];
    for (let i = 0; i < t.rows; i++) {
        const line = b.getLine(b.viewportY + i);
        out.push(line ? line.translateToString(true) : "");
    }
    return out.join("\\n");
}"""
"""The terminal's screen as text, one line a row (``page.evaluate``)."""


def need_browser() -> None:
    """Skip (outside CI) or fail (in CI) when there is no browser to drive."""
    problem = None
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        problem = "Playwright is not installed (pip install -e '.[test]')"
    if problem is None and not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        problem = f"no browser at {CHROMIUM} (apt-get install chromium)"
    if problem is None:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI needs the browser tests to run: {problem}")
    pytest.skip(problem)


def free_port() -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def serving(data_dir: Path, port: int | None = None, *options: str) -> Iterator[str]:
    """Run ``allfives serve`` (with ``options``) on a free port with ``data_dir``;
    yields the page's URL."""
    port = port or free_port()
    env = {**os.environ, "ALLFIVES_DATA_DIR": str(data_dir)}
    with tempfile.TemporaryFile() as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "allfives_tui", "serve", "--port", str(port), *options],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            yield _wait_for_page(server, log, f"http://127.0.0.1:{port}/")
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def _wait_for_page(server: subprocess.Popen[bytes], log: Any, url: str) -> str:
    """``url`` once the server answers it; ``RuntimeError`` (with its output) if it never does."""
    answered = False

    def answers_or_ended() -> bool:
        nonlocal answered
        with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=1):
            answered = True
        return answered or server.poll() is not None

    with contextlib.suppress(AssertionError):
        block_until(answers_or_ended, 20, "the page")
    if not answered:
        log.seek(0)
        raise RuntimeError(f"allfives serve did not start: {log.read()!r}")
    return url


class Browser:
    """One Chromium with a new empty profile; every request off this machine is refused."""

    def __init__(self, playwright: Any, downloads: Path) -> None:
        self.profile = tempfile.mkdtemp(prefix="allfives-chromium-")
        self.context = playwright.chromium.launch_persistent_context(
            self.profile,
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1100, "height": 720},
            accept_downloads=True,
            downloads_path=str(downloads),
        )
        self.outside: list[str] = []
        """Every request the pages made to a host other than this machine (refused)."""
        self.context.route("**/*", self._route)
        self.downloads: list[Any] = []
        """Every download, from any page (the app's downloads open in a new tab)."""
        self.context.on("page", lambda page: page.on("download", self._downloaded))

    def _downloaded(self, download: Any) -> None:
        self.downloads.append(download)

    def _route(self, route: Any) -> None:
        url = route.request.url
        host = urlsplit(url).hostname or ""
        if urlsplit(url).scheme in ("http", "https", "ws", "wss") and host not in LOCAL_HOSTS:
            self.outside.append(url)
            route.abort()
        else:
            route.continue_()

    def close(self) -> None:
        self.context.close()
        shutil.rmtree(self.profile, ignore_errors=True)


def screen(page: Any) -> str:
    """The terminal's screen, as text."""
    text: str = page.evaluate(SCREEN_JS)
    return text


def wait_for(page: Any, text: str, timeout: float = 15) -> str:
    """Wait until ``text`` is on the screen; the screen then."""
    try:
        page.wait_for_function(
            f"(text) => ({SCREEN_JS})().includes(text)", arg=text, timeout=timeout * 1000
        )
    except Exception as err:
        raise AssertionError(f"{text!r} never showed; the screen:\n{screen(page)}") from err
    return screen(page)


def wait_until(page: Any, test: Any, timeout: float = 15, what: str = "") -> str:
    """Wait until ``test(screen)`` is true; the screen then."""
    deadline = time.monotonic() + timeout
    while True:
        text = screen(page)
        if test(text):
            return text
        if time.monotonic() > deadline:
            raise AssertionError(f"{what or test} never came; the screen:\n{text}")
        page.wait_for_timeout(100)


def click_text(page: Any, text: str) -> None:
    """Click the middle of ``text`` on the terminal's screen (once it shows), as a
    person would."""
    lines = wait_for(page, text).split("\n")
    row, col = next((r, line.find(text)) for r, line in enumerate(lines) if text in line)
    box = page.locator("#terminal .xterm-screen").bounding_box()
    cols, rows = page.evaluate("() => [window.allfivesTerminal.cols, window.allfivesTerminal.rows]")
    cell_w, cell_h = box["width"] / cols, box["height"] / rows
    page.mouse.click(box["x"] + (col + len(text) / 2) * cell_w, box["y"] + (row + 0.5) * cell_h)


def start_session(page: Any, url: str) -> str:
    """Open the page, press its Start button, wait for the new-game screen; the screen."""
    page.goto(url)
    page.click("#start")
    wait_for(page, "All Fives — new game")
    text = wait_until(page, lambda t: "Start ⏎" in t and "Draw for me" in t, 15, "the form")
    page.focus("#terminal .xterm-helper-textarea")
    return text
