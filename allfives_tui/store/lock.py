"""One process at a time autosaves the game in progress: :class:`GameLock`."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - not a POSIX system: no lock, as before
    fcntl = None  # type: ignore[assignment]

from allfives_tui.store.folder import LOCK, data_dir


class GameLock:
    """The right to autosave the game in progress: one process at a time.

    An OS lock (``fcntl.flock``) on ``current.lock`` in the data folder, held
    from :meth:`acquire` until :meth:`release` or the end of the process; the
    system frees it when the process ends however it ends (even ``kill -9``),
    so a crash never leaves it taken. The holder writes its process id into
    the file, for the others to name (:attr:`other`; the front-ends word it). It
    guards the autosave only: replays, ``sim`` and help never take it.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or data_dir() / LOCK
        self._fd: int | None = None
        self.other: str | None = None
        """After a failed :meth:`acquire`: the holder's process id, as written (or "")."""

    @property
    def held(self) -> bool:
        """True while this object holds the lock."""
        return self._fd is not None

    def acquire(self) -> bool:
        """Take the lock; False only when another process holds it.

        When no lock can be made at all (no ``fcntl``, a data folder that
        cannot be written) this says True without holding one: the autosave
        then reports its own trouble, as it did before there was a lock.
        """
        if self._fd is not None:
            return True
        if fcntl is None:  # pragma: no cover - not POSIX
            return True
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, flags, 0o666)
        except OSError:
            return True
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                os.close(fd)
                return True
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            if err.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                self.other = self._read_holder(fd)
                os.close(fd)
                return False
            os.close(fd)
            return True
        self._fd = fd
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return True

    @staticmethod
    def _read_holder(fd: int) -> str:
        try:
            text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        except OSError:
            return ""
        return text if text.isdigit() else ""

    def release(self) -> None:
        """Let the lock go (the file stays)."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            with contextlib.suppress(OSError):
                os.close(fd)  # closing the only descriptor frees the flock
