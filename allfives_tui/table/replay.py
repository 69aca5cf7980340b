"""The replay model: every snapshot of a recorded game, precomputed, plus how to read it.

A :class:`Replay` replays a :class:`~engine.record.GameRecord` once through the
engine (``GameRecord.steps()``) and keeps one :class:`Frame` per action, so
stepping back is a list index, not a recomputation. It also answers the
questions a replay viewer asks: where each hand starts, and what each step
means in words. It never touches a file: loading lives in :func:`read_record`.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from allfives_tui.table.words import says, verb_for
from engine import (
    AllFivesError,
    Dealt,
    Drew,
    Event,
    GameOver,
    GameState,
    HandOver,
    Passed,
    Placed,
    RecordError,
    Rules,
)
from engine.record import MAX_BYTES, GameRecord, parse_record


@dataclass(frozen=True, slots=True)
class Frame:
    """The game just after one action of the record.

    ``index`` counts from 0 (the first deal); ``hand`` is 1-based; ``move`` is 0
    for the hand's deal and counts the hand's moves from 1; ``text`` is the
    action in notation (``"deal"`` for a deal); ``seat`` is who acted (``None``
    for a deal); ``before`` is the state the action was applied to.
    """

    index: int
    hand: int
    move: int
    text: str
    seat: int | None
    state: GameState
    events: tuple[Event, ...]
    before: GameState

    @property
    def points(self) -> int:
        """Points the action scored on the table (0 for draws, passes and deals)."""
        return sum(e.points for e in self.events if isinstance(e, Placed))


class Replay:
    """Every frame of a recorded game, with hand boundaries for quick jumps."""

    def __init__(self, record: GameRecord) -> None:
        """Replay ``record`` through the engine; raises :class:`RecordError` if it does not."""
        self.record = record
        frames: list[Frame] = []
        starts: list[int] = []
        before = GameState(rules=record.rules)
        for hand, move, state, events in record.steps():
            if move == 0:
                starts.append(len(frames))
                text, seat = "deal", None
            else:
                text = record.hands[hand - 1].actions[move - 1]
                seat = before.current
            frames.append(Frame(len(frames), hand, move, text, seat, state, events, before))
            before = state
        if not frames:
            raise RecordError("the record holds no hands to replay")
        self.frames: tuple[Frame, ...] = tuple(frames)
        self.hand_starts: tuple[int, ...] = tuple(starts)

    # -- shape -----------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.frames)

    @property
    def rules(self) -> Rules:
        """The record's rules."""
        return self.record.rules

    @property
    def last(self) -> int:
        """Index of the final frame."""
        return len(self.frames) - 1

    def hand_of(self, index: int) -> int:
        """The 1-based hand that frame ``index`` belongs to."""
        return self.frames[index].hand

    def hand_start(self, hand: int) -> int:
        """Index of the deal of ``hand`` (1-based)."""
        return self.hand_starts[hand - 1]

    def prev_hand(self, index: int) -> int:
        """Where PgUp goes: this hand's deal, or the previous hand's if already there."""
        start = self.hand_start(self.hand_of(index))
        if index > start:
            return start
        return self.hand_start(max(1, self.hand_of(index) - 1))

    def next_hand(self, index: int) -> int:
        """Where PgDn goes: the next hand's deal, or the last frame in the last hand."""
        hand = self.hand_of(index)
        if hand < len(self.hand_starts):
            return self.hand_start(hand + 1)
        return self.last

    # -- words -----------------------------------------------------------------
    def seat_name(self, seat: int) -> str:
        """The name of ``seat`` from the record, safe to print (see :func:`printable`)."""
        seats = self.record.seats
        return printable(seats[seat].name) if 0 <= seat < len(seats) else f"Seat {seat + 1}"

    def team_name(self, team: int) -> str:
        """A team's name: the seat's name, or partners joined with ``&``."""
        return " & ".join(self.seat_name(s) for s in self.rules.seats_of(team))

    def says(self, seat: int, verb: str) -> str:
        """``seat``'s name and ``verb`` agreeing with it: "Ann leads", "You lead"."""
        return says(self.seat_name(seat), verb)

    def view_name(self, seat: int) -> str:
        """``"Ann's view"``; ``"your view"`` for a seat named "You"."""
        name = self.seat_name(seat)
        return "your view" if name == "You" else f"{name}'s view"

    def wins_word(self, team: int) -> str:
        """``"wins"`` for one player, ``"win"`` for partners (and for "You")."""
        if len(self.rules.seats_of(team)) > 1:
            return "win"
        return verb_for(self.team_name(team), "wins")

    def describe(self, index: int) -> str:
        """What happened at frame ``index``, in words (one line per event)."""
        return "\n".join(describe_events(self.frames[index], self))


def describe_events(frame: Frame, replay: Replay, viewer: int | None = None) -> list[str]:
    """Plain-English lines for the events of one frame.

    With every hand face up (``viewer`` is ``None``) a drawn tile is named;
    in a seat's view only that seat's own draws are.
    """
    lines: list[str] = []
    name = replay.seat_name
    for ev in frame.events:
        if isinstance(ev, Dealt):
            lines.append(f"Hand {ev.hand_number} is dealt; {replay.says(ev.start, 'leads')}.")
        elif isinstance(ev, Placed):
            where = "leads" if ev.end is None else "plays"
            on = "" if ev.end is None else f" on the {ev.end.word} end"
            score = f", scoring {ev.points}" if ev.points else ""
            lines.append(
                f"{replay.says(ev.seat, where)} {ev.tile}{on}: the ends total {ev.total}{score}."
            )
        elif isinstance(ev, Drew):
            seen = ev.tile is not None and viewer in (None, ev.seat)
            tile = f" {ev.tile}" if seen else " a tile"
            must = " and must play it" if ev.must_play else ""
            lines.append(f"{replay.says(ev.seat, 'draws')}{tile}{must}.")
        elif isinstance(ev, Passed):
            lines.append(f"{name(ev.seat)} cannot play and {verb_for(name(ev.seat), 'passes')}.")
        elif isinstance(ev, HandOver):
            if ev.out_seat is None:
                lines.append(f"Hand {ev.hand_number} is blocked.")
            else:
                out = replay.says(ev.out_seat, "goes")
                lines.append(f"{out} out; hand {ev.hand_number} is over.")
            lost = [
                f"{name(s)} {pips} pips, -{pen}"
                for s, (pips, pen) in enumerate(zip(ev.pips, ev.penalties, strict=True))
                if pen
            ]
            scores = "Scores: " + scores_text(ev.scores, replay) + "."
            lines.append(("Left in hand: " + ", ".join(lost) + ". " if lost else "") + scores)
        elif isinstance(ev, GameOver):
            lines.append(
                f"{replay.team_name(ev.winner)} {replay.wins_word(ev.winner)} the game, "
                + scores_text(ev.scores, replay)
                + "."
            )
    return lines


def scores_text(scores: tuple[int, ...], replay: Replay) -> str:
    """``"Ann 10, Bob -5"``: each team's name and score."""
    return ", ".join(f"{replay.team_name(t)} {s}" for t, s in enumerate(scores))


def printable(text: str) -> str:
    """``text`` with control characters (escape sequences, newlines) shown as ``?``.

    Names come from the file: printed raw, an escape sequence could drive the
    terminal, and a newline would break the one-line-per-action text.
    """
    return "".join(ch if ch.isprintable() else "?" for ch in text)


# -- reading files ------------------------------------------------------------------


class ReplayLoadError(RecordError):
    """A record file that cannot be replayed as a whole (a :class:`RecordError`).

    ``message`` is one line naming the problem; ``salvage`` is the record cut
    to its sound actions when the file is well formed up to an illegal action
    (``good_actions`` of them), else ``None``.
    """

    def __init__(
        self, message: str, *, salvage: GameRecord | None = None, good_actions: int = 0
    ) -> None:
        super().__init__(message, good_actions=good_actions)
        self.message = message
        self.salvage = salvage


def one_line(text: str) -> str:
    """``text`` on one line and safe to print: whitespace runs folded, control
    characters shown as ``?``, pydantic's "Value error, " dropped."""
    return printable(" ".join(text.replace("Value error, ", "").split()))


def load_replay(path: str | os.PathLike[str]) -> Replay:
    """Read a record file, validate it and replay it once, keeping every snapshot.

    Never writes to the file. Raises :class:`ReplayLoadError` with a one-line
    message (without the file name) and, where the actions before a bad one
    are sound, a salvage record.
    """
    p = Path(path)
    try:
        if p.is_dir():
            raise ReplayLoadError("is a folder, not a game record")
        if not p.exists():
            raise ReplayLoadError("no such file")
        if p.stat().st_size > MAX_BYTES:
            raise ReplayLoadError(f"the file is over the size cap of {MAX_BYTES // 1024} KiB")
        with p.open("rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except PermissionError:
        raise ReplayLoadError("cannot read it: permission denied") from None
    except OSError as err:
        raise ReplayLoadError(f"cannot read it: {one_line(err.strerror or str(err))}") from None
    if not data.strip():
        raise ReplayLoadError("the file is empty, not a game record")
    return replay_from_text(data)


def read_record(path: str | os.PathLike[str]) -> GameRecord:
    """The validated record of a file (see :func:`load_replay`)."""
    return load_replay(path).record


def replay_from_text(data: str | bytes) -> Replay:
    """Validate record text as :func:`engine.record.parse_record` does and replay it once.

    ``parse_record`` replays every action to validate the record and keeps
    none of the snapshots; the replay needs them all, so the actions are
    replayed here, once, by :class:`Replay` (``GameRecord.steps()``, the same
    replay the engine validates with) after the engine's own checks of
    everything else.
    """
    try:
        return Replay(_checked_record(data))
    except RecordError as err:
        message = one_line(str(err))
        if "not valid JSON" in message and _ends_early(data):
            message = "not a game record: the JSON stops in the middle (is the file truncated?)"
        if err.hand is None or err.good_actions <= 0:
            raise ReplayLoadError(message) from None
        salvage = _salvage(data, err.good_actions)
        raise ReplayLoadError(
            message, salvage=salvage, good_actions=err.good_actions if salvage else 0
        ) from None
    except RecursionError:
        raise ReplayLoadError("not a game record: JSON nested too deeply") from None
    except ValueError as err:  # belt and braces: the engine promises RecordError only
        raise ReplayLoadError(f"not a game record: {one_line(str(err))}") from None


def parse_for_replay(data: str | bytes) -> GameRecord:
    """The validated record of some text (see :func:`replay_from_text`)."""
    return replay_from_text(data).record


def _checked_record(data: str | bytes) -> GameRecord:
    """The record, through every check of ``parse_record`` but the replay of its actions."""
    obj = None
    if len(data) <= MAX_BYTES:
        try:
            obj = json.loads(data)
        except ValueError:  # JSONDecodeError, UnicodeDecodeError
            obj = None
    if not isinstance(obj, dict) or not isinstance(obj.get("hands", []), list):
        parse_record(data)  # the engine names what is wrong (size, JSON, shape)
        raise RecordError("not a game record")  # pragma: no cover - parse_record raised
    # format, version, rules, seats and their number: the engine's checks and words
    parse_record(json.dumps({**obj, "hands": []}))
    try:
        return GameRecord.model_validate(obj)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise RecordError(f"invalid record at {where}: {first['msg']}") from None
    except AllFivesError as err:
        raise RecordError(f"invalid record: {err}") from None


def _ends_early(data: str | bytes) -> bool:
    """True when JSON text is fine up to an end that comes too soon."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        json.loads(text)
    except json.JSONDecodeError as err:
        return err.msg.startswith("Unterminated string") or err.pos >= len(text.rstrip())
    except (UnicodeDecodeError, RecursionError):
        return False
    return False


def _salvage(data: str | bytes, good: int) -> GameRecord | None:
    """The record cut to its first ``good`` actions, if those replay; else ``None``."""
    try:
        record = GameRecord.model_validate(json.loads(data)).truncated(good)
        record.final_state()
    except (ValidationError, ValueError, RecursionError):
        return None
    return record
