"""Disconnections: a client killed mid-hand rejoins with its token; a host killed and
restarted reopens the game and its players rejoin; a seat given to the computer."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from allfives_tui.table.driver import AwaitPerson
from engine.record import GameRecord
from tests.net.conftest import Raw, start_host
from tests.waiting import until


def kill(client: Raw) -> None:
    """Cut the connection the way a killed process does: no closing handshake."""
    transport = client.ws.transport
    assert transport is not None
    transport.abort()


async def test_a_client_killed_mid_hand_rejoins_its_seat_with_its_token(tmp_path: Path) -> None:
    host = await start_host(folder=tmp_path / "h", grace=30.0)
    assert host.port is not None
    ana, bob = await Raw.open(host.port), await Raw.open(host.port)
    await ana.sign_in("Ana")
    await bob.sign_in("Bob")
    bob_task = asyncio.create_task(bob.play())
    await asyncio.wait_for(ana.play(stop_after=1), 10)
    table = host.table
    assert table is not None
    kill(ana)
    # the table waits at Ana's turn; Bob is told she is reconnecting
    reconnecting = {"kind": "notice", "code": "reconnecting", "seat": ana.seat}
    await until(
        lambda: table.to_act == ana.seat and host.slots[0].session is None
        and reconnecting in bob.received,
        what="the table at Ana's turn, Bob told she is reconnecting",
    )
    waiting_at = table.step
    driver = host.driver
    assert driver is not None
    step = driver.next()  # what the host does next: wait for Ana, her seat kept for 30 s
    assert isinstance(step, AwaitPerson) and step.seat == ana.seat
    assert step.grace_deadline is not None and step.grace_deadline > time.monotonic() + 20
    # a stranger's token is no way in
    thief = await Raw.open(host.port)
    assert (await thief.sign_in("Eve", token="x" * 32))["kind"] == "refused"
    # Ana's new process rejoins with the token: the same seat, the whole hand so far
    again = await Raw.open(host.port)
    seated = await again.sign_in("Ana", token=ana.token)
    assert seated == {"kind": "seat", "seat": 0, "token": ana.token, "rejoined": True}
    first = await again.recv("state")
    assert first["whole_hand"] and first["step"] == waiting_at
    assert first["events"][0]["kind"] == "dealt"
    await asyncio.wait_for(asyncio.gather(again.play(first=first), bob_task), 30)
    assert {"kind": "notice", "code": "back", "seat": 0} in bob.received
    assert table.is_over
    assert GameRecord.model_validate(again.received[-1]["record"]).final_state() == table.state
    await host.close()


async def test_after_the_grace_period_the_computer_plays_the_seat_until_its_player_returns(
    tmp_path: Path,
) -> None:
    host = await start_host(folder=tmp_path / "h", grace=0.0)
    assert host.port is not None
    ana, bob = await Raw.open(host.port), await Raw.open(host.port)
    await ana.sign_in("Ana")
    await bob.sign_in("Bob")
    await ana.recv("state")
    table = host.table
    assert table is not None
    kill(ana)
    bob_task = asyncio.create_task(bob.play(stop_after=3))
    driver = host.driver
    assert driver is not None
    await until(lambda: driver.played_by_computer(0))
    await asyncio.wait_for(bob_task, 20)
    assert {"kind": "notice", "code": "taken_over", "seat": 0} in bob.received
    played_for_ana = [m for m in table.state.history if m.seat == 0]
    assert played_for_ana or table.state.hand_number > 1
    again = await Raw.open(host.port)
    assert (await again.sign_in("Ana", token=ana.token))["rejoined"] is True
    assert not driver.played_by_computer(0)
    await asyncio.wait_for(asyncio.gather(again.play(), bob.play()), 30)
    assert table.is_over
    await host.close()


async def test_a_host_restarted_mid_hand_reopens_the_game_and_the_players_rejoin(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "h"
    host = await start_host(folder=folder)
    port = host.port
    assert port is not None
    ana, bob = await Raw.open(port), await Raw.open(port)
    await ana.sign_in("Ana")
    await bob.sign_in("Bob")
    await asyncio.wait_for(asyncio.gather(ana.play(stop_after=2), bob.play(stop_after=2)), 10)
    table = host.table
    assert table is not None
    before = table.record()
    game_id = table.game_id
    await host.close()  # what a kill leaves: every change reached the disk before it was shown
    assert (folder / "record.json").exists() and (folder / "seats.json").exists()
    reopened = await start_host(folder=folder, port=port)
    assert reopened.table is not None and reopened.table.resumed
    assert reopened.table.game_id == game_id
    assert reopened.table.state == before.final_state()
    # the players are away until they rejoin; the table waits for them
    assert all(s.session is None for s in reopened.slots[:2])
    ana2, bob2 = await Raw.open(port), await Raw.open(port)
    assert (await ana2.sign_in("Ana", token=ana.token))["seat"] == 0
    assert (await bob2.sign_in("Bob", token=bob.token))["seat"] == 1
    await asyncio.wait_for(asyncio.gather(ana2.play(), bob2.play()), 30)
    final = reopened.table
    assert final.is_over
    # the game went on from where it stopped: its first actions are the ones before
    record = final.record()
    assert record.game_id == game_id
    assert record.truncated(before.action_count).final_state() == before.final_state()
    await reopened.close()
