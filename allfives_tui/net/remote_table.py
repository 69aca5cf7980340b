"""A table run by a host, as one seat's client sees it: what the game screen renders.

:class:`RemoteTable` reads like :class:`~allfives_tui.table.table.Table` (the
snapshot, names, seat kinds, the hand's events, who is to act, the hand's and
the game's end), so the same game screen shows a remote game. It never judges
a move: :meth:`RemoteTable.request` makes the message that asks the host, and
the host's next :class:`~allfives_tui.net.protocol.State` is the only thing
that changes it (:meth:`RemoteTable.update`).

It knows only its seat's :class:`~engine.SeatView`. The screen reads a
:class:`~engine.GameState`, so :func:`stand_in_state` builds one around the
view: this seat's hand is real, and the other hands and the boneyard are
filled with the tiles this seat cannot see, in no meaningful order (the
screen only ever shows this seat's view of it, which is exactly the host's
view). Once a hand is over the host reveals every hand and the stand-in
holds the real ones.
"""

from __future__ import annotations

from typing import Any

from allfives_tui.net.protocol import NAME_MAX, Act, State
from allfives_tui.table.table import TableReading, Turn
from allfives_tui.table.words import printable
from engine import (
    Action,
    Event,
    GameState,
    IllegalActionError,
    Phase,
    SeatView,
    Tile,
)
from engine._fast import fields, make
from engine.record import GameRecord, Seat, SeatKind


class TableMismatchError(ValueError):
    """A picture of the table from the host that does not add up (it is not shown)."""


def shown_name(name: str) -> str:
    """A name from the host made safe to show: printable, short, no markup brackets."""
    return printable(name)[:NAME_MAX].replace("[", "(").replace("]", ")") or "?"


def check_view(view: SeatView, revealed: tuple[tuple[Tile, ...], ...] | None) -> None:
    """Raise :class:`TableMismatchError` unless ``view`` holds the 28 tiles once each (its
    hand, the layout, and as many unseen as the others and the boneyard hold)."""
    players = view.rules.players
    if not 0 <= view.seat < players or len(view.hand_counts) != players:
        raise TableMismatchError("the seats do not match the rules")
    seen = [*view.hand, *view.layout.tiles()]
    if len(set(seen)) != len(seen) or view.hand_counts[view.seat] != len(view.hand):
        raise TableMismatchError("a tile shows twice, or the hand's count is wrong")
    others = sum(c for s, c in enumerate(view.hand_counts) if s != view.seat)
    if min(view.hand_counts) < 0 or view.boneyard_size < 0:
        raise TableMismatchError("a negative count")
    if view.phase is Phase.PLAY and others + view.boneyard_size != 28 - len(seen):
        raise TableMismatchError("the tiles do not add up to 28")
    if revealed is not None:
        shown = [t for s, hand in enumerate(revealed) if s != view.seat for t in hand]
        if len(revealed) != players or set(shown) & set(seen) or len(set(shown)) != len(shown):
            raise TableMismatchError("the revealed hands do not match the table")


def stand_in_state(view: SeatView, revealed: tuple[tuple[Tile, ...], ...] | None) -> GameState:
    """A :class:`GameState` whose view for ``view.seat`` is ``view`` (see the module)."""
    values: dict[str, Any] = dict(fields(view))
    seat = values.pop("seat")
    own = values.pop("hand")
    counts = values.pop("hand_counts")
    size = values.pop("boneyard_size")
    must_play = values.pop("must_play")
    unseen = list(view.unseen_tiles())
    hands: list[tuple[Tile, ...]] = []
    for s in range(view.rules.players):
        if s == seat:
            hands.append(own)
        elif revealed is not None and s < len(revealed):
            hands.append(tuple(revealed[s]))
            unseen = [t for t in unseen if t not in revealed[s]]
        else:
            n = counts[s] if s < len(counts) else 0
            hands.append(tuple(unseen[:n]))
            del unseen[:n]
    boneyard = tuple(unseen[:size]) if view.phase is Phase.PLAY else tuple(unseen)
    values.update(
        hands=tuple(hands), boneyard=boneyard, must_play=must_play, deals=(), past=()
    )
    ordered = {name: values[name] for name in GameState.model_fields}
    return make(GameState, ordered, {"_core": None, "_legal": None})


def _names(message: State) -> tuple[str, ...]:
    players = message.view.rules.players
    if len(message.names) != players or len(message.kinds) != players:
        raise TableMismatchError("the names do not match the seats")
    return tuple(shown_name(n) for n in message.names)


class RemoteTable(TableReading):
    """The host's table as this seat sees it (see the module's docstring)."""

    def __init__(self, seat: int, first: State) -> None:
        check_view(first.view, first.revealed)
        self.seat = seat
        self.resumed = first.resumed
        self.names: tuple[str, ...] = _names(first)
        self.kinds: tuple[SeatKind, ...] = first.kinds
        self.people: tuple[int, ...] = (seat,)
        """The one person at this screen."""
        self.step = first.step
        self.view_now: SeatView = first.view
        self.state = stand_in_state(first.view, first.revealed)
        self.last_events: tuple[Event, ...] = first.events
        self.hand_events: tuple[Event, ...] = first.events if first.whole_hand else ()
        self.away: tuple[int, ...] = first.away
        self.waiting: tuple[int, ...] = first.waiting
        self.final_record: GameRecord | None = None
        """The host's record of the game, once it is over."""

    @property
    def seats(self) -> tuple[Seat, ...]:
        """Who sits where, as this screen names them: this seat a person, the rest remote
        players or computers."""
        return tuple(
            Seat(name=n, kind="person")
            if i == self.seat
            else Seat(name=n, kind="computer", level="host")
            if k == "computer"
            else Seat(name=n, kind="remote")
            for i, (n, k) in enumerate(zip(self.names, self.kinds, strict=True))
        )

    def update(self, message: State) -> tuple[Event, ...]:
        """Take the host's new picture of the table; the events to show now. Raises
        :class:`TableMismatchError` (and changes nothing) when it does not add up."""
        check_view(message.view, message.revealed)
        if message.view.seat != self.seat or len(message.kinds) != len(self.kinds):
            raise TableMismatchError("the picture is of another seat or another table")
        self.step = message.step
        self.names, self.kinds = _names(message), message.kinds
        self.view_now = message.view
        self.state = stand_in_state(message.view, message.revealed)
        self.away, self.waiting = message.away, message.waiting
        self.last_events = message.events
        if message.whole_hand or any(e.kind == "dealt" for e in message.events):
            self.hand_events = message.events
        else:
            self.hand_events = (*self.hand_events, *message.events)
        return message.events

    def request(self, action: Action) -> Act:
        """The message asking the host to play ``action`` for this seat now."""
        if action.kind == "deal":
            raise ValueError("a client never deals: the host does")
        return Act(action=action, step=self.step)

    # -- read like a Table ----------------------------------------------------------
    def kind(self, seat: int) -> SeatKind:
        """``"computer"``, or ``"person"`` for a person here or elsewhere (the screen
        then says "Bob's turn.", not "Bob is thinking…")."""
        return "computer" if self.kinds[seat] == "computer" and seat != self.seat else "person"

    def turn(self) -> Turn | None:
        """Who is to act; this seat's legal actions on its own turn."""
        seat = self.to_act
        if seat is None:
            return None
        view = self.state.view(seat)
        legal = view.legal_actions() if seat == self.seat else ()
        return Turn(seat, view, legal, self.kind(seat))

    def view(self, seat: int) -> SeatView:
        """This seat's view (the only one a client knows)."""
        if seat != self.seat:
            raise ValueError("a client sees its own seat only")
        return self.view_now

    takes_back = False
    """No move is taken back at a networked table."""

    def can_take_back(self, seat: int) -> bool:
        """False: no move is taken back at a networked table."""
        return False

    def take_back(self, seat: int) -> None:
        """Refused: no move is taken back at a networked table."""
        raise IllegalActionError("no move is taken back at a table played over the network",
                                 rule="take_back")

    def record(self) -> GameRecord:
        """The game's record: the host sends it once the game is over."""
        if self.final_record is None:
            raise ValueError("the host keeps this game's record until the game is over")
        return self.final_record
