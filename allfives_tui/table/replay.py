"""The replay model: every snapshot of a recorded game, precomputed, plus how to read it.

A :class:`Replay` takes the steps of a loaded game (:class:`~engine.record.LoadedGame`:
the record, replayed once when it was read) and keeps one :class:`Frame` per action, so
stepping back is a list index, not a recomputation. It also answers the
questions a replay viewer asks: where each hand starts, what each step
means in words, and where the replay stands (:func:`status_line`). It never
touches a file: reading one is :func:`allfives_tui.store.saves.read_replay`'s job.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath

from allfives_tui.locale import _
from allfives_tui.locale.formats import number
from allfives_tui.table.problems import NO_HANDS
from allfives_tui.table.words import Names, describe_event
from engine import (
    Event,
    GameState,
    Placed,
    RecordError,
    Rules,
    Tile,
)
from engine.record import GameRecord, LoadedGame

NOBODY = -1
"""A replay viewer who sees no hand at all: every hand face down, no drawn tile named."""


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

    @property
    def last_placed(self) -> Tile | None:
        """The tile the action laid on the table, if it laid one."""
        last: Tile | None = None
        for ev in self.events:
            if isinstance(ev, Placed):
                last = ev.tile
        return last


class Replay:
    """Every frame of a recorded game, with hand boundaries for quick jumps."""

    def __init__(self, game: LoadedGame | GameRecord) -> None:
        """Frames from a loaded game's steps (a bare record is replayed first, which
        raises :class:`RecordError` if it does not replay)."""
        if isinstance(game, GameRecord):
            game = LoadedGame.of(game)
        record = game.record
        self.record = record
        frames: list[Frame] = []
        starts: list[int] = []
        before = GameState(rules=record.rules)
        for hand, move, state, events in game.steps:
            if move == 0:
                starts.append(len(frames))
                text, seat = "deal", None
            else:
                text = record.hands[hand - 1].actions[move - 1]
                seat = before.current
            frames.append(Frame(len(frames), hand, move, text, seat, state, events, before))
            before = state
        if not frames:
            raise RecordError(
                "the record holds no hands to replay", code=NO_HANDS, details={"to": "replay"}
            )
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

    # -- who may see what ------------------------------------------------------
    @property
    def finished(self) -> bool:
        """True when the record runs to the end of the game (every hand may then open)."""
        return self.frames[-1].state.is_terminal

    def private_viewer(self) -> int | None:
        """Whose view the record must be replayed from, unless asked on purpose for all.

        ``None`` (every hand face up) once the game is over. A game still in
        progress (a ``ctrl+s`` copy, ``current.json``) shows only what its
        player saw: the seat of its one person; with several people (hot-seat)
        or none, :data:`NOBODY` (every hand face down).
        """
        if self.finished:
            return None
        owner = self.owner
        return NOBODY if owner is None else owner

    # -- words -----------------------------------------------------------------
    @property
    def owner(self) -> int | None:
        """The seat of the game's one local person, read as "you"; ``None`` if not one."""
        seats = self.record.seats
        people = [i for i, s in enumerate(seats) if s.is_person]
        return people[0] if len(people) == 1 else None

    def names(self) -> Names:
        """How to name the seats: the owner is "you" (in every view), the others by name."""
        return Names.of([s.name for s in self.record.seats], self.rules, self.owner)

    def seat_name(self, seat: int) -> str:
        """``seat``'s name from the record (its place's if it has none), safe to print
        (labels; the narrative says "You")."""
        return Names.of([s.name for s in self.record.seats], self.rules).name(seat)

    def team_name(self, team: int) -> str:
        """A team's name as the narrative says it ("You & North")."""
        return self.names().team(team)

    def view_name(self, seat: int) -> str:
        """``"Ann's view"``; ``"your view"`` for the owner's seat; for :data:`NOBODY`,
        ``"every hand face down"``."""
        if seat == NOBODY:
            return _("every hand face down")
        if seat == self.owner:
            return _("your view")
        return _("{name}'s view").format(name=self.seat_name(seat))

    def describe(self, index: int) -> str:
        """What happened at frame ``index``, in words (one line per event)."""
        return "\n".join(describe_events(self.frames[index], self))


def describe_events(frame: Frame, replay: Replay, viewer: int | None = None) -> list[str]:
    """One sentence per event of one frame (see :func:`~allfives_tui.table.words.describe_event`).

    With every hand face up (``viewer`` is ``None``) a drawn tile is named;
    in a seat's view only that seat's own draws are.
    """
    names = replay.names()
    reveal = viewer is None
    return [describe_event(ev, names, viewer=viewer, reveal=reveal) for ev in frame.events]


def scores_text(scores: tuple[int, ...], replay: Replay) -> str:
    """``"Ann 10, Bob -5"``: each team's name and score."""
    return replay.names().scores(scores)


def status_line(
    replay: Replay,
    index: int,
    *,
    viewer: int | None = None,
    source: str | None = None,
    in_progress: bool = False,
    step_seconds: float | None = None,
    width: int | None = None,
) -> str:
    """Where the replay stands at frame ``index``, one line.

    ``"Replay · small.json · hand 1 of 2 · move 3 of 9 · step 5/19 · all hands face
    up"``: the file's name (from ``source``), the hand, the move, the step and the
    view (``viewer`` as in :func:`describe_events`); then ``"game in progress"``
    when ``in_progress``, and the pace of automatic play when ``step_seconds`` is
    given. With a ``width``, the line goes without what it must to fit: the word
    "Replay", then the step, the file's name, the move, the hand; the view stays.
    """
    frame = replay.frames[index]
    moves = len(replay.record.hands[frame.hand - 1].actions)
    hand = _("hand {hand} of {hands}").format(
        hand=number(frame.hand), hands=number(len(replay.hand_starts))
    )
    if frame.move == 0:
        move = _("deal")
    else:
        move = _("move {move} of {moves}").format(move=number(frame.move), moves=number(moves))
    step = _("step {step}/{steps}").format(step=number(index + 1), steps=number(len(replay)))
    parts = [_("Replay")]
    if source:
        parts.append(PurePath(source).name)
    parts += [hand, move]
    step_at = len(parts)
    parts.append(step)
    parts.append(_("all hands face up") if viewer is None else replay.view_name(viewer))
    if in_progress:
        parts.append(_("game in progress"))
    if step_seconds is not None:
        parts.append(_("▶ playing, {seconds} s a step").format(seconds=number(step_seconds, 2)))
    # what a narrow line goes without, first to go first
    dropping = [0, step_at, 1 if source else None, step_at - 1, step_at - 2]
    return fit_parts(parts, width, [i for i in dropping if i is not None])


SEPARATOR = " · "
"""Between the parts of a status line."""


def fit_parts(parts: Sequence[str], width: int | None, dropping: Sequence[int]) -> str:
    """``parts`` joined by :data:`SEPARATOR`, without those at the indices ``dropping``
    (first listed first) while the line is longer than ``width`` cells."""
    kept = list(range(len(parts)))
    line = SEPARATOR.join(parts)
    for i in dropping:
        if width is None or len(line) <= width:
            break
        kept.remove(i)
        line = SEPARATOR.join(parts[k] for k in kept)
    return line
