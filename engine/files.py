"""Files, safely: the project's one atomic write and its one capped, non-blocking read.

    from engine.files import atomic_write, read_small_file
    atomic_write(folder / "settings.json", text)
    data = read_small_file(folder / "settings.json", 64 * 1024)

:func:`read_small_file` reads only a regular file, at most ``cap`` bytes, and
never waits: a named pipe, a device or a socket is refused at once.

The text goes to a temporary file in the target's own folder (so the final
rename never crosses a file system), is flushed and fsynced, and then
:func:`os.replace` puts it in place in one step: a reader, or a crash at any
moment (even ``kill -9``), sees either the old file or the whole new one,
never a mix. On any failure the temporary file is removed and the old file
is left as it was.

A new file gets the mode any new file gets in this process (``0o666`` less the
umask); a replaced file keeps its mode. (:func:`tempfile.mkstemp` alone would
leave every save private to its owner.)
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

__all__ = ["UnreadableFileError", "atomic_write", "read_small_file"]


def _read_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _read_umask()
"""Read once at import: reading it means setting it, which would race with other threads."""


def atomic_write(path: str | os.PathLike[str], text: str, *, encoding: str = "utf-8") -> Path:
    """Replace (or create) the file at ``path`` with ``text``, atomically; return its path.

    Missing parent folders are created. Newlines are written as the platform
    writes text (``open(..., "w")``). Raises :class:`OSError` (or the
    :class:`UnicodeEncodeError` of text that ``encoding`` cannot hold) with the
    old file untouched and no temporary file left behind.
    """
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding=encoding) as fh:
            # mkstemp makes the file private (0600); give it the mode a new
            # file gets here, or keep the mode of the file it replaces.
            try:
                mode = p.stat().st_mode & 0o777
            except FileNotFoundError:
                mode = 0o666 & ~_UMASK
            os.chmod(tmp, mode)
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return p


class UnreadableFileError(OSError):
    """A file that is there but is no small regular file to read; ``strerror`` says why.

    ``errno`` tells the kind: ``EISDIR`` a folder, ``ENODEV`` or ``ENXIO`` not a
    regular file (a pipe, a device, a socket), ``EFBIG`` over the cap,
    ``EINVAL`` a name holding a NUL character, ``EACCES`` no permission.
    ``kind`` names what a file that is not regular is: ``"named-pipe"``,
    ``"device"``, ``"socket"``, ``"socket-or-device"`` or ``"other"`` (``""``
    for the rest).
    """

    kind: str = ""


def _not_regular(code: int, words: str, kind: str) -> UnreadableFileError:
    err = UnreadableFileError(code, words)
    err.kind = kind
    return err


_NOT_REGULAR: tuple[tuple[Callable[[int], bool], str, str], ...] = (
    (stat.S_ISFIFO, "a named pipe", "named-pipe"),
    (stat.S_ISCHR, "a device", "device"),
    (stat.S_ISBLK, "a device", "device"),
    (stat.S_ISSOCK, "a socket", "socket"),
)
_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
"""Open without waiting: a named pipe with no writer, or a device, would block a plain open."""


def read_small_file(path: str | os.PathLike[str], cap: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``cap`` of them.

    The file is opened without blocking, then the opened file itself is checked
    (no race between a check and the open), and at most ``cap`` + 1 bytes are
    read. Raises :class:`FileNotFoundError` when there is no file and
    :class:`UnreadableFileError` for anything else.
    """
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise
    except IsADirectoryError:
        raise UnreadableFileError(errno.EISDIR, "is a folder") from None
    except PermissionError:
        raise UnreadableFileError(errno.EACCES, "permission denied") from None
    except OSError as err:
        if err.errno == errno.ENXIO:  # a socket, or a device with nothing behind it
            raise _not_regular(
                errno.ENXIO, "not a regular file (a socket or a device)", "socket-or-device"
            ) from None
        raise UnreadableFileError(err.errno, err.strerror or str(err)) from None
    except ValueError:
        raise UnreadableFileError(errno.EINVAL, "the name holds a NUL character") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise UnreadableFileError(errno.EISDIR, "is a folder")
        if not stat.S_ISREG(mode):
            what, kind = next(
                ((what, kind) for test, what, kind in _NOT_REGULAR if test(mode)),
                ("not a plain file", "other"),
            )
            raise _not_regular(errno.ENODEV, f"not a regular file ({what})", kind)
        chunks: list[bytes] = []
        size = 0
        while size <= cap:
            chunk = os.read(fd, cap + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > cap:
            raise UnreadableFileError(
                errno.EFBIG, f"the file is over the size cap of {cap // 1024} KiB"
            )
        return b"".join(chunks)
    except BlockingIOError:  # a file that is regular in name only (e.g. /proc/kmsg)
        raise UnreadableFileError(
            errno.EAGAIN, "it would wait for data (not a plain file)"
        ) from None
    except UnreadableFileError:
        raise
    except OSError as err:
        raise UnreadableFileError(err.errno, err.strerror or str(err)) from None
    finally:
        os.close(fd)
