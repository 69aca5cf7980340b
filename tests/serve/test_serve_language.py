"""A browser visitor's language: the first of their ``Accept-Language`` there are words
for (English if none), or the one they chose on the page; the page's own words rendered
in it by the server, and the session's app started in it.

These run the real server and read the page and the session's socket over HTTP and a
WebSocket (no browser needed); the pseudo-locale stands for a second language.
"""

from __future__ import annotations

import json
import re
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import pytest

from allfives_tui.cli.serve_server import (
    FULL,
    accepted,
    chosen_language,
    full_message,
    visitor_language,
)
from allfives_tui.locale import EXTRA_ENV, supported
from allfives_tui.locale.formats import language_name
from tests.locale.pseudo import CODE, build, pseudo, unmarked
from tests.serve.browser import serving
from tests.serve.test_serve_command import screen_until

_WORD = re.compile(r"[A-Za-z]+")
"""A run of plain letters, as the pseudo-locale check counts words."""
PSEUDO_TAG = CODE.replace("_", "-")
"""The pseudo-locale as a browser names it (``en-XA``)."""
GAME = "\x1b[200~{}\x1b[201~"
"""A pasted game's text (not a good one): the app opens Open replay on it."""


@pytest.fixture
def pseudo_locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The pseudo-locale, findable by this process and the server it starts; its code."""
    monkeypatch.setenv(EXTRA_ENV, str(build(tmp_path / "locales")))
    return CODE


class _Words(HTMLParser):
    """The text a page shows: outside scripts and styles, and its buttons' hints."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._hidden += tag in ("script", "style")
        self.words.extend(v or "" for k, v in attrs if k == "title")

    def handle_endtag(self, tag: str) -> None:
        self._hidden -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.words.append(data)


def shown_text(html: str) -> str:
    parser = _Words()
    parser.feed(html)
    return " ".join(parser.words)


def page(url: str, accept: str | None = None) -> str:
    request = urllib.request.Request(url, headers={"Accept-Language": accept} if accept else {})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return str(reply.read().decode())


def test_accept_language_is_read_most_wanted_first() -> None:
    assert accepted("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5") == ["fr-CH", "fr", "en", "de"]
    assert accepted("de;q=0.5, it, nl;q=0.5") == ["it", "de", "nl"]  # equal q: their order
    assert accepted("it;q=0, nl;q=high, en;q=2, <b>, pt_BR") == ["pt_BR"]
    assert accepted("") == []


def test_the_first_accepted_language_there_are_words_for_else_english() -> None:
    offered = ("en", "fr", "it")
    assert visitor_language("de-DE, it-IT;q=0.8, fr;q=0.9", offered) == "fr"
    assert visitor_language("it-CH", offered) == "it"
    assert visitor_language("pt-BR, en-GB;q=0.1", offered) == "en"
    assert visitor_language("de, nl", offered) == "en"
    assert visitor_language(None, offered) == "en"
    assert chosen_language("IT", offered) == "it"
    assert chosen_language("de", offered) is None
    assert chosen_language("../it", offered) is None


def test_the_page_speaks_the_visitors_language_and_offers_the_others(
    data_dir: Path, pseudo_locale: str
) -> None:
    with serving(data_dir) as url:
        own = page(url, f"de-DE, {PSEUDO_TAG};q=0.8, en;q=0.5")
        english = page(url, "de-DE, pt;q=0.9")
        bare = page(url)
        chosen = page(url + "?lang=en", PSEUDO_TAG)
    # the browser's first language there are words for: the page's every word is its own
    assert f'<html lang="{PSEUDO_TAG}">' in own
    for message in ("Session ended.", "Play again", "Open a game file…", "Start"):
        assert pseudo(message) in own
    # the other languages are offered by their own names (endonyms), not translated
    offered = [language_name(code, capital=True) for code in supported()]
    names = {word for name in offered for word in _WORD.findall(name)}
    assert unmarked(shown_text(own), names) == []
    assert '<a href="?lang=en" hreflang="en"' in own and ">English</a>" in own
    assert json.dumps(pseudo_locale) in own  # its socket asks for the session in it
    # none there are words for, no header, or the visitor's own choice: English
    for html in (english, bare, chosen):
        assert '<html lang="en">' in html
        assert "Session ended." in html and "Play again" in html and "⟦" not in html
        assert f'href="?lang={pseudo_locale}"' in html


def test_the_session_speaks_the_pages_language(data_dir: Path, pseudo_locale: str) -> None:
    """The socket the page opens (``/ws/CODE``) starts the app in the page's language; a
    socket naming none speaks its own request's Accept-Language."""
    from websockets.sync.client import connect

    with serving(data_dir) as url:
        socket = url.replace("http://", "ws://")
        title = pseudo("All Fives — new game").encode()
        with connect(f"{socket}ws/{pseudo_locale}?width=100&height=30") as game:
            screen_until(game, title)
            game.send(json.dumps(["stdin", GAME]))
            screen_until(game, pseudo("Open replay").encode())
        with connect(
            f"{socket}ws?width=100&height=30", additional_headers={"Accept-Language": PSEUDO_TAG}
        ) as game:
            screen_until(game, title)
            game.send(json.dumps(["stdin", GAME]))
            screen_until(game, pseudo("Open replay").encode())
        with connect(f"{socket}ws/en?width=100&height=30") as game:
            screen_until(game, b"new game")
            game.send(json.dumps(["stdin", GAME]))
            seen = screen_until(game, b"Open replay")
            assert "⟦".encode() not in seen


def test_a_full_server_says_so_in_the_visitors_language(
    data_dir: Path, pseudo_locale: str
) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    with serving(data_dir, None, "--max-sessions", "1") as url:
        socket = url.replace("http://", "ws://")
        with connect(f"{socket}ws/en?width=100&height=30") as first:
            screen_until(first, b"new game")
            with connect(f"{socket}ws/{pseudo_locale}") as second:
                said = second.recv(timeout=10)
                assert said == full_message(1, pseudo_locale)
                assert isinstance(said, bytes)
                assert pseudo(
                    "All Fives: {count} game is being played here already; try again in a while."
                ).format(count=1) in said.decode()
                with pytest.raises(ConnectionClosed) as closed:
                    second.recv(timeout=10)
                # the page words the code in its own language
                assert closed.value.rcvd is not None and closed.value.rcvd.reason == FULL
