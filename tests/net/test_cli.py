"""The commands as people run them: a real ``allfives host --no-seat`` process, killed with
SIGKILL mid-hand and started again, raw clients rejoining; ``join`` errors in one line."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from engine.record import load_game
from tests.net.conftest import Raw

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def allfives(*args: str, data_dir: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "ALLFIVES_DATA_DIR": str(data_dir), "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "allfives_tui", *args],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT,
    )


def wait_for_line(process: subprocess.Popen[str], text: str, timeout: float = 15.0) -> list[str]:
    """Lines printed until one holds ``text``."""
    assert process.stdout is not None
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        seen.append(line.rstrip("\n"))
        if text in line:
            return seen
    raise AssertionError(f"no {text!r} in {seen}")


async def test_a_host_killed_mid_hand_is_started_again_and_its_players_rejoin(
    data_dir: Path,
) -> None:
    port = free_port()
    command = (
        "host", "--no-seat", "--port", str(port), "--players", "2", "--target", "50",
        "--speed", "0", "--seed", "5", "--summary-timeout", "2",
    )
    first = allfives(*command, data_dir=data_dir)
    try:
        lines = wait_for_line(first, "Friends join with")
        assert lines[0] == (
            f"Hosting All Fives on ws://127.0.0.1:{port} "
            "(this computer only: --bind 0.0.0.0 lets your network in)."
        )
        assert lines[1] == f"Friends join with: allfives join 127.0.0.1:{port} --name NAME"
        ana, bob = await Raw.open(port), await Raw.open(port)
        await ana.sign_in("Ana")
        await bob.sign_in("Bob")
        await asyncio.wait_for(asyncio.gather(ana.play(stop_after=2), bob.play(stop_after=2)), 15)
        seen = max(m["step"] for m in ana.received if m["kind"] == "state")
        first.send_signal(signal.SIGKILL)
        first.wait(5)
    finally:
        first.kill()
    record = load_game(data_dir / f"host-{port}" / "record.json")
    assert not record.state.is_terminal
    saved = record.record.action_count
    assert saved >= seen  # every picture a player saw was on disk first
    second = allfives(*command, data_dir=data_dir)
    try:
        lines = wait_for_line(second, "Friends join with")
        assert lines[0].startswith("Reopened the unfinished game (hand ")
        ana2, bob2 = await Raw.open(port), await Raw.open(port)
        assert (await ana2.sign_in("Ana", token=ana.token))["rejoined"] is True
        assert (await bob2.sign_in("Bob", token=bob.token))["rejoined"] is True
        await asyncio.wait_for(asyncio.gather(ana2.play(), bob2.play()), 30)
        await ana2.close()
        await bob2.close()
        lines = wait_for_line(second, "The game is over")
        assert second.wait(10) == 0
    finally:
        second.kill()
    assert any(" win the game: " in line or " wins the game: " in line for line in lines)
    final = load_game(data_dir / f"host-{port}" / "record.json")
    assert final.state.is_terminal
    assert final.record.truncated(saved).final_state() == record.state


def test_join_errors_are_one_line_and_non_zero(data_dir: Path) -> None:
    port = free_port()  # nothing listens there
    out = allfives("join", f"127.0.0.1:{port}", "--name", "Ana", data_dir=data_dir)
    text, _ = out.communicate(timeout=20)
    assert out.returncode == 1
    assert text == f"allfives join: cannot reach a host at ws://127.0.0.1:{port}/: " \
        "nothing is listening there\n"
    bad = allfives("join", "a b", data_dir=data_dir)
    text, _ = bad.communicate(timeout=20)
    assert bad.returncode == 2 and text.count("\n") == 1 and "is not an address" in text
    token = allfives("join", "localhost", "--token", "../x", data_dir=data_dir)
    text, _ = token.communicate(timeout=20)
    assert token.returncode == 2 and "is not a rejoin token" in text
    assert not data_dir.exists() or not any(data_dir.iterdir())  # a client keeps nothing


def test_join_and_host_refuse_bad_addresses_in_one_line_with_status_2(data_dir: Path) -> None:
    cases = {
        ("join", "a:b:c:d"): "allfives join: 'a:b:c:d' is not an address: ",
        ("join", "a" * 300): "allfives join: '" + "a" * 80 + "…' is not a host name",
        ("host", "--no-seat", "--bind", ""): "allfives host: --bind needs an address: ",
        ("host", "--no-seat", "--bind", "a" * 300): (
            "allfives host: cannot listen on '" + "a" * 80 + "…': not a host name"
        ),
    }
    for args, start in cases.items():
        out = allfives(*args, data_dir=data_dir)
        text, _ = out.communicate(timeout=20)
        assert (out.returncode, text.count("\n"), text[: len(start)]) == (2, 1, start), text


def test_host_flag_errors_and_a_busy_port(data_dir: Path) -> None:
    bad = allfives("host", "--port", "0", data_dir=data_dir)
    text, _ = bad.communicate(timeout=20)
    assert bad.returncode == 2 and "a port is 1 to 65535, not 0" in text
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        out = allfives("host", "--no-seat", "--port", str(port), data_dir=data_dir)
        text, _ = out.communicate(timeout=20)
    assert out.returncode == 1
    assert text == (
        f"allfives host: cannot listen on 127.0.0.1:{port}: the port is in use "
        "(try another --port)\n"
    )
