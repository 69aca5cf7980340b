"""At a networked table, a joiner who leaves a hand's summary open past the host's wait
sees it close, with a word, when the host deals the next hand."""

from __future__ import annotations

from pathlib import Path

from allfives_tui.net.client import join
from allfives_tui.net.host import Host, HostConfig
from allfives_tui.net.remote_table import RemoteTable
from allfives_tui.ui.remote import RemoteApp
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.screens.hand_summary import HandSummaryScreen
from engine import Rules
from tests.ui.helpers import take_a_turn, until


async def test_a_joiners_summary_closes_with_a_word_when_the_host_deals_on(
    tmp_path: Path,
) -> None:
    config = HostConfig(
        rules=Rules(players=2), level="random", pace=0.0, summary_timeout=0.5,
        host_seat=False, auto_start=True, open_seats=1,
    )
    host = Host(config)
    port = await host.start("127.0.0.1", 0)
    connection = await join(f"127.0.0.1:{port}", "Ana")
    app = RemoteApp(connection, connection.seat)
    app.key_ahead_grace = 0.0

    def to_do() -> bool:
        screen = app.screen
        if isinstance(screen, HandSummaryScreen):
            return True
        return isinstance(screen, GameScreen) and screen.human_turn() and bool(screen.legal())

    async with app.run_test(size=(80, 24)) as pilot:
        # hands by keyboard, to the first summary seen (the host's wait is short: under
        # load a summary may close before the test looks)
        while True:
            await until(pilot, to_do)
            screen = app.screen
            if isinstance(screen, HandSummaryScreen):
                break
            remote = app.remote
            assert remote is not None
            before = remote.step
            await take_a_turn(pilot, screen)

            def shown(r: RemoteTable = remote, step: int = before) -> bool:
                return r.step != step

            await until(pilot, shown)
        summary = app.screen
        assert app.remote is not None
        hand = app.remote.view_now.hand_number
        # nobody presses Enter: the host's wait runs out and it deals the next hand
        await until(pilot, lambda: app.screen is not summary, timeout=20)
        assert isinstance(app.screen, GameScreen)
        assert app.remote.view_now.hand_number == hand + 1
        word = (f"The host dealt hand {hand + 1}: the wait for every player to close the "
                "summary ran out.")
        await until(pilot, lambda: word in [str(n.message) for n in app._notifications])
    await host.close()
