"""A game in progress, apart from any widget: state, seats, seed and computer players.

The screen turns keys and clicks into engine actions and hands them to
:meth:`GameSession.apply`; computer seats get only their seat's view and
its legal actions. :meth:`GameSession.record` is the game record autosave writes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime

from allfives_tui.table.storage import Settings
from engine import (
    Action,
    Event,
    GameState,
    SeatView,
    apply,
    new_game,
    seeded_deal,
)
from engine.players import Player, make_player
from engine.record import GameRecord, Seat

COMPUTER_NAMES: dict[int, tuple[str, ...]] = {
    2: ("North",),
    3: ("West", "East"),
    4: ("West", "North", "East"),
}
"""Names of the computer seats (1, 2, 3) by number of players: the human sits south."""


def seats_for(settings: Settings) -> tuple[Seat, ...]:
    """The seats of a new game: the human in seat 0, computers after."""
    computers = COMPUTER_NAMES[settings.players]
    return (
        Seat(name=settings.name, kind="human"),
        *(
            Seat(name=name, kind="computer", level=settings.levels[i])
            for i, name in enumerate(computers)
        ),
    )


def _level(seat: Seat) -> str:
    """The seat's computer level, or the default one when it has none (or an unknown one)."""
    from allfives_tui.table.storage import default_level
    from engine.players import LEVELS

    return seat.level if seat.level in LEVELS else default_level()


class GameSession:
    """The game being played: the current snapshot and how it is recorded."""

    def __init__(
        self,
        state: GameState,
        seats: Sequence[Seat],
        seed: int,
        *,
        created: str | None = None,
    ) -> None:
        self.state = state
        self.seats = tuple(seats)
        self.seed = seed
        self.created = created or datetime.now(UTC).isoformat(timespec="seconds")
        humans = [i for i, s in enumerate(self.seats) if s.kind == "human"]
        self.human: int = humans[0] if humans else 0
        # Every seat but the human's is played by the computer (a record with
        # more than one human seat is continued with computers in the others).
        self.players: dict[int, Player] = {
            i: make_player(_level(s), seed=seed * 8 + i)
            for i, s in enumerate(self.seats)
            if i != self.human
        }
        self.last_events: tuple[Event, ...] = ()
        self.hand_events: tuple[Event, ...] = ()

    @classmethod
    def new(cls, settings: Settings) -> GameSession:
        """A new game with the first hand dealt."""
        seed = settings.seed if settings.seed is not None else random.randrange(1, 10**9)
        session = cls(new_game(settings.rules()), seats_for(settings), seed)
        session.deal()
        return session

    @classmethod
    def from_record(cls, record: GameRecord) -> GameSession:
        """Resume a recorded game exactly where it stopped (validated by replay)."""
        state = new_game(record.rules)
        events: tuple[Event, ...] = ()
        hand: list[Event] = []
        for _, move, after, events in record.steps():
            state = after
            if move == 0:
                hand = []
            hand.extend(events)
        seed = record.seed if record.seed is not None else random.randrange(1, 10**9)
        session = cls(state, record.seats, seed, created=record.created)
        session.last_events = events
        session.hand_events = tuple(hand)
        return session

    @property
    def names(self) -> tuple[str, ...]:
        """Seat names in seat order."""
        return tuple(s.name for s in self.seats)

    def is_computer(self, seat: int | None) -> bool:
        """True when ``seat`` is played by the computer."""
        return seat is not None and seat in self.players

    def view(self) -> SeatView:
        """What the human seat may see."""
        return self.state.view(self.human)

    def deal(self) -> tuple[Event, ...]:
        """Deal the next hand (the game's seed fixes every deal)."""
        return self.apply(seeded_deal(self.state, self.seed))

    def apply(self, action: Action) -> tuple[Event, ...]:
        """Apply ``action`` and keep the result; ``IllegalActionError`` if not legal."""
        self.state, events = apply(self.state, action)
        self.last_events = events
        return events

    def computer_action(self, state: GameState) -> Action:
        """The computer's choice for the seat to act in ``state`` (from that seat's view only)."""
        seat = state.current
        assert seat is not None and seat in self.players
        view = state.view(seat)
        legal = view.legal_actions()
        return self.players[seat].choose(view, legal)

    def record(self) -> GameRecord:
        """The game record of every action so far."""
        return GameRecord.from_state(self.state, self.seats, seed=self.seed, created=self.created)
