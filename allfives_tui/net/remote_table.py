"""A table run by a host, as one seat's client sees it: what the game screen renders.

:class:`RemoteTable` reads like :class:`~allfives_tui.table.table.Table` (a
:class:`~allfives_tui.table.table.TableReading`: the view, names, seat kinds,
the hand's events, who is to act, the hand's and the game's end), so the same
game screen shows a remote game. It never judges
a move: :meth:`RemoteTable.request` makes the message that asks the host, and
the host's next :class:`~allfives_tui.net.protocol.State` is the only thing
that changes it (:meth:`RemoteTable.update`).

It holds only what the host sends this seat: its :class:`~engine.SeatView`
and, once a hand is over, every hand as it ended (:attr:`RemoteTable.revealed`).
"""

from __future__ import annotations

from allfives_tui.locale import _
from allfives_tui.net.protocol import Act, State
from allfives_tui.table.names import NAME_MAX
from allfives_tui.table.table import SnapshotReading, Turn
from allfives_tui.table.words import printable
from engine import (
    Action,
    Event,
    IllegalActionError,
    Phase,
    SeatView,
    Tile,
)
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
        raise TableMismatchError(_("the seats do not match the rules"))
    seen = [*view.hand, *view.layout.tiles()]
    if len(set(seen)) != len(seen) or view.hand_counts[view.seat] != len(view.hand):
        raise TableMismatchError(_("a tile shows twice, or the hand's count is wrong"))
    others = sum(c for s, c in enumerate(view.hand_counts) if s != view.seat)
    if min(view.hand_counts) < 0 or view.boneyard_size < 0:
        raise TableMismatchError(_("a negative count"))
    if view.phase is Phase.PLAY and others + view.boneyard_size != 28 - len(seen):
        raise TableMismatchError(_("the tiles do not add up to 28"))
    if revealed is not None:
        shown = [t for s, hand in enumerate(revealed) if s != view.seat for t in hand]
        if len(revealed) != players or set(shown) & set(seen) or len(set(shown)) != len(shown):
            raise TableMismatchError(_("the revealed hands do not match the table"))


def _names(message: State) -> tuple[str | None, ...]:
    """The names the host gave the seats (``None``: a seat's default name, worded here)."""
    players = message.view.rules.players
    if len(message.names) != players or len(message.kinds) != players:
        raise TableMismatchError(_("the names do not match the seats"))
    return tuple(shown_name(n) if n.strip() else None for n in message.names)


class RemoteTable(SnapshotReading):
    """The host's table as this seat sees it (see the module's docstring)."""

    def __init__(self, seat: int, first: State) -> None:
        check_view(first.view, first.revealed)
        self.seat = seat
        self.resumed = first.resumed
        self.given_names: tuple[str | None, ...] = _names(first)
        self.kinds: tuple[SeatKind, ...] = first.kinds
        self.people: tuple[int, ...] = (seat,)
        """The one person at this screen."""
        self.step = first.step
        self.view_now: SeatView = first.view
        """This seat's view, as the host last sent it."""
        self.revealed: tuple[tuple[Tile, ...], ...] | None = first.revealed
        """Every seat's hand once a hand is over (as the host revealed them), else ``None``."""
        self.last_events: tuple[Event, ...] = first.events
        self.hand_events: tuple[Event, ...] = first.events if first.whole_hand else ()
        self.away: tuple[int, ...] = first.away
        self.waiting: tuple[int, ...] = first.waiting
        self.final_record: GameRecord | None = None
        """The host's record of the game, once it is over."""
        self.asked: Action | None = None
        """The action this seat last asked the host for (a refusal of it is worded from it)."""

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
            for i, (n, k) in enumerate(zip(self.given_names, self.kinds, strict=True))
        )

    def update(self, message: State) -> tuple[Event, ...]:
        """Take the host's new picture of the table; the events to show now. Raises
        :class:`TableMismatchError` (and changes nothing) when it does not add up."""
        check_view(message.view, message.revealed)
        if message.view.seat != self.seat or len(message.kinds) != len(self.kinds):
            raise TableMismatchError(_("the picture is of another seat or another table"))
        self.step = message.step
        self.given_names, self.kinds = _names(message), message.kinds
        self.view_now = message.view
        self.revealed = message.revealed
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
            raise ValueError(_("a client never deals: the host does"))
        self.asked = action
        return Act(action=action, step=self.step)

    # -- read like a Table ----------------------------------------------------------
    def kind(self, seat: int) -> SeatKind:
        """``"computer"``, or ``"person"`` for a person here or elsewhere (the screen
        then says "Bob's turn.", not "Bob is thinking…")."""
        return "computer" if self.kinds[seat] == "computer" and seat != self.seat else "person"

    def turn(self) -> Turn | None:
        """Who is to act, with this seat's view (the only one a client knows) and its
        legal actions (none on another seat's turn)."""
        seat = self.to_act
        if seat is None:
            return None
        view = self.view_now
        legal = view.legal_actions() if seat == self.seat else ()
        return Turn(seat, view, legal, self.kind(seat))

    def view(self, seat: int) -> SeatView:
        """This seat's view (the only one a client knows)."""
        if seat != self.seat:
            raise ValueError("a client sees its own seat only")
        return self.view_now

    def onlooker_seat(self) -> int:
        """This seat: the only one whose view a client has."""
        return self.seat

    @property
    def _public(self) -> SeatView:
        return self.view_now

    takes_back = False
    """No move is taken back at a networked table."""

    def can_take_back(self, seat: int) -> bool:
        """False: no move is taken back at a networked table."""
        return False

    def take_back(self, seat: int) -> None:
        """Refused: no move is taken back at a networked table."""
        raise IllegalActionError(
            _("no move is taken back at a table played over the network"), rule="take_back"
        )

    def record(self) -> GameRecord:
        """The game's record: the host sends it once the game is over."""
        if self.final_record is None:
            raise ValueError(_("the host keeps this game's record until the game is over"))
        return self.final_record
