"""Events in plain words for the log; other seats' drawn tiles stay hidden."""

from __future__ import annotations

from allfives_tui.table.words import describe
from engine import Dealt, Drew, End, GameOver, HandOver, Passed, Placed, Rules, parse_tile

NAMES = ("You", "West")


def test_placements_say_the_end_the_total_and_the_points() -> None:
    event = Placed(seat=1, tile=parse_tile("5-3"), end=End.E, total=15, points=15)
    assert describe(event, NAMES) == "West plays 5-3 on the east end — ends total 15: +15"
    lead = Placed(seat=0, tile=parse_tile("6-4"), end=None, total=10, points=10)
    assert describe(lead, NAMES) == "You lead 6-4 — ends total 10: +10"
    quiet = Placed(seat=0, tile=parse_tile("4-3"), end=End.N, total=13, points=0)
    assert describe(quiet, NAMES) == "You play 4-3 on the north end — ends total 13"


def test_only_your_own_draws_are_named() -> None:
    tile = parse_tile("2-1")
    assert describe(Drew(seat=0, tile=tile, must_play=False), NAMES) == (
        "You draw 2-1 from the boneyard"
    )
    theirs = describe(Drew(seat=1, tile=tile, must_play=True), NAMES)
    assert "2-1" not in theirs and theirs.startswith("West draws from the boneyard")


def test_passes_deals_hand_ends_and_the_winner() -> None:
    assert describe(Passed(seat=1), NAMES).startswith("West passes")
    assert describe(Dealt(hand_number=2, start=0), NAMES) == "Hand 2 dealt; You lead."
    over = HandOver(
        hand_number=1, out_seat=1, pips=(13, 0), penalties=(15, 0), scores=(-15, 40)
    )
    assert describe(over, NAMES) == (
        "West goes out: hand 1 is over. Tiles left count against: You -15."
    )
    won = GameOver(winner=1, scores=(100, 250))
    assert describe(won, NAMES, 0, Rules(players=2)) == (
        "West wins the game: West 250, You 100."
    )
