"""A whole partnership game on loopback, played by raw protocol clients, and a leak check."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

from allfives_tui.net.host import Host
from allfives_tui.table.driver import Summary
from engine import GameState, Phase, Rules, SeatView
from engine.record import GameRecord
from tests.net.conftest import Raw, start_host
from tests.waiting import until

TILE = re.compile(r"^[0-6]-[0-6]$")


def tiles_in(value: Any) -> set[str]:
    """Every tile named anywhere in a decoded message."""
    found: set[str] = set()
    if isinstance(value, str):
        if TILE.match(value):
            found.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            found |= tiles_in(v)
    elif isinstance(value, list):
        for v in value:
            found |= tiles_in(v)
    return found


def hidden_from(state: GameState, seat: int) -> set[str]:
    """What ``seat`` must not see at ``state``: the other hands and the boneyard, in play."""
    if state.phase is not Phase.PLAY:
        return set()
    hidden = {str(t) for t in state.boneyard}
    for s, hand in enumerate(state.hands):
        if s != seat:
            hidden |= {str(t) for t in hand}
    return hidden


async def test_raw_clients_play_a_whole_partnership_game_and_nothing_leaks(host: Host) -> None:
    assert host.port is not None
    ana, bob = await Raw.open(host.port), await Raw.open(host.port)
    assert (await ana.sign_in("Ana"))["seat"] == 0
    assert (await bob.sign_in("Bob"))["seat"] == 1
    moves = await asyncio.wait_for(asyncio.gather(ana.play(), bob.play()), 30)
    assert all(m > 0 for m in moves)
    await asyncio.wait_for(host.finished.wait(), 5)
    table = host.table
    assert table is not None and table.is_over
    winner = table.state.winner
    assert winner is not None and table.state.scores[winner] >= 50
    # the record the clients got is the host's, and it replays to the same end
    for client in (ana, bob):
        sent = GameRecord.model_validate(client.received[-1]["record"])
        assert sent.final_state() == table.state
    assert [s.kind for s in table.seats] == ["remote", "remote", "computer", "computer"]
    # every message of the game, of every kind, checked against the host's true state
    # at the step of the latest picture before it (messages arrive in order)
    steps = list(table.record().steps())
    checked = 0
    for client in (ana, bob):
        assert client.seat is not None
        state = None
        kinds = set()
        for text in client.raw:
            message = json.loads(text)
            kinds.add(message["kind"])
            if message["kind"] == "state":
                state = steps[message["step"] - 1].state
                if state.phase is Phase.PLAY:
                    own = {str(t) for t in state.hands[client.seat]}
                    assert {str(t) for t in _view_hand(message)} == own
            if message["kind"] == "record":  # everything, once the last hand is over
                assert state is not None and state.is_terminal
                continue
            seen = tiles_in(message)
            hidden = hidden_from(state, client.seat) if state is not None else set()
            assert not seen & hidden, (message["kind"], seen & hidden)
            checked += 1
        assert {"state", "record"} <= kinds
    assert checked > 40
    # the check can fail: the host's own truth holds hidden tiles the messages lack
    assert any(hidden_from(s.state, 0) for s in steps)


def _view_hand(message: dict[str, Any]) -> list[str]:
    hand: list[str] = message["view"]["hand"]
    return hand


async def _to_hand_over(client: Raw, other: Raw) -> None:
    """Both play (the first legal move) until a hand is over; neither says ready."""

    async def until_over(raw: Raw) -> None:
        while True:
            message = await raw.recv()
            if message["kind"] != "state":
                continue
            if message["revealed"] is not None and message["view"]["phase"] == "deal":
                return
            legal = SeatView.model_validate(message["view"]).legal_actions()
            if legal:
                action = legal[-1].model_dump(mode="json")
                await raw.send({"kind": "act", "action": action, "step": message["step"]})

    await asyncio.wait_for(asyncio.gather(until_over(client), until_over(other)), 20)


async def test_the_next_deal_waits_for_every_player_to_close_the_summary(tmp_path: Path) -> None:
    host = await start_host(rules=Rules(players=2, target=250), folder=tmp_path / "h")
    host.config.summary_timeout = 30.0
    assert host.port is not None
    ana, bob = await Raw.open(host.port), await Raw.open(host.port)
    await ana.sign_in("Ana")
    await bob.sign_in("Bob")
    await _to_hand_over(ana, bob)
    table = host.table
    assert table is not None and table.hand_over is not None
    driver = host.driver
    assert driver is not None
    await ana.send({"kind": "ready"})
    await until(lambda: driver.waiting_for() == (bob.seat,), what="Ana's ready taken")
    assert table.state.phase is Phase.DEAL and table.state.hand_number == 1
    step = driver.next()  # what the host does next: wait for Bob (for 30 s at most)
    assert isinstance(step, Summary) and step.waiting_for == (bob.seat,)
    await bob.send({"kind": "ready"})
    dealt = await ana.recv("state")
    assert dealt["events"][0]["kind"] == "dealt" and table.state.hand_number == 2
    await host.close()


async def test_the_next_deal_comes_after_the_summary_timeout_all_the_same(tmp_path: Path) -> None:
    host = await start_host(rules=Rules(players=2, target=250), folder=tmp_path / "h")
    host.config.summary_timeout = 0.05
    assert host.port is not None
    ana, bob = await Raw.open(host.port), await Raw.open(host.port)
    await ana.sign_in("Ana")
    await bob.sign_in("Bob")
    await _to_hand_over(ana, bob)
    dealt = await ana.recv("state", timeout=5)
    assert dealt["events"][0]["kind"] == "dealt"
    await host.close()
