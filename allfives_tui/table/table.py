"""The game table: seats, the turn loop and the record, with no Textual and no I/O.

A :class:`Table` is a sans-I/O state machine around the engine. It says which
seat must act and what that seat may see (:meth:`Table.turn`); whoever sits
there answers with an action, and :meth:`Table.act` applies it through the
engine's pure ``apply`` and returns the events. How an action is obtained is
the front-end's business: a key press, a thread running a computer player, a
socket; the turn driver (:mod:`allfives_tui.table.driver`) says which comes
next. So the same table serves the Textual app and any other front-end.

Seats are people (named, local), computers (at a level) or remote players.
Deals are the table's own chance steps (:meth:`Table.deal`), fixed by the
game's seed. After every change the table hands the game record to its
``autosave`` hook, if it has one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from allfives_tui.table.settings import Settings
from allfives_tui.table.words import Names
from engine import (
    Action,
    Dealt,
    Event,
    GameOver,
    GameState,
    HandOver,
    IllegalActionError,
    Phase,
    Rules,
    SeatView,
    Step,
    Tile,
    apply,
    new_game,
    seeded_deal,
)
from engine.record import GameRecord, LoadedGame, Seat, SeatKind, new_game_id


def _actions_so_far(state: GameState) -> int:
    """How many actions (deals included) ``state``'s game has had."""
    return len(state.deals) + sum(map(len, state.past)) + (len(state.history) if state.deals else 0)


class NotYourTurnError(IllegalActionError):
    """An action from a seat that is not the one to act (a ``ValueError``)."""


class TakeBackError(IllegalActionError):
    """A take-back the table does not allow now (a ``ValueError``); ``details["reason"]``
    says why: ``"moves-stand"`` (other people play), ``"hand-over"`` or ``"not-moved"``."""


@dataclass(frozen=True, slots=True)
class _Before:
    """The table just before one action of the hand in progress, to go back to."""

    seat: int
    state: GameState
    last_events: tuple[Event, ...]
    hand_events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class Turn:
    """Who must act now, what they may see and what they may do."""

    seat: int
    view: SeatView
    legal: tuple[Action, ...]
    kind: SeatKind
    """The seat's kind: ``"person"``, ``"computer"`` or ``"remote"``."""


class TableReading(Protocol):
    """What a front-end reads of a table: the same for a :class:`Table` and for a table
    seen from one seat elsewhere (a network client's
    :class:`~allfives_tui.net.remote_table.RemoteTable`). It is read through seats'
    views, never a whole :class:`~engine.GameState`."""

    @property
    def rules(self) -> Rules:
        """The game's rules."""
        ...

    @property
    def names(self) -> tuple[str, ...]:
        """The seats' names in the current language, in seat order."""
        ...

    @property
    def given_names(self) -> tuple[str | None, ...]:
        """The names the seats were given, in seat order (``None``: the seat's default
        name, its place's)."""
        ...

    @property
    def people(self) -> tuple[int, ...]:
        """The seats played by people at this screen, in seat order."""
        ...

    @property
    def step(self) -> int:
        """The change counter: an answer chosen at one step is stale at any other."""
        ...

    @property
    def resumed(self) -> bool:
        """True for a game continued from its record."""
        ...

    @property
    def last_events(self) -> tuple[Event, ...]:
        """The events of the latest change."""
        ...

    @property
    def hand_events(self) -> tuple[Event, ...]:
        """Every event of the hand in progress (or just over), deal first."""
        ...

    @property
    def to_act(self) -> int | None:
        """The seat that must act now (``None`` between hands and when the game is over)."""
        ...

    @property
    def hand_over(self) -> HandOver | None:
        """How the last hand ended, while the next one is still to be dealt."""
        ...

    @property
    def game_over(self) -> GameOver | None:
        """How the game ended, once it has."""
        ...

    @property
    def is_over(self) -> bool:
        """True once a side has reached the target."""
        ...

    @property
    def revealed(self) -> tuple[tuple[Tile, ...], ...] | None:
        """Every seat's hand once a hand is over (as it ended), else ``None``."""
        ...

    @property
    def takes_back(self) -> bool:
        """True when take-backs are allowed at this table."""
        ...

    def can_take_back(self, seat: int) -> bool:
        """True when ``seat`` may take back its last move of the hand in progress."""
        ...

    def kind(self, seat: int) -> SeatKind:
        """``"person"``, ``"computer"`` or ``"remote"``."""
        ...

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see now (a client knows its own seat's only)."""
        ...

    def turn(self) -> Turn | None:
        """The seat to act, a view and its legal actions (``None`` if nobody is to act)."""
        ...

    def onlooker_seat(self) -> int:
        """A seat whose view shows an onlooker the public parts of the table (its hand
        is not shown): one this reading has a view of."""
        ...

    def words(self, you: int | None) -> Names:
        """How to name the seats for ``you`` (``None``: an onlooker)."""
        ...


def revealed_hands(state: GameState) -> tuple[tuple[Tile, ...], ...] | None:
    """Every hand of ``state`` once a hand is over (a hand was dealt and is not in play)."""
    return state.hands if state.phase is not Phase.PLAY and state.hand_number else None


class SnapshotReading:
    """The members of a :class:`TableReading` that follow from a public snapshot and
    the events, shared by :class:`Table` and the network client's table; a subclass
    gives :attr:`_public` (a snapshot of which only the public fields are read)."""

    given_names: tuple[str | None, ...]
    """The names the seats were given, in seat order (``None``: the default name of the
    seat's place)."""
    last_events: tuple[Event, ...]
    hand_events: tuple[Event, ...]

    @property
    def _public(self) -> GameState | SeatView:
        raise NotImplementedError

    @property
    def rules(self) -> Rules:
        """The game's rules."""
        return self._public.rules

    @property
    def names(self) -> tuple[str, ...]:
        """The seats' names in the current language, in seat order (a seat nobody named
        has its place's)."""
        return self.words(None).all()

    def words(self, you: int | None) -> Names:
        """How to name the seats for ``you`` (``None``: an onlooker)."""
        return Names.of(self.given_names, self.rules, you)

    @property
    def to_act(self) -> int | None:
        """The seat that must act now (``None`` between hands and when the game is over)."""
        public = self._public
        return public.current if public.phase is Phase.PLAY else None

    @property
    def hand_over(self) -> HandOver | None:
        """How the last hand ended, while the next one is still to be dealt."""
        if self._public.phase is not Phase.DEAL:
            return None
        return next((e for e in reversed(self.last_events) if isinstance(e, HandOver)), None)

    @property
    def game_over(self) -> GameOver | None:
        """How the game ended, once it has."""
        return next((e for e in reversed(self.hand_events) if isinstance(e, GameOver)), None)

    @property
    def is_over(self) -> bool:
        """True once a side has reached the target."""
        return self._public.phase is Phase.OVER


class Table(SnapshotReading):
    """One game at one table: the current snapshot, the seats and the record."""

    def __init__(
        self,
        state: GameState,
        seats: Sequence[Seat],
        seed: int,
        *,
        created: str | None = None,
        game_id: str | None = None,
        autosave: Callable[[GameRecord], None] | None = None,
    ) -> None:
        if len(seats) != state.rules.players:
            raise ValueError(f"{state.rules.players} players need {state.rules.players} seats")
        self.state = state
        self.seats = tuple(seats)
        self.seed = seed
        self.created = created or datetime.now(UTC).isoformat(timespec="seconds")
        self.game_id = game_id or new_game_id()
        """The game's stable id, kept by every save of it."""
        self.resumed = False
        """True for a game continued from its record."""
        self.autosave = autosave
        self.given_names = tuple(s.name for s in self.seats)
        self.people: tuple[int, ...] = tuple(
            i for i, s in enumerate(self.seats) if s.is_person
        )
        """Seats played by people at this table, in seat order."""
        self.last_events: tuple[Event, ...] = ()
        """The events of the latest change."""
        self.hand_events: tuple[Event, ...] = ()
        """Every event of the hand in progress (or just over), deal first."""
        self._hand_so_far: list[_Before] = []
        """The table before each action of the hand in progress (for take-backs)."""
        self.step = _actions_so_far(state)
        """The change counter: the game's actions so far (deals included) when the table
        was made, plus one for every change since (a take-back too). An answer chosen at
        one step is stale at any other."""

    # -- making tables ------------------------------------------------------
    @classmethod
    def new(
        cls,
        rules: Rules,
        seats: Sequence[Seat],
        seed: int | None = None,
        *,
        autosave: Callable[[GameRecord], None] | None = None,
    ) -> Table:
        """A new game with its first hand dealt (a random seed unless one is given)."""
        seed = seed if seed is not None else random.randrange(1, 10**9)
        table = cls(new_game(rules), seats, seed, autosave=autosave)
        table.deal()
        return table

    @classmethod
    def from_settings(
        cls, settings: Settings, *, autosave: Callable[[GameRecord], None] | None = None
    ) -> Table:
        """A new game as the new-game settings describe it."""
        return cls.new(settings.rules(), settings.seats(), settings.seed, autosave=autosave)

    @classmethod
    def from_record(
        cls,
        game: GameRecord | LoadedGame,
        *,
        autosave: Callable[[GameRecord], None] | None = None,
    ) -> Table:
        """Resume a recorded game exactly where it stopped.

        A loaded game carries the steps its loading replayed; a bare record is
        replayed here (which validates it).
        """
        if isinstance(game, GameRecord):
            game = LoadedGame.of(game)
        record = game.record
        events: tuple[Event, ...] = ()
        hand: list[Event] = []
        befores: list[_Before] = []
        previous: Step | None = None
        for step in game.steps:
            if step.move == 0:
                hand, befores = [], []
            elif previous is not None and (mover := previous.state.current) is not None:
                befores.append(_Before(mover, previous.state, previous.events, tuple(hand)))
            hand.extend(step.events)
            events = step.events
            previous = Step(step.state, step.events)
        seed = record.seed if record.seed is not None else random.randrange(1, 10**9)
        table = cls(
            game.state,
            record.seats,
            seed,
            created=record.created,
            game_id=record.game_id,
            autosave=autosave,
        )
        table.resumed = True
        table.last_events = events
        table.hand_events = tuple(hand)
        table._hand_so_far = befores
        return table

    # -- what the table knows ---------------------------------------------------
    def kind(self, seat: int) -> SeatKind:
        """``"person"``, ``"computer"`` or ``"remote"``."""
        return self.seats[seat].kind

    def turn(self) -> Turn | None:
        """The seat to act, its view and its legal actions (``None`` if nobody is to act)."""
        seat = self.to_act
        if seat is None:
            return None
        view = self.state.view(seat)
        return Turn(seat, view, view.legal_actions(), self.kind(seat))

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see now."""
        return self.state.view(seat)

    def onlooker_seat(self) -> int:
        """The seat to act (else seat 0): its view shows an onlooker the public parts."""
        seat = self.to_act
        return seat if seat is not None else 0

    @property
    def revealed(self) -> tuple[tuple[Tile, ...], ...] | None:
        """Every seat's hand once a hand is over (as it ended), else ``None``."""
        return revealed_hands(self.state)

    @property
    def _public(self) -> GameState:
        return self.state

    # -- changing the game ------------------------------------------------------
    def act(self, seat: int, action: Action) -> tuple[Event, ...]:
        """``seat`` takes ``action``; the events. Raises :class:`IllegalActionError`
        (:class:`NotYourTurnError` when ``seat`` is not the one to act)."""
        if seat != self.to_act:
            who = self.to_act
            now = "nobody is to act" if who is None else f"it is {self.names[who]}'s turn"
            raise NotYourTurnError(
                f"{self.names[seat]} cannot act now: {now}", rule="turn", seat=seat
            )
        step = apply(self.state, action)
        self._hand_so_far.append(
            _Before(seat, self.state, self.last_events, self.hand_events)
        )
        return self._apply(step)

    def deal(self) -> tuple[Event, ...]:
        """Deal the next hand (the game's seed fixes every deal); the events."""
        if self.state.phase is not Phase.DEAL:
            raise IllegalActionError("there is no hand to deal now", rule="deal")
        step = apply(self.state, seeded_deal(self.state, self.seed))
        self._hand_so_far = []
        return self._apply(step)

    # -- take-backs ---------------------------------------------------------------
    @property
    def takes_back(self) -> bool:
        """True when take-backs are allowed at this table: one person, and computers.

        With other people at the table (hot-seat or remote players) a move once
        made stands.
        """
        return len(self.people) == 1 and all(
            s.is_person or s.is_computer for s in self.seats
        )

    def can_take_back(self, seat: int) -> bool:
        """True when ``seat`` may take back its last move of the hand in progress."""
        return (
            self.takes_back
            and seat in self.people
            and self.state.phase is Phase.PLAY
            and any(b.seat == seat for b in self._hand_so_far)
        )

    def take_back(self, seat: int) -> GameState:
        """Undo ``seat``'s last move of this hand and every reply since; the state now.

        The game goes back to ``seat``'s turn as it was before that move, and the
        seat's ``take_backs`` count grows by one (the record keeps the line that is
        then played on). Raises :class:`TakeBackError` when that is not allowed:
        with other people at the table, after the hand is over, or before ``seat``
        has moved in this hand.
        """
        if not self.can_take_back(seat):
            if not self.takes_back:
                why, reason = "moves stand in a game with other people", "moves-stand"
            elif self.state.phase is not Phase.PLAY:
                why, reason = "the hand is over", "hand-over"
            else:
                why, reason = f"{self.names[seat]} has not moved in this hand", "not-moved"
            raise TakeBackError(
                f"nothing to take back: {why}",
                rule="take-back",
                seat=seat,
                details={"reason": reason},
            )
        while True:
            before = self._hand_so_far.pop()
            if before.seat == seat:
                break
        seats = list(self.seats)
        seats[seat] = seats[seat].model_copy(update={"take_backs": seats[seat].take_backs + 1})
        self.seats = tuple(seats)
        self.state = before.state
        self.last_events = before.last_events
        self.hand_events = before.hand_events
        self.step += 1
        if self.autosave is not None:
            self.autosave(self.record())
        return self.state

    def _apply(self, step: Step) -> tuple[Event, ...]:
        events = step.events
        self.state = step.state
        self.step += 1
        self.last_events = events
        if any(isinstance(e, Dealt) for e in events):
            self.hand_events = events
        else:
            self.hand_events = (*self.hand_events, *events)
        if self.autosave is not None:
            self.autosave(self.record())
        return events

    # -- the record ---------------------------------------------------------------------
    def record(self) -> GameRecord:
        """The game record of every action so far."""
        return GameRecord.from_state(
            self.state, self.seats, seed=self.seed, created=self.created, game_id=self.game_id
        )

