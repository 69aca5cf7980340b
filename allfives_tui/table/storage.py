"""Where games and settings live: the data folder, the settings, autosave, record files.

The data folder is ``$ALLFIVES_DATA_DIR`` when set (tests point it at a
temporary folder), else the user's data folder from :mod:`platformdirs`.
``current.json`` is the game in progress, as an engine game record;
``settings.json`` the last new-game settings. Every write is atomic (a
temporary file, then a rename), so a kill, even ``kill -9``, leaves the last
complete save.
"""

from __future__ import annotations

import contextlib
import os
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

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
from engine.errors import RecordError
from engine.files import atomic_write
from engine.players import LEVELS
from engine.record import GameRecord, LoadedGame, Seat, load_game, save

ENV_DATA_DIR = "ALLFIVES_DATA_DIR"
CURRENT = "current.json"
SETTINGS = "settings.json"


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
            raise ValueError(f"All Fives is for 2, 3 or 4 players, not {players}")
        return players

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
            raise ValueError(str(err.errors()[0]["msg"]).removeprefix("Value error, ")) from None
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
        if seed is not None and seed < 0:
            raise ValueError(f"a seed is a whole number from 0 up, not {seed}")
        return seed

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
                    f"{speed!r} is not a pace: give seconds (e.g. 0.5) or one of "
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


def load_settings() -> Settings:
    """The remembered settings, or the defaults when there are none (or they are unreadable)."""
    path = data_dir() / SETTINGS
    try:
        return Settings.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValidationError, ValueError):
        return Settings()


def save_settings(settings: Settings) -> None:
    """Remember ``settings`` (atomically)."""
    atomic_write(data_dir() / SETTINGS, settings.model_dump_json(indent=1) + "\n")


def load_current() -> LoadedGame | None:
    """The saved game in progress (loaded and replayed once), or ``None`` if there
    is none or it is finished.

    Raises :class:`~engine.errors.RecordError` when the file exists but is damaged.
    """
    path = current_path()
    if not path.exists():
        return None
    game = load_game(path)
    return None if game.state.is_terminal else game


def has_unfinished() -> bool:
    """True when there is a game in progress to continue."""
    try:
        return load_current() is not None
    except RecordError:
        return False


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

    def flush(self, timeout: float = 5.0) -> None:
        """Wait for the queued saves to reach the disk."""
        if self._last is not None:
            with contextlib.suppress(Exception):  # the error is kept in self.error
                self._last.result(timeout)

    def close(self) -> None:
        """Finish queued saves and stop the thread."""
        self.flush()
        self._pool.shutdown(wait=True)
