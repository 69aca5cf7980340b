"""Default seat names: kept as places (no word in any language), worded by the reader."""

from __future__ import annotations

import json

import pytest

from allfives_tui.net.protocol import State
from allfives_tui.net.remote_table import RemoteTable
from allfives_tui.table.places import (
    owner_key,
    person_key,
    person_key_of,
    person_label,
    place_name,
    seat_name,
)
from allfives_tui.table.settings import PERSON, Settings
from allfives_tui.table.table import Table
from allfives_tui.table.words import Names, describe_event
from engine import Dealt, Passed, Rules, apply, new_game, seeded_deal
from engine.record import PLACES, GameRecord, Seat, parse_record

TWO = Rules(players=2)


def test_every_place_has_its_name() -> None:
    assert [place_name(p) for p in PLACES[4]] == ["South", "West", "North", "East"]
    assert seat_name(None, 1, 2) == "North" and seat_name(None, 1, 3) == "West"
    assert seat_name("Ana", 1, 2) == "Ana"


def test_a_new_games_record_keeps_no_word_for_a_default_name() -> None:
    settings = Settings(players=3, levels=["greedy", PERSON, "greedy"], names=["", "", ""])
    table = Table.from_settings(settings)
    data = json.loads(table.record().to_json())
    assert [s["name"] for s in data["seats"]] == [None, None, None]
    assert table.names == ("South", "West", "East")
    given = settings.model_copy(update={"name": "Ana", "names": ["", "Bo", ""]})
    named = Table.from_settings(given)
    assert [s.name for s in named.record().seats] == ["Ana", None, "Bo"]


def test_the_default_first_person_reads_right_for_you_and_for_another() -> None:
    """The old default name "You" made "You's turn"; the default now is the seat's place,
    and *you* is a matter of who reads."""
    alone = Names((None, None), TWO, you=0)
    assert alone.seat(0) == "You" and alone.label(0) == "You"
    assert describe_event(Dealt(hand_number=1, start=0), alone) == "Hand 1 dealt; You lead."
    hot_seat = Names((None, "Ana"), TWO, you=None)  # nobody is "you" at a shared terminal
    assert hot_seat.seat(0) == "South" and hot_seat.label(0) == "South"
    assert describe_event(Passed(seat=0), hot_seat).startswith("South passes")
    other = Names((None, "Ana"), TWO, you=1)
    assert other.seat(0) == "South" and other.label(1) == "Ana (you)"


def test_a_host_sends_no_word_and_a_joiner_words_the_place() -> None:
    state = new_game(TWO)
    state = apply(state, seeded_deal(state, 3)).state
    table = Table(state, (Seat(name="Ana"), Seat(kind="computer", level="greedy")), seed=3)
    message = State(step=1, view=state.view(0), names=("Ana", ""), kinds=("person", "computer"))
    remote = RemoteTable(0, message)
    assert remote.given_names == ("Ana", None) == table.given_names
    assert remote.names == ("Ana", "North")
    assert remote.seats[1].name is None


def test_the_history_knows_a_default_person_by_the_place() -> None:
    assert person_key(None, 0, 2) == "south" and person_key("Ana", 0, 2) == "Ana"
    assert person_label("south") == "South" and person_label("Ana") == "Ana"
    assert owner_key("") == "south" and owner_key("Ana") == "Ana"
    for typed in ("north", "North", " NORTH "):
        assert person_key_of(typed) == "north"
    assert person_key_of("Ana") == "Ana"


@pytest.mark.parametrize(
    ("names", "read"),
    [
        (["You", "North"], [None, None]),  # what allfives 2 wrote by default
        (["South", "North"], [None, None]),
        (["Ana", "North"], ["Ana", None]),
        (["North", "South"], ["North", "South"]),  # a place's name at another place: a name
    ],
)
def test_an_older_records_default_names(names: list[str], read: list[str | None]) -> None:
    record = GameRecord(rules=TWO, seats=(Seat(name="x"), Seat(name="y", kind="computer",
                                                                level="greedy")))
    data = json.loads(record.to_json())
    data["version"] = 2
    for seat, name in zip(data["seats"], names, strict=True):
        seat["name"] = name
    assert [s.name for s in parse_record(json.dumps(data)).seats] == read


def test_the_hosts_seats_keep_no_word_for_a_computer() -> None:
    from allfives_tui.net.hostfiles import SavedSeat
    from allfives_tui.net.seating import Seating

    seating = Seating(3)
    seating.slots[0].name, seating.slots[0].host = "Hana", True
    seats = seating.fill("greedy")
    assert [s.name for s in seats] == ["Hana", None, None]
    assert seating.names() == ("Hana", "West", "East")
    assert [s.name for s in seating.saved("g", "greedy").seats] == ["Hana", None, None]
    # an older host's file named its computers by their places, in English
    old = (SavedSeat(name="Hana", host=True), SavedSeat(name="West", computer=True),
           SavedSeat(name="Bo"))
    seating.restore(old)
    assert [s.name for s in seating.slots] == ["Hana", None, "Bo"]
