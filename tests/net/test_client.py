"""The client side: addresses, joining errors, a lost host (tried again, then one line), a
host that comes back, and the rejoin tokens kept in the data folder."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from textual.worker import WorkerFailed

from allfives_tui.net import tokens
from allfives_tui.net.client import Connection, HostLost, JoinError, address, join
from allfives_tui.net.protocol import HostMessage, Lobby, Notice, NoticeCode, SeatAssigned, State
from allfives_tui.net.wording import notice_text
from allfives_tui.ui.remote import RemoteApp
from allfives_tui.ui.screens.game import GameScreen
from engine import Rules
from tests.net.conftest import start_host
from tests.ui.helpers import until


def test_addresses() -> None:
    assert address("example.org") == "ws://example.org:7777/"
    assert address("10.0.0.2:8000") == "ws://10.0.0.2:8000/"
    assert address("[::1]:7000") == "ws://[::1]:7000/"
    assert address("::1") == "ws://[::1]:7777/"
    for bad in ("", "a b", "host:99999", "host:x", "[::1", "http://x/y"):
        with pytest.raises(JoinError):
            address(bad)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("a:b:c:d", "'a:b:c:d' is not an address: an IPv6 address is written [ADDRESS]:PORT"),
        ("[a:b]:5", "'[a:b]:5' is not an address: inside [ ] goes an IPv6 address"),
        ("a" * 300, "'" + "a" * 80 + "…' is not a host name (at most 253 characters"),
        ("x" * 64 + ".org:7", "is not a host name"),
        ("a..b", "'a..b' is not a host name"),
        ("ws://a:b:c:d/", "'ws://a:b:c:d/' is not a ws:// address"),
        ("ws://" + "a" * 300 + "/", "is not a host name"),
    ],
    ids=["colons", "brackets", "long", "long-label", "empty-label", "ws-colons", "ws-long"],
)
def test_addresses_that_cannot_be_looked_up_are_refused_in_one_line(
    text: str, why: str
) -> None:
    with pytest.raises(JoinError) as err:
        address(text)
    message = str(err.value)
    assert why in message and "\n" not in message and len(message) < 200


async def test_joining_nothing_and_a_wrong_password_say_why_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(JoinError, match=re.escape("cannot reach a host at ws://127.0.0.1:1/")):
        await join("127.0.0.1:1", "Ana")
    host = await start_host(rules=Rules(players=2, target=50), password="pw")
    with pytest.raises(JoinError, match=r"^wrong password for this table$"):
        await join(f"127.0.0.1:{host.port}", "Ana", "nope")
    with pytest.raises(JoinError, match=r"^this table has a password: give it with --password"):
        await join(f"127.0.0.1:{host.port}", "Ana")
    assert host.sessions == set() or all(not s.signed_in for s in host.sessions)
    await host.close()


async def test_a_lost_host_is_tried_again_then_reported_and_a_restarted_one_rejoined(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "h"
    host = await start_host(rules=Rules(players=2, target=50), folder=folder, open_seats=2)
    port = host.port
    assert port is not None
    ana = await join(f"127.0.0.1:{port}", "Ana", retry=5)
    bob = await join(f"127.0.0.1:{port}", "Bob", retry=0.5)
    for conn in (ana, bob):
        assert isinstance(await conn.recv(), SeatAssigned)
    await asyncio.wait_for(_until_state(ana), 5)
    await host.close()
    notice = await asyncio.wait_for(ana.recv(), 5)
    assert isinstance(notice, Notice) and notice.code is NoticeCode.HOST_LOST
    assert notice_text(notice).startswith("Lost the host (") and notice.detail
    # Bob gives up after his short retry: one line naming the host
    assert isinstance(await asyncio.wait_for(_until_notice(bob), 5), Notice)
    lost = "^" + re.escape(f"lost the host at ws://127.0.0.1:{port}/ ")
    with pytest.raises(HostLost, match=lost):
        await asyncio.wait_for(bob.recv(), 5)
    # Ana's host comes back in time: she is seated again and sees the table
    reopened = await start_host(
        rules=Rules(players=2, target=50), folder=folder, port=port, open_seats=2
    )
    back = await asyncio.wait_for(ana.recv(), 10)
    assert isinstance(back, SeatAssigned) and back.rejoined and back.seat == ana.seat
    state = await asyncio.wait_for(_until_state(ana), 5)
    assert state.whole_hand and state.view.seat == ana.seat
    await ana.close()
    await bob.close()
    await reopened.close()


async def _until_state(conn: Connection) -> State:
    while True:
        message = await conn.recv()
        if isinstance(message, State):
            return message


async def _until_notice(conn: Connection) -> Notice:
    while True:
        message = await conn.recv()
        if isinstance(message, Notice):
            return message


async def test_the_app_that_loses_its_host_exits_non_zero_with_one_line(tmp_path: Path) -> None:
    host = await start_host(rules=Rules(players=2, target=50), open_seats=2)
    ana = await join(f"127.0.0.1:{host.port}", "Ana", retry=0.3)
    bob = await join(f"127.0.0.1:{host.port}", "Bob", retry=0.3)
    app = RemoteApp(ana, ana.seat)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        await host.close()
        await until(pilot, lambda: app.lost is not None)
    assert app.lost is not None and app.lost.startswith("lost the host at ws://127.0.0.1:")
    assert "\n" not in app.lost and app.return_code == 1
    await bob.close()


def test_rejoin_tokens_are_kept_per_host_and_name_and_junk_is_ignored(data_dir: Path) -> None:
    url = "ws://127.0.0.1:7777/"
    assert tokens.recall(url, "Ana") is None
    tokens.remember(url, "Ana", "A" * 32)
    tokens.remember(url, "Bob", "B" * 32)
    tokens.remember(url, "Eve", "../../etc/passwd")  # not a token: never written
    assert tokens.recall(url, "Ana") == "A" * 32
    assert tokens.recall(url, "Bob") == "B" * 32
    assert tokens.recall(url, "Eve") is None
    assert tokens.recall("ws://elsewhere:7777/", "Ana") is None
    assert [p.name for p in data_dir.iterdir()] == ["rejoin.json"]
    (data_dir / "rejoin.json").write_text("[{junk", encoding="utf-8")
    assert tokens.recall(url, "Ana") is None


def test_lobby_messages_read_back() -> None:
    lobby = Lobby(seats=(), players=2, partnerships=False, target=50, level="random")
    assert Lobby.model_validate_json(lobby.model_dump_json()) == lobby


async def test_a_crash_at_a_networked_table_is_one_line_and_a_log(data_dir: Path) -> None:
    class Broken:
        async def recv(self) -> HostMessage:
            raise RuntimeError("boom")

        async def send(self, message: object) -> None:
            return None

        async def close(self) -> None:
            return None

    app = RemoteApp(Broken(), 0)
    with pytest.raises(WorkerFailed):  # run_test raises what crashed the app
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: app.crash_report is not None)
    report = app.crash_report
    assert report is not None and "\n" not in report
    assert report.startswith("allfives crashed (RuntimeError: boom): the host keeps the game;")
    log = Path(report.rsplit(" ", 1)[1])
    assert log.parent == data_dir and "RuntimeError: boom" in log.read_text(encoding="utf-8")
