"""``allfives serve`` in a real headless browser, in the visitor's language.

A browser whose ``Accept-Language`` puts the pseudo-locale first gets the page in it
(its every word, "Session ended" and "Play again" too) and a game in it; the page's
first screen offers English, and choosing it gives the page and the game in English.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from allfives_tui.locale import EXTRA_ENV
from tests.locale.pseudo import CODE, build, pseudo
from tests.serve.browser import Browser, need_browser, screen, serving, wait_until

PSEUDO_TAG = CODE.replace("_", "-")
GAME = {"name": "game.json", "mimeType": "application/json", "buffer": b"{}"}
"""A game file that is not a good game: the app opens Open replay on it, and says why."""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A running ``allfives serve`` that knows the pseudo-locale; its page's address."""
    need_browser()
    locales = build(tmp_path_factory.mktemp("locales"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(EXTRA_ENV, str(locales))
        with serving(tmp_path_factory.mktemp("serve")) as url:
            yield url


@pytest.fixture(scope="module")
def browser(served: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = Browser(playwright, tmp_path_factory.mktemp("downloads"))
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Any]:
    """A tab whose browser asks for the pseudo-locale first, then English."""
    tab = browser.context.new_page()
    tab.set_extra_http_headers({"Accept-Language": f"{PSEUDO_TAG},en;q=0.5"})
    yield tab
    tab.close()


def open_a_game_file(page: Any, title: str) -> str:
    """The page's "Open a game file…" with a file that is no game; the app's screen once
    its Open replay shows ``title``."""
    wait_until(page, lambda t: t.strip() != "", 20, "the app's first screen")
    page.set_input_files("#upload-file", files=[GAME])
    return wait_until(page, lambda t: title in t, 20, f"the title {title!r}")


def test_the_page_and_the_game_speak_the_browsers_language(served: str, page: Any) -> None:
    page.goto(served)
    assert page.get_attribute("html", "lang") == PSEUDO_TAG
    assert page.inner_text("#start") == pseudo("Start")
    assert page.inner_text("#upload") == pseudo("Open a game file…")
    assert page.inner_text("#languages a") == "English"  # the first screen offers it
    page.click("#start")
    open_a_game_file(page, pseudo("Open replay"))
    # the session ends (the app quits): the page's box says so in the visitor's language
    page.keyboard.press("Escape")
    wait_until(page, lambda t: pseudo("Open replay") not in t, 10, "the dialog to close")
    page.keyboard.press("Control+q")
    page.wait_for_selector("body.-closed", timeout=15_000)
    assert page.inner_text(".closed-dialog .message") == pseudo("Session ended.")
    assert page.inner_text("#restart") == pseudo("Play again")


def test_english_chosen_on_the_first_screen(served: str, page: Any) -> None:
    page.goto(served)
    page.click("#languages a")
    page.wait_for_url("**lang=en**")
    assert page.get_attribute("html", "lang") == "en"
    assert page.inner_text("#start") == "Start"
    assert page.inner_text("#languages a") == CODE  # a name Babel does not know: its code
    page.click("#start")
    open_a_game_file(page, "Open replay")
    assert "⟦" not in screen(page)
