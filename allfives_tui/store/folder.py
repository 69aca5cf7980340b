"""The data folder: where games, settings and the history live, and its housekeeping.

The data folder is ``$ALLFIVES_DATA_DIR`` when set (tests point it at a
temporary folder), else the user's data folder from :mod:`platformdirs`.
Every write into it is atomic (a temporary file, then a rename), so a kill,
even ``kill -9``, leaves the last complete file; the temporary files such a
kill leaves behind are removed at the next start (:func:`clean_temporaries`).
A damaged file is set aside under a free name (:func:`set_aside`), and a
crash leaves a log with its traceback here (:func:`write_crash_log`).
"""

from __future__ import annotations

import contextlib
import os
import stat
import time
from datetime import datetime
from pathlib import Path

from platformdirs import user_data_dir

from engine.files import atomic_write

ENV_DATA_DIR = "ALLFIVES_DATA_DIR"
CURRENT = "current.json"
SETTINGS = "settings.json"
LOCK = "current.lock"
"""The lock file of :class:`GameLock` (it stays; only the OS lock on it comes and goes)."""
SETTINGS_MAX_BYTES = 64 * 1024
"""A ``settings.json`` larger than this is not read (the real one is a few hundred bytes)."""
STALE_SECONDS = 60.0
"""A settings temporary at least this old is left over from a killed process."""


def data_dir() -> Path:
    """The folder holding saves and settings (created when first written)."""
    override = os.environ.get(ENV_DATA_DIR)
    if override:
        return Path(override).expanduser()
    return Path(user_data_dir("allfives", appauthor=False))


def current_path() -> Path:
    """The autosave of the game in progress."""
    return data_dir() / CURRENT


def _stamp(now: datetime | None = None) -> str:
    return (now or datetime.now()).strftime("%Y%m%d-%H%M%S")


def damaged_name(path: Path, now: datetime | None = None) -> Path:
    """A free name beside ``path`` for setting it aside: ``STEM.damaged-STAMP[-N]SUFFIX``."""
    base = f"{path.stem}.damaged-{_stamp(now)}"
    aside = path.with_name(f"{base}{path.suffix}")
    n = 1
    while os.path.lexists(aside):
        n += 1
        aside = path.with_name(f"{base}-{n}{path.suffix}")
    return aside


SIDE_FILES = ("-wal", "-shm", "-journal")
"""The files SQLite keeps beside a database (``history.sqlite-wal``…), set aside with it."""


def set_aside(path: Path, now: datetime | None = None) -> Path:
    """Rename a damaged file out of the way (:func:`damaged_name`); its new name.

    The files beside it of :data:`SIDE_FILES` go with it, renamed alike, when
    there are any. Raises :class:`OSError` when ``path`` cannot be renamed.
    """
    aside = damaged_name(path, now)
    os.rename(path, aside)
    for extra in SIDE_FILES:
        side = Path(f"{path}{extra}")
        if os.path.lexists(side):
            with contextlib.suppress(OSError):
                os.rename(side, Path(f"{aside}{extra}"))
    return aside


def clean_temporaries(folder: Path | None = None, *, now: float | None = None) -> list[Path]:
    """Remove the temporary files a killed save left behind; the ones removed.

    :func:`engine.files.atomic_write` writes ``.current.json.XXXX.tmp`` (or
    ``.settings.json.XXXX.tmp``) and renames it into place; a kill in between
    leaves it. Only the holder of the :class:`GameLock` writes ``current.json``,
    so when it calls this every such temporary is stale; a settings temporary
    may be another instance's write in progress, so only one at least
    :data:`STALE_SECONDS` old is removed. Only plain files are touched.
    """
    folder = folder or data_dir()
    now = time.time() if now is None else now
    removed: list[Path] = []
    for name, min_age in ((CURRENT, 0.0), (SETTINGS, STALE_SECONDS)):
        try:
            found = list(folder.glob(f".{name}.*.tmp"))
        except OSError:
            return removed
        for tmp in found:
            try:
                info = tmp.lstat()
                if stat.S_ISREG(info.st_mode) and now - info.st_mtime >= min_age:
                    tmp.unlink()
                    removed.append(tmp)
            except OSError:
                continue
    return removed


def write_crash_log(text: str) -> Path:
    """Write a crash report (the traceback) to a new file; where it went.

    The file is ``crash-YYYYmmdd-HHMMSS-PID.log`` in the data folder, or in
    the system's temporary folder when the data folder cannot be written.
    Raises :class:`OSError` only when neither can.
    """
    import tempfile

    name = f"crash-{_stamp()}-{os.getpid()}.log"
    try:
        return atomic_write(data_dir() / name, text)
    except OSError:
        return atomic_write(Path(tempfile.gettempdir()) / f"allfives-{name}", text)
