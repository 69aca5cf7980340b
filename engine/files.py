"""Writing files safely: the project's one atomic write.

    from engine.files import atomic_write
    atomic_write(folder / "settings.json", text)

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
import os
import tempfile
from pathlib import Path

__all__ = ["atomic_write"]


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
