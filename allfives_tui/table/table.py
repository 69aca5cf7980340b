"""The game table: seats, the turn loop and the record, with no Textual and no I/O.

A :class:`Table` is a sans-I/O state machine around the engine. It says which
seat must act and what that seat may see (:meth:`Table.turn`); whoever sits
there answers with an action, and :meth:`Table.act` applies it through the
engine's pure ``apply`` and returns the events. How an action is obtained is
the front-end's business: a key press, a thread running a computer player
(:meth:`Table.choose` gives a computer's choice from its seat's view only), a
socket. So the same table serves the Textual app and any other front-end.

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

from allfives_tui.table.storage import Settings, default_level
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
    apply,
    new_game,
    seeded_deal,
)
from engine.players import LEVELS, Player, make_player
from engine.record import GameRecord, LoadedGame, Seat, SeatKind, new_game_id


class NotYourTurnError(IllegalActionError):
    """An action from a seat that is not the one to act (a ``ValueError``)."""


class TakeBackError(IllegalActionError):
    """A take-back the table does not allow now (a ``ValueError``)."""


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


class TableReading:
    """What a front-end reads of a table, the same for a :class:`Table` and for a
    table seen from elsewhere (a network client's): the snapshot, the names, the
    latest events and the hand's, and what follows from them."""

    state: GameState
    names: tuple[str, ...]
    last_events: tuple[Event, ...]
    """The events of the latest change."""
    hand_events: tuple[Event, ...]
    """Every event of the hand in progress (or just over), deal first."""

    @property
    def rules(self) -> Rules:
        """The game's rules."""
        return self.state.rules

    def words(self, you: int | None) -> Names:
        """How to name the seats for ``you`` (``None``: an onlooker)."""
        return Names.of(self.names, self.rules, you)

    @property
    def to_act(self) -> int | None:
        """The seat that must act now (``None`` between hands and when the game is over)."""
        st = self.state
        return st.current if st.phase is Phase.PLAY else None

    @property
    def hand_over(self) -> HandOver | None:
        """How the last hand ended, while the next one is still to be dealt."""
        if self.state.phase is not Phase.DEAL:
            return None
        return next((e for e in reversed(self.last_events) if isinstance(e, HandOver)), None)

    @property
    def game_over(self) -> GameOver | None:
        """How the game ended, once it has."""
        return next((e for e in reversed(self.hand_events) if isinstance(e, GameOver)), None)

    @property
    def is_over(self) -> bool:
        """True once a side has reached the target."""
        return self.state.phase is Phase.OVER


class Table(TableReading):
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
        self.names = tuple(s.name for s in self.seats)
        self.people: tuple[int, ...] = tuple(
            i for i, s in enumerate(self.seats) if s.is_person
        )
        """Seats played by people at this table, in seat order."""
        self._players: dict[int, Player] = {}
        self.last_events: tuple[Event, ...] = ()
        """The events of the latest change."""
        self.hand_events: tuple[Event, ...] = ()
        """Every event of the hand in progress (or just over), deal first."""
        self._hand_so_far: list[_Before] = []
        """The table before each action of the hand in progress (for take-backs)."""

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

    # -- changing the game ------------------------------------------------------
    def act(self, seat: int, action: Action) -> tuple[Event, ...]:
        """``seat`` takes ``action``; the events. Raises :class:`IllegalActionError`
        (:class:`NotYourTurnError` when ``seat`` is not the one to act)."""
        if seat != self.to_act:
            who = self.to_act
            now = "nobody is to act" if who is None else f"it is {self.names[who]}'s turn"
            raise NotYourTurnError(f"{self.names[seat]} cannot act now: {now}", rule="turn")
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
                why = "moves stand in a game with other people"
            elif self.state.phase is not Phase.PLAY:
                why = "the hand is over"
            else:
                why = f"{self.names[seat]} has not moved in this hand"
            raise TakeBackError(f"nothing to take back: {why}", rule="take-back")
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
        if self.autosave is not None:
            self.autosave(self.record())
        return self.state

    def _apply(self, step: Step) -> tuple[Event, ...]:
        events = step.events
        self.state = step.state
        self.last_events = events
        if any(isinstance(e, Dealt) for e in events):
            self.hand_events = events
        else:
            self.hand_events = (*self.hand_events, *events)
        if self.autosave is not None:
            self.autosave(self.record())
        return events

    # -- computers ------------------------------------------------------------------
    def player(self, seat: int) -> Player:
        """The computer player for ``seat`` (at its level; the default level otherwise)."""
        if seat not in self._players:
            level = self.seats[seat].level
            level = level if level in LEVELS else default_level()
            self._players[seat] = make_player(level, seed=self.seed * 8 + seat)
        return self._players[seat]

    def choose(self, turn: Turn) -> Action:
        """A computer's action for ``turn``, from that seat's view only.

        Safe to call off the UI thread: it reads the turn's view and nothing else.
        """
        return self.player(turn.seat).choose(turn.view, turn.legal)

    # -- the record ---------------------------------------------------------------------
    def record(self) -> GameRecord:
        """The game record of every action so far."""
        return GameRecord.from_state(
            self.state, self.seats, seed=self.seed, created=self.created, game_id=self.game_id
        )

