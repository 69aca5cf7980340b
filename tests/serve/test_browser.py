"""``allfives serve`` in a real headless browser (Debian's Chromium, through Playwright).

One server for the module; every test opens its own page, so its own session
(an app process with its own folder). Each test plays as a person would: the
page's Start button, mouse clicks on the app's screen, keys; and reads the
screen from xterm.js's buffer.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.record import MAX_BYTES, parse_game
from tests.serve.browser import (
    SCREEN_JS,
    Browser,
    click_text,
    need_browser,
    screen,
    serving,
    start_session,
    wait_for,
    wait_until,
)

SCREENSHOT = Path(__file__).parents[2] / "screenshots" / "browser.png"
"""Written when ``ALLFIVES_UPDATE_SCREENSHOTS`` is set (else the picture goes to a
temporary folder), so a test run leaves the checkout as it was."""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A running ``allfives serve`` and its data folder."""
    need_browser()
    data = tmp_path_factory.mktemp("serve")
    with serving(data) as url:
        yield url, data


@pytest.fixture(scope="module")
def browser(
    served: tuple[str, Path], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Browser]:
    """One Chromium for the module, with a new empty profile."""
    from playwright.sync_api import sync_playwright

    downloads = tmp_path_factory.mktemp("downloads")
    with sync_playwright() as playwright:
        chromium = Browser(playwright, downloads)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Any]:
    """A new tab; closed after the test (which ends its session)."""
    tab = browser.context.new_page()
    yield tab
    tab.close()


def my_turn(text: str) -> bool:
    """The scoreboard's ▶ points at the person."""
    return "▶ You" in text


def tiles_in_hand(text: str) -> int:
    """The person's tile count on the scoreboard ("▶ You   0   9")."""
    for line in text.split("\n"):
        if " You " in line and "▊" in line:
            return int(line.split()[-1])
    raise AssertionError(f"no scoreboard line for You:\n{text}")


def board(text: str) -> str:
    """The board: the rows left of the side panel, above the status line."""
    rows = [line.split("▊")[0] for line in text.split("\n") if "▊" in line]
    return "\n".join(rows)


def test_the_page_loads_nothing_from_another_host(
    served: tuple[str, Path], browser: Browser, page: Any
) -> None:
    """Every request the page makes, through a game's start, goes to this machine;
    the page names the game, not the server's command line."""
    url, _ = served
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    start_session(page, url)
    html = page.content()
    assert "<title>All Fives</title>" in html
    assert "serve_session" not in html and "python" not in html.lower()
    assert "fonts.googleapis" not in html
    assert browser.outside == []
    assert requested, "the page made no request at all"
    assert all(r.startswith(url) for r in requested), requested
    # the page's font is textual-serve's own Roboto Mono, served from here, and in use
    assert any(r.endswith("/static/fonts/RobotoMono-VariableFont_wght.ttf") for r in requested)
    assert page.evaluate("""() => document.fonts.check('16px "Roboto Mono"')""")
    loaded = page.evaluate(
        "() => [...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)"
    )
    assert any("Roboto Mono" in family for family in loaded)


def until_a_tile_fits(page: Any, text: str) -> str:
    """Draw (or pass) by keyboard, as the hint line says, until the person can play."""
    for _ in range(40):
        if "Nothing fits an open end" in text:
            held = tiles_in_hand(text)
            page.keyboard.press("d")
            text = wait_until(page, lambda t, n=held: tiles_in_hand(t) > n, 10, "the drawn tile")
        elif "Nothing fits and the boneyard is empty" in text:
            page.keyboard.press("p")
            wait_until(page, lambda t, was=text: t != was, 10, "the pass to show")
            text = wait_until(page, my_turn, 20, "the person's turn again")
        else:
            return text
    raise AssertionError(f"no tile ever fitted; the screen:\n{text}")


def test_start_and_play_a_tile_by_keyboard(
    served: tuple[str, Path], page: Any, tmp_path: Path
) -> None:
    """Start, the new-game screen, a game: a tile played with Enter changes the board."""
    url, _ = served
    text = start_session(page, url)
    assert "Players" in text and "Start ⏎" in text
    click_text(page, "Start ⏎")
    text = wait_until(page, my_turn, 20, "the person's turn")
    text = until_a_tile_fits(page, text)
    before, held = board(text), tiles_in_hand(text)
    page.keyboard.press("Enter")  # plays the selected tile, or asks which end
    text = wait_until(page, lambda t, was=text: t != was, 10, "the Enter to show")
    if tiles_in_hand(text) == held:
        page.keyboard.press("Enter")  # the end offered first
    text = wait_until(page, lambda t: tiles_in_hand(t) < held, 10, "the tile to leave the hand")
    assert board(text) != before
    assert "You play" in text or "You lead" in text
    picture = SCREENSHOT if os.environ.get("ALLFIVES_UPDATE_SCREENSHOTS") else (
        tmp_path / "browser.png"
    )
    page.screenshot(path=str(picture))
    assert picture.stat().st_size > 10_000


def settled(page: Any, row: str) -> None:
    """Wait until a select shows ``row`` (a pattern) closed, its list gone."""
    wait_until(
        page, lambda t: re.search(row, t) is not None and "▲" not in t, 15, f"the row {row!r}"
    )


def test_a_game_to_the_end_downloaded_and_replayed(
    served: tuple[str, Path], browser: Browser, page: Any
) -> None:
    """A short game played out, Save a copy… as a browser download, and that file
    opened again from the page's "Open a game file…" into the replay."""
    url, data = served
    start_session(page, url)
    click_text(page, "default 250")  # the target
    page.keyboard.type("30")
    settled(page, r"Target\s+30\b")
    click_text(page, "normal (0.7 s a move)")
    click_text(page, "instant")
    settled(page, r"Computer pace\s+instant")
    click_text(page, "no: press d to draw")
    click_text(page, "yes: when no tile fits")
    # a click that comes while the list is still closing is taken by the list
    settled(page, r"Draw for me\s+yes:")
    click_text(page, "Start ⏎")
    wait_for(page, "Hand 1")
    def over(text: str) -> bool:
        return "The game is over" in text or re.search(r"wins? the game", text) is not None

    for _ in range(400):
        text = wait_until(
            page, lambda t: over(t) or "Next hand (⏎)" in t or my_turn(t), 30,
            "the game's end, a summary or the person's turn",
        )
        if over(text):
            text = wait_for(page, "Replay this game (r)")
            break
        page.keyboard.press("Enter")
        # the next key only once this one shows (else it may reach the next screen)
        with contextlib.suppress(AssertionError):
            wait_until(page, lambda t, was=text: t != was, 3, "a change")
    else:
        raise AssertionError(f"the game did not end:\n{screen(page)}")
    assert re.search(r"(You win|North wins) the game", text), text

    before = len(browser.downloads)
    page.keyboard.press("Control+s")
    wait_for(page, "Download a copy of this game")
    page.keyboard.press("Enter")
    wait_until(page, lambda _: len(browser.downloads) > before, 10, "the download")
    download = browser.downloads[-1]
    assert download.suggested_filename.startswith("allfives-")
    saved = Path(download.path()).read_text()
    game = parse_game(saved)
    assert game.state.is_terminal and game.record.rules.target == 30

    with page.expect_file_chooser() as chooser:
        page.click("#upload")  # the page's "Open a game file…"
    # the keys went back to the game at once (Enter does not press the button again)
    assert page.evaluate("() => document.activeElement.className") == "xterm-helper-textarea"
    chooser.value.set_files(
        files=[{"name": "game.json", "mimeType": "application/json", "buffer": saved.encode()}],
    )
    text = wait_for(page, "Replay · the game you opened")
    assert "all hands face up" in text
    # the session kept its own copies, in its own folder only
    sessions = list((data / "sessions").glob("session-*/saved/allfives-*.json"))
    assert any(p.read_text() == saved for p in sessions)
    assert sorted(p.name for p in data.iterdir()) == ["sessions"]


def test_two_sessions_never_share_a_folder(served: tuple[str, Path], browser: Browser) -> None:
    """Two pages, two games at once: each autosaves in its own session folder."""
    url, data = served
    known = set((data / "sessions").glob("session-*"))
    pages = [browser.context.new_page() for _ in range(2)]
    try:
        for tab in pages:
            start_session(tab, url)
            click_text(tab, "Start ⏎")
        for tab in pages:
            text = wait_for(tab, "Hand 1")
            assert "separate game" not in text and "not autosaved" not in text
        new = set((data / "sessions").glob("session-*")) - known
        wait_until(
            pages[0],
            lambda _: sum((f / "current.json").is_file() for f in new) == 2,
            10,
            "both autosaves",
        )
        assert len(new) == 2
    finally:
        for tab in pages:
            tab.close()


def test_a_full_server_says_so_on_the_page(browser: Browser, tmp_path: Path) -> None:
    """Past --max-sessions the page's "Session ended" box says why."""
    data = tmp_path / "serve"
    data.mkdir()
    with serving(data, None, "--max-sessions", "1") as url:
        first, second = browser.context.new_page(), browser.context.new_page()
        try:
            start_session(first, url)
            second.goto(url)
            second.click("#start")
            second.wait_for_selector("body.-closed", timeout=10_000)
            said = second.inner_text(".closed-dialog .message")
            assert said == "All Fives: 1 game is being played here already; try again in a while."
            assert second.is_visible("#restart")
        finally:
            first.close()
            second.close()


PASTE_JS = """(size) => {
    const area = document.querySelector("#terminal .xterm-helper-textarea");
    const data = new DataTransfer();
    data.setData("text/plain", '{"game": "' + "x".repeat(size) + '"}');
    area.focus();
    area.dispatchEvent(
        new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true })
    );
}"""
"""Paste a game-like text of about ``size`` bytes into the terminal, as ctrl+v does."""


def back_to_the_game(page: Any) -> str:
    """Close the size-cap message (Esc); the game's screen then, its session alive."""
    said = f"over the size cap of {MAX_BYTES // 1024} KiB"
    page.wait_for_function(
        f"(said) => document.body.classList.contains('-closed') || ({SCREEN_JS})().includes(said)",
        arg=said,
        timeout=30_000,
    )
    assert not page.is_visible(".closed-dialog"), "the session ended"
    assert said in screen(page)
    page.keyboard.press("Escape")
    text = wait_until(page, lambda t: "Open replay" not in t, 10, "the dialog to close")
    assert "Hand 1" in text and " You " in text, text
    return text


def test_a_paste_or_file_over_the_cap_is_refused_and_the_game_goes_on(
    served: tuple[str, Path], page: Any
) -> None:
    """A paste and a file just over the size cap, during a game: each gets the size-cap
    message, the game is still there, and nothing near that size went through the socket."""
    url, _ = served
    sent: list[int] = []
    page.on("websocket", lambda socket: socket.on("framesent", lambda f: sent.append(len(f))))
    start_session(page, url)
    click_text(page, "Start ⏎")
    wait_for(page, "Hand 1")

    page.evaluate(PASTE_JS, MAX_BYTES)  # with the braces and quotes around it: over
    back_to_the_game(page)

    with page.expect_file_chooser() as chooser:
        page.click("#upload")
    chooser.value.set_files(
        files=[{"name": "huge.json", "mimeType": "application/json",
                "buffer": b'{"game": "' + b"x" * MAX_BYTES + b'"}'}],
    )
    back_to_the_game(page)
    assert sent and max(sent) < 4096, max(sent)
