"""Record format versions: version 1 and 2 files still load, version 3 round-trips with its
game id, seats of every kind and default names, and every rejection is one clear RecordError."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine import RecordError, Rules, apply, legal_actions, new_game, seeded_deal
from engine.record import (
    UNKNOWN_LEVEL,
    VERSION,
    GameRecord,
    Seat,
    derived_game_id,
    load,
    parse_record,
    save,
)
from engine.rng import Rng
from engine.state import GameState
from tests.records import DATA

V1_FILES = sorted(DATA.glob("*.json"))
HEX32 = re.compile(r"^[0-9a-f]{32}$")
SEATS = (
    Seat(name="Ada"),
    Seat(name="Bot", kind="computer", level="expert"),
    Seat(name="Cy", kind="remote"),
)


CREATED = "2026-03-01T12:00:00+00:00"


def played(actions: int, seed: int = 3, players: int = 3) -> GameState:
    rng = Rng(seed)
    state = new_game(Rules(players=players))
    for _ in range(actions):
        if state.is_terminal:
            break
        if state.is_chance:
            state = apply(state, seeded_deal(state, seed)).state
        else:
            legal = legal_actions(state)
            state = apply(state, legal[rng.below(len(legal))]).state
    return state


def v1_text(actions: int = 40, seats: list[dict[str, Any]] | None = None) -> str:
    """A version 1 file as allfives 1 wrote it (no game id, "human" seats).

    Its creation time is fixed, as every save of one game keeps it: a default of
    now would give two calls either side of a second different ids."""
    record = GameRecord.from_state(played(actions), SEATS, seed=3, created=CREATED)
    data = json.loads(record.to_json())
    data["version"] = 1
    del data["game_id"]
    data["seats"] = seats or [
        {"name": "Ada", "kind": "human", "level": None},
        {"name": "Bot", "kind": "computer", "level": "expert"},
        {"name": "Cy", "kind": "human", "level": None},
    ]
    return json.dumps(data, indent=1)


def rejection(data: dict[str, Any] | str) -> str:
    with pytest.raises(RecordError) as err:
        parse_record(data if isinstance(data, str) else json.dumps(data))
    return str(err.value)


# -- version 1 -----------------------------------------------------------------------


@pytest.mark.parametrize("path", V1_FILES, ids=[p.name for p in V1_FILES])
def test_version_1_fixtures_load_as_version_3(path: Path, tmp_path: Path) -> None:
    raw = json.loads(path.read_text())
    assert raw["version"] == 1 and "game_id" not in raw
    record = load(path)
    assert record.version == VERSION == 3
    assert HEX32.match(record.game_id)
    assert record.game_id == derived_game_id(raw)
    assert load(path).game_id == record.game_id  # the same file, the same id
    assert all(s.kind in ("person", "computer") for s in record.seats)
    assert [s.name for s in record.seats] == [s["name"] for s in raw["seats"]]
    # Saved again it is a version 3 file of the same game, and reads back unchanged.
    saved = save(record, tmp_path / path.name)
    data = json.loads(saved.read_text())
    assert data["version"] == 3 and data["game_id"] == record.game_id
    assert {s["kind"] for s in data["seats"]} <= {"person", "computer"}
    assert "human" not in saved.read_text()
    assert load(saved) == record
    assert load(saved).final_state() == record.final_state()


def test_version_1_human_becomes_person_and_a_computer_keeps_its_level() -> None:
    record = parse_record(v1_text())
    assert [(s.kind, s.level) for s in record.seats] == [
        ("person", None),
        ("computer", "expert"),
        ("person", None),
    ]
    assert all(s.take_backs == 0 for s in record.seats)
    assert record.seats[0].is_person and record.seats[1].is_computer


def test_version_1_oddities_are_read_not_refused() -> None:
    """Version 1 allowed a human with a level, a computer without one, and no kind."""
    seats = [
        {"name": "Ada", "level": "greedy"},
        {"name": "Bot", "kind": "computer"},
        {"name": "Cy", "kind": "human", "level": "expert"},
    ]
    record = parse_record(v1_text(seats=seats))
    assert [(s.kind, s.level) for s in record.seats] == [
        ("person", None),
        ("computer", UNKNOWN_LEVEL),
        ("person", None),
    ]


def test_a_version_1_game_keeps_one_id_from_save_to_save() -> None:
    """The derived id hashes only what every save of one game shares, so an earlier
    and a later save of a version 1 game get the same id, however the file is spelled."""
    early = parse_record(v1_text(actions=12))
    late = parse_record(v1_text(actions=200))
    assert len(late.hands) > len(early.hands) or late.action_count > early.action_count
    assert early.game_id == late.game_id
    # Spelling: key order, whitespace and tile notation do not matter.
    data = json.loads(v1_text(actions=12))
    data["hands"][0]["deal"]["hands"][0] = [
        "-".join(reversed(t.split("-"))) for t in data["hands"][0]["deal"]["hands"][0]
    ]
    respelled = json.dumps(dict(reversed(list(data.items()))))
    assert parse_record(respelled).game_id == early.game_id
    # Another game (another seed and deal, or another creation time) gets another id.
    other = json.loads(GameRecord.from_state(played(12, seed=4), SEATS, seed=4).to_json())
    other["version"] = 1
    del other["game_id"]
    other["seats"] = json.loads(v1_text())["seats"]
    assert parse_record(json.dumps(other)).game_id != early.game_id
    data = json.loads(v1_text(actions=12))
    data["created"] = "2001-01-01T00:00:00+00:00"
    assert parse_record(json.dumps(data)).game_id != early.game_id


def test_a_version_1_file_with_an_unknown_kind_is_refused() -> None:
    data = json.loads(v1_text())
    data["seats"][0]["kind"] = "alien"
    message = rejection(data)
    assert message.startswith("invalid record at seats.0.kind: Input should be 'person'")


# -- version 2 -----------------------------------------------------------------------


def v2_text(names: list[str], kinds: tuple[str, ...] = ("person", "computer", "person")) -> str:
    """A version 2 file with these seat names, as allfives 2 wrote it."""
    record = GameRecord.from_state(played(20), SEATS, seed=3, created=CREATED)
    data = json.loads(record.to_json())
    data["version"] = 2
    data["seats"] = [
        {"name": name, "kind": kind, "level": "greedy" if kind == "computer" else None,
         "take_backs": 0}
        for name, kind in zip(names, kinds, strict=True)
    ]
    return json.dumps(data)


def test_version_2_default_names_are_read_as_the_places_default() -> None:
    """allfives 2 named a computer, and a person left unnamed, by its place in English,
    and the first person "You": those are read as the default name of the seat."""
    record = parse_record(v2_text(["You", "West", "East"]))
    assert record.version == 3
    assert [s.name for s in record.seats] == [None, None, None]
    assert [record.seat_name(i) for i in range(3)] == ["South", "West", "East"]
    assert json.loads(record.to_json())["seats"][1]["name"] is None
    # a place's name elsewhere, "You" at another seat or for a computer, and any other
    # name are names
    kept = parse_record(v2_text(["East", "You", "Ann"], ("person", "person", "person")))
    assert [s.name for s in kept.seats] == ["East", "You", "Ann"]
    computer = parse_record(v2_text(["You", "Bob", "Cy"], ("computer", "person", "person")))
    assert computer.seats[0].name == "You"
    assert parse_record(v2_text(["South", "Bob", "Cy"])).seats[0].name is None


def test_a_version_1_file_is_read_as_version_3_by_way_of_2() -> None:
    seats = [
        {"name": "You", "kind": "human"},
        {"name": "West", "kind": "computer", "level": "expert"},
        {"name": "Cy", "kind": "human"},
    ]
    record = parse_record(v1_text(seats=seats))
    assert [s.name for s in record.seats] == [None, None, "Cy"]
    # the game id is still derived from the names as version 1 wrote them
    assert record.game_id == derived_game_id(json.loads(v1_text(seats=seats)))


# -- version 3 -----------------------------------------------------------------------


def test_version_3_round_trips_with_every_kind_of_seat(tmp_path: Path) -> None:
    seats = (
        Seat(name="Ada", take_backs=2),
        Seat(name="Bot", kind="computer", level="expert"),
        Seat(kind="remote"),
    )
    state = played(50)
    record = GameRecord.from_state(state, seats, seed=3)
    data = json.loads(record.to_json())
    assert data["version"] == 3 and HEX32.match(data["game_id"])
    assert data["seats"] == [
        {"name": "Ada", "kind": "person", "level": None, "take_backs": 2},
        {"name": "Bot", "kind": "computer", "level": "expert", "take_backs": 0},
        {"name": None, "kind": "remote", "level": None, "take_backs": 0},
    ]
    assert record.seat_name(2) == "East"
    assert parse_record(record.to_json()) == record
    path = save(record, tmp_path / "game.json")
    assert load(path) == record
    assert load(path).final_state() == state


def test_the_game_id_is_kept_across_saves_of_one_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    first = GameRecord.from_state(played(10), SEATS, seed=3)
    save(first, path)
    game_id = load(path).game_id
    assert game_id == first.game_id
    # Later saves of the same game pass the id on; the file keeps it.
    for actions in (20, 45, 90):
        save(GameRecord.from_state(played(actions), SEATS, seed=3, game_id=game_id), path)
        assert load(path).game_id == game_id
    # Saving a loaded record again changes nothing.
    save(load(path), path)
    assert load(path).game_id == game_id
    # A new game gets a new id.
    ids = {GameRecord.from_state(played(10), SEATS).game_id for _ in range(5)}
    assert len(ids) == 5 and game_id not in ids


def test_human_is_read_as_person_and_written_as_person() -> None:
    seat = Seat(name="Ada", kind="human")
    assert seat.kind == "person"
    data = json.loads(GameRecord.from_state(played(5), SEATS).to_json())
    data["seats"][0]["kind"] = "human"
    record = parse_record(json.dumps(data))
    assert record.seats[0].kind == "person"
    assert '"human"' not in record.to_json()


def test_seat_rules_in_python() -> None:
    with pytest.raises(ValueError, match="a computer seat needs its level"):
        Seat(name="Bot", kind="computer")
    with pytest.raises(ValueError, match="only a computer seat has a level"):
        Seat(name="Ada", level="expert")
    with pytest.raises(ValueError, match="only a computer seat has a level"):
        Seat(name="Cy", kind="remote", level="expert")
    with pytest.raises(ValueError, match="greater than or equal to 0"):
        Seat(name="Ada", take_backs=-1)
    with pytest.raises(ValueError, match="1 seat for 3 players"):
        GameRecord.from_state(played(5), SEATS[:1])


def v2(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GameRecord.from_state(played(30), SEATS, seed=3).to_json())
    data.update(changes)
    return data


def seats_with(index: int, **changes: Any) -> list[dict[str, Any]]:
    seats: list[dict[str, Any]] = v2()["seats"]
    seats[index] = {**seats[index], **changes}
    return seats


REJECTIONS: list[tuple[str, dict[str, Any] | str, str]] = [
    (
        "version 4",
        v2(version=4),
        "the record is version 4, newer than this allfives reads (3): upgrade allfives",
    ),
    (
        "version 99",
        v2(version=99),
        "the record is version 99, newer than this allfives reads (3): upgrade allfives",
    ),
    ("version 0", v2(version=0), "unknown record version 0"),
    ("version -1", v2(version=-1), "unknown record version -1"),
    ("version as text", v2(version="2"), "the record's version '2' is not a number"),
    ("version true", v2(version=True), "the record's version True is not a number"),
    ("version 2.0", v2(version=2.0), "the record's version 2.0 is not a number"),
    ("no version", {k: v for k, v in v2().items() if k != "version"}, "the record's version"),
    (
        "no game id",
        {k: v for k, v in v2().items() if k != "game_id"},
        "invalid record at game_id: a version 3 record needs its game id",
    ),
    ("empty game id", v2(game_id=""), "invalid record at game_id: String should match"),
    ("odd game id", v2(game_id="../../etc"), "invalid record at game_id: String should match"),
    ("number game id", v2(game_id=7), "invalid record at game_id: Input should be a valid string"),
    (
        "unknown kind",
        v2(seats=seats_with(0, kind="robot")),
        "invalid record at seats.0.kind: Input should be 'person', 'computer' or 'remote'",
    ),
    (
        "computer without level",
        v2(seats=seats_with(1, level=None)),
        "invalid record at seats.1: a computer seat needs its level",
    ),
    (
        "person with level",
        v2(seats=seats_with(0, level="greedy")),
        "invalid record at seats.0: only a computer seat has a level, not a person's",
    ),
    (
        "remote with level",
        v2(seats=seats_with(2, level="greedy")),
        "invalid record at seats.2: only a computer seat has a level, not a remote's",
    ),
    (
        "empty level",
        v2(seats=seats_with(1, level="")),
        "invalid record at seats.1.level: String should have at least 1 character",
    ),
    (
        "negative take-backs",
        v2(seats=seats_with(0, take_backs=-1)),
        "invalid record at seats.0.take_backs: Input should be greater than or equal to 0",
    ),
    (
        "take-backs as text",
        v2(seats=seats_with(0, take_backs="many")),
        "invalid record at seats.0.take_backs: Input should be a valid integer",
    ),
    (
        "unknown seat field",
        v2(seats=seats_with(0, colour="red")),
        "invalid record at seats.0.colour: Extra inputs are not permitted",
    ),
    ("unknown field", v2(extra=1), "invalid record at extra: Extra inputs are not permitted"),
    (
        "control characters in created",
        v2(created="2026\x1b[2J"),
        "invalid record at created: control characters are not allowed",
    ),
    ("seats", v2(seats=v2()["seats"][:2]), "the record has 2 seats for 3 players"),
    (
        "huge number",
        '{"format": "allfives-record", "version": 1' + "0" * 5000 + "}",
        "not a game record: it holds a number thousands of digits long",
    ),
]


@pytest.mark.parametrize(
    ("data", "problem"), [r[1:] for r in REJECTIONS], ids=[r[0] for r in REJECTIONS]
)
def test_every_rejection_is_one_clear_record_error(
    data: dict[str, Any] | str, problem: str
) -> None:
    assert rejection(data).startswith(problem)


def test_model_validate_also_reads_version_1_and_refuses_newer() -> None:
    """Code validating record data itself gets the same upgrade and the same words."""
    raw = json.loads(v1_text())
    record = GameRecord.model_validate(raw)
    assert record == parse_record(v1_text())
    with pytest.raises(ValueError, match=r"newer than this allfives reads \(3\)"):
        GameRecord.model_validate({**raw, "version": 4})
