"""Game records: the save-file format, like PGN for All Fives.

A record is JSON with a format name and version, the rules, the seats, and
every hand's deal (given explicitly) followed by its actions in notation.
Loading validates the JSON, then re-applies every action through the engine;
any problem raises one :class:`RecordError` naming the hand, the move and the
reason. Nothing in a file is ever executed. Writing is atomic.
"""

from __future__ import annotations

import json
import os
import unicodedata
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from engine.actions import Deal
from engine.errors import AllFivesError, RecordError
from engine.events import Event
from engine.files import atomic_write
from engine.game import apply, new_game
from engine.notation import parse_action, to_text
from engine.rules import Rules
from engine.state import GameState
from engine.tiles import Tile

FORMAT = "allfives-record"
VERSION = 1
MAX_BYTES = 2 * 1024 * 1024
"""Size cap for a record file: a real game is a few tens of kilobytes."""


class Seat(BaseModel):
    """Who sat in a seat: a name, human or computer, and a computer's level."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=40)
    kind: Literal["human", "computer"] = "human"
    level: str | None = Field(default=None, max_length=20)

    @field_validator("name", "level")
    @classmethod
    def _printable(cls, value: str | None) -> str | None:
        if value is not None and any(unicodedata.category(ch) == "Cc" for ch in value):
            raise ValueError("control characters are not allowed")
        return value


class DealRecord(BaseModel):
    """One hand's deal: each seat's tiles, the boneyard in drawing order, the starter."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    hands: tuple[tuple[Tile, ...], ...] = Field(max_length=4)
    boneyard: tuple[Tile, ...] = Field(max_length=28)
    start: int

    def to_action(self) -> Deal:
        """The deal as an engine action."""
        return Deal(hands=self.hands, boneyard=self.boneyard, start=self.start)


class HandRecord(BaseModel):
    """One hand: its deal and its actions in notation."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    deal: DealRecord
    actions: tuple[str, ...] = Field(default=(), max_length=200)


class GameRecord(BaseModel):
    """A whole game (finished or not) as it is saved."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["allfives-record"] = "allfives-record"
    version: int = VERSION
    rules: Rules
    seats: tuple[Seat, ...]
    hands: tuple[HandRecord, ...] = Field(default=(), max_length=500)
    created: str | None = None
    seed: int | None = None

    @classmethod
    def from_state(
        cls,
        state: GameState,
        seats: tuple[Seat, ...] | list[Seat],
        *,
        seed: int | None = None,
        created: str | None = None,
    ) -> GameRecord:
        """The record of every action that led to ``state``."""
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

    def steps(self) -> Iterator[tuple[int, int, GameState, tuple[Event, ...]]]:
        """Replay: ``(hand, move, state, events)`` after each action (move 0 is the deal).

        Raises :class:`RecordError` at the first action that does not replay.
        """
        state = new_game(self.rules)
        good = 0
        for h, hand in enumerate(self.hands, start=1):
            try:
                state, events = apply(state, hand.deal.to_action())
            except AllFivesError as err:
                raise RecordError(f"bad deal: {err}", hand=h, good_actions=good) from None
            good += 1
            yield h, 0, state, events
            for m, text in enumerate(hand.actions, start=1):
                if state.is_terminal:
                    raise RecordError(
                        f"action {text!r} comes after the game is over",
                        hand=h,
                        move=m,
                        good_actions=good,
                    )
                if state.is_chance:
                    raise RecordError(
                        f"action {text!r} comes after the hand is over",
                        hand=h,
                        move=m,
                        good_actions=good,
                    )
                try:
                    action = parse_action(text)
                    if isinstance(action, Deal):
                        raise RecordError("a deal inside a hand's actions", hand=h, move=m)
                    state, events = apply(state, action)
                except AllFivesError as err:
                    raise RecordError(
                        f"illegal action {text!r}: {err}", hand=h, move=m, good_actions=good
                    ) from None
                good += 1
                yield h, m, state, events
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


def parse_record(text: str | bytes) -> GameRecord:
    """Validate record JSON and replay it; raise :class:`RecordError` on any problem."""
    if len(text) > MAX_BYTES:
        raise RecordError(f"the file is over the size cap of {MAX_BYTES // 1024} KiB")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise RecordError(f"not a game record: not valid JSON ({err})") from None
    except RecursionError:
        raise RecordError("not a game record: JSON nested too deeply") from None
    if not isinstance(data, dict):
        raise RecordError("not a game record: the JSON is not an object")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a game record: format is {data.get('format')!r}, not {FORMAT!r}")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordError(f"the record's version {version!r} is not a number")
    if version > VERSION:
        raise RecordError(
            f"the record is version {version}, newer than this allfives reads ({VERSION}): "
            "upgrade allfives"
        )
    if version < 1:
        raise RecordError(f"unknown record version {version}")
    try:
        record = GameRecord.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        message = str(first["msg"]).removeprefix("Value error, ")
        raise RecordError(f"invalid record at {where}: {message}") from None
    except AllFivesError as err:
        raise RecordError(f"invalid record: {err}") from None
    if len(record.seats) != record.rules.players:
        seats = len(record.seats)
        raise RecordError(
            f"the record has {seats} seat{'s' if seats != 1 else ''} "
            f"for {record.rules.players} players"
        )
    record.final_state()
    return record


def load(path: str | os.PathLike[str]) -> GameRecord:
    """Read, validate and replay a record file; :class:`RecordError` names what is wrong."""
    p = Path(path)
    try:
        if p.is_dir():
            raise RecordError(f"{p} is a folder, not a game record")
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise RecordError(f"the file is over the size cap of {MAX_BYTES // 1024} KiB")
        with p.open("rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise RecordError(f"no such file: {p}") from None
    except PermissionError:
        raise RecordError(f"cannot read {p}: permission denied") from None
    except OSError as err:
        raise RecordError(f"cannot read {p}: {err.strerror or err}") from None
    return parse_record(data)


def save(record: GameRecord, path: str | os.PathLike[str]) -> Path:
    """Write ``record`` atomically (see :func:`engine.files.atomic_write`)."""
    return atomic_write(path, record.to_json())
