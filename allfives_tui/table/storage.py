"""Where games and settings live: the data folder, the settings, autosave, record files.

The data folder is ``$ALLFIVES_DATA_DIR`` when set (tests point it at a
temporary folder), else the user's data folder from :mod:`platformdirs`.
``current.json`` is the game in progress, as an engine game record;
``settings.json`` the last new-game settings. Every write is atomic (a
temporary file, then a rename), so a kill, even ``kill -9``, leaves the last
complete save; the temporary files such a kill leaves behind are removed at
the next start (:func:`clean_temporaries`).

One process at a time autosaves the game in progress: it holds
:class:`GameLock`, an OS lock on ``current.lock`` that the system frees when
the process ends, however it ends. A damaged ``current.json`` found at start
is set aside under a new name (:func:`set_aside_damaged_current`), and a
crash leaves a log with its traceback here (:func:`write_crash_log`).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
import time
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any

from engine.problems import problem_words

try:
    import fcntl
except ImportError:  # pragma: no cover - not a POSIX system: no lock, as before
    fcntl = None  # type: ignore[assignment]

from platformdirs import user_data_dir
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from allfives_tui.table.replay import Replay
from allfives_tui.table.words import one_line
from engine import HandSize, Rules
from engine.errors import RecordError, shown
from engine.files import atomic_write
from engine.players import LEVELS
from engine.record import GameRecord, LoadedGame, Seat, load_game, save
from engine.rng import check_game_seed

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


def default_level() -> str:
    """The computer level offered first: "greedy" if there is one, else the middle level."""
    return "greedy" if "greedy" in LEVELS else LEVELS[len(LEVELS) // 2]


SPEEDS: dict[str, float] = {"instant": 0.0, "fast": 0.3, "normal": 0.7, "slow": 1.4}
"""Named computer-move paces in seconds."""

PERSON = "person"
"""In :attr:`Settings.levels`: the seat is played by a person at this terminal."""

SEAT_NAMES: dict[int, tuple[str, ...]] = {
    2: ("North",),
    3: ("West", "East"),
    4: ("West", "North", "East"),
}
"""Where seats 1, 2, 3 sit, by number of players (seat 0, the first person, sits south);
a computer seat is called by its place."""

ALONE = "alone"
"""Validation context key: check one setting on its own (see :meth:`Settings.check_one`)."""


class Settings(BaseModel):
    """The new-game settings, remembered between runs.

    This model is the one place settings are checked, whoever gives them (the
    new-game screen, the command line, the remembered file); the target is
    checked by the engine's :class:`~engine.Rules` with the other settings.
    """

    model_config = ConfigDict(extra="ignore")

    players: int = 2
    partnerships: bool = False
    hand_size: HandSize = HandSize.STANDARD
    target: int = Field(default=0, ge=0, le=10000)
    levels: list[str] = Field(default_factory=lambda: [default_level()] * 3)
    """Seats 1, 2, 3: a computer level, or :data:`PERSON` for a person."""
    name: str = Field(default="You", min_length=1, max_length=20)
    """The name of the person in seat 0."""
    names: list[str] = Field(default_factory=lambda: [""] * 3)
    """Seats 1, 2, 3: the names of the people there (blank: the seat's place)."""
    seed: int | None = None
    speed: float = 0.7
    auto_draw: bool = False
    coach: bool = True
    """The coach: hints (alone against computers) and the person's moves rated."""
    hints_for_all: bool = False
    """With several people at the table: every one of them agreed to hints for all."""

    @classmethod
    def check_one(cls, field: str, value: Any) -> Any:
        """``value`` checked and converted as setting ``field`` on its own (a command-line flag).

        Only the field's own checks run, not those that need the other settings
        (the target's check by the rules needs the players); raises
        :class:`~pydantic.ValidationError`.
        """
        return getattr(cls.model_validate({field: value}, context={ALONE: True}), field)

    @field_validator("players")
    @classmethod
    def _table_size(cls, players: int) -> int:
        if not 2 <= players <= 4:
            raise ValueError(f"All Fives is for 2, 3 or 4 players, not {shown(players, 80)}")
        return players

    @field_validator("partnerships")
    @classmethod
    def _partnerships_of_four(cls, partnerships: bool, info: ValidationInfo) -> bool:
        if (info.context or {}).get(ALONE) or "players" not in info.data:
            return partnerships  # checked alone, or the players are wrong (that is reported)
        if partnerships and info.data["players"] != 4:
            raise ValueError(f"partnerships need 4 players, not {info.data['players']}")
        return partnerships

    @field_validator("target")
    @classmethod
    def _rules_accept_target(cls, target: int, info: ValidationInfo) -> int:
        if (info.context or {}).get(ALONE) or "players" not in info.data:
            return target  # checked alone, or the players are wrong (that error is reported)
        try:
            _rules(
                info.data["players"],
                info.data.get("partnerships", False),
                info.data.get("hand_size", HandSize.STANDARD),
                target,
            )
        except ValidationError as err:
            raise ValueError(problem_words(err.errors()[0])) from None
        return target

    @field_validator("name")
    @classmethod
    def _printable_name(cls, name: str) -> str:
        name = _clean_name(name)
        if not name:
            raise ValueError("the name is empty")
        return name

    @field_validator("names")
    @classmethod
    def _printable_names(cls, names: list[str]) -> list[str]:
        fixed = [_clean_name(n) for n in names[:3]]
        return fixed + [""] * (3 - len(fixed))

    @field_validator("levels")
    @classmethod
    def _known_levels(cls, levels: list[str]) -> list[str]:
        fixed = [lv if lv in LEVELS or lv == PERSON else default_level() for lv in levels[:3]]
        return fixed + [default_level()] * (3 - len(fixed))

    @model_validator(mode="after")
    def _people_apart(self) -> Settings:
        names = [s.name for s in self.seats() if s.is_person]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"two people at the table are called {twice[0]}: give each a name")
        return self

    def seats(self) -> tuple[Seat, ...]:
        """The seats of a game with these settings: a person in seat 0, then each seat's
        computer (called by its place) or person."""
        seats = [Seat(name=self.name, kind="person")]
        for i, place in enumerate(SEAT_NAMES.get(self.players, ())):
            if self.levels[i] == PERSON:
                seats.append(Seat(name=self.names[i] or place, kind="person"))
            else:
                seats.append(Seat(name=place, kind="computer", level=self.levels[i]))
        return tuple(seats)

    @field_validator("seed")
    @classmethod
    def _whole_seed(cls, seed: int | None) -> int | None:
        return None if seed is None else check_game_seed(seed)

    @field_validator("speed", mode="before")
    @classmethod
    def _named_speed(cls, speed: Any) -> Any:
        if isinstance(speed, str):
            name = speed.strip().lower()
            if name in SPEEDS:
                return SPEEDS[name]
            try:
                return float(name)
            except ValueError:
                raise ValueError(
                    f"{shown(speed, 80)} is not a pace: give seconds (e.g. 0.5) or one of "
                    f"{', '.join(SPEEDS)}"
                ) from None
        return speed

    @field_validator("speed")
    @classmethod
    def _speed_range(cls, speed: float) -> float:
        if not 0 <= speed <= 5:
            raise ValueError(f"the pace must be between 0 and 5 seconds a move, not {speed:g}")
        return speed

    def rules(self) -> Rules:
        """The engine rules these settings describe."""
        return _rules(self.players, self.partnerships, self.hand_size, self.target)


def _clean_name(name: str) -> str:
    """A name without surrounding blanks; ``ValueError`` if it holds control characters."""
    name = name.strip()
    if len(name) > 20:
        raise ValueError(f"a name is at most 20 characters: {name[:20]!r}…")
    if any(not ch.isprintable() for ch in name):
        raise ValueError("the name may only hold printable characters")
    return name


def _rules(players: int, partnerships: bool, hand_size: HandSize, target: int) -> Rules:
    return Rules(
        players=players,
        partnerships=partnerships and players == 4,
        hand_size=hand_size,
        target=target,
    )


class UnreadableFileError(OSError):
    """A file that is there but is no plain, small file to read (a pipe, a device…)."""


_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
"""Open without waiting: a named pipe with no writer, or a device, would block a plain open."""


def read_small_file(path: Path, cap: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``cap`` of them.

    The file is opened without blocking, then the opened file itself is checked
    (no race between a check and the open): a named pipe, a device or a socket
    is refused at once, never waited on. Raises :class:`FileNotFoundError` when
    there is no file and :class:`UnreadableFileError` (an :class:`OSError`
    whose ``strerror`` says why, in words) for anything else.
    """
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise
    except OSError as err:
        if err.errno == errno.ENXIO:
            raise UnreadableFileError(err.errno, "not a regular file") from None
        raise UnreadableFileError(err.errno, err.strerror or str(err)) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            what = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
            raise UnreadableFileError(errno.EINVAL, what)
        data = b""
        while len(data) <= cap:
            chunk = os.read(fd, cap + 1 - len(data))
            if not chunk:
                break
            data += chunk
        if len(data) > cap:
            raise UnreadableFileError(errno.EFBIG, f"larger than {cap // 1024} KiB")
        return data
    except BlockingIOError:  # regular in name only (e.g. /proc/kmsg)
        raise UnreadableFileError(errno.EAGAIN, "it would wait for data") from None
    except UnreadableFileError:
        raise
    except OSError as err:
        raise UnreadableFileError(err.errno, err.strerror or str(err)) from None
    finally:
        os.close(fd)


_TOGETHER = ("names", "levels", "name")
"""What a remembered error of the settings as a whole (two people of one name) drops, in turn."""


def _shown(value: object) -> str:
    text = one_line(repr(value))
    return text if len(text) <= 40 else text[:39] + "…"


def read_settings() -> tuple[Settings, tuple[str, ...]]:
    """The remembered settings, and a notice for each one dropped.

    No file gives the defaults, silently. A file that cannot be read (not a
    plain file, too large, not JSON) gives the defaults with a notice; a
    remembered setting that is no longer valid (a target of 7, a pace of 9
    seconds) is dropped with a notice naming it, and the others are kept.
    Never blocks: ``settings.json`` is read like any untrusted file
    (:func:`read_small_file`).
    """
    path = data_dir() / SETTINGS
    try:
        data = json.loads(read_small_file(path, SETTINGS_MAX_BYTES))
    except FileNotFoundError:
        return Settings(), ()
    except OSError as err:
        return Settings(), (f"Could not read the settings in {path} ({err.strerror}): "
                            "using the defaults.",)
    except (ValueError, RecursionError):
        return Settings(), (f"The settings in {path} are not valid JSON: using the defaults.",)
    if not isinstance(data, dict):
        return Settings(), (f"The settings in {path} are not a JSON object: using the defaults.",)
    data = {k: v for k, v in data.items() if k in Settings.model_fields}
    notices: list[str] = []
    while True:
        try:
            return Settings.model_validate(data), tuple(notices)
        except ValidationError as err:
            dropped = False
            for problem in err.errors():
                loc = problem["loc"]
                field = str(loc[0]) if loc else None
                if field not in data:
                    field = next((f for f in _TOGETHER if f in data), None)
                if field is None:
                    continue
                why = problem_words(problem)
                label = field.replace("_", " ")
                notices.append(
                    f"Dropped the remembered {label} {_shown(data.pop(field))}, "
                    f"no longer valid: {why}."
                )
                dropped = True
            if not dropped:  # pragma: no cover - every error names a field or _TOGETHER's
                return Settings(), (*notices, "The remembered settings are reset.")


def load_settings() -> Settings:
    """The remembered settings (see :func:`read_settings`), without the notices."""
    return read_settings()[0]


def save_settings(settings: Settings) -> None:
    """Remember ``settings`` (atomically)."""
    atomic_write(data_dir() / SETTINGS, settings.model_dump_json(indent=1) + "\n")


def _load_resumable(path: Path) -> LoadedGame:
    """The game at ``path``, loaded and replayed once, if a game can be resumed from it.

    Raises :class:`~engine.errors.RecordError` for a file that cannot be read
    (a symbolic link in a loop or to nothing included) and for a record that
    reads but holds no hands (nothing to resume or replay).
    """
    game = load_game(path)
    if not game.steps:
        raise RecordError("the record holds no hands to resume")
    return game


def load_current() -> LoadedGame | None:
    """The saved game in progress (loaded and replayed once), or ``None`` if there
    is none or it is finished.

    Raises :class:`~engine.errors.RecordError` when there is a ``current.json``
    (even a symbolic link that leads nowhere) that cannot be resumed.
    """
    path = current_path()
    if not os.path.lexists(path):
        return None
    game = _load_resumable(path)
    return None if game.state.is_terminal else game


def has_unfinished() -> bool:
    """True when there is a game in progress to continue."""
    try:
        return load_current() is not None
    except RecordError:
        return False


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


def set_aside_damaged_current() -> str | None:
    """Move a ``current.json`` that cannot be read out of the way; a notice saying so.

    ``None`` when there is no such file or it reads well. A damaged file (or a
    pipe, a device, a symbolic link in a loop, a record without hands: what
    cannot be resumed) is renamed ``current.damaged-YYYYmmdd-HHMMSS.json`` in the
    same folder, so nothing is lost and a new game can be saved; the notice
    names the problem and the new name. Only the process that holds the
    :class:`GameLock` should call this.
    """
    path = current_path()
    if not os.path.lexists(path):
        return None
    try:
        _load_resumable(path)
    except RecordError as err:
        problem = one_line(str(err))
        try:
            aside = move_current_aside()
        except OSError as move:
            return (
                f"The saved game {path} cannot be read ({problem}) "
                f"and could not be set aside: {move.strerror or move}."
            )
        return f"The saved game could not be read ({problem}): it is set aside as {aside}."
    return None


def move_current_aside() -> Path:
    """Rename ``current.json`` (whatever it is) ``current.damaged-YYYYmmdd-HHMMSS.json``
    in the same folder (``-2``, ``-3``… when taken); the new path.

    Raises :class:`OSError` when it cannot be renamed. Only the process that
    holds the :class:`GameLock` should call this.
    """
    path = current_path()
    aside = damaged_name(path)
    os.rename(path, aside)
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


class GameLock:
    """The right to autosave the game in progress: one process at a time.

    An OS lock (``fcntl.flock``) on ``current.lock`` in the data folder, held
    from :meth:`acquire` until :meth:`release` or the end of the process; the
    system frees it when the process ends however it ends (even ``kill -9``),
    so a crash never leaves it taken. The holder writes its process id into
    the file, for the others to name. It guards the autosave only: replays,
    ``sim`` and help never take it.
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

    def holder(self) -> str:
        """Who holds the lock, in words: "another allfives (process 1234)"."""
        return f"another allfives (process {self.other})" if self.other else "another allfives"

    def release(self) -> None:
        """Let the lock go (the file stays)."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            with contextlib.suppress(OSError):
                os.close(fd)  # closing the only descriptor frees the flock


class ReplayLoadError(RecordError):
    """A record file that cannot be replayed as a whole (a :class:`RecordError`).

    ``message`` is one line naming the problem (without the file's name);
    ``salvage`` is the game cut to its sound actions when the file is well formed
    up to an illegal action (``good_actions`` of them), else ``None``.
    """

    def __init__(
        self, message: str, *, salvage: LoadedGame | None = None, good_actions: int = 0
    ) -> None:
        super().__init__(message, good_actions=good_actions)
        self.message = message
        self.salvage = salvage

    @property
    def good_part(self) -> str | None:
        """Where the sound beginning ends, as a player counts moves.

        ``"hand 1, move 4"``, or ``"the deal of hand 2"`` when the first move after
        a deal is the bad one; ``None`` when there is nothing to salvage.
        """
        if self.salvage is None or not self.salvage.steps:
            return None
        last = self.salvage.steps[-1]
        if last.move == 0:
            return f"the deal of hand {last.hand}"
        return f"hand {last.hand}, move {last.move}"


def read_replay(path: str | os.PathLike[str]) -> Replay:
    """Read, validate and replay a record file once, keeping every frame.

    Never writes to the file. Raises :class:`ReplayLoadError` (a one-line
    message, and the sound beginning of a record that stops replaying).
    """
    try:
        return Replay(load_game(path))
    except RecordError as err:
        partial = err.partial
        good = err.good_actions if partial is not None else 0
        raise ReplayLoadError(one_line(str(err)), salvage=partial, good_actions=good) from None


def save_copy(record: GameRecord, text: str) -> Path:
    """Save ``record`` at the path ``text`` names; ``ValueError`` with a clear message."""
    text = text.strip()
    if not text:
        raise ValueError("give a file name, e.g. ~/allfives-game.json")
    path = Path(text).expanduser()
    if path.is_dir():
        raise ValueError(f"{path} is a folder: add a file name, e.g. {path / 'game.json'}")
    if not path.parent.exists():
        raise ValueError(f"there is no folder {path.parent}")
    try:
        return save(record, path)
    except PermissionError:
        raise ValueError(f"cannot write {path}: permission denied") from None
    except OSError as err:
        raise ValueError(f"cannot write {path}: {err.strerror or err}") from None


class AutoSaver:
    """Saves records in order on one background thread, so play never waits on the disk.

    ``submit(record)`` queues a save; :meth:`flush` waits for every queued save.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or current_path()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="allfives-autosave")
        self._last: Future[Path] | None = None
        self.error: str | None = None

    def submit(self, record: GameRecord) -> None:
        """Queue an atomic save of ``record``."""
        self._last = self._pool.submit(self._save, record)

    def _save(self, record: GameRecord) -> Path:
        try:
            return save(record, self.path)
        except OSError as err:
            self.error = f"could not autosave to {self.path}: {err.strerror or err}"
            raise

    @property
    def pending(self) -> bool:
        """True while a queued save has not reached the disk yet."""
        last = self._last
        return last is not None and not last.done()

    def flush(self, timeout: float = 5.0) -> None:
        """Wait for the queued saves to reach the disk."""
        if self._last is not None:
            with contextlib.suppress(Exception):  # the error is kept in self.error
                self._last.result(timeout)

    def close(self) -> None:
        """Finish queued saves and stop the thread."""
        self.flush()
        self._pool.shutdown(wait=True)
