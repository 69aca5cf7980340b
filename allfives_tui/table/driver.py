"""The turn driver: what a front-end must do next at a table, with its timing as data.

A :class:`Driver` owns the decisions of a game's turn loop: when to deal, when a
hand's summary holds the next deal and for whom, when a person at a shared
screen needs the screen covered, which computer to ask and how long its move
takes to show, when an away player's seat is handed to the computer and back,
and that the autosave reaches the disk before a computer's or an automatic
action is applied. It never sleeps, reads the clock (it is given ``now``),
starts a thread or touches a file (it is given ``flush``): a front-end asks
:meth:`Driver.next` for the :data:`Step` to perform, performs it in its own
way (a worker thread, ``asyncio.to_thread``, a socket, a key press) and hands
the answer back with :meth:`Driver.done`.

Every step carries the table's change counter (:attr:`Table.step`) it was
issued at; an answer to a step the table has moved past (a computer still
thinking when a move was taken back) raises :class:`StaleAnswerError`.

:class:`SeatDriver` is the same for one seat of a table run elsewhere (a
network client): it performs that seat's steps and leaves the rest to the host.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Protocol

from allfives_tui.table.settings import default_level
from allfives_tui.table.table import NotYourTurnError, Table, Turn
from engine import Action, Draw, Event, GameOver, HandOver, IllegalActionError, Pass, SeatView
from engine.players import LEVELS, Player, make_player

SEAT_SEEDS = 8
"""Player seeds per game seed: seat ``s`` of a game seeded ``g`` plays with seed
``g * SEAT_SEEDS + s`` (a table has at most four seats)."""


class StaleAnswerError(IllegalActionError):
    """An answer to a step the table has moved past (a ``ValueError``); it changes nothing."""


def player_seed(game_seed: int, seat: int) -> int:
    """The seed of the computer player at ``seat`` in a game seeded ``game_seed``."""
    return game_seed * SEAT_SEEDS + seat


def computer_player(game_seed: int, seat: int, level: str | None) -> Player:
    """The computer player for ``seat`` at ``level`` (the default level if it is unknown)."""
    known = level if level is not None and level in LEVELS else default_level()
    return make_player(known, seed=player_seed(game_seed, seat))


# -- steps --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deal:
    """Deal the next hand: answer with ``done(step)``."""

    number: int


@dataclass(frozen=True, slots=True)
class Summary:
    """Show the hand's summary; the next deal waits for ``waiting_for`` to be
    :meth:`~Driver.ready`, or until ``deadline`` (``None``: no time-out)."""

    number: int
    hand_over: HandOver
    waiting_for: tuple[int, ...]
    deadline: float | None


@dataclass(frozen=True, slots=True)
class Cover:
    """Cover the shared screen until the person at ``seat`` is alone at it:
    answer with ``done(step)`` when they uncover it."""

    number: int
    seat: int


@dataclass(frozen=True, slots=True)
class AskComputer:
    """Ask the computer for ``seat``'s move from its ``view`` (:meth:`Driver.think`,
    off the front-end's thread), show it no earlier than ``not_before``, then
    ``done(step, action)``. ``stand_in``: the computer plays for an away person."""

    number: int
    seat: int
    view: SeatView
    legal: tuple[Action, ...]
    seed: int
    level: str
    not_before: float
    stand_in: bool = False


@dataclass(frozen=True, slots=True)
class AwaitPerson:
    """Wait for the person at ``seat`` to choose among ``legal`` (then
    ``done(step, action)``); while they are away, until ``grace_deadline``."""

    number: int
    seat: int
    view: SeatView
    legal: tuple[Action, ...]
    grace_deadline: float | None = None


@dataclass(frozen=True, slots=True)
class Automatic:
    """``seat`` can only draw or pass and has it done for them: :meth:`Driver.think`
    (which lets the autosave reach the disk), no earlier than ``not_before``,
    then ``done(step, action)``."""

    number: int
    seat: int
    action: Action
    not_before: float


@dataclass(frozen=True, slots=True)
class TakeOver:
    """The away person at ``seat`` did not come back in time: say so, then
    ``done(step)`` hands their seat to the computer until they are back."""

    number: int
    seat: int


@dataclass(frozen=True, slots=True)
class Elsewhere:
    """Nothing to do here: the move of ``seat`` (``None``: the deal) is made elsewhere."""

    number: int
    seat: int | None


@dataclass(frozen=True, slots=True)
class Over:
    """The game is over."""

    number: int
    game_over: GameOver | None


Step = Deal | Summary | Cover | AskComputer | AwaitPerson | Automatic | TakeOver | Elsewhere | Over
"""What a front-end must do now."""


def _no_flush() -> None:
    return None


def _automatic(legal: tuple[Action, ...]) -> Action | None:
    """The one action that is a draw or a pass, when that is all a seat may do."""
    if len(legal) == 1 and isinstance(legal[0], (Draw, Pass)):
        return legal[0]
    return None


def _same(step: Step, now: Step) -> bool:
    """True when ``step`` asks what ``now`` asks (timing aside)."""
    return (
        type(step) is type(now)
        and step.number == now.number
        and getattr(step, "seat", None) == getattr(now, "seat", None)
    )


class Driver:
    """The turn loop of one :class:`Table` (see the module's docstring).

    ``people`` are the seats whose moves the front-end collects (a key press, a
    socket); every other seat but the deal is the computer's. ``shared_screen``:
    the people take turns at one screen, which is covered between them.
    ``pace``: seconds a computer's move takes to show (an automatic draw or pass
    takes half). ``summary_timeout``: seconds the next deal waits for the summary
    to be closed (``None``: as long as it takes). ``grace``: seconds an away
    person keeps their seat before the computer plays it, at ``stand_in_level``.
    """

    def __init__(
        self,
        table: Table,
        *,
        now: Callable[[], float],
        flush: Callable[[], None] = _no_flush,
        people: Collection[int] | None = None,
        shared_screen: bool = False,
        pace: float = 0.0,
        auto_draw: bool = False,
        summary_timeout: float | None = None,
        grace: float = 60.0,
        stand_in_level: str | None = None,
    ) -> None:
        self.table = table
        self.now = now
        self.flush = flush
        self.people = frozenset(
            people if people is not None else (
                s for s in range(table.rules.players) if table.kind(s) != "computer"
            )
        )
        self.shared_screen = shared_screen
        self.pace = pace
        self.auto_draw = auto_draw
        self.summary_timeout = summary_timeout
        self.grace = grace
        self.stand_in_level = stand_in_level
        self._players: dict[tuple[int, str], Player] = {}
        self._since = now()
        """When the table last changed (the pace and the summary's time-out count from it)."""
        self._seen = table.step
        self._ready: set[int] = set()
        self._away: dict[int, float] = {}
        self._taken_over: set[int] = set()
        self._at_screen: int | None = None

    # -- what the front-end reads --------------------------------------------------
    @property
    def at_screen(self) -> int | None:
        """At a shared screen: the person it is uncovered for (``None``: covered)."""
        return self._at_screen

    def away_seats(self) -> tuple[int, ...]:
        """The people who are away (their connection lost), in seat order."""
        return tuple(sorted(self._away))

    def played_by_computer(self, seat: int) -> bool:
        """True when the computer chooses ``seat``'s moves now."""
        return seat not in self.people or seat in self._taken_over

    def waiting_for(self) -> tuple[int, ...]:
        """The people the next deal waits for: present, not yet :meth:`ready`."""
        return tuple(
            s for s in sorted(self.people)
            if s not in self._ready and s not in self._away and s not in self._taken_over
        )

    def next(self) -> Step:
        """What the front-end must do now (calling it again without a change asks the same)."""
        table = self.table
        self._notice_change()
        number = table.step
        if table.is_over:
            return Over(number, table.game_over)
        hand_over = table.hand_over
        if hand_over is not None or table.to_act is None:
            if hand_over is not None:
                waiting = self.waiting_for()
                deadline = (
                    None if self.summary_timeout is None else self._since + self.summary_timeout
                )
                if waiting and (deadline is None or self.now() < deadline):
                    return Summary(number, hand_over, waiting, deadline)
            return Deal(number)
        turn = table.turn()
        assert turn is not None
        seat = turn.seat
        if self.played_by_computer(seat):
            level = self._level(seat)
            return AskComputer(
                number, seat, turn.view, turn.legal, player_seed(table.seed, seat), level,
                self._since + self.pace, stand_in=seat in self.people,
            )
        if seat in self._away:
            deadline = self._away[seat] + self.grace
            if self.now() >= deadline:
                return TakeOver(number, seat)
            return AwaitPerson(number, seat, turn.view, turn.legal, deadline)
        if self.shared_screen and self._at_screen != seat:
            return Cover(number, seat)
        automatic = _automatic(turn.legal) if self.auto_draw else None
        if automatic is not None:
            return Automatic(number, seat, automatic, self._since + self.pace / 2)
        return AwaitPerson(number, seat, turn.view, turn.legal)

    # -- answers ------------------------------------------------------------------------
    def think(self, step: AskComputer | Automatic) -> Action:
        """The action for ``step``: the computer's choice from its seat's view, or the
        automatic draw or pass; then the autosave is flushed, so the state the action
        follows is on disk before it is applied. Safe off the front-end's thread."""
        if isinstance(step, Automatic):
            action = step.action
        else:
            action = self.player(step.seat, step.level).choose(step.view, step.legal)
        self.flush()
        return action

    def player(self, seat: int, level: str) -> Player:
        """The computer player for ``seat`` at ``level`` (made once, seeded by the game)."""
        key = (seat, level)
        if key not in self._players:
            self._players[key] = computer_player(self.table.seed, seat, level)
        return self._players[key]

    def done(self, step: Step, action: Action | None = None) -> tuple[Event, ...]:
        """Take the answer to ``step``; the events of the change it made (none for a
        cover or a take-over). Raises :class:`StaleAnswerError` when the table has
        moved past ``step``, and the table's :class:`IllegalActionError` for an action
        it does not allow."""
        now = self.next()
        if not _same(step, now):
            raise StaleAnswerError(
                f"the table has moved on since step {step.number}", rule="stale"
            )
        if isinstance(now, Deal):
            return self._changed(self.table.deal())
        if isinstance(now, Cover):
            self._at_screen = now.seat
            return ()
        if isinstance(now, TakeOver):
            self._taken_over.add(now.seat)
            return ()
        if isinstance(now, (AskComputer, AwaitPerson, Automatic)):
            if action is None:
                raise IllegalActionError("an answer to a turn needs an action", rule="turn")
            return self._changed(self.table.act(now.seat, action))
        raise IllegalActionError(f"nothing to answer at a {type(now).__name__} step", rule="turn")

    def act(self, seat: int, action: Action) -> tuple[Event, ...]:
        """A person's move at ``seat`` now (a key press, a message); the events. Raises
        :class:`~allfives_tui.table.table.NotYourTurnError` when it is not theirs to make
        now, and the table's :class:`IllegalActionError` for an action it does not allow."""
        step = self.next()
        if isinstance(step, (AwaitPerson, Automatic)) and step.seat == seat:
            return self.done(step, action)
        if seat != self.table.to_act:
            self.table.act(seat, action)  # raises NotYourTurnError, in the table's words
        names = self.table.names
        raise NotYourTurnError(f"{names[seat]} cannot act now", rule="turn", seat=seat)

    def ready(self, *seats: int) -> None:
        """``seats`` have closed the hand's summary."""
        if self.table.hand_over is not None:
            self._ready.update(seats)

    def away(self, seat: int) -> None:
        """The person at ``seat`` lost their connection (their grace starts now)."""
        if seat in self.people and seat not in self._away:
            self._away[seat] = self.now()

    def back(self, seat: int) -> bool:
        """The person at ``seat`` is back; True when the computer had been playing for them."""
        self._away.pop(seat, None)
        if seat in self._taken_over:
            self._taken_over.discard(seat)
            return True
        return False

    def taken_back(self) -> None:
        """The table took a move back (:meth:`Table.take_back`): the pace starts again."""
        self._notice_change()

    # -- inside ---------------------------------------------------------------------------
    def _level(self, seat: int) -> str:
        level = self.stand_in_level if seat in self.people else self.table.seats[seat].level
        return level if level is not None and level in LEVELS else default_level()

    def _changed(self, events: tuple[Event, ...]) -> tuple[Event, ...]:
        self._notice_change()
        return events

    def _notice_change(self) -> None:
        """After the table changed: its time, a new hand's summary readiness, the cover."""
        table = self.table
        if table.step == self._seen:
            return
        self._seen = table.step
        self._since = self.now()
        if table.hand_over is None:
            self._ready.clear()
        if self.shared_screen and table.to_act != self._at_screen:
            self._at_screen = None


class SeenTable(Protocol):
    """What a :class:`SeatDriver` reads of a table run elsewhere."""

    @property
    def step(self) -> int:
        """The host's change counter."""
        ...

    @property
    def is_over(self) -> bool:
        """True once the game is over."""
        ...

    @property
    def game_over(self) -> GameOver | None:
        """How the game ended, once it has."""
        ...

    @property
    def hand_over(self) -> HandOver | None:
        """How the last hand ended, while the next one is to be dealt."""
        ...

    def turn(self) -> Turn | None:
        """Who is to act, and this seat's legal actions on its own turn."""
        ...


class SeatDriver:
    """One seat's steps at a table a host runs (a network client's): its own turn,
    an automatic draw or pass, the summary the host waits on it for, the game's end;
    everything else happens elsewhere. ``done`` checks an answer; the front-end sends it.
    """

    def __init__(
        self,
        table: SeenTable,
        seat: int,
        *,
        now: Callable[[], float],
        pace: float = 0.0,
        auto_draw: bool = False,
    ) -> None:
        self.table = table
        self.seat = seat
        self.now = now
        self.pace = pace
        self.auto_draw = auto_draw
        self._since = now()
        self._seen = table.step
        self._ready_for = 0
        """The hand whose summary this seat has closed."""

    def next(self, waiting: Collection[int] = ()) -> Step:
        """What this seat must do now; ``waiting``: the seats the host's next deal waits for."""
        table = self.table
        if table.step != self._seen:
            self._seen, self._since = table.step, self.now()
        number = table.step
        if table.is_over:
            return Over(number, table.game_over)
        hand_over = table.hand_over
        if hand_over is not None:
            if self.seat in waiting and self._ready_for != hand_over.hand_number:
                return Summary(number, hand_over, tuple(waiting), None)
            return Elsewhere(number, None)
        turn = table.turn()
        if turn is None:
            return Elsewhere(number, None)
        if turn.seat != self.seat:
            return Elsewhere(number, turn.seat)
        automatic = _automatic(turn.legal) if self.auto_draw else None
        if automatic is not None:
            return Automatic(number, turn.seat, automatic, self._since + self.pace / 2)
        return AwaitPerson(number, turn.seat, turn.view, turn.legal)

    def ready(self) -> None:
        """This seat has closed the hand's summary (the front-end tells the host)."""
        hand_over = self.table.hand_over
        if hand_over is not None:
            self._ready_for = hand_over.hand_number

    def done(self, step: Step, action: Action, waiting: Collection[int] = ()) -> Action:
        """``action`` for ``step`` if it is still this seat's to take (the front-end sends
        it; the host judges it). Raises :class:`StaleAnswerError` otherwise."""
        now = self.next(waiting)
        if not _same(step, now) or not isinstance(now, (AwaitPerson, Automatic)):
            raise StaleAnswerError(
                f"the table has moved on since step {step.number}", rule="stale"
            )
        return action
