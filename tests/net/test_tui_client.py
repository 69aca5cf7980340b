"""The TUI at a networked table: the same game screen, played by keyboard through Pilot,
against a raw client and two computers, to the end of a partnership game."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from allfives_tui.net.client import join
from allfives_tui.net.remote_table import RemoteTable
from allfives_tui.store.history import History
from allfives_tui.ui.remote import RemoteApp
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.screens.game_over import GameOverScreen
from allfives_tui.ui.screens.hand_summary import HandSummaryScreen
from allfives_tui.ui.screens.lobby import LobbyScreen
from tests.net.conftest import Raw, partnership, start_host
from tests.ui.helpers import screen_text, take_a_turn, until


def _to_do(app: RemoteApp) -> bool:
    """True when the game is over, or the person at the app has a summary to close or
    a move to make (on a screen that takes keys now)."""
    screen = app.screen
    if isinstance(screen, GameScreen):
        return screen.is_mounted and screen.human_turn() and bool(screen.legal())
    if isinstance(screen, HandSummaryScreen):
        return not screen.holds_key("enter")
    return isinstance(screen, GameOverScreen)


async def play_by_keyboard(pilot: Pilot[Any], app: RemoteApp) -> tuple[int, int]:
    """Play the person's seat by keyboard to the game's end, each move once the host has
    shown the last one; the number of moves made and of summaries closed. (Give the
    app no key-ahead grace: a summary takes Enter once it shows.)"""
    turns = summaries = 0
    while True:
        await until(pilot, lambda: _to_do(app))  # the person's turn, a summary or the end
        screen = app.screen
        if isinstance(screen, GameOverScreen):
            return turns, summaries
        if isinstance(screen, HandSummaryScreen):
            await pilot.press("enter")
            summaries += 1

            def closed(shown: HandSummaryScreen = screen) -> bool:
                return app.screen is not shown

            await until(pilot, closed)
        else:
            remote = app.remote
            assert remote is not None
            before = remote.step
            await take_a_turn(pilot, screen)
            turns += 1

            def shown(r: RemoteTable = remote, step: int = before) -> bool:
                return r.step != step

            await until(pilot, shown)


async def test_a_tui_client_plays_a_whole_partnership_game_by_keyboard(tmp_path: Path) -> None:
    host = await start_host(folder=tmp_path / "h", open_seats=2, rules=partnership(25))
    assert host.port is not None
    connection = await join(f"127.0.0.1:{host.port}", "Ana")
    assert connection.seat == 0
    app = RemoteApp(connection, connection.seat)
    app.key_ahead_grace = 0.0
    bob = await Raw.open(host.port)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(
            pilot, lambda: isinstance(app.screen, LobbyScreen) and "Ana (you)" in screen_text(app)
        )
        text = screen_text(app)
        assert "Waiting room" in text and "open: waiting for a player" in text
        assert "computer (random)" in text
        await bob.sign_in("Bob")
        bob_task = asyncio.create_task(bob.play())
        turns, summaries = await play_by_keyboard(pilot, app)
        assert isinstance(app.screen, GameOverScreen)
        table = host.table
        assert table is not None and table.is_over
        assert turns > 3 and summaries >= 1, (turns, summaries)
        # the screen's picture is the host's: same scores, and the record it got replays
        assert app.remote is not None
        assert app.remote.view_now.scores == table.state.scores
        await asyncio.wait_for(bob_task, 10)
        await until(pilot, lambda: app.remote is not None and app.remote.final_record is not None)
        assert app.remote.final_record is not None
        assert app.remote.final_record.final_state() == table.state
        # the host closing after the game is no lost host: the game-over screen stays
        await host.close()
        await until(pilot, lambda: any("closed the table" in n.message for n in app._notifications))
        assert any("closed the table" in n.message for n in app._notifications)
        assert isinstance(app.screen, GameOverScreen) and app.lost is None
        await pilot.press("q")
    assert app.lost is None
    # the client autosaved nothing and took no lock: its data folder holds only the
    # history, where the finished game is Ana's, a person's, with Bob a remote player
    data = Path(os.environ["ALLFIVES_DATA_DIR"])
    assert {p.name for p in data.iterdir()} <= {
        "history.sqlite", "history.sqlite-wal", "history.sqlite-shm"
    }
    with History() as history:
        (game,) = history.games()
        assert game.game_id == table.game_id and game.finished
        assert [(s.name, s.kind) for s in game.seats][:2] == [("Ana", "person"), ("Bob", "remote")]
        (mine,) = history.player_games("Ana")
        assert mine.won == (table.state.winner == 0)
        assert history.player_games("Bob") == []
        assert history.load(table.game_id).record.final_state() == table.state
    await host.close()


async def test_the_hosts_own_screen_sets_the_seats_and_starts_then_plays(tmp_path: Path) -> None:
    from allfives_tui.net.host import Host, HostConfig
    from allfives_tui.net.hostfiles import HostFiles
    from tests.net.conftest import partnership

    files = HostFiles(tmp_path / "h")
    files.acquire()
    config = HostConfig(
        rules=partnership(20), level="random", pace=0.0, host_name="Hana", summary_timeout=5.0
    )
    host = Host(config, files)
    port = await host.start("127.0.0.1", 0)
    bob = await Raw.open(port)
    app = RemoteApp(host.local_link(), 0, owner=True, address="Friends join with: allfives join …")
    app.key_ahead_grace = 0.0
    async with app.run_test(size=(100, 30)) as pilot:
        await bob.sign_in("Bob")
        await until(pilot, lambda: "Bob" in screen_text(app))
        text = screen_text(app)
        assert "Hana (you)" in text and "Bob" in text and "Friends join with" in text
        # seats 3 and 4: a computer, then open again, then a computer; start
        await pilot.press("3")
        await until(pilot, lambda: host.slots[2].computer)
        await pilot.press("3")
        await until(pilot, lambda: not host.slots[2].computer)
        await pilot.press("3", "4")
        await until(pilot, lambda: host.slots[3].computer)
        assert host.slots[2].computer and host.slots[3].computer and not host.slots[1].computer
        await pilot.press("enter")
        bob_task = asyncio.create_task(bob.play())
        await play_by_keyboard(pilot, app)
        assert isinstance(app.screen, GameOverScreen)
        table = host.table
        assert table is not None and table.is_over
        assert [s.kind for s in table.seats] == ["person", "remote", "computer", "computer"]
        assert [s.name for s in table.seats][:2] == ["Hana", "Bob"]
        await asyncio.wait_for(bob_task, 10)
        await pilot.press("q")
    await host.close()


async def test_a_restarted_hosts_own_screen_reopens_the_game_where_it_stopped(
    tmp_path: Path,
) -> None:
    from allfives_tui.net.host import Host, HostConfig
    from allfives_tui.net.hostfiles import HostFiles
    from allfives_tui.net.protocol import Act, Start, State
    from tests.net.conftest import partnership

    def config() -> HostConfig:
        return HostConfig(rules=partnership(), level="random", pace=0.0, host_name="Hana")

    files = HostFiles(tmp_path / "h")
    files.acquire()
    host = Host(config(), files)
    port = await host.start("127.0.0.1", 0)
    bob = await Raw.open(port)
    await bob.sign_in("Bob")
    link = host.local_link()
    await link.send(Start())

    async def hana_plays() -> None:  # the host's own seat, through its link, until Bob moved
        while True:
            message = await link.recv()
            if isinstance(message, State) and message.view.legal_actions():
                action = message.view.legal_actions()[-1]
                await link.send(Act(action=action, step=message.step))

    hana = asyncio.create_task(hana_plays())
    await asyncio.wait_for(bob.play(stop_after=1), 10)
    hana.cancel()
    assert host.table is not None
    before = host.table.state
    await host.close()
    files = HostFiles(tmp_path / "h")
    files.acquire()
    reopened = Host(config(), files, resume=files.unfinished())
    await reopened.start("127.0.0.1", port)
    app = RemoteApp(reopened.local_link(), 0, owner=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.is_mounted)
        assert isinstance(app.screen, GameScreen)
        table = reopened.table
        assert table is not None and table.resumed
        # the game went on from the saved point: the computers play, Bob is away
        assert table.record().truncated(len(before.actions)).final_state() == before
        # once the table waits for a person, the screen shows it
        await until(pilot, lambda: app.remote is not None and app.remote.view_now == table.view(0))
        assert app.remote is not None and app.remote.view_now == table.view(0)
        assert app.remote.resumed  # the log opens with "Game continued (hand 1…)"
        await pilot.press("q")
    assert app.lost is None and app.return_code in (0, None)
    await reopened.close()
