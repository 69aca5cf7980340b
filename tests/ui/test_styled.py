"""A translated message as Rich text: its words in one style, its placeholders in theirs."""

from __future__ import annotations

import pytest
from rich.text import Span

from allfives_tui.ui.styled import styled


def test_placeholders_take_their_own_style_and_the_words_the_messages() -> None:
    text = styled("Hand {hand} · to {target}", "dim", hand=("3", "bold"), target="150")
    assert text.plain == "Hand 3 · to 150"
    assert text.spans == [Span(0, 5, "dim"), Span(5, 6, "bold"), Span(6, 15, "dim")]


def test_the_words_style_changes_after_a_placeholder_wherever_the_language_puts_it() -> None:
    english = styled("{loss} ({points} points)", after={"loss": "italic"}, loss=("-2%", "bold"),
                     points="1.0")
    assert english.plain == "-2% (1.0 points)"
    assert english.spans == [Span(0, 3, "bold"), Span(3, 16, "italic")]
    # a language that says the points first: only what follows the loss is in italics
    other = styled("{points} Punkte ({loss})", after={"loss": "italic"}, loss=("-2%", "bold"),
                   points="1,0")
    assert other.plain == "1,0 Punkte (-2%)"
    assert other.spans == [Span(12, 15, "bold"), Span(15, 16, "italic")]


def test_neighbours_of_one_style_are_one_span_and_a_missing_value_is_an_error() -> None:
    text = styled("{side} {score}", "bold", after={"score": ""}, side="Ana", score=("40", ""))
    assert text.plain == "Ana 40" and text.spans == [Span(0, 4, "bold")]
    with pytest.raises(KeyError):
        styled("{side} {score}", side="Ana")
