"""A real ``allfives`` process in a real pseudo-terminal, for tests that need one.

The app under test is the installed code run as ``python -m allfives_tui``
(or any Python snippet) with a pty as its terminal, so Textual draws for
real and keys arrive as bytes; :meth:`Terminal.expect` waits for text in what
it wrote (escape sequences removed), always under a timeout, so a hang fails
the test instead of stalling it.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_ESCAPES = re.compile(
    rb"\x1b(\[[0-9;?<>=$]*[ -/]*[@-~]"  # CSI: cursor moves, colours, modes
    rb"|\][^\x07\x1b]*(\x07|\x1b\\)"  # OSC: titles, queries
    rb"|[()][0-9A-B]|[=>78cM])"
)

CTRL_Q = b"\x11"


class Terminal:
    """One process with a pty of ``size`` (columns, rows) as its stdin, stdout and stderr."""

    def __init__(
        self,
        argv: Sequence[str],
        data_dir: Path,
        *,
        size: tuple[int, int] = (110, 36),
        env: Mapping[str, str] | None = None,
    ) -> None:
        master, slave = pty.openpty()
        cols, rows = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        full_env = {
            **os.environ,
            "ALLFIVES_DATA_DIR": str(data_dir),
            "PYTHONPATH": str(ROOT),
            "TERM": "xterm-256color",
            **(env or {}),
        }
        self.argv = list(argv)
        self.process = subprocess.Popen(
            self.argv,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=full_env,
            cwd=ROOT,
            start_new_session=True,
        )
        os.close(slave)
        self._master = master
        self.raw = b""

    @classmethod
    def allfives(
        cls, *args: str, data_dir: Path, env: Mapping[str, str] | None = None
    ) -> Terminal:
        """``allfives ARGS`` (as ``python -m allfives_tui``)."""
        return cls([sys.executable, "-m", "allfives_tui", *args], data_dir, env=env)

    @property
    def text(self) -> str:
        """Everything written so far, without escape sequences."""
        return _ESCAPES.sub(b"", self.raw).decode("utf-8", "replace")

    @property
    def printed(self) -> list[str]:
        """The lines on the terminal's main screen once the app has left the full
        screen: those written before it entered and after it left (the prompt's
        answer and what the app drew are not among them)."""
        before, entered, rest = self.raw.partition(b"\x1b[?1049h")
        after = rest.rpartition(b"\x1b[?1049l")[2] if entered else b""
        text = _ESCAPES.sub(b"", before + after).decode("utf-8", "replace")
        return [line.rstrip("\r") for line in text.splitlines() if line.strip()]

    def _read(self, timeout: float) -> bool:
        """Read what is there within ``timeout``; False at the end of the output."""
        ready, _, _ = select.select([self._master], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self._master, 65536)
        except OSError:  # EIO: the process closed the terminal
            return False
        if not data:
            return False
        self.raw += data
        return True

    def expect(self, pattern: str, timeout: float = 20.0) -> str:
        """Wait until ``pattern`` (a regular expression) is in :attr:`text`; the text."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if re.search(pattern, self.text):
                return self.text
            if not self._read(0.05) and re.search(pattern, self.text) is None:
                break
        raise AssertionError(
            f"{pattern!r} did not show within {timeout} s; the terminal shows:\n"
            f"{self.text[-3000:]}"
        )

    def send(self, keys: bytes | str) -> None:
        """Type ``keys``."""
        os.write(self._master, keys.encode() if isinstance(keys, str) else keys)

    def wait(self, timeout: float = 20.0) -> int:
        """Wait for the process to end (reading its output meanwhile); its status."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self._read(0.05)
            code = self.process.poll()
            if code is not None:
                while select.select([self._master], [], [], 0.2)[0] and self._read(0):
                    pass
                return code
        raise AssertionError(
            f"the process did not end within {timeout} s; the terminal shows:\n"
            f"{self.text[-3000:]}"
        )

    def close(self) -> None:
        """Kill the process if it still runs, and close the terminal."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)
        os.close(self._master)

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
