"""The game screen's Choices and words, read from a real table without an app."""

from __future__ import annotations

from allfives_tui.table.table import Table
from allfives_tui.ui.screens.game_choices import Choices
from allfives_tui.ui.screens.game_words import cannot_play, prompt_text, why_not
from engine import Draw, End, Play, parse_tile
from tests.records import two_ends_record


def led_table() -> Table:
    """North has led the 5-5 spinner; you hold 5-3, which fits its west and east."""
    table = Table.from_record(two_ends_record())
    table.act(1, Play(tile=parse_tile("5-5")))
    return table


def test_your_choices_after_the_lead() -> None:
    five_three = parse_tile("5-3")
    choices = Choices(led_table(), 0)
    assert choices.human_turn
    assert choices.hand[0] == parse_tile("6-0"), "highest first"
    assert choices.playable == {five_three}
    assert choices.ends_to_choose(five_three) == (End.W, End.E)
    assert choices.selected_tile == parse_tile("6-0")
    assert choices.hand[choices.fixed_selection()] == five_three, "onto the one that fits"
    assert (choices.allows("play"), choices.allows("draw"), choices.allows("pass_turn")) == (
        True,
        None,
        None,
    )
    assert choices.allows("end") is None and choices.allows("cancel") is False
    assert choices.allows("hint") is True, "two moves (one tile, two ends): a hint helps"
    assert cannot_play(choices, parse_tile("0-0")) == (
        "0-0 fits no open end: choose a highlighted tile."
    )
    assert why_not(choices, "draw") == "A tile fits an open end: you draw only when nothing fits."


def test_choosing_an_end() -> None:
    table = led_table()
    choosing = Choices(table, 0, selected=1, choosing=(End.W, End.E), cursor=1)
    assert choosing.allows("end") is True and choosing.allows("cancel") is True
    assert choosing.allows("pick") is None, "no other tile while an end is chosen"
    assert prompt_text(choosing).startswith("⏎ plays 5-3 on the east end (no score)")
    assert prompt_text(choosing, 40) == "⏎ plays 5-3 on the east end (no score)"


def test_nobody_viewing_and_another_seats_turn() -> None:
    table = Table.from_record(two_ends_record())
    hidden = Choices(table, None)
    assert hidden.hand == [] and hidden.legal == () and not hidden.human_turn
    yours = Choices(table, 0)
    assert not yours.human_turn and yours.allows("play") is None
    assert yours.allows("next") is True, "your tiles may be looked over meanwhile"
    north = table.names[1]
    assert why_not(yours, "draw") == f"{north} is thinking: wait for your turn."
    assert not yours.can(Draw)
