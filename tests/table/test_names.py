"""The one name rule: the settings, a client's hello and ``join --name`` agree."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pydantic import ValidationError

from allfives_tui.net.protocol import Hello
from allfives_tui.table.names import NAME_MAX, player_name
from allfives_tui.table.settings import Settings


@pytest.mark.parametrize(
    ("given", "kept"), [("Ana", "Ana"), ("  Ana   Lu ", "Ana Lu"), ("x" * NAME_MAX, "x" * NAME_MAX)]
)
def test_a_name_is_kept_with_its_blanks_collapsed(given: str, kept: str) -> None:
    assert player_name(given) == kept
    assert Settings(name=given).name == kept
    assert Hello(version=2, name=given).name == kept


@pytest.mark.parametrize(
    ("given", "why"),
    [
        ("   ", "the name is empty"),
        ("x" * (NAME_MAX + 1), f"a name has at most {NAME_MAX} characters"),
        ("Ana\x1b[2J", "a name cannot hold control characters"),
    ],
)
def test_every_front_door_refuses_a_bad_name_in_the_same_words(given: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        player_name(given)
    makes: list[Callable[[], object]] = [lambda: Hello(version=2, name=given)]
    if given.strip():  # a blank name in the settings is the default name (its place's)
        makes.append(lambda: Settings(name=given))
    for make in makes:
        with pytest.raises(ValidationError) as caught:
            make()
        assert why in str(caught.value.errors()[0]["msg"])


def test_a_blank_seat_name_means_the_seats_place() -> None:
    assert Settings(names=["", " Bo ", ""]).names == ["", "Bo", ""]
    assert Settings(name="  ").name == ""


def test_the_old_default_name_is_read_as_the_default() -> None:
    """Older allfives remembered the first person as "You": that is the default name."""
    assert Settings(name="You").name == "" and Settings().name == ""
    assert Settings(name="Ana").seats()[0].name == "Ana"
    assert Settings(name="You").seats()[0].name is None
