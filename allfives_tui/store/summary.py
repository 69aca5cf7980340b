"""A past game as it is read back: the list's summary and one person's view of it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from allfives_tui.table.places import person_label


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """A seat of a past game; ``name`` is how the history knows the person there (a place
    code for a seat with its place's default name: see
    :func:`~allfives_tui.table.places.person_label`)."""

    name: str
    kind: str
    level: str | None


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A past game as the list of past games shows it (no record)."""

    key: int
    """The row's id in this database."""
    game_id: str
    started: datetime
    players: int
    partnerships: bool
    target: int
    finished: bool
    winner: int | None
    scores: tuple[int, ...]
    hands: int
    seats: tuple[SeatSummary, ...]

    def team_of(self, seat: int) -> int:
        """The scoring side of ``seat``."""
        return seat % 2 if self.partnerships else seat

    def seat_of(self, name: str) -> int:
        """The seat of the person ``name`` (else the first person's, else seat 0)."""
        people = [i for i, s in enumerate(self.seats) if s.kind == "person"]
        mine = [i for i in people if self.seats[i].name == name]
        return (mine or people or [0])[0]

    def who(self, seat: int) -> str:
        """A seat as the list names it: a computer by its level, a person by name."""
        s = self.seats[seat]
        named = person_label(s.name)
        return (s.level or named) if s.kind == "computer" else named

    def sides(self, name: str) -> tuple[list[int], list[int]]:
        """The seats beside ``name`` (partners) and against them, in seat order."""
        me = self.seat_of(name)
        mine = self.team_of(me)
        mates = [i for i in range(len(self.seats)) if i != me and self.team_of(i) == mine]
        against = [i for i in range(len(self.seats)) if self.team_of(i) != mine]
        return mates, against

    def outcome(self, name: str) -> tuple[str, int, int]:
        """``"won"``, ``"lost"`` or ``"abandoned"`` for ``name``, their side's score and
        the best other side's."""
        me = self.team_of(self.seat_of(name))
        mine = self.scores[me] if me < len(self.scores) else 0
        best_other = max((s for t, s in enumerate(self.scores) if t != me), default=0)
        if not self.finished:
            return "abandoned", mine, best_other
        return ("won" if self.winner == me else "lost"), mine, best_other

    def result(self, name: str) -> str:
        """The result for ``name``, for a machine (``--json``): ``"won 105:60"``,
        ``"lost 80:150"`` or ``"abandoned 35:40"`` (worded by
        :func:`allfives_tui.store.wording.result`)."""
        outcome, mine, other = self.outcome(name)
        return f"{outcome} {mine}:{other}"


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """One game from the seat of one person: what the statistics are made of."""

    game_id: str
    started: datetime
    day: date
    """The local calendar day it started."""
    players: int
    partnerships: bool
    finished: bool
    won: bool | None
    opponents: tuple[str, ...]
    partner: str | None
    hands: int
    points: int
    """Points scored by the person's side (in a partnership, both partners')."""
    penalties: int
    """Penalties of the person's side."""
    best: int | None
    """The side's best net hand."""
    score: int


