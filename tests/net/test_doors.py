"""Who gets in: connections that never sign in are closed and capped per address, a rejoin
token always finds its seat, and failed sign-ins make their address wait longer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

from allfives_tui.net.auth import SignInLimiter
from allfives_tui.net.host import Host
from allfives_tui.net.protocol import PROTOCOL_VERSION, Refused
from allfives_tui.net.wording import close_text, refusal_text
from engine import Rules
from tests.net.conftest import FakeClock, Raw, start_host
from tests.waiting import until

STARTED = {"kind": "refused", "code": "wrong_password_or_started", "fatal": True}


async def closed_with(raw: Raw) -> tuple[int, str]:
    """The close code and reason of a connection the host closes (bounded wait)."""
    with pytest.raises(ConnectionClosed) as err:
        await raw.recv()
    frame = err.value.rcvd
    assert frame is not None
    return frame.code, frame.reason


async def started_pair(host: Host) -> tuple[Raw, Raw]:
    """Ana and Bob signed in at a two-player table, the game dealt."""
    assert host.port is not None
    ana, bob = await Raw.open(host.port), await Raw.open(host.port)
    assert (await ana.sign_in("Ana", "s3cret"))["kind"] == "seat"
    assert (await bob.sign_in("Bob", "s3cret"))["kind"] == "seat"
    await ana.recv("state")
    await bob.recv("state")
    return ana, bob


async def test_a_rejoin_token_gets_its_seat_while_idle_connections_fill_the_host(
    tmp_path: Path,
) -> None:
    host = await start_host(rules=Rules(players=2, target=50), password="s3cret", grace=60.0)
    assert host.port is not None
    ana, bob = await started_pair(host)
    bob_seat = bob.seat
    assert bob_seat is not None
    await bob.close()
    await until(lambda: host.slots[bob_seat].session is None)
    idle = [await Raw.open(host.port) for _ in range(31)]
    back = await Raw.open(host.port)
    seated = await back.sign_in("Bob", "s3cret", token=bob.token)
    assert seated["kind"] == "seat" and seated["seat"] == bob_seat and seated["rejoined"] is True
    assert host.slots[bob_seat].session is not None and host.driver is not None
    assert not host.driver.played_by_computer(bob_seat)
    # the idle ones: the oldest closed at once, at most 4 kept from this address
    assert await closed_with(idle[0]) == (1013, "too_many_from_address")
    assert close_text("too_many_from_address") == "too many connections from your address"
    await until(lambda: len(host.pending("127.0.0.1")) <= 4)
    for raw in (ana, back, *idle):
        await raw.close()
    await host.close()


async def test_a_connection_that_does_not_sign_in_in_time_is_closed(tmp_path: Path) -> None:
    host = await start_host(rules=Rules(players=2, target=50), hello_timeout=0.5)
    assert host.port is not None
    ana = await Raw.open(host.port)
    assert (await ana.sign_in("Ana"))["kind"] == "seat"
    silent = await Raw.open(host.port)
    halfway = await Raw.open(host.port)
    await halfway.send({"kind": "hello", "version": PROTOCOL_VERSION, "name": "Eve"})
    assert (await halfway.recv())["kind"] == "challenge"
    assert await closed_with(silent) == (1008, "sign_in_timeout 0.5")
    assert await closed_with(halfway) == (1008, "sign_in_timeout 0.5")
    assert close_text("sign_in_timeout 0.5") == "no sign-in within 0.5 s"
    assert close_text("sign_in_timeout 2") == "no sign-in within 2 s"
    await until(lambda: len(host.sessions) == 1)
    # the signed-in player was left alone: the game starts when Bob comes
    bob = await Raw.open(host.port)
    assert (await bob.sign_in("Bob"))["kind"] == "seat"
    assert (await ana.recv("state"))["kind"] == "state"
    await ana.close()
    await bob.close()
    await host.close()


async def test_pending_connections_are_capped_per_address_and_in_all(tmp_path: Path) -> None:
    host = await start_host(rules=Rules(players=2, target=50))
    assert host.port is not None
    ana = await Raw.open(host.port)
    assert (await ana.sign_in("Ana"))["kind"] == "seat"
    first = [await Raw.open(host.port, "127.0.0.2") for _ in range(5)]
    assert await closed_with(first[0]) == (1013, "too_many_from_address")
    await until(lambda: len(host.pending("127.0.0.2")) == 4)
    others: list[Raw] = []
    for n in range(3, 11):  # 8 more addresses of 4: 36 pending, 32 kept
        others += [await Raw.open(host.port, f"127.0.0.{n}") for _ in range(4)]
    await until(lambda: len(host.pending()) == 32)
    assert await closed_with(first[1]) == (1013, "too_many_connections")
    assert close_text("too_many_connections") == "too many connections to this table"
    assert host.slots[0].session is not None  # a seated player is not counted
    # a newcomer still gets in and sits
    bob = await Raw.open(host.port, "127.0.0.11")
    assert (await bob.sign_in("Bob"))["kind"] == "seat"
    for raw in (ana, bob, *first, *others):
        await raw.close()
    await host.close()


async def test_failed_sign_ins_make_their_address_wait_longer_and_tell_nothing(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    host = await start_host(
        rules=Rules(players=2, target=50), password="s3cret", sign_in_delay=10.0, clock=clock
    )
    assert host.port is not None
    ana, bob = await started_pair(host)
    await bob.close()

    async def eve(password: str) -> dict[str, Any]:
        assert host.port is not None
        raw = await Raw.open(host.port)
        answer = await raw.sign_in("Eve", password)
        await raw.close()
        return answer

    wrong = await eve("guess")
    assert wrong == STARTED
    waiting = await eve("s3cret")
    assert waiting == {"kind": "refused", "code": "too_many_failures", "wait_s": 10, "fatal": True}
    assert refusal_text(Refused.model_validate(waiting)) == (
        "too many failed sign-ins from your address: try again in 10 s"
    )
    # the player with a token is not kept waiting
    back = await Raw.open(host.port)
    assert (await back.sign_in("Bob", "s3cret", token=bob.token))["rejoined"] is True
    clock.now += 10
    assert await eve("s3cret") == wrong  # the right password, the same refusal
    waiting = await eve("s3cret")
    assert (waiting["code"], waiting["wait_s"]) == ("too_many_failures", 20)
    clock.now += 20
    assert await eve("guess again") == wrong
    assert host.limiter.failures("127.0.0.1") == 3
    for raw in (ana, back):
        await raw.close()
    await host.close()


async def test_before_the_start_a_wrong_password_is_named_and_a_right_one_sits(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    host = await start_host(
        rules=Rules(players=2, target=50), password="s3cret", sign_in_delay=5.0, clock=clock
    )
    assert host.port is not None
    ana = await Raw.open(host.port)
    assert (await ana.sign_in("Ana", "nope"))["code"] == "wrong_password"
    early = await Raw.open(host.port)
    assert await early.sign_in("Ana", "s3cret") == {
        "kind": "refused", "code": "too_many_failures", "wait_s": 5, "fatal": True,
    }
    assert host.slots[0].name is None
    clock.now += 5
    again = await Raw.open(host.port)
    assert (await again.sign_in("Ana", "s3cret"))["kind"] == "seat"
    assert host.limiter.failures("127.0.0.1") == 0
    for raw in (ana, early, again):
        await raw.close()
    await host.close()


@given(st.floats(0.01, 100), st.lists(st.integers(0, 10_000), min_size=2, max_size=10))
def test_the_wait_grows_with_the_failures_up_to_its_cap(
    delay: float, failures: list[int]
) -> None:
    limiter = SignInLimiter(delay=delay, longest=60.0)
    waits = [limiter.delay_after(n) for n in sorted(failures)]
    assert waits == sorted(waits)
    assert all(w <= 60.0 and (w > 0) == (n > 0) for w, n in
               zip(waits, sorted(failures), strict=True))
    assert limiter.delay_after(1) == min(delay, 60.0)
    assert limiter.delay_after(2) == min(2 * delay, 60.0)
