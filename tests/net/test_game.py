"""A whole partnership game on loopback, played by raw protocol clients, and a leak check."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from allfives_tui.net.host import Host
from engine import GameState, Phase
from engine.record import GameRecord
from tests.net.conftest import Raw

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
    # every message of the game, checked against the host's true state at its step
    steps = list(table.record().steps())
    checked = 0
    for client in (ana, bob):
        assert client.seat is not None
        for text in client.raw:
            message = json.loads(text)
            if message["kind"] != "state":
                continue
            state = steps[message["step"] - 1].state
            seen = tiles_in(message)
            assert not seen & hidden_from(state, client.seat), (message["step"], seen)
            checked += 1
            if state.phase is Phase.PLAY:
                own = {str(t) for t in state.hands[client.seat]}
                assert {str(t) for t in _view_hand(message)} == own
    assert checked > 40
    # the check can fail: the host's own truth holds hidden tiles the messages lack
    assert any(hidden_from(s.state, 0) for s in steps)


def _view_hand(message: dict[str, Any]) -> list[str]:
    hand: list[str] = message["view"]["hand"]
    return hand
