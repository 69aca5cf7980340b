"""Whole games played quickly by engine computer players, as records, for the history tests."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from allfives_tui.table.table import Table
from engine import Rules
from engine.players import make_player
from engine.record import GameRecord, Seat
from tests.games import play_out

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
"""A Monday: the first generated game's start."""


def play(
    seats: tuple[Seat, ...],
    seed: int,
    *,
    partnerships: bool = False,
    target: int = 0,
    stop_after: int | None = None,
    created: datetime = T0,
) -> GameRecord:
    """A game between computer players (a person's seat is played by the greedy level);
    ``stop_after`` actions (at least 1, the first deal) abandons it there."""
    rules = Rules(players=len(seats), partnerships=partnerships, target=target)
    players = {
        i: make_player(s.level if s.level in ("random", "greedy") else "greedy", seed * 8 + i)
        for i, s in enumerate(seats)
    }
    state = play_out(Table.new(rules, seats, seed), players=players, actions=stop_after).state
    return GameRecord.from_state(
        state, seats, seed=seed, created=created.isoformat(timespec="seconds")
    )


NAMES = ("West", "North", "East")


def random_game(rng: random.Random, index: int, person: str | None = "You") -> GameRecord:
    """A random game: 2-4 players, random/greedy opponents, sometimes a partnership,
    sometimes another person at the table, sometimes abandoned; started ``index`` half-days
    after :data:`T0`. The first person is ``person`` (``None``: the default name)."""
    players = rng.choice((2, 2, 3, 4))
    partnerships = players == 4 and rng.random() < 0.4
    seats = [Seat(name=person)]
    for i in range(players - 1):
        if rng.random() < 0.1:
            seats.append(Seat(name=f"Guest{i}"))
        else:
            names = NAMES[-(players - 1):] if players < 4 else NAMES
            level = rng.choice(("random", "greedy"))
            seats.append(Seat(name=names[i], kind="computer", level=level))
    stop = rng.randrange(5, 60) if rng.random() < 0.15 else None
    return play(
        tuple(seats), rng.randrange(1, 10**6), partnerships=partnerships,
        target=rng.choice((60, 100, 150)), stop_after=stop,
        created=T0 + timedelta(hours=12 * index + rng.randrange(0, 11)),
    )
