"""What a browser session of ``allfives serve`` costs: time to the first screen, memory.

Starts ``allfives serve`` on a free port with a temporary data folder, opens
``--sessions`` sessions one after the other over the page's WebSocket (as the
page does, without a browser), waits for each one's new-game screen, then
reads the resident memory (VmRSS) of every session's app process from
``/proc`` while all of them are open. Prints the median and the range.

    python benchmarks/serve_sessions.py [--sessions 4]

Linux only (``/proc``). No browser is needed; a browser adds its own cost on
the player's machine, not the server's.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import ExitStack, suppress
from pathlib import Path

from websockets.sync.client import ClientConnection, connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_for_page(url: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("allfives serve did not start") from None
            time.sleep(0.1)


def first_screen(game: ClientConnection) -> None:
    """Read until the new-game screen has been drawn."""
    seen = b""
    while b"Draw for me" not in seen:
        data = game.recv(timeout=60)
        seen += data if isinstance(data, bytes) else data.encode()


def parent(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("PPid:"):
            return int(line.split()[1])
    return 0


def session_pids(server: int) -> list[int]:
    """The app processes of ``server``'s sessions (python -m allfives_tui.cli.serve_session,
    started through a shell)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"allfives_tui.cli.serve_session" in argv:  # not the shell that started it
            with suppress(OSError):
                if parent(parent(int(entry.name))) == server:
                    pids.append(int(entry.name))
    return pids


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise ValueError(f"no VmRSS for {pid}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=4, help="sessions to open (default 4)")
    args = parser.parse_args()
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with tempfile.TemporaryDirectory() as data, ExitStack() as stack:
        env = {**os.environ, "ALLFIVES_DATA_DIR": data}
        server = subprocess.Popen(
            [sys.executable, "-m", "allfives_tui", "serve", "--port", str(port),
             "--max-sessions", str(args.sessions)],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        stack.callback(server.wait, 20)
        stack.callback(server.terminate)
        wait_for_page(url, server)
        starts = []
        for _ in range(args.sessions):
            began = time.perf_counter()
            game = stack.enter_context(
                connect(f"ws://127.0.0.1:{port}/ws?width=100&height=30", open_timeout=30)
            )
            first_screen(game)
            starts.append(time.perf_counter() - began)
        time.sleep(1)  # let every app settle
        memory = [rss_mib(pid) for pid in session_pids(server.pid)]
    print(f"sessions: {args.sessions} (one app process each)")
    print(
        f"socket opened -> new-game screen drawn: median {statistics.median(starts):.2f} s "
        f"(range {min(starts):.2f}-{max(starts):.2f} s)"
    )
    if memory:
        print(
            f"resident memory of a session's app: median {statistics.median(memory):.0f} MiB "
            f"(range {min(memory):.0f}-{max(memory):.0f} MiB, {len(memory)} processes)"
        )


if __name__ == "__main__":
    main()
