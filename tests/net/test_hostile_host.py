"""A client treats whatever a host sends as something to show, never to run: a hostile
host on loopback sends a wrong version, junk, a token shaped like a path, names with
escape sequences and markup, and a table that does not add up."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve

from allfives_tui.net.client import JoinError, join
from allfives_tui.net.protocol import PROTOCOL_VERSION, Notice, NoticeCode, State
from allfives_tui.net.remote_table import RemoteTable, TableMismatchError, shown_name
from allfives_tui.ui.remote import RemoteApp
from allfives_tui.ui.screens.game import GameScreen
from engine import Rules, apply, new_game, seeded_deal
from tests.ui.helpers import screen_text, until

Script = Callable[[ServerConnection], Any]


@pytest.fixture
async def fake_host() -> AsyncIterator[Callable[[Script], Any]]:
    servers = []

    async def start(script: Script) -> int:
        server = await serve(script, "127.0.0.1", 0)
        servers.append(server)
        return int(next(iter(server.sockets)).getsockname()[1])

    yield start
    for server in servers:
        server.close()


async def greet(
    ws: ServerConnection, *, token: str = "T" * 32, version: int = PROTOCOL_VERSION
) -> None:
    await ws.recv()
    await ws.send(json.dumps({"kind": "challenge", "version": version, "nonce": "n",
                              "password": False}))
    await ws.recv()
    await ws.send(json.dumps({"kind": "seat", "seat": 0, "token": token}))


def a_state(names: list[str], **change: Any) -> dict[str, Any]:
    rules = Rules(players=2, target=50)
    state = apply(new_game(rules), seeded_deal(new_game(rules), 4)).state
    view = json.loads(state.view(0).model_dump_json())
    view.update(change)
    return {"kind": "state", "step": 1, "view": view, "names": names,
            "kinds": ["person", "remote"], "events": [], "whole_hand": True}


async def test_another_version_and_a_path_for_a_token_are_refused(fake_host: Any) -> None:
    mismatch = (
        f"^the host speaks protocol 1 and this allfives speaks {PROTOCOL_VERSION}: "
        "use the same allfives version as the host$"
    )

    async def old(ws: ServerConnection) -> None:
        await greet(ws, version=1)

    port = await fake_host(old)
    with pytest.raises(JoinError, match=mismatch):
        await join(f"127.0.0.1:{port}", "Ana")

    async def version_one(ws: ServerConnection) -> None:  # what a version-1 host answers
        await ws.recv()
        reason = (
            f"this host speaks protocol 1 and your allfives speaks {PROTOCOL_VERSION}: "
            "use the same allfives version as the host"
        )
        await ws.send(json.dumps({"kind": "refused", "reason": reason, "fatal": True}))

    port = await fake_host(version_one)
    with pytest.raises(JoinError, match=mismatch):
        await join(f"127.0.0.1:{port}", "Ana")

    async def sneaky(ws: ServerConnection) -> None:
        await greet(ws, token="../../../../etc/passwd")

    port = await fake_host(sneaky)
    with pytest.raises(JoinError, match="bad message from the host"):
        await join(f"127.0.0.1:{port}", "Ana")


async def test_junk_and_a_table_that_does_not_add_up_are_shown_as_such_and_never_run(
    fake_host: Any, data_dir: Path
) -> None:
    evil = "\x1b]0;pwned\x07[b]Mallory[/b]\x1b[2J"

    async def hostile(ws: ServerConnection) -> None:
        await greet(ws)
        await ws.send(json.dumps(a_state(["Ana", evil])))
        await ws.send("{not json")
        await ws.send(json.dumps({"kind": "exec", "code": "import os; os.system('touch x')"}))
        bad = a_state(["Ana", "Bob"], hand_counts=[9, 9], boneyard_size=99)
        await ws.send(json.dumps(bad))
        await ws.wait_closed()

    port = await fake_host(hostile)
    connection = await join(f"127.0.0.1:{port}", "Ana")
    app = RemoteApp(connection, 0)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(
            pilot, lambda: isinstance(app.screen, GameScreen) and len(app._notifications) >= 3
        )
        assert isinstance(app.screen, GameScreen)
        assert app.remote is not None
        assert app.remote.names[1] == "?)0;pwned?(b)Mallory"  # printable, short, no markup
        text = screen_text(app)
        assert "Mallory" in text and "\x1b" not in text
        said = [n.message for n in app._notifications]
        assert any("unreadable, ignored" in m for m in said)
        assert any("does not add up" in m for m in said)
        assert app.remote.view_now.boneyard_size != 99  # the bad picture changed nothing
        await pilot.press("q")
    assert not (Path.cwd() / "x").exists()
    assert not data_dir.exists() or not any(data_dir.iterdir())  # nothing written


def test_views_that_do_not_add_up_are_refused() -> None:
    good = State.model_validate(a_state(["Ana", "Bob"]))
    table = RemoteTable(0, good)
    for change in ({"hand_counts": [9, 8]}, {"boneyard_size": 3}, {"seat": 1}):
        bad = State.model_validate(a_state(["Ana", "Bob"], **change))
        with pytest.raises(TableMismatchError):
            table.update(bad)
    assert table.view_now == good.view
    assert shown_name("\x1b[31mX") == "?(31mX"
    assert Notice(code=NoticeCode.BACK, seat=1).seat == 1
    for wrong in ({"code": "back"}, {"code": "back", "seat": 1, "detail": "x"},
                  {"code": "reconnecting", "text": "Bob is reconnecting…"}):
        with pytest.raises(ValueError):
            Notice.model_validate(wrong)
