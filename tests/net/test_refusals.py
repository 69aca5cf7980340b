"""Every kind of bad message is refused with a reason and changes nothing."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from allfives_tui.net.host import Host
from allfives_tui.net.protocol import MAX_CLIENT_MESSAGE, PROTOCOL_VERSION, WIRE_LIMIT, Refused
from allfives_tui.net.wording import refusal_text
from engine import Draw, IllegalActionError, Play, Rules, SeatView, apply
from engine.tiles import ALL_TILES
from tests.net.conftest import Raw, start_host


@pytest.fixture
async def two(tmp_path: Path) -> AsyncIterator[tuple[Host, Raw, Raw]]:
    """A two-player table of two raw clients, dealt and waiting for the first move."""
    host = await start_host(
        rules=Rules(players=2, target=50), open_seats=2, password="s3cret", folder=tmp_path / "h"
    )
    assert host.port is not None
    ana, bob = await Raw.open(host.port), await Raw.open(host.port)
    await ana.sign_in("Ana", "s3cret")
    await bob.sign_in("Bob", "s3cret")
    await ana.recv("state")
    await bob.recv("state")
    yield host, ana, bob
    await ana.close()
    await bob.close()
    await host.close()


def act(action: Any, step: int) -> dict[str, Any]:
    return {"kind": "act", "action": action.model_dump(mode="json"), "step": step}


async def refused(client: Raw, message: dict[str, Any] | str | bytes) -> dict[str, Any]:
    """The host's refusal of ``message`` (checked against the protocol, worded)."""
    await client.send(message)
    answer = await client.recv()
    assert answer["kind"] == "refused", answer
    assert refusal_text(Refused.model_validate(answer))
    # no words cross the wire: codes, numbers and the sender's own tokens only
    assert not any(" " in v for v in answer.values() if isinstance(v, str)), answer
    return answer


async def test_wrong_seat_out_of_turn_illegal_stale_and_malformed_change_nothing(
    two: tuple[Host, Raw, Raw],
) -> None:
    host, ana, bob = two
    table = host.table
    assert table is not None
    state, step = table.state, table.step
    current = table.to_act
    mover, other = (ana, bob) if current == ana.seat else (bob, ana)
    legal = table.view(mover.seat or 0).legal_actions()
    # out of turn: the other player's own legal-looking move
    out_of_turn = await refused(other, act(legal[0], step))
    assert out_of_turn == {"kind": "refused", "code": "illegal", "fatal": False, "rule": "turn"}
    # a seat is never named in a message (it is the sender's): naming one is refused
    as_mover = {**act(legal[0], step), "seat": mover.seat}
    named = await refused(other, as_mover)
    assert (named["code"], named["field"], named["problem"]) == (
        "bad_message", "act.seat", "extra_forbidden"
    )
    worded = refusal_text(Refused.model_validate(named))
    assert worded == "bad message: act.seat: Extra inputs are not permitted"
    # illegal: a tile the mover does not hold
    held = set(table.view(mover.seat or 0).hand)
    foreign = next(t for t in ALL_TILES if t not in held)
    with pytest.raises(IllegalActionError) as engine_says:
        apply(state, Play(tile=foreign))
    said = await refused(mover, act(Play(tile=foreign), step))
    assert (said["code"], said["rule"]) == ("illegal", engine_says.value.rule)
    # a draw while a tile fits (the lead: everything fits)
    with pytest.raises(IllegalActionError) as engine_says:
        apply(state, Draw())
    said = await refused(mover, act(Draw(), step))
    assert (said["code"], said["rule"]) == ("illegal", engine_says.value.rule)
    # chosen on a snapshot that is gone
    assert (await refused(mover, act(legal[0], step - 1)))["code"] == "stale_step"
    # malformed in every way
    not_json = await refused(mover, "{not json")
    assert (not_json["code"], not_json["line"], not_json["column"]) == ("not_json", 1, 2)
    assert await refused(mover, "[1, 2]") == {"kind": "refused", "code": "not_json", "fatal": False}
    assert (await refused(mover, {"kind": "act", "step": step}))["code"] == "bad_message"
    bad_tile = {"kind": "act", "action": {"kind": "play", "tile": "9-9"}, "step": step}
    assert (await refused(mover, bad_tile))["code"] == "bad_message"
    assert (await refused(mover, {"kind": "launch", "what": "rm -rf"}))["code"] == "bad_message"
    assert (await refused(mover, b"\x00\x01"))["code"] == "not_json"
    # oversized (over the protocol's cap, under the frame limit)
    big = json.dumps({"kind": "ready", "pad": "x" * MAX_CLIENT_MESSAGE})
    too_large = await refused(mover, big)
    assert too_large["code"] == "too_large" and too_large["limit"] == MAX_CLIENT_MESSAGE
    assert too_large["size"] > MAX_CLIENT_MESSAGE
    # only the host's own screen sets the table up
    assert (await refused(mover, {"kind": "start"}))["code"] == "owner_only"
    seat_change = {"kind": "set_seat", "seat": 1, "computer": True}
    assert (await refused(mover, seat_change))["code"] == "owner_only"
    assert (await refused(mover, {"kind": "ready"}))["code"] == "no_summary"
    assert table.state is state and table.step == step
    # and the real move still plays
    await mover.send(act(legal[0], step))
    after = await mover.recv("state")
    assert after["step"] == step + 1 and table.state is not state


async def test_a_frame_over_the_wire_limit_closes_that_connection_only(
    two: tuple[Host, Raw, Raw],
) -> None:
    host, ana, _ = two
    table = host.table
    assert table is not None
    state = table.state
    await ana.send("x" * (WIRE_LIMIT + 10))
    with pytest.raises(ConnectionClosed) as err:
        await ana.recv()
    assert err.value.rcvd is not None and err.value.rcvd.code == 1009
    assert table.state is state


async def test_wrong_version_unauthenticated_and_wrong_password_are_refused(
    two: tuple[Host, Raw, Raw],
) -> None:
    host, _, _ = two
    assert host.port is not None and host.table is not None
    state = host.table.state
    # a version-1 client: the host's version in a challenge (what every version's
    # client reads first, and words as the mismatch), the refusal, then the close
    old = await Raw.open(host.port)
    await old.send({"kind": "hello", "version": 1, "name": "Old"})
    challenge = await old.recv()
    assert challenge["kind"] == "challenge" and challenge["version"] == PROTOCOL_VERSION
    mismatch = await old.recv()
    assert mismatch == {
        "kind": "refused", "code": "version_mismatch", "fatal": True,
        "host_version": PROTOCOL_VERSION, "client_version": 1,
    }
    assert refusal_text(Refused.model_validate(mismatch)) == (
        f"the host speaks protocol {PROTOCOL_VERSION} and this allfives speaks 1: "
        "use the same allfives version as the host"
    )
    with pytest.raises(ConnectionClosed):
        await old.recv(timeout=3)
    # unauthenticated: an action before signing in, and after a hello without the proof
    stranger = await Raw.open(host.port)
    move = act(Draw(), host.table.step)
    assert (await refused(stranger, move))["code"] == "not_signed_in"
    await stranger.send({"kind": "hello", "version": PROTOCOL_VERSION, "name": "Eve"})
    assert (await stranger.recv())["kind"] == "challenge"
    assert (await refused(stranger, move))["code"] == "not_signed_in"
    # a wrong password: refused and closed; the password itself was never sent
    await stranger.send({"kind": "auth", "proof": "0" * 64})
    answer = await stranger.recv()
    assert answer == {"kind": "refused", "code": "wrong_password_or_started", "fatal": True}
    assert refusal_text(Refused.model_validate(answer)) == (
        "wrong password, or the game has started: only its players can rejoin (with their token)"
    )
    with pytest.raises(ConnectionClosed):
        await stranger.recv(timeout=3)
    # a right password but the game is full and started: told the same
    late = await Raw.open(host.port)
    seated = await late.sign_in("Late", "s3cret")
    assert seated == answer
    assert host.table.state is state


async def test_the_password_never_crosses_the_wire(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = await start_host(rules=Rules(players=2, target=50), password="hunter2-xyz")
    assert host.port is not None
    raw = await Raw.open(host.port)
    sent: list[str] = []
    original = raw.ws.send

    async def spy(message: Any) -> None:
        sent.append(message if isinstance(message, str) else repr(message))
        await original(message)

    monkeypatch.setattr(raw.ws, "send", spy)
    assert (await raw.sign_in("Ana", "hunter2-xyz"))["kind"] == "seat"
    assert sent and not any("hunter2" in m for m in sent)
    assert all("hunter2" not in m for m in raw.raw)
    await raw.close()
    await host.close()


def test_views_from_the_wire_know_their_legal_moves() -> None:
    # the raw clients above choose from a SeatView read back from JSON
    rules = Rules(players=2, target=50)
    from engine import apply, new_game, seeded_deal

    st = apply(new_game(rules), seeded_deal(new_game(rules), 3)).state
    view = st.view(st.current or 0)
    again = SeatView.model_validate_json(view.model_dump_json())
    assert again.legal_actions() == view.legal_actions()
