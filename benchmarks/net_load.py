"""Load on networked tables: many hosts, four raw protocol clients at each, full speed.

    python benchmarks/net_load.py            # [--hosts 8] [--seconds 20] [--target 100]

One process runs ``--hosts`` hosts (each a :class:`allfives_tui.net.host.Host`
with its own port and data folder, as ``allfives host --no-seat`` runs); this
process runs four raw WebSocket clients per host, which answer every turn at
once with a legal move and every hand's summary with "ready". A finished game
is followed by a new one on the same port, until the time is up. The hosts
save every change as they do for players (an atomic write after each move).

Printed: moves a second over all tables, the latency of a move (from the
client's send to the host's new picture of the table arriving: median, p95,
max), the host process's memory (resident now and peak), and the check that
every finished game's record, as the host saved it, loads and replays to a
finished game.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from allfives_tui.net.protocol import PROTOCOL_VERSION, proof
from engine import Rules, SeatView


# -- the host process ----------------------------------------------------------------------
async def serve(ports: list[int], out: Path, target: int) -> None:
    """Run a host on every port; each finished game's record is copied to ``out``."""
    from allfives_tui.net.host import Host, HostConfig
    from allfives_tui.net.hostfiles import HostFiles, host_folder

    async def one(port: int) -> None:
        game = 0
        while True:
            files = HostFiles(host_folder(port))
            files.acquire()
            config = HostConfig(
                rules=Rules(players=4, partnerships=True, target=target),
                level="random",
                pace=0.0,
                summary_timeout=10.0,
                host_seat=False,
                auto_start=True,
                seed=port * 1000 + game,
            )
            host = Host(config, files)
            await host.start("127.0.0.1", port)
            await host.finished.wait()
            table = host.table
            await host.close()
            if table is not None and table.is_over:
                text = (host_folder(port) / "record.json").read_text(encoding="utf-8")
                (out / f"game-{port}-{game}.json").write_text(text, encoding="utf-8")
            (host_folder(port) / "record.json").unlink(missing_ok=True)
            (host_folder(port) / "seats.json").unlink(missing_ok=True)
            game += 1

    tasks = [asyncio.create_task(one(p)) for p in ports]
    print("ready", flush=True)
    await asyncio.gather(*tasks)


# -- the clients ---------------------------------------------------------------------------
class Stats:
    def __init__(self) -> None:
        self.moves = 0
        self.latencies: list[float] = []
        self.games = 0
        self.messages = 0


async def client(port: int, name: str, stats: Stats, stop: float) -> None:
    """Join, play every turn at once, and join the next game, until ``stop``."""
    while time.monotonic() < stop:
        try:
            ws = await connect(f"ws://127.0.0.1:{port}/", max_size=4 * 1024 * 1024)
        except (OSError, InvalidHandshake):
            await asyncio.sleep(0.05)
            continue
        try:
            await ws.send(json.dumps({"kind": "hello", "version": PROTOCOL_VERSION, "name": name}))
            challenge = json.loads(await ws.recv())
            if challenge["kind"] != "challenge":
                await asyncio.sleep(0.05)
                continue
            answer = proof("", challenge["nonce"], name)
            await ws.send(json.dumps({"kind": "auth", "proof": answer}))
            seated = json.loads(await ws.recv())
            if seated["kind"] != "seat":
                await asyncio.sleep(0.05)
                continue
            seat = seated["seat"]
            sent_at: float | None = None
            sent_step = -1
            while time.monotonic() < stop:
                message: dict[str, Any] = json.loads(await ws.recv())
                stats.messages += 1
                kind = message["kind"]
                if kind == "record":
                    if seat == 0:
                        stats.games += 1
                    break
                if kind != "state":
                    continue
                if sent_at is not None and message["step"] > sent_step:
                    stats.latencies.append(time.perf_counter() - sent_at)
                    sent_at = None
                view = SeatView.model_validate(message["view"])
                if view.phase.value == "deal":
                    if seat in message["waiting"]:
                        await ws.send('{"kind": "ready"}')
                    continue
                legal = view.legal_actions()
                if legal:
                    act = {
                        "kind": "act",
                        "action": legal[-1].model_dump(mode="json"),
                        "step": message["step"],
                    }
                    sent_at, sent_step = time.perf_counter(), message["step"]
                    await ws.send(json.dumps(act))
                    stats.moves += 1
        except ConnectionClosed:
            await asyncio.sleep(0.05)
        finally:
            await ws.close()


def memory_kib(pid: int) -> tuple[int, int]:
    """(resident, peak resident) in KiB of process ``pid``, from /proc."""
    found = {"VmRSS": 0, "VmHWM": 0}
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in found:
                found[key] = int(value.split()[0])
    return found["VmRSS"], found["VmHWM"]


def check_records(out: Path) -> tuple[int, list[str]]:
    """Every saved record loads (validated, replayed) and ends in a finished game."""
    from engine.record import load_game

    bad: list[str] = []
    files = sorted(out.glob("game-*.json"))
    for path in files:
        try:
            game = load_game(path)
            if not game.state.is_terminal:
                bad.append(f"{path.name}: not finished")
        except ValueError as err:
            bad.append(f"{path.name}: {err}")
    return len(files), bad


async def drive(ports: list[int], seconds: float) -> Stats:
    stats = Stats()
    stop = time.monotonic() + seconds
    names = ("Ana", "Bob", "Cy", "Di")
    await asyncio.gather(*(client(p, n, stats, stop) for p in ports for n in names))
    return stats


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hosts", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--first-port", type=int, default=7811)
    parser.add_argument("--serve", nargs="+", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.serve, args.out, args.target))
        return 0
    ports = list(range(args.first_port, args.first_port + args.hosts))
    with tempfile.TemporaryDirectory(prefix="allfives-net-load-") as tmp:
        out = Path(tmp) / "records"
        out.mkdir()
        env = {**os.environ, "ALLFIVES_DATA_DIR": str(Path(tmp) / "data")}
        hosts = subprocess.Popen(
            [sys.executable, __file__, "--serve", *map(str, ports), "--out", str(out),
             "--target", str(args.target)],
            stdout=subprocess.PIPE, text=True, env=env,
        )
        try:
            assert hosts.stdout is not None
            assert hosts.stdout.readline().strip() == "ready"
            start_mem = memory_kib(hosts.pid)
            began = time.perf_counter()
            stats = asyncio.run(drive(ports, args.seconds))
            elapsed = time.perf_counter() - began
            rss, peak = memory_kib(hosts.pid)
            time.sleep(0.5)  # the last finished games reach the disk
        finally:
            hosts.terminate()
            hosts.wait(10)
        games, bad = check_records(out)
    lat = sorted(stats.latencies)
    p95 = lat[int(0.95 * (len(lat) - 1))] if lat else float("nan")
    print(f"{args.hosts} hosts x 4 raw clients, partnerships to {args.target}, "
          f"{elapsed:.1f} s on loopback")
    print(f"moves: {stats.moves} ({stats.moves / elapsed:.0f} a second over all tables), "
          f"games finished: {games}, messages received: {stats.messages}")
    if lat:
        print(f"move latency (send -> new state): median {statistics.median(lat) * 1000:.2f} ms, "
              f"p95 {p95 * 1000:.2f} ms, max {lat[-1] * 1000:.2f} ms")
    print(f"host process memory: {rss / 1024:.1f} MiB resident "
          f"(peak {peak / 1024:.1f} MiB; {start_mem[0] / 1024:.1f} MiB before play)")
    print(f"records: {games} finished games saved by the hosts, "
          f"{games - len(bad)} load and replay to a finished game")
    for line in bad[:5]:
        print(f"  BAD {line}")
    return 1 if bad or not games else 0


if __name__ == "__main__":
    raise SystemExit(main())
