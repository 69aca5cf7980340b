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

    def others(self, name: str) -> str:
        """Everyone at the table but ``name``: "North (greedy), Ana"."""
        me = self.seat_of(name)
        return ", ".join(
            f"{person_label(s.name)} ({s.level})" if s.kind == "computer" and s.level
            else person_label(s.name)
            for i, s in enumerate(self.seats)
            if i != me
        )

    def opponents(self, name: str) -> str:
        """Who ``name`` played, briefly: computers by level, people by name; in
        partnerships the partner first ("with greedy vs random, Ana")."""
        me = self.seat_of(name)

        def who(seat: int) -> str:
            s = self.seats[seat]
            named = person_label(s.name)
            return (s.level or named) if s.kind == "computer" else named

        mine = self.team_of(me)
        against = ", ".join(
            who(i) for i in range(len(self.seats)) if self.team_of(i) != mine
        )
        mates = [who(i) for i in range(len(self.seats)) if i != me and self.team_of(i) == mine]
        return f"with {mates[0]} vs {against}" if mates else against

    def result(self, name: str) -> str:
        """The result for ``name``: "won 105:60", "lost 80:150" or "abandoned 35:40"."""
        me = self.team_of(self.seat_of(name))
        mine = self.scores[me] if me < len(self.scores) else 0
        best_other = max((s for t, s in enumerate(self.scores) if t != me), default=0)
        score = f"{mine}:{best_other}"
        if not self.finished:
            return f"abandoned {score}"
        return f"{'won' if self.winner == me else 'lost'} {score}"

    def local_start(self) -> str:
        """When it started, in local time: "2026-01-05 09:00"."""
        return self.started.astimezone().strftime("%Y-%m-%d %H:%M")

    def search_text(self, name: str) -> str:
        """What a search looks in (lower case): the date, the players and levels, the
        result for ``name``, the player count and the id."""
        return " ".join(
            (self.local_start(), self.others(name), self.result(name), f"{self.players}p",
             "partners" if self.partnerships else "", self.game_id)
        ).lower()

    def matches(self, text: str, name: str) -> bool:
        """True when every word of ``text`` is in :meth:`search_text`, ignoring case."""
        hay = self.search_text(name)
        return all(word in hay for word in text.lower().split())


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


