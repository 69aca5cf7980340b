"""Raw protocol clients and hosts on loopback (each test's data folder: tests/conftest.py)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from allfives_tui.net.host import Host, HostConfig
from allfives_tui.net.hostfiles import HostFiles
from allfives_tui.net.protocol import PROTOCOL_VERSION, proof
from engine import Rules, SeatView

TIMEOUT = 10.0


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def partnership(target: int = 50) -> Rules:
    return Rules(players=4, partnerships=True, target=target)


class Raw:
    """A client that speaks the protocol as raw JSON over a real WebSocket."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.seat: int | None = None
        self.token: str | None = None
        self.name = ""

    @classmethod
    async def open(cls, port: int, source: str | None = None) -> Raw:
        """A connection to the host at ``port`` on loopback (from the ``source`` address)."""
        local: dict[str, Any] = {"local_addr": (source, 0)} if source else {}
        ws = await connect(f"ws://127.0.0.1:{port}/", max_size=4 * 1024 * 1024, **local)
        return cls(ws)

    async def send(self, message: dict[str, Any] | str | bytes) -> None:
        await self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    async def recv(self, kind: str | None = None, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message (of ``kind``, skipping others)."""
        while True:
            text = await asyncio.wait_for(self.ws.recv(), timeout)
            assert isinstance(text, str)
            self.raw.append(text)
            message: dict[str, Any] = json.loads(text)
            self.received.append(message)
            if kind is None or message["kind"] == kind:
                return message

    async def sign_in(
        self, name: str, password: str = "", token: str | None = None
    ) -> dict[str, Any]:
        self.name = name
        hello: dict[str, Any] = {"kind": "hello", "version": PROTOCOL_VERSION, "name": name}
        if token:
            hello["token"] = token
        await self.send(hello)
        challenge = await self.recv()
        assert challenge["kind"] == "challenge", challenge
        await self.send({"kind": "auth", "proof": proof(password, challenge["nonce"], name)})
        seated = await self.recv()
        if seated["kind"] == "seat":
            self.seat, self.token = seated["seat"], seated["token"]
        return seated

    async def play(
        self, *, stop_after: int | None = None, first: dict[str, Any] | None = None
    ) -> int:
        """Answer every turn with a legal action and every summary with ready (from
        ``first``, a message already received, on); the number of moves made (returns
        early after ``stop_after`` moves)."""
        moves = 0
        while True:
            try:
                message, first = first or await self.recv(), None
            except ConnectionClosed:
                return moves
            if message["kind"] == "record":
                return moves
            if message["kind"] != "state":
                continue
            view = SeatView.model_validate(message["view"])
            if view.phase.value == "deal" and message["revealed"] is not None:
                if self.seat in message["waiting"]:
                    await self.send({"kind": "ready"})
                continue
            legal = view.legal_actions()
            if legal:
                action = legal[-1]
                await self.send(
                    {"kind": "act", "action": action.model_dump(mode="json"),
                     "step": message["step"]}
                )
                moves += 1
                if stop_after is not None and moves >= stop_after:
                    return moves

    async def close(self) -> None:
        await self.ws.close()


async def start_host(
    *,
    rules: Rules | None = None,
    open_seats: int | None = 2,
    password: str = "",
    folder: Path | None = None,
    seed: int = 7,
    port: int = 0,
    grace: float = 30.0,
    level: str = "random",
    hello_timeout: float = 10.0,
    sign_in_delay: float = 0.0,
    clock: Callable[[], float] = time.monotonic,
) -> Host:
    """A host on loopback whose computers play at once, with no wait after a failed
    sign-in unless ``sign_in_delay`` says so."""
    options: dict[str, Any] = {
        "hello_timeout": hello_timeout, "sign_in_delay": sign_in_delay, "clock": clock,
    }
    files = None
    if folder is not None:
        files = HostFiles(folder)
        files.acquire()
        resume = files.unfinished()
    else:
        resume = None
    host = Host(
        HostConfig(
            rules=rules or partnership(),
            level=level,
            password=password,
            seed=seed,
            pace=0.0,
            grace=grace,
            summary_timeout=5.0,
            host_seat=False,
            auto_start=True,
            open_seats=open_seats,
            **options,
        ),
        files,
        resume=resume,
    )
    await host.start("127.0.0.1", port)
    return host


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    h = await start_host(folder=tmp_path / "host")
    yield h
    await h.close()
