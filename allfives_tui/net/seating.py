"""The host's seats: who sits where, their rejoin tokens, and the waiting room.

A person's seat is theirs by its token: a client that signs in with it sits
there again (a newer connection replaces the older); any other client takes the
first open seat, until the game starts.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from allfives_tui.net.hostfiles import SavedSeat, SavedSeats
from allfives_tui.net.protocol import (
    HostMessage,
    Lobby,
    LobbySeat,
    RefusalCode,
    Refused,
    SeatAssigned,
)
from allfives_tui.net.transport import Session
from allfives_tui.table.places import default_name
from engine import Rules
from engine.record import Seat


@dataclass(eq=False)
class Slot:
    """One seat of the table: who sits there and whether they are connected."""

    name: str | None = None
    computer: bool = False
    host: bool = False
    token: str | None = None
    session: Session | None = None


def new_token() -> str:
    """A fresh rejoin token for a seat."""
    return secrets.token_urlsafe(24)


class Seating:
    """The table's seats (:attr:`slots`) and the connected players' sessions."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.slots = [Slot() for _ in range(players)]

    # -- names ---------------------------------------------------------------------
    def computer_name(self, seat: int) -> str:
        """A computer's name at ``seat``, in the host's language: its place's (the default
        name of a seat nobody named)."""
        return default_name(seat, self.players)

    def names(self) -> tuple[str, ...]:
        """The seats' names as the commentary says them."""
        return tuple(s.name or self.computer_name(i) for i, s in enumerate(self.slots))

    def unique(self, name: str, seat: int) -> str:
        """``name``, numbered if another seat has it already."""
        taken = {s.name for i, s in enumerate(self.slots) if i != seat and s.name}
        if name not in taken:
            return name
        n = 2
        while f"{name[:17]} {n}" in taken:
            n += 1
        return f"{name[:17]} {n}"

    # -- who sits where --------------------------------------------------------------
    def token_seat(self, token: str | None) -> int | None:
        """The seat (not the host's) whose rejoin token is ``token``."""
        if token is None:
            return None
        return next(
            (i for i, s in enumerate(self.slots) if s.token == token and not s.host), None
        )

    def open_seat(self, started: bool) -> int | None:
        """The first seat open for a new player, before the game starts."""
        if started:
            return None
        return next(
            (i for i, s in enumerate(self.slots) if s.name is None and not s.computer), None
        )

    def seat_for(self, session: Session, started: bool) -> int | None:
        """Where a signed-in client sits: back at its seat (token), or the first open one."""
        seat = self.token_seat(session.token)
        return seat if seat is not None else self.open_seat(started)

    def full(self) -> bool:
        """True when every seat has a player or is a computer's."""
        return all(s.name is not None or s.computer for s in self.slots)

    def sit(self, session: Session, seat: int) -> bool:
        """Sit a signed-in client at ``seat`` (its own, by token, or an open one) and tell
        it so; True when it came back to its own seat."""
        rejoined = self.token_seat(session.token) == seat
        slot = self.slots[seat]
        old = slot.session
        if old is not None and old is not session:
            old.deliver(Refused(code=RefusalCode.NEWER_CONNECTION, fatal=True))
            old.seat = None
            old.close()
        if not rejoined:
            slot.name = self.unique(session.name, seat)
            slot.token = new_token()
        slot.session = session
        session.seat, session.signed_in = seat, True
        assert slot.token is not None
        session.deliver(SeatAssigned(seat=seat, token=slot.token, rejoined=rejoined))
        return rejoined

    def sit_host(self, session: Session, name: str) -> int:
        """Sit the host's own player (signed in already) at the host's seat and tell it so;
        the seat. ``name`` names it if its seat has no name."""
        seat = next((i for i, s in enumerate(self.slots) if s.host), None)
        if seat is None:
            raise ValueError("this host has no seat of its own")
        slot = self.slots[seat]
        session.name = slot.name or name
        session.signed_in = True
        session.seat = seat
        slot.session = session
        assert slot.token is not None
        session.deliver(SeatAssigned(seat=seat, token=slot.token))
        return seat

    def leave(self, session: Session) -> int | None:
        """``session``'s connection ended: the seat it leaves (``None``: it held none)."""
        seat = session.seat
        if seat is None or self.slots[seat].session is not session:
            return None
        self.slots[seat].session = None
        session.seat = None
        return seat

    def set_seat(self, seat: int, computer: bool) -> Refused | None:
        """Open ``seat`` to people, or give it to a computer (its player is sent away);
        the refusal when ``seat`` cannot change."""
        if seat >= len(self.slots) or self.slots[seat].host:
            return Refused(code=RefusalCode.SEAT_UNCHANGEABLE, seat=seat)
        slot = self.slots[seat]
        if computer and slot.session is not None:
            slot.session.deliver(Refused(code=RefusalCode.SEAT_GIVEN_TO_COMPUTER, fatal=True))
            slot.session.seat = None
            slot.session.close()
            slot.session = None
        slot.name, slot.token, slot.computer = None, None, computer
        return None

    def fill(self, level: str) -> list[Seat]:
        """The record's seats as the game starts: empty open seats become computers at
        ``level``, with their place's default name (no name in the record)."""
        seats: list[Seat] = []
        for slot in self.slots:
            if slot.name is None:
                slot.computer = True
            if slot.computer:
                slot.name = None
                seats.append(Seat(kind="computer", level=level))
            else:
                assert slot.name is not None
                seats.append(Seat(name=slot.name, kind="person" if slot.host else "remote"))
        return seats

    # -- on disk -------------------------------------------------------------------------
    def saved(self, game_id: str, level: str) -> SavedSeats:
        """The seats and their tokens as the host's folder keeps them."""
        seats = tuple(
            SavedSeat(name=s.name, computer=s.computer, host=s.host, token=s.token)
            for s in self.slots
        )
        return SavedSeats(game_id=game_id, level=level, seats=seats)

    def restore(self, seats: tuple[SavedSeat, ...]) -> None:
        """Take back the seats a restarted host saved."""
        for slot, seat in zip(self.slots, seats, strict=True):
            slot.name, slot.computer, slot.host, slot.token = (
                None if seat.computer else seat.name, seat.computer, seat.host, seat.token,
            )

    # -- telling everyone ----------------------------------------------------------------
    def tell(self, message: HostMessage, *, but: Session | None = None) -> None:
        """Deliver ``message`` to every connected player (but ``but``)."""
        for slot in self.slots:
            if slot.session is not None and slot.session is not but:
                slot.session.deliver(message)

    def lobby(self, rules: Rules, level: str) -> Lobby:
        """The waiting room as every client sees it."""
        seats = tuple(
            LobbySeat(
                name=s.name, computer=s.computer, connected=s.session is not None, host=s.host
            )
            for s in self.slots
        )
        return Lobby(
            seats=seats,
            players=rules.players,
            partnerships=rules.partnerships,
            target=rules.target,
            level=level,
        )
