"""``allfives serve``: its options, its one-line failures, the page it serves, the sessions.

These run the real server (no browser needed) and read the page over HTTP.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from allfives_tui.cli import main
from allfives_tui.cli.parser import parse
from allfives_tui.cli.serve_server import (
    MAX_COLUMNS,
    MAX_ROWS,
    PASTE_END,
    PASTE_START,
    bounded_input,
    clamp_size,
    full_message,
)
from allfives_tui.cli.serve_session import kept_games, new_session_folder
from allfives_tui.store.lock import GameLock
from allfives_tui.ui.screens.open_served import is_oversized_paste, oversized_paste
from engine.record import MAX_BYTES
from tests.serve.browser import _wait_for_page, free_port, serving
from tests.waiting import block_until


def test_serve_listens_on_this_machine_only_unless_told() -> None:
    args = parse(["serve"])
    assert (args.bind, args.port) == ("127.0.0.1", 8000)
    args = parse(["serve", "--port", "9001", "--bind", "0.0.0.0"])
    assert (args.bind, args.port) == ("0.0.0.0", 9001)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["serve", "--port", "0"], "argument --port: a port is 1 to 65535, not 0"),
        (["serve", "--port", "http"], "argument --port: 'http' is not a whole number"),
        (["serve", "--port", "70000"], "a port is 1 to 65535, not 70000"),
    ],
)
def test_a_bad_port_is_one_line_and_status_2(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert said in err.splitlines()[0]


def test_a_port_in_use_is_one_line_and_status_1(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 1
    err = capsys.readouterr().err.strip()
    assert err == f"allfives serve: port {port} is in use on 127.0.0.1: choose another with --port"


def test_an_address_this_machine_lacks_is_one_line_and_status_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["serve", "--bind", "no-such-host.invalid", "--port", str(free_port())]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("allfives serve: cannot listen on 'no-such-host")


def listening_addresses(port: int) -> set[str]:
    """The local addresses a TCP socket listens on ``port`` with (from /proc/net/tcp)."""
    found = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        address, _, hex_port = local.partition(":")
        if int(hex_port, 16) == port and state == "0A":  # LISTEN
            found.add(socket.inet_ntoa(bytes.fromhex(address)[::-1]))
    return found


def test_the_page_names_the_game_loads_nothing_from_elsewhere_and_listens_locally(
    data_dir: Path,
) -> None:
    port = free_port()
    with serving(data_dir, port) as url:
        with urllib.request.urlopen(url, timeout=5) as reply:
            html = reply.read().decode()
        with urllib.request.urlopen(url + "static/fonts/RobotoMono-VariableFont_wght.ttf") as f:
            assert len(f.read()) > 100_000
        if Path("/proc/net/tcp").exists():
            assert listening_addresses(port) == {"127.0.0.1"}
    assert "<title>All Fives</title>" in html
    # no address names a host: every one is relative to the page (its socket is built from
    # the page's own host in the browser)
    assert re.findall(r"(?:https?|wss?)://[\w.\[\]:-]+", html) == []
    assert 'src="/static/js/textual.js"' in html
    assert "googleapis" not in html and "@font-face" in html
    for secret in (sys.executable, "serve_session", str(data_dir), os.getcwd()):
        assert secret not in html
    # the server keeps one folder for every session, under its own data folder
    assert sorted(p.name for p in data_dir.iterdir()) == ["sessions"]


def test_each_session_has_a_private_folder_and_its_own_lock(tmp_path: Path) -> None:
    root = tmp_path / "sessions"
    first, second = new_session_folder(root), new_session_folder(root)
    assert first != second and first.parent == second.parent == root
    assert stat.S_IMODE(first.stat().st_mode) == 0o700
    locks = [GameLock(first / "current.lock"), GameLock(second / "current.lock")]
    assert all(lock.acquire() for lock in locks)  # two games at once, neither separate
    for lock in locks:
        lock.release()
    assert kept_games(first) == []
    (first / "saved").mkdir()
    (first / "saved" / "a.json").write_text("{}")
    (first / "current.json").write_text("{}")
    assert kept_games(first) == [first / "current.json", first / "saved" / "a.json"]


def test_past_max_sessions_a_browser_is_told_to_come_back(data_dir: Path) -> None:
    """With --max-sessions 1 a second browser gets one line and no app process;
    once the first game ends, the next browser plays."""
    from websockets.sync.client import connect

    with serving(data_dir, None, "--max-sessions", "1") as url:
        socket_url = url.replace("http://", "ws://") + "ws?width=100&height=30"
        with connect(socket_url, open_timeout=10) as first:
            assert len(first.recv(timeout=15)) > 0  # the first game's screen
            with connect(socket_url, open_timeout=10) as second:
                assert second.recv(timeout=10) == full_message(1)
                assert len(list((data_dir / "sessions").glob("session-*"))) == 1
                assert b"1 game is being played here already" in full_message(1)

        def plays() -> bool:  # once the first session has ended with its socket
            with connect(socket_url, open_timeout=10) as third:
                return third.recv(timeout=15) != full_message(1)

        block_until(plays, 15, "the first session to end")


def test_another_sites_page_cannot_start_a_game(data_dir: Path) -> None:
    """A socket opened by another site's page (its Origin) is refused; the game's own
    page (same origin) plays."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect
    from websockets.typing import Origin

    with serving(data_dir) as url:
        socket_url = url.replace("http://", "ws://") + "ws?width=100&height=30"
        with pytest.raises(InvalidStatus) as refused:
            connect(socket_url, origin=Origin("http://evil.example"), open_timeout=10)
        assert refused.value.response.status_code == 403
        with connect(socket_url, origin=Origin(url.rstrip("/")), open_timeout=10) as own:
            assert len(own.recv(timeout=15)) > 0
            assert len(list((data_dir / "sessions").glob("session-*"))) == 1
        # no game: nothing kept
        block_until(lambda: not list((data_dir / "sessions").glob("session-*")), 10,
                    "the session's folder to go")


def test_a_browser_cannot_ask_for_a_huge_terminal(data_dir: Path) -> None:
    """The size a page asks for is kept within bounds: a session asked for a
    million columns draws its screen at most MAX_COLUMNS wide."""
    from websockets.sync.client import connect

    assert clamp_size(10**6, 10**6) == (MAX_COLUMNS, MAX_ROWS)
    assert clamp_size(-5, 0) == (1, 1)
    assert clamp_size(120, 40) == (120, 40)
    with serving(data_dir) as url:
        socket_url = url.replace("http://", "ws://") + "ws?width=1000000&height=1000000"
        with connect(socket_url, open_timeout=10) as huge:
            screen = b""
            deadline = time.monotonic() + 20
            while b"new game" not in screen and time.monotonic() < deadline:
                frame = huge.recv(timeout=20)
                assert isinstance(frame, bytes), frame
                screen += frame
            assert b"new game" in screen
            # the new-game box is centred: it starts within the first MAX_COLUMNS cells
            # (a cursor move to column c is ESC[row;cH)
            columns = [int(c) for c in re.findall(rb"\x1b\[\d+;(\d+)H", screen)]
            assert columns and max(columns) <= MAX_COLUMNS


def test_stopping_the_server_ends_every_session_at_once(data_dir: Path) -> None:
    """Ctrl+C with a game open: the server stops within seconds, the session's app
    quits and its folder (no game) is gone."""
    from websockets.sync.client import connect

    port = free_port()
    env = {**os.environ, "ALLFIVES_DATA_DIR": str(data_dir)}
    with tempfile.TemporaryFile() as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "allfives_tui", "serve", "--port", str(port)],
            env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        try:
            url = _wait_for_page(server, log, f"http://127.0.0.1:{port}/")
            with connect(url.replace("http://", "ws://") + "ws", open_timeout=10) as game:
                assert len(game.recv(timeout=15)) > 0
                assert len(list((data_dir / "sessions").glob("session-*"))) == 1
                started = time.monotonic()
                server.send_signal(signal.SIGINT)
                assert server.wait(15) == 0
                assert time.monotonic() - started < 10
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()
    block_until(lambda: not list((data_dir / "sessions").glob("session-*")), 10,
                "the session's app to quit")


def test_a_session_that_cannot_make_its_folder_says_so_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from allfives_tui.cli.serve_session import main as session

    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert session([str(blocked / "sessions")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("allfives serve: cannot make a session folder in ")
    assert session([]) == 2


def test_input_over_the_cap_reaches_the_app_as_a_stand_in() -> None:
    """Keys and pastes within the cap pass as they are; a bracketed paste over it
    becomes the stand-in with its size, and other input over it is dropped."""
    small = f"{PASTE_START}{{}}{PASTE_END}"
    assert bounded_input("q") == "q" and bounded_input(small) == small
    big = "x" * (MAX_BYTES + 100)
    stand_in = bounded_input(f"{PASTE_START}{big}{PASTE_END}")
    assert stand_in == f"{PASTE_START}{oversized_paste(MAX_BYTES + 100)}{PASTE_END}"
    assert is_oversized_paste(stand_in[len(PASTE_START):-len(PASTE_END)])
    assert bounded_input(big) == ""


def screen_until(game: Any, said: bytes, timeout: float = 30) -> bytes:
    """The app's output over ``game``'s socket until it holds ``said``."""
    seen = b""
    deadline = time.monotonic() + timeout
    while said not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"{said!r} never came"
        chunk = game.recv(timeout=left)
        seen += chunk if isinstance(chunk, bytes) else chunk.encode()
    return seen


def test_an_oversized_or_strange_message_leaves_the_session_playing(data_dir: Path) -> None:
    """A client that sends a 5 MiB paste itself (the page never does) and messages
    that are not textual.js's: the session goes on and says the paste is over the cap."""
    from websockets.sync.client import connect

    with serving(data_dir) as url:
        socket_url = url.replace("http://", "ws://") + "ws?width=120&height=40"
        with connect(socket_url, open_timeout=10) as game:
            screen_until(game, b"new game")
            for strange in ("not json", "{}", "[]", "[1, 2]", '["stdin"]', '["resize", 5]'):
                game.send(strange)
            paste = "{" + "x" * (5 * 1024 * 1024) + "}"
            game.send(json.dumps(["stdin", f"\x1b[200~{paste}\x1b[201~"]))
            screen_until(game, b"size cap")
            game.send(json.dumps(["ping", "still there"]))
            screen_until(game, b"still there")
