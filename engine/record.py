"""Game records: the save-file format, like PGN for All Fives.

A record is JSON with a format name and version, a game id, the rules, the
seats, and every hand's deal (given explicitly) followed by its actions in
notation. Loading validates the JSON, then re-applies every action through the
engine; any problem raises one :class:`RecordError` naming the hand, the move
and the reason, and nothing else (:func:`load`, :func:`load_game`,
:func:`parse_record` and :func:`parse_game` raise no other exception for any
input). Nothing in a file is ever executed. Writing is atomic
(:func:`engine.files.atomic_write`). The format's versions are in
:mod:`engine.record_versions`, the seats, deals and hands in :mod:`engine.record_parts`.

A :class:`RecordError`'s ``code`` names its problem: the file (``no-such-file``,
``is-a-folder``, ``name-with-nul``, ``not-a-regular-file`` with its ``kind``,
``would-wait``, ``permission-denied``, ``cannot-read``, ``too-large``), its text
(``empty``, ``truncated``, ``not-json``, ``not-utf8``, ``huge-number``, ``too-deep``,
``too-big-to-read``, ``not-an-object``, ``wrong-format``, the ``version-*`` codes,
``no-game-id``), its values (``invalid-field`` at ``details["where"]``, with the pydantic
error as ``invalid`` and a check's own error as ``cause``; ``invalid``,
``number-out-of-range``, ``wrong-type``, ``unreadable``) or its replay (``bad-deal`` and
``illegal-action``, the engine's error as ``cause``; ``after-game-over``,
``after-hand-over``, ``hand-not-over``).
"""

from __future__ import annotations

import errno
import json
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from engine.actions import Deal
from engine.errors import AllFivesError, RecordError, shown
from engine.events import Event
from engine.files import UnreadableFileError, atomic_write, read_small_file
from engine.game import apply, new_game
from engine.notation import parse_action, to_text
from engine.problems import problem_words
from engine.record_parts import (
    PLACE_NAMES,
    PLACES,
    DealRecord,
    HandRecord,
    Place,
    RecordTile,
    Seat,
    SeatKind,
    no_control_characters,
    place_of,
)
from engine.record_versions import (
    OLDEST_VERSION,
    UNKNOWN_LEVEL,
    VERSION,
    check_version,
    derived_game_id,
    upgrade,
    upgrade_v1,
    upgrade_v2,
)
from engine.rng import check_game_seed
from engine.rules import Rules
from engine.state import GameState

__all__ = [
    "FORMAT",
    "GAME_ID_PATTERN",
    "MAX_BYTES",
    "OLDEST_VERSION",
    "PLACES",
    "PLACE_NAMES",
    "UNKNOWN_LEVEL",
    "VERSION",
    "DealRecord",
    "GameRecord",
    "HandRecord",
    "LoadedGame",
    "Place",
    "RecordError",
    "RecordStep",
    "RecordTile",
    "Seat",
    "SeatKind",
    "check_version",
    "derived_game_id",
    "load",
    "load_game",
    "new_game_id",
    "parse_game",
    "parse_record",
    "place_of",
    "save",
    "upgrade",
    "upgrade_v1",
    "upgrade_v2",
]

FORMAT = "allfives-record"
MAX_BYTES = 2 * 1024 * 1024
"""Size cap for a record file: a real game is a few tens of kilobytes."""
GAME_ID_PATTERN = r"^[0-9A-Za-z_-]{1,64}$"
"""What a game id may be: :func:`new_game_id` makes 32 lower-case hex digits."""

def new_game_id() -> str:
    """A fresh game id: a random UUID's 32 hex digits."""
    return uuid.uuid4().hex


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
    """A whole game (finished or not) as it is saved (format version 3).

    Validating version 1 or 2 data (``model_validate``) reads it as version 3 (see
    :mod:`engine.record_versions`). Made directly, a record gets a fresh :attr:`game_id`
    unless given one.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["allfives-record"] = "allfives-record"
    version: Literal[3] = 3
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
        return upgrade(data, check_version(data["version"]))

    @field_validator("created")
    @classmethod
    def _printable_created(cls, value: str | None) -> str | None:
        return no_control_characters(value)

    @field_validator("seed")
    @classmethod
    def _a_game_seed(cls, value: int | None) -> int | None:
        return None if value is None else check_game_seed(value)

    @model_validator(mode="after")
    def _one_seat_a_player(self) -> GameRecord:
        if len(self.seats) != self.rules.players:
            seats = len(self.seats)
            raise AllFivesError(
                f"the record has {seats} seat{'s' if seats != 1 else ''} "
                f"for {self.rules.players} players",
                code="seats-for-players",
                details={"seats": seats, "players": self.rules.players},
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

    def seat_name(self, seat: int) -> str:
        """``seat``'s name in English: its place's (``"North"``) if it has the default one."""
        return self.seats[seat].name_at(seat, self.rules.players)

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
                raise RecordError(
                    f"bad deal: {err}", code="bad-deal", cause=err, hand=h, good_actions=good
                ) from None
            good += 1
            yield RecordStep(h, 0, state, events)
            for m, text in enumerate(hand.actions, start=1):
                if state.is_terminal or state.is_chance:
                    over = "game" if state.is_terminal else "hand"
                    raise RecordError(
                        f"action {shown(text)} comes after the {over} is over",
                        code=f"after-{over}-over",
                        details={"action": shown(text)},
                        hand=h,
                        move=m,
                        good_actions=good,
                    )
                try:
                    action = parse_action(text)
                    if isinstance(action, Deal):
                        raise AllFivesError(
                            "a deal cannot be one of a hand's moves", code="deal-as-move"
                        )
                    state, events = apply(state, action)
                except AllFivesError as err:
                    raise RecordError(
                        f"illegal action {shown(text)}: {err}",
                        code="illegal-action",
                        details={"action": shown(text)},
                        cause=err,
                        hand=h,
                        move=m,
                        good_actions=good,
                    ) from None
                good += 1
                yield RecordStep(h, m, state, events)
            if h < len(self.hands) and not state.is_chance:
                raise RecordError(
                    "the hand is not over but another hand follows",
                    code="hand-not-over",
                    hand=h,
                    good_actions=good,
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
        raise RecordError("not a game record: it is nested too deeply", code="too-deep") from None
    except MemoryError:
        raise RecordError("not a game record: too big to read", code="too-big-to-read") from None
    except OverflowError:
        raise RecordError(
            "invalid record: it holds a number out of range", code="number-out-of-range"
        ) from None
    except (TypeError, AttributeError, KeyError, IndexError):
        raise _wrong_type() from None
    except UnicodeError:
        raise RecordError(
            "not a game record: text that is not valid UTF-8", code="not-utf8"
        ) from None
    except ValueError as err:
        raise _invalid(err) from None
    except Exception:
        raise RecordError("invalid record: it could not be read", code="unreadable") from None


def _wrong_type() -> RecordError:
    return RecordError("invalid record: it holds a value of the wrong type", code="wrong-type")


def _invalid(err: ValueError) -> RecordError:
    """A record refused by a check that raised ``err``; its ``cause`` when it is the
    engine's (a front-end words it by its code), else its text in ``details``."""
    return RecordError(
        f"invalid record: {err}" if str(err) else "invalid record",
        code="invalid",
        details={"text": str(err)},
        cause=err if isinstance(err, AllFivesError) else None,
    )


def parse_record(text: str | bytes) -> GameRecord:
    """Validate record JSON and replay it; raise :class:`RecordError` on any problem."""
    return parse_game(text).record


def _json_object(text: str | bytes) -> dict[str, Any]:
    """The JSON object of a record's text, format and version checked."""
    if len(text) > MAX_BYTES:
        raise RecordError(
            f"the file is over the size cap of {MAX_BYTES // 1024} KiB",
            code="too-large",
            details={"kib": MAX_BYTES // 1024},
        )
    if not text.strip():
        raise RecordError("the file is empty, not a game record", code="empty")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        doc = err.doc
        if err.msg.startswith("Unterminated string") or err.pos >= len(doc.rstrip()):
            raise RecordError(
                "not a game record: the JSON stops in the middle (is the file truncated?)",
                code="truncated",
            ) from None
        raise RecordError(
            f"not a game record: not valid JSON ({err})",
            code="not-json",
            details={"line": err.lineno, "column": err.colno},
        ) from None
    except RecursionError:
        raise RecordError("not a game record: JSON nested too deeply", code="too-deep") from None
    except UnicodeDecodeError as err:
        raise RecordError(
            f"not a game record: not valid JSON ({err})", code="not-utf8"
        ) from None
    except ValueError:  # a number of more digits than int() converts
        raise RecordError(
            "not a game record: it holds a number thousands of digits long", code="huge-number"
        ) from None
    if not isinstance(data, dict):
        raise RecordError("not a game record: the JSON is not an object", code="not-an-object")
    if data.get("format") != FORMAT:
        raise RecordError(
            f"not a game record: format is {shown(data.get('format'))}, not {FORMAT!r}",
            code="wrong-format",
            details={"format": shown(data.get("format")), "expected": FORMAT},
        )
    version = check_version(data.get("version"))
    if version >= 2 and "game_id" not in data:
        raise RecordError(
            f"invalid record at game_id: a version {version} record needs its game id",
            code="no-game-id",
            details={"version": version},
        )
    return data


def _validated(data: dict[str, Any]) -> GameRecord:
    """The record model of checked JSON data (its actions not yet replayed)."""
    try:
        return GameRecord.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) if isinstance(p, int) else shown(p)[1:-1] for p in first["loc"])
        message = problem_words(first)
        error = (first.get("ctx") or {}).get("error")
        raise RecordError(
            f"invalid record at {where}: {message}" if where else message,
            code="invalid-field",
            details={"where": where},
            cause=error if isinstance(error, AllFivesError) else None,
            invalid=first,
        ) from None
    except TypeError:  # a validator met a value of a type it did not expect
        raise _wrong_type() from None
    except ValueError as err:
        raise _invalid(err) from None
    except RecursionError:
        raise RecordError("invalid record: nested too deeply", code="too-deep") from None


_UNREADABLE = {
    errno.EISDIR: "is-a-folder",
    errno.EINVAL: "name-with-nul",
    errno.ENODEV: "not-a-regular-file",
    errno.ENXIO: "not-a-regular-file",
    errno.EAGAIN: "would-wait",
    errno.EFBIG: "too-large",
    errno.EACCES: "permission-denied",
}
"""The code of a :class:`RecordError` for each kind of file that cannot be read (by its
``errno``; ``"cannot-read"`` for others, with the system's ``reason``)."""


def _read(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a record file (see :func:`engine.files.read_small_file`); the
    messages leave the path to the caller, who shows it."""
    try:
        return read_small_file(path, MAX_BYTES)
    except FileNotFoundError:
        raise RecordError("no such file", code="no-such-file") from None
    except UnreadableFileError as err:
        words = err.strerror or str(err)
        code = _UNREADABLE.get(err.errno or 0, "cannot-read")
        if err.errno == errno.EISDIR:
            words = f"{words}, not a game record"
        elif err.errno == errno.EINVAL:
            words = f"no such file ({words})"
        elif err.errno not in (errno.ENODEV, errno.ENXIO, errno.EFBIG):
            words = f"cannot read it: {words}"
        details = {"reason": err.strerror or str(err), "kind": err.kind, "kib": MAX_BYTES // 1024}
        raise RecordError(words, code=code, details=details) from None


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
