"""Game records the tests build on: the small hand-made game, seeded games between
computer players, hand-made deals, records of given states, and the files in tests/data."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

from engine import GameState, Rules
from engine.record import DealRecord, GameRecord, HandRecord, Seat
from tests.games import computer_seats, play_game

DATA = Path(__file__).parent / "data"
"""Record files kept with the tests (version 1 files, a blocked hand, a four-player game)."""

CREATED = "2026-01-01T00:00:00+00:00"
"""The fixed creation time of the records built here (snapshots show it)."""


@cache
def game_record(players: int = 2, seed: int = 1, partnerships: bool = False) -> GameRecord:
    """The record of a whole seeded game between greedy computer players."""
    rules = Rules(players=players, partnerships=partnerships)
    state = play_game(rules, seed)
    return GameRecord.from_state(state, computer_seats(players), seed=seed, created=CREATED)


SMALL_RECORD = """{
 "format": "allfives-record", "version": 1,
 "rules": {"players": 2, "partnerships": false, "hand_size": "five-each", "target": 30},
 "seats": [{"name": "Ann", "kind": "human"},
           {"name": "Bob", "kind": "computer", "level": "greedy"}],
 "hands": [
  {"deal": {"hands": [["6-4", "4-2", "2-2", "3-1", "0-0"], ["6-6", "6-1", "4-3", "5-5", "2-1"]],
            "boneyard": ["1-0", "5-3", "4-4", "1-1", "2-0", "3-0", "3-2", "3-3", "4-0", "4-1",
                         "5-0", "5-1", "5-2", "5-4", "6-0", "6-2", "6-3", "6-5"],
            "start": 0},
   "actions": ["6-4", "6-6 E", "4-2 W", "6-1 E", "2-2 W", "2-1 W", "3-1 W", "4-3 W",
               "draw", "1-0 E", "draw", "draw", "4-4 W", "0-0 E"]},
  {"deal": {"hands": [["5-5", "0-0", "1-0", "1-1", "2-0"], ["5-0", "2-1", "2-2", "3-0", "3-1"]],
            "boneyard": ["3-2", "3-3", "4-0", "4-1", "4-2", "4-3", "4-4", "5-1", "5-2", "5-3",
                         "5-4", "6-0", "6-1", "6-2", "6-3", "6-4", "6-5", "6-6"],
            "start": 0},
   "actions": ["5-5", "5-0 E", "0-0 E"]}
 ]
}
"""
"""A hand-made two-hand game to 30: a draw, a must-play, going out, a negative score, a win."""


SEATS_2 = (Seat(), Seat(kind="computer", level="greedy"))
"""The first person and a computer as a new game has them: their places' default names."""


def dealt_record(
    you: Sequence[str], north: Sequence[str], boneyard: Sequence[str], start: int = 1
) -> GameRecord:
    """A two-player record of one explicit deal and no moves yet."""
    deal = DealRecord.model_validate(
        {"hands": [list(you), list(north)], "boneyard": list(boneyard), "start": start}
    )
    return GameRecord(rules=Rules(players=2), seats=SEATS_2, hands=(HandRecord(deal=deal),), seed=1)


def two_ends_record() -> GameRecord:
    """North leads the 5-5 spinner; your only playable tile, 5-3, fits its west and east sides."""
    return dealt_record(
        ["5-3", "0-0", "2-0", "3-0", "4-0", "6-0", "2-2", "3-3", "4-4"],
        ["5-5", "1-0", "2-1", "3-2", "4-3", "6-2", "6-1", "3-1", "4-1"],
        ["6-6", "1-1", "4-2", "5-0", "5-1", "5-2", "5-4", "6-5", "6-3", "6-4"],
    )


def record_of(state: GameState, seats: Sequence[Seat] = SEATS_2, seed: int = 1) -> GameRecord:
    """The record of ``state`` with a fixed creation time (for snapshots)."""
    return GameRecord.from_state(state, tuple(seats), seed=seed, created=CREATED)
