"""The host performs its table's driver: a whole game over a LocalLink at pace 0."""

from __future__ import annotations

import asyncio

from allfives_tui.net.host import Host, HostConfig
from allfives_tui.net.protocol import Act, Ready, Record, Refused, SeatAssigned, Start, State
from allfives_tui.net.remote_table import RemoteTable
from allfives_tui.table.driver import AwaitPerson, Over, SeatDriver, Summary
from engine import Rules


async def test_the_hosts_own_player_plays_a_whole_game_against_its_computers() -> None:
    config = HostConfig(rules=Rules(players=3, target=60), seed=21, pace=0.0, open_seats=0)
    host = Host(config)
    link = host.local_link()
    assert isinstance(await link.recv(), SeatAssigned)
    await link.send(Start())
    table: RemoteTable | None = None
    driver: SeatDriver | None = None
    steps: list[int] = []
    refusals: list[Refused] = []
    stale_sent = False
    record = None
    async with asyncio.timeout(60):
        while record is None:
            message = await link.recv()
            if isinstance(message, Record):
                record = message.record
            elif isinstance(message, Refused):
                refusals.append(message)
            elif isinstance(message, State):
                if table is None:
                    table = RemoteTable(0, message)
                    driver = SeatDriver(table, 0, now=lambda: 0.0)
                else:
                    table.update(message)
                assert driver is not None
                steps.append(message.step)
                step = driver.next(table.waiting)
                if isinstance(step, AwaitPerson):
                    if not stale_sent and step.number > 0:
                        stale_sent = True  # an answer at a step already gone
                        await link.send(Act(action=step.legal[0], step=step.number - 1))
                    await link.send(table.request(driver.done(step, step.legal[0])))
                elif isinstance(step, Summary):
                    driver.ready()
                    await link.send(Ready())
    assert table is not None and driver is not None
    assert isinstance(driver.next(), Over) and host.table is not None and host.table.is_over
    assert record == host.table.record()
    assert steps == sorted(steps) and steps[-1] == host.table.step
    assert [r.code for r in refusals] == ["stale_step"]  # the one stale answer, nothing else
    assert host.errors == []
    await host.close()
