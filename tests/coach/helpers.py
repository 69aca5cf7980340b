"""Games and positions for the coach's tests."""

from __future__ import annotations

from functools import cache

from allfives_tui.table.table import Table
from engine import Rules
from engine.players import make_player
from engine.record import GameRecord, Seat
from tests.games import computer_choice

# Seat 1 to move with 6-2 (three ends) or 6-3 E; seat 0, at 240 of 250, holds 5-5,
# which scores 10 on the ends 6-3 E leaves (found by a search over greedy games,
# checked with the engine in test_blocking_the_last_end_...).
BLOCK_DEAL = (
    "deal 1 | 6-0 4-3 2-1 3-3 3-0 4-0 2-2 5-4 5-3 | 6-1 6-5 6-6 1-0 6-3 6-2 3-1 4-1 3-2"
    " / 0-0 1-1 5-5 6-4 4-2 5-0 2-0 4-4 5-1 5-2"
)
BLOCK_MOVES = [
    "3-2",
    "5-3 E",
    "6-5 E",
    "2-2 W",
    "6-1 E",
    "2-1 W",
    "4-1 W",
    "5-4 W",
    "1-0 E",
    "6-0 E",
    "6-6 E",
    "draw",
    "draw",
    "draw",
    "5-5 W",
]


def play_out(
    rules: Rules, seed: int, *, me: str = "heuristic", them: str = "heuristic"
) -> GameRecord:
    """A whole game: a person's seat 0 played by level ``me``, computers at ``them``."""
    seats = [Seat(name="You", kind="person")]
    seats += [Seat(name=f"C{i}", kind="computer", level=them) for i in range(1, rules.players)]
    table = Table.new(rules, seats, seed=seed)
    person = make_player(me, seed=seed + 100)
    while not table.is_over:
        turn = table.turn()
        if turn is None:
            table.deal()
            continue
        if turn.seat == 0:
            action = person.choose(turn.view, turn.legal)
        else:
            action = computer_choice(table, turn)
        table.act(turn.seat, action)
    return table.record()


@cache
def short_game() -> GameRecord:
    """A finished two-player game to 50 (a few hands)."""
    return play_out(Rules(players=2, target=50), seed=11)
