"""One wording: every event in one sentence, verbs agreeing by seat, names safe to print."""

from __future__ import annotations

from allfives_tui.coach import ratings
from allfives_tui.table.words import (
    LABELS,
    Names,
    describe_event,
    game_over_title,
    hand_over_title,
    label_count,
    labels_line,
    move_words,
    one_line,
    printable,
    win_lost,
)
from engine import Dealt, Drew, End, GameOver, HandOver, Passed, Placed, Rules, parse_tile

TWO = Rules(players=2)
YOU_AND_WEST = Names(("Ana", "West"), TWO, you=0)


def test_placements_say_the_end_the_total_and_the_points() -> None:
    event = Placed(seat=1, tile=parse_tile("5-3"), end=End.E, total=15, points=15)
    assert describe_event(event, YOU_AND_WEST) == (
        "West plays 5-3 on the east end — ends total 15: +15."
    )
    lead = Placed(seat=0, tile=parse_tile("6-4"), end=None, total=10, points=10)
    assert describe_event(lead, YOU_AND_WEST) == "You lead 6-4 — ends total 10: +10."
    quiet = Placed(seat=0, tile=parse_tile("4-3"), end=End.N, total=13, points=0)
    assert describe_event(quiet, YOU_AND_WEST) == "You play 4-3 on the north end — ends total 13."


def test_verbs_agree_by_seat_not_by_name() -> None:
    """A seat *named* "You" that is not you reads in the third person; you, whatever
    your name, in the second."""
    names = Names(("Ana", "You"), TWO, you=0)
    dealt = Dealt(hand_number=1, start=1)
    assert describe_event(dealt, names) == "Hand 1 dealt; You leads."
    assert describe_event(Dealt(hand_number=1, start=0), names) == "Hand 1 dealt; You lead."
    onlooker = Names(("Ana", "West"), TWO, you=None)
    assert describe_event(Dealt(hand_number=3, start=0), onlooker) == "Hand 3 dealt; Ana leads."
    assert describe_event(Passed(seat=0), YOU_AND_WEST).startswith("You pass:")
    assert describe_event(Passed(seat=1), YOU_AND_WEST).startswith("West passes:")


def test_only_the_drawers_own_draws_are_named_unless_revealed() -> None:
    tile = parse_tile("2-1")
    mine = Drew(seat=0, tile=tile, must_play=False)
    assert describe_event(mine, YOU_AND_WEST) == "You draw 2-1 from the boneyard."
    theirs = Drew(seat=1, tile=tile, must_play=True)
    hidden = describe_event(theirs, YOU_AND_WEST)
    assert hidden == "West draws a tile from the boneyard: it fits and must be played."
    assert "2-1" in describe_event(theirs, YOU_AND_WEST, reveal=True)
    assert "2-1" in describe_event(theirs, YOU_AND_WEST, viewer=1)
    assert "2-1" not in describe_event(mine, YOU_AND_WEST, viewer=1)


def test_passes_hand_ends_and_the_winner() -> None:
    assert describe_event(Passed(seat=1), YOU_AND_WEST) == (
        "West passes: nothing fits and the boneyard is empty."
    )
    over = HandOver(hand_number=1, out_seat=1, pips=(13, 0), penalties=(15, 0), scores=(-15, 40))
    assert describe_event(over, YOU_AND_WEST) == (
        "West goes out: hand 1 is over. Left in hand: You 13 pips, -15. "
        "Scores: You -15, West 40."
    )
    blocked = HandOver(hand_number=2, out_seat=None, pips=(0, 0), penalties=(0, 0), scores=(5, 5))
    assert describe_event(blocked, YOU_AND_WEST) == "Hand 2 is blocked. Scores: You 5, West 5."
    won = GameOver(winner=1, scores=(100, 250))
    assert describe_event(won, YOU_AND_WEST) == "West wins the game: West 250, You 100."
    assert describe_event(GameOver(winner=0, scores=(250, 5)), YOU_AND_WEST).startswith(
        "You win the game"
    )


def test_partnerships_name_both_partners_and_take_the_plural() -> None:
    four = Rules(players=4, partnerships=True)
    names = Names(("Ana", "West", "North", "East"), four, you=0)
    assert names.team(0) == "You & North"
    assert names.team(1) == "West & East"
    assert describe_event(GameOver(winner=1, scores=(120, 200)), names) == (
        "West & East win the game: West & East 200, You & North 120."
    )
    # *your* side wins in its own sentence: "you and North", never "You & North win"
    assert describe_event(GameOver(winner=0, scores=(200, 120)), names) == (
        "You and North win the game: You & North 200, West & East 120."
    )
    assert game_over_title(names, 0) == "You and North win the game!"
    partner_of_ana = Names(("Ana", "West", "Cy", "East"), four, you=2)
    assert game_over_title(partner_of_ana, 0) == "You and Ana win the game!"
    onlooker = Names(("Ana", "West", "North", "East"), four, you=None)
    assert game_over_title(onlooker, 0) == "Ana & North win the game."
    assert game_over_title(names, 1) == "West & East win the game."
    assert game_over_title(Names(("Ana", "North"), TWO, you=0), 0) == "You win the game!"
    assert game_over_title(Names(("Ana", "North"), TWO, you=0), 1) == "North wins the game."


def test_headlines_and_the_plain_names_helper() -> None:
    over = HandOver(hand_number=4, out_seat=0, pips=(0, 9), penalties=(0, 10), scores=(60, 30))
    assert hand_over_title(YOU_AND_WEST, over) == "Hand 4: you went out."
    theirs = HandOver(hand_number=4, out_seat=1, pips=(9, 0), penalties=(10, 0), scores=(0, 10))
    assert hand_over_title(YOU_AND_WEST, theirs) == "Hand 4: West went out."
    # a seat *named* "You" that is not you is named, in the third person
    assert hand_over_title(Names(("Ana", "You"), TWO, you=0), theirs) == "Hand 4: You went out."
    blocked = HandOver(hand_number=5, out_seat=None, pips=(3, 9), penalties=(5, 10), scores=(0, 0))
    assert hand_over_title(YOU_AND_WEST, blocked) == "Hand 5 is blocked: nobody can play."
    # ``Names.of`` reads plain names for the viewer
    assert describe_event(Dealt(hand_number=2, start=1), Names.of(("Ana", "West"), TWO, 0)) == (
        "Hand 2 dealt; West leads."
    )


def test_names_from_files_cannot_drive_the_terminal() -> None:
    names = Names.of(("Ana\x1b[2J", "Bo\nb"), TWO, you=None)
    assert names.seat(0) == "Ana?[2J" and names.seat(1) == "Bo?b"
    assert printable("a\tb") == "a?b"
    assert one_line("the\n target \x1b is  bad") == "the target ? is bad"
    assert one_line("x" * 400) == "x" * 299 + "…"


def test_labels_mark_you_once() -> None:
    names = Names(("Ana", "West"), TWO, you=0)
    assert names.label(0) == "Ana (you)" and names.label(1) == "West"
    assert Names((None, "West"), TWO, you=0).label(0) == "You"  # the default name, unmarked
    assert Names((None, None), TWO, you=1).label(0) == "South"  # another's default: its place
    assert Names((None, None), TWO, you=1).label(1) == "You"
    assert Names(("Ana", "West"), TWO, you=None).label(0) == "Ana"


def test_a_ratings_words() -> None:
    assert LABELS == ratings.LABELS  # every label the coach gives has its words
    assert labels_line({"inaccuracy": 2, "mistake": 1}) == "2 inaccuracies, 1 mistake, 0 blunders"
    assert label_count("blunder", 1) == "1 blunder"
    assert win_lost(0.0234) == "-2.3% win" and win_lost(0.0) == "-0.0% win"
    assert move_words("pass") == "pass" and move_words("6-4 W") == "6-4 W"
