"""Game records: the save-file format, like PGN for All Fives.

A record is JSON with a format name and version, a game id, the rules, the
seats, and every hand's deal (given explicitly) followed by its actions in
notation. Loading validates the JSON, then re-applies every action through the
engine; any problem raises one :class:`RecordError` naming the hand, the move
and the reason, and nothing else (:func:`load`, :func:`load_game`,
:func:`parse_record` and :func:`parse_game` raise no other exception for any
input). Nothing in a file is ever executed. Writing is atomic
(:func:`engine.files.atomic_write`).

Format versions
---------------

This allfives writes version 2 (:data:`VERSION`) and reads versions 1 and 2.

* **2**: every seat has a ``kind``: ``"person"`` (someone at the table: a
  name), ``"computer"`` (a name and its ``level``, which a computer must have)
  or ``"remote"`` (a player elsewhere: a name); ``level`` is ``null`` unless
  the seat is a computer. Each seat counts its ``take_backs``: how many times
  that seat took a move back (0 when it never did; a computer's is 0). The
  record has a ``game_id``: made once, when a game's first record is made
  (:meth:`GameRecord.from_state` makes a fresh one unless given one) and kept
  by every later save of that game, so two files with the same id are two
  moments of one game.
* **1**: seats were ``"human"`` or ``"computer"``, there were no counts and no
  game id. A version 1 record is read as version 2: ``"human"`` becomes
  ``"person"`` (its level, if any, is dropped), a computer without a level
  gets :data:`UNKNOWN_LEVEL`, take-backs are 0, and the game id is derived
  from what every save of one game shares (its creation time, seed, rules,
  seat names and first deal: see :func:`derived_game_id`), so reading the same
  file, or a later save of the same game, always gives the same id. Saving it
  again writes version 2.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import unicodedata
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from engine.actions import Deal
from engine.errors import AllFivesError, RecordError, shown
from engine.events import Event
from engine.files import UnreadableFileError, atomic_write, read_small_file
from engine.game import apply, new_game
from engine.notation import parse_action, to_text
from engine.problems import problem_words
from engine.rng import check_game_seed
from engine.rules import Rules
from engine.state import GameState
from engine.tiles import MAX_PIP, Tile

FORMAT = "allfives-record"
VERSION = 2
"""The version this allfives writes."""
OLDEST_VERSION = 1
"""The oldest version this allfives reads (every version from it to :data:`VERSION`)."""
MAX_BYTES = 2 * 1024 * 1024
"""Size cap for a record file: a real game is a few tens of kilobytes."""
UNKNOWN_LEVEL = "unknown"
"""The level of a computer seat that a version 1 record saved without one."""
GAME_ID_PATTERN = r"^[0-9A-Za-z_-]{1,64}$"
"""What a game id may be: :func:`new_game_id` makes 32 lower-case hex digits."""

SeatKind = Literal["person", "computer", "remote"]
"""Who plays a seat: a person at this table, the computer, or a player elsewhere."""


def new_game_id() -> str:
    """A fresh game id: a random UUID's 32 hex digits."""
    return uuid.uuid4().hex


def _printable(value: str | None) -> str | None:
    if value is not None and any(unicodedata.category(ch) in ("Cc", "Cs") for ch in value):
        raise ValueError("control characters are not allowed")
    return value


class Seat(BaseModel):
    """Who sat in a seat: a person, a computer (with its level) or a remote player.

    ``kind`` ``"human"`` (the word of format 1) is read as ``"person"``.
    ``level`` is required for a computer and must be ``None`` otherwise.
    ``take_backs`` counts the moves this seat took back during the game.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=40)
    kind: SeatKind = "person"
    level: str | None = Field(default=None, min_length=1, max_length=20)
    take_backs: int = Field(default=0, ge=0)

    @field_validator("kind", mode="before")
    @classmethod
    def _human_is_a_person(cls, value: object) -> object:
        return "person" if value == "human" else value

    @field_validator("name", "level")
    @classmethod
    def _printable(cls, value: str | None) -> str | None:
        return _printable(value)

    @model_validator(mode="after")
    def _level_for_computers_only(self) -> Seat:
        if self.kind == "computer" and self.level is None:
            raise ValueError("a computer seat needs its level")
        if self.kind != "computer" and self.level is not None:
            raise ValueError(f"only a computer seat has a level, not a {self.kind}'s")
        return self

    @property
    def is_person(self) -> bool:
        """True for a seat played by a person at this table."""
        return self.kind == "person"

    @property
    def is_computer(self) -> bool:
        """True for a seat the computer plays."""
        return self.kind == "computer"


def _tile_input(value: object) -> object:
    """A tile as a record may write it, checked before :class:`Tile` sees it.

    Records write ``"5-3"``; a pair ``[5, 3]`` or ``{"high": 5, "low": 3}`` of
    whole numbers from 0 to 6 is read too. Anything else (a pair of text and
    a number, a null, a number thousands of digits long) is refused here in
    words that echo at most a short piece of it.
    """
    if isinstance(value, Tile):
        return value
    if isinstance(value, str):
        if len(value) > 12:
            raise ValueError(f"not a tile: {shown(value)} (write it like 5-3)")
        return value
    halves: tuple[object, ...] | None = None
    if isinstance(value, (list, tuple)) and len(value) == 2:
        halves = tuple(value)
    elif isinstance(value, dict) and set(value) == {"high", "low"}:
        halves = (value["high"], value["low"])
    if halves is None or not all(
        isinstance(h, int) and not isinstance(h, bool) and 0 <= h <= MAX_PIP for h in halves
    ):
        raise ValueError(f"not a tile: {shown(value)} (write it like 5-3)")
    return value


RecordTile = Annotated[Tile, BeforeValidator(_tile_input)]
"""A tile in a record: :func:`_tile_input` checks what the file holds, then :class:`Tile`."""


class DealRecord(BaseModel):
    """One hand's deal: each seat's tiles, the boneyard in drawing order, the starter."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    hands: tuple[tuple[RecordTile, ...], ...] = Field(max_length=4)
    boneyard: tuple[RecordTile, ...] = Field(max_length=28)
    start: int = Field(ge=0, le=3)

    def to_action(self) -> Deal:
        """The deal as an engine action."""
        return Deal(hands=self.hands, boneyard=self.boneyard, start=self.start)


class HandRecord(BaseModel):
    """One hand: its deal and its actions in notation."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    deal: DealRecord
    actions: tuple[str, ...] = Field(default=(), max_length=200)


class RecordStep(NamedTuple):
    """One action of a replay: ``(hand, move, state, events)``.

    ``hand`` is 1-based; ``move`` is 0 for the hand's deal and counts the
    hand's moves from 1; ``state`` is the snapshot after the action and
    ``events`` what it did. Unpacks like the plain 4-tuple it extends.
    """

    hand: int
    move: int
    state: GameState
    events: tuple[Event, ...]


class GameRecord(BaseModel):
    """A whole game (finished or not) as it is saved (format version 2).

    Validating version 1 data (``model_validate``) reads it as version 2 (see
    the module doc). Made directly, a record gets a fresh :attr:`game_id`
    unless given one.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["allfives-record"] = "allfives-record"
    version: Literal[2] = 2
    game_id: str = Field(default_factory=new_game_id, pattern=GAME_ID_PATTERN)
    rules: Rules
    seats: tuple[Seat, ...]
    hands: tuple[HandRecord, ...] = Field(default=(), max_length=500)
    created: str | None = Field(default=None, max_length=100)
    seed: int | None = None

    @model_validator(mode="before")
    @classmethod
    def _upgrade(cls, data: Any) -> Any:
        """Read older versions as this one (and refuse newer ones)."""
        if not isinstance(data, dict) or "version" not in data:
            return data
        version = check_version(data["version"])
        if version == 1:
            data = upgrade_v1(data)
        return data

    @field_validator("created")
    @classmethod
    def _printable_created(cls, value: str | None) -> str | None:
        return _printable(value)

    @field_validator("seed")
    @classmethod
    def _a_game_seed(cls, value: int | None) -> int | None:
        return None if value is None else check_game_seed(value)

    @model_validator(mode="after")
    def _one_seat_a_player(self) -> GameRecord:
        if len(self.seats) != self.rules.players:
            seats = len(self.seats)
            raise ValueError(
                f"the record has {seats} seat{'s' if seats != 1 else ''} "
                f"for {self.rules.players} players"
            )
        return self

    @classmethod
    def from_state(
        cls,
        state: GameState,
        seats: tuple[Seat, ...] | list[Seat],
        *,
        seed: int | None = None,
        created: str | None = None,
        game_id: str | None = None,
    ) -> GameRecord:
        """The record of every action that led to ``state``.

        ``game_id`` is the game's id from its earlier records; a new game
        (``None``) gets a fresh one. Pass it on every later save of the game.
        """
        hands = []
        histories = (*state.past, state.history)
        for deal, moves in zip(state.deals, histories, strict=False):
            hands.append(
                HandRecord(
                    deal=DealRecord(hands=deal.hands, boneyard=deal.boneyard, start=deal.start),
                    actions=tuple(to_text(m.action) for m in moves),
                )
            )
        return cls(
            game_id=game_id if game_id is not None else new_game_id(),
            rules=state.rules,
            seats=tuple(seats),
            hands=tuple(hands),
            created=created or datetime.now(UTC).isoformat(timespec="seconds"),
            seed=seed,
        )

    @property
    def action_count(self) -> int:
        """Deals plus moves."""
        return sum(1 + len(h.actions) for h in self.hands)

    def steps(self) -> Iterator[RecordStep]:
        """Replay: a :class:`RecordStep` ``(hand, move, state, events)`` after each
        action (move 0 is the deal).

        Raises :class:`RecordError` at the first action that does not replay
        (its ``good_actions`` counts the steps yielded before it).
        """
        state = new_game(self.rules)
        good = 0
        for h, hand in enumerate(self.hands, start=1):
            try:
                state, events = apply(state, hand.deal.to_action())
            except AllFivesError as err:
                raise RecordError(f"bad deal: {err}", hand=h, good_actions=good) from None
            good += 1
            yield RecordStep(h, 0, state, events)
            for m, text in enumerate(hand.actions, start=1):
                if state.is_terminal:
                    raise RecordError(
                        f"action {shown(text)} comes after the game is over",
                        hand=h,
                        move=m,
                        good_actions=good,
                    )
                if state.is_chance:
                    raise RecordError(
                        f"action {shown(text)} comes after the hand is over",
                        hand=h,
                        move=m,
                        good_actions=good,
                    )
                try:
                    action = parse_action(text)
                    if isinstance(action, Deal):
                        raise AllFivesError("a deal cannot be one of a hand's moves")
                    state, events = apply(state, action)
                except AllFivesError as err:
                    raise RecordError(
                        f"illegal action {shown(text)}: {err}", hand=h, move=m, good_actions=good
                    ) from None
                good += 1
                yield RecordStep(h, m, state, events)
            if h < len(self.hands) and not state.is_chance:
                raise RecordError(
                    "the hand is not over but another hand follows", hand=h, good_actions=good
                )

    def final_state(self) -> GameState:
        """The state after the last action (validating every action)."""
        state = new_game(self.rules)
        for _, _, after, _ in self.steps():
            state = after
        return state

    def truncated(self, actions: int) -> GameRecord:
        """The record cut after its first ``actions`` actions (deals count as actions)."""
        hands = []
        left = actions
        for hand in self.hands:
            if left <= 0:
                break
            keep = hand.actions[: left - 1]
            hands.append(HandRecord(deal=hand.deal, actions=keep))
            left -= 1 + len(keep)
        return self.model_copy(update={"hands": tuple(hands)})

    def to_json(self) -> str:
        """The record as JSON text (what :func:`save` writes)."""
        return json.dumps(self.model_dump(mode="json"), indent=1) + "\n"


def check_version(version: object) -> int:
    """``version`` as a version this allfives reads; :class:`RecordError` says why not."""
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordError(f"the record's version {shown(version)} is not a number")
    if version > VERSION:
        raise RecordError(
            f"the record is version {shown(version)}, newer than this allfives reads ({VERSION}): "
            "upgrade allfives"
        )
    if version < OLDEST_VERSION:
        raise RecordError(f"unknown record version {shown(version)}")
    return version


def upgrade_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 record data as version 2 data (see the module doc); not yet validated."""
    out = {**data, "version": 2}
    seats = data.get("seats")
    if isinstance(seats, list):
        out["seats"] = [_upgrade_v1_seat(seat) for seat in seats]
    if "game_id" not in data:
        out["game_id"] = derived_game_id(data)
    return out


def _upgrade_v1_seat(seat: object) -> object:
    if not isinstance(seat, dict):
        return seat
    kind = seat.get("kind", "human")
    if kind == "human":
        return {k: v for k, v in seat.items() if k != "level"} | {"kind": "person"}
    if kind == "computer" and not seat.get("level"):
        return {**seat, "level": UNKNOWN_LEVEL}
    return seat


def derived_game_id(data: dict[str, Any]) -> str:
    """The game id of a record saved without one (version 1), from its data.

    A hash of what every save of one game shares: its creation time, seed,
    rules, seat names and first deal (later deals and the moves grow from save
    to save). Deal and rules are hashed as validated, so how the file spells
    them does not matter; the same file always gives the same id.
    """
    seats = data.get("seats")
    hands = data.get("hands")
    first = (
        hands[0].get("deal")
        if isinstance(hands, list) and hands and isinstance(hands[0], dict)
        else None
    )
    content = {
        "created": data.get("created"),
        "seed": data.get("seed"),
        "rules": _canonical(Rules, data.get("rules")),
        "names": [s.get("name") if isinstance(s, dict) else s for s in seats]
        if isinstance(seats, list)
        else seats,
        "deal": _canonical(DealRecord, first),
    }
    try:
        text = json.dumps(content, sort_keys=True, separators=(",", ":"), default=repr)
    except (TypeError, ValueError, RecursionError):
        text = repr(content)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _canonical(model: type[BaseModel], value: object) -> object:
    """``value`` validated as ``model`` and dumped back, or as it is if it is not valid."""
    try:
        return model.model_validate(value).model_dump(mode="json")
    except (ValueError, TypeError, RecursionError):
        return value


@dataclass(frozen=True, slots=True)
class LoadedGame:
    """A record read, validated and replayed once: the record and every step of it.

    ``steps`` are what :meth:`GameRecord.steps` yields, one per action (deals
    included), so a replay viewer can be built from them without replaying
    the record again.
    """

    record: GameRecord
    steps: tuple[RecordStep, ...]

    @property
    def state(self) -> GameState:
        """The state after the last action (a new game when the record has no hands)."""
        return self.steps[-1].state if self.steps else new_game(self.record.rules)

    @classmethod
    def of(cls, record: GameRecord) -> LoadedGame:
        """Replay a trusted ``record`` once, keeping every step.

        Raises :class:`RecordError` at the first action that does not replay;
        :func:`parse_game` is the reader for untrusted text.
        """
        return cls(record, tuple(record.steps()))


def parse_game(text: str | bytes) -> LoadedGame:
    """Validate record JSON and replay it, keeping every step.

    Raises :class:`RecordError`, and nothing else, on any problem. When the
    record is well formed but an action does not replay, the error's
    ``partial`` is the :class:`LoadedGame` of its sound beginning (the record
    cut after its ``good_actions`` sound actions), or ``None`` when not even
    the first deal replays.
    """
    with _untrusted():
        record = _validated(_json_object(text))
    steps: list[RecordStep] = []
    try:
        with _untrusted():
            steps.extend(record.steps())
    except RecordError as err:
        if steps:
            err.partial = LoadedGame(record.truncated(len(steps)), tuple(steps))
        raise
    return LoadedGame(record, tuple(steps))


@contextmanager
def _untrusted() -> Iterator[None]:
    """Turn any failure in the block into a one-line :class:`RecordError`.

    The readers' promise, kept whatever a file holds: a :class:`RecordError`
    passes through; anything else (a bug that a strange file reached, a
    :class:`RecursionError` on deep nesting, an :class:`OverflowError`, ...)
    becomes a :class:`RecordError` in plain words. ``KeyboardInterrupt`` and
    ``SystemExit`` are not failures of the file and pass through.
    """
    try:
        yield
    except RecordError:
        raise
    except RecursionError:
        raise RecordError("not a game record: it is nested too deeply") from None
    except MemoryError:
        raise RecordError("not a game record: too big to read") from None
    except OverflowError:
        raise RecordError("invalid record: it holds a number out of range") from None
    except (TypeError, AttributeError, KeyError, IndexError):
        raise RecordError("invalid record: it holds a value of the wrong type") from None
    except UnicodeError:
        raise RecordError("not a game record: text that is not valid UTF-8") from None
    except ValueError as err:
        raise RecordError(f"invalid record: {err}" if str(err) else "invalid record") from None
    except Exception:
        raise RecordError("invalid record: it could not be read") from None


def parse_record(text: str | bytes) -> GameRecord:
    """Validate record JSON and replay it; raise :class:`RecordError` on any problem."""
    return parse_game(text).record


def _json_object(text: str | bytes) -> dict[str, Any]:
    """The JSON object of a record's text, format and version checked."""
    if len(text) > MAX_BYTES:
        raise RecordError(f"the file is over the size cap of {MAX_BYTES // 1024} KiB")
    if not text.strip():
        raise RecordError("the file is empty, not a game record")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        doc = err.doc
        if err.msg.startswith("Unterminated string") or err.pos >= len(doc.rstrip()):
            raise RecordError(
                "not a game record: the JSON stops in the middle (is the file truncated?)"
            ) from None
        raise RecordError(f"not a game record: not valid JSON ({err})") from None
    except RecursionError:
        raise RecordError("not a game record: JSON nested too deeply") from None
    except UnicodeDecodeError as err:
        raise RecordError(f"not a game record: not valid JSON ({err})") from None
    except ValueError:  # a number of more digits than int() converts
        raise RecordError("not a game record: it holds a number thousands of digits long") from None
    if not isinstance(data, dict):
        raise RecordError("not a game record: the JSON is not an object")
    if data.get("format") != FORMAT:
        raise RecordError(
            f"not a game record: format is {shown(data.get('format'))}, not {FORMAT!r}"
        )
    version = check_version(data.get("version"))
    if version >= 2 and "game_id" not in data:
        raise RecordError("invalid record at game_id: a version 2 record needs its game id")
    return data


def _validated(data: dict[str, Any]) -> GameRecord:
    """The record model of checked JSON data (its actions not yet replayed)."""
    try:
        return GameRecord.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) if isinstance(p, int) else shown(p)[1:-1] for p in first["loc"])
        message = problem_words(first)
        raise RecordError(f"invalid record at {where}: {message}" if where else message) from None
    except TypeError:  # a validator met a value of a type it did not expect
        raise RecordError("invalid record: it holds a value of the wrong type") from None
    except ValueError as err:
        raise RecordError(f"invalid record: {err}") from None
    except RecursionError:
        raise RecordError("invalid record: nested too deeply") from None


def _read(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a record file (see :func:`engine.files.read_small_file`); the
    messages leave the path to the caller, who shows it."""
    try:
        return read_small_file(path, MAX_BYTES)
    except FileNotFoundError:
        raise RecordError("no such file") from None
    except UnreadableFileError as err:
        words = err.strerror or str(err)
        if err.errno == errno.EISDIR:
            words = f"{words}, not a game record"
        elif err.errno == errno.EINVAL:
            words = f"no such file ({words})"
        elif err.errno not in (errno.ENODEV, errno.ENXIO, errno.EFBIG):
            words = f"cannot read it: {words}"
        raise RecordError(words) from None


def load_game(path: str | os.PathLike[str]) -> LoadedGame:
    """Read, validate and replay a record file, keeping every step (see :func:`parse_game`).

    Raises :class:`RecordError`, and nothing else, whatever the file holds.
    """
    with _untrusted():
        text = _read(path)
    return parse_game(text)


def load(path: str | os.PathLike[str]) -> GameRecord:
    """Read, validate and replay a record file; :class:`RecordError` names what is wrong."""
    return load_game(path).record


def save(record: GameRecord, path: str | os.PathLike[str]) -> Path:
    """Write ``record`` atomically (see :func:`engine.files.atomic_write`)."""
    return atomic_write(path, record.to_json())
