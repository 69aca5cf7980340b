"""Under the pseudo-locale at 80x24, the waiting room and a joiner's notices come from the
catalog: every word shown lies inside markers (player names, digits, the join command's
tokens and key names excepted), and no closing marker is cut off.

The host runs in this process on loopback; the players are real clients over real
WebSockets (the app of one of them under ``App.run_test``). The region checked is the
one above the footer (the footer's key labels are the app's to translate).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from allfives_tui.cli.host import join_hint
from allfives_tui.locale import _, use_language
from allfives_tui.net.client import join
from allfives_tui.net.host import Host, HostConfig
from allfives_tui.net.protocol import Notice, NoticeCode, RefusalCode, Refused
from allfives_tui.ui.remote import RemoteApp
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.screens.lobby import LobbyScreen
from allfives_tui.ui.widgets.footer import AppFooter
from tests.locale.pseudo import CLOSE, OPEN, pseudo, unmarked
from tests.locale.screens import SIZE
from tests.net.conftest import Raw, partnership, start_host
from tests.ui.helpers import screen_text, until

COMMAND = frozenset({"allfives", "join", "name", "NAME"})
"""The join command's tokens, shown as they are typed."""
NAMES = frozenset({"Hana", "Ana", "Bob"})


def above_the_footer(app: RemoteApp) -> str:
    """The screen's rows above its footer."""
    rows = screen_text(app).split("\n")
    footers = app.screen.query(AppFooter)
    return "\n".join(rows[: footers.first().region.y] if footers else rows)


def toasts(app: RemoteApp) -> list[str]:
    """Each notification on screen, as shown (its rows within its box)."""
    rows = screen_text(app).split("\n")
    shown = []
    for toast in app.screen.query("Toast"):  # Textual's notifications
        box = toast.region
        shown.append("\n".join(row[box.x : box.right] for row in rows[box.y : box.bottom]))
    return shown


def marked(text: str, allowed: Collection[str] = NAMES) -> bool:
    """True when every word of ``text`` came from the catalog."""
    return OPEN in text and unmarked(text, allowed) == []


async def lobby_shown(pilot: Any, app: RemoteApp, *names: str) -> str:
    """The waiting room once it shows every one of ``names``; the rows above the footer."""

    def shown() -> bool:
        text = above_the_footer(app)
        return isinstance(app.screen, LobbyScreen) and all(n in text for n in names)

    await until(pilot, shown)
    return above_the_footer(app)


async def test_the_hosts_waiting_room_is_marked(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    host = Host(HostConfig(rules=partnership(), level="random", host_name="Hana", pace=0.0))
    port = await host.start("127.0.0.1", 0)
    address = _("Friends join with: {command}").format(command=join_hint("127.0.0.1", port, False))
    app = RemoteApp(host.local_link(), 0, owner=True, address=address)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await lobby_shown(pilot, app, "Hana")
            bob = await join(f"127.0.0.1:{port}", "Bob")
            await lobby_shown(pilot, app, "Hana", "Bob")
            await pilot.press("4")  # the fourth seat to a computer
            await until(pilot, lambda: host.slots[3].computer)
            text = await lobby_shown(pilot, app, "Hana", "Bob", pseudo("computer ({level})")[:4])
            assert unmarked(text, NAMES | COMMAND | {"random"}) == [], text
            assert pseudo("Waiting room") in text
            await bob.close()
    finally:
        await host.close()


async def test_a_joiners_waiting_room_is_marked(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    host = await start_host(open_seats=3)
    assert host.port is not None
    ana = await join(f"127.0.0.1:{host.port}", "Ana")
    app = RemoteApp(ana, ana.seat)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await lobby_shown(pilot, app, "Ana")
            bob = await Raw.open(host.port)
            await bob.sign_in("Bob")
            text = await lobby_shown(pilot, app, "Ana", "Bob")
            assert unmarked(text, NAMES | {"random"}) == [], text
            assert pseudo("The host starts the game when everyone is here.") in text
            await bob.close()
    finally:
        await host.close()


async def test_a_joiners_notices_are_marked(pseudo_locale: str) -> None:
    """Every notice and refusal the host sends, the lost host and the joiner's own return
    to the table: each is shown whole, in the catalog's words, over the game at 80x24."""
    use_language(pseudo_locale)
    host = await start_host(open_seats=2)
    assert host.port is not None
    ana = await join(f"127.0.0.1:{host.port}", "Ana", retry=10)
    app = RemoteApp(ana, ana.seat)
    seen: list[str] = []

    async def shows(pilot: Any, what: str) -> None:
        """Wait for a notification holding ``what``; keep what it showed, then clear it."""

        def there() -> list[str]:
            return [t for t in toasts(app) if what in " ".join(t.split())]

        await until(pilot, lambda: bool(there()))
        seen.extend(there())
        app.clear_notifications()
        await until(pilot, lambda: not toasts(app))

    try:
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            bob = await Raw.open(host.port)
            await bob.sign_in("Bob")
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            for code in (
                NoticeCode.RECONNECTING, NoticeCode.BACK, NoticeCode.BACK_PLAYING_AGAIN,
                NoticeCode.TAKEN_OVER,
            ):
                host.seating.tell(Notice(code=code, seat=1))
                await shows(pilot, "Bob")
            slot = host.slots[ana.seat]
            assert slot.session is not None
            for refused in (
                Refused(code=RefusalCode.STALE_STEP),
                Refused(code=RefusalCode.NOT_STARTED),
                Refused(code=RefusalCode.SEAT_UNCHANGEABLE, seat=2),
                Refused(code=RefusalCode.TOO_LARGE, size=5000, limit=4096),
            ):
                slot.session.deliver(refused)
                await shows(pilot, OPEN)
            # something unreadable from the host
            assert host.transport.server is not None
            (line,) = [
                c for c in host.transport.server.connections
                if ana.ws is not None and c.remote_address == ana.ws.local_address
            ]
            await line.send("{not json")
            await shows(pilot, OPEN)
            # the host drops Ana's line: she is back at once, with her token
            assert slot.session.drop is not None
            slot.session.drop(1001, "")
            await shows(pilot, pseudo("Back at the table."))
            # the host is gone: reconnecting… (for a while)
            await host.close()
            await shows(pilot, pseudo("Lost the host ({detail}): reconnecting…").split("{")[0])
            await bob.close()
    finally:
        await host.close()
    assert len(seen) == 11, seen
    for text in seen:
        assert marked(text), text
        assert text.count(OPEN) == text.count(CLOSE), text
