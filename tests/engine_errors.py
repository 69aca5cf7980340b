"""One engine error of each kind, made the way a player or a file meets it: every rule's
refusal, every notation problem, every record problem (by its code)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic import ValidationError

from engine import (
    DRAW,
    PASS,
    AllFivesError,
    Deal,
    IllegalActionError,
    NotationError,
    RecordError,
    Rules,
    apply,
    legal_actions,
    new_game,
    parse_action,
    parse_tile,
    seeded_deal,
)
from engine.record import load_game, parse_game
from tests.engine.helpers import dealt, make_deal, play
from tests.records import SMALL_RECORD

TWO = Rules(players=2)
NO_FIVES = ["6-6", "6-4", "6-3", "6-2", "6-1", "6-0", "4-4", "4-3", "4-2"]


def _raised(call: Callable[[], object]) -> AllFivesError:
    with pytest.raises(AllFivesError) as err:
        call()
    return err.value


def refusals() -> dict[str, IllegalActionError]:
    """Each of the engine's refusals (several for a rule that says different things), by a
    name of the case; the acting seat is 0 unless the case says otherwise."""
    led = play(dealt(TWO, [["6-4", "3-3"], ["4-1", "2-2"]]), "6-4").state  # seat 1 to play
    spinner = play(dealt(TWO, [["5-5", "6-5"], ["5-0", "5-4"]]), "5-5", "5-0 E").state
    drawing = play(dealt(TWO, [["5-5"], NO_FIVES], boneyard_first=["2-1", "5-3"]), "5-5").state
    must = play(drawing, "draw", "draw").state
    empty = play(dealt(TWO, [["6-6"], ["1-0"]]), "6-6").state
    won = play(dealt(Rules(players=2, target=10), [["6-4"]]), "6-4").state
    fresh = new_game(TWO)
    good = make_deal(TWO, [])
    after_out = _after_someone_went_out()
    cases: dict[str, Callable[[], object]] = {
        "must-play draw": lambda: apply(led, DRAW),
        "must-play pass": lambda: apply(led, PASS),
        "draw-before-pass": lambda: apply(empty, PASS),
        "own-tile": lambda: apply(led, parse_action("3-3 E")),
        "match-end": lambda: apply(led, parse_action("2-2 E")),
        "match-end without an end": lambda: apply(led, parse_action("4-1")),
        "spinner-sides-first": lambda: apply(spinner, parse_action("6-5 N")),
        "lead": lambda: apply(dealt(TWO, [["6-4"]]), parse_action("6-4 E")),
        "play-drawn-tile": lambda: apply(must, parse_action("2-1 W")),
        "game-over": lambda: apply(won, parse_action("1-0 E")),
        "deal-first": lambda: apply(fresh, DRAW),
        "deal-between-hands": lambda: apply(apply(fresh, good).state, good),
        "deal-tiles twice": lambda: apply(
            fresh, good.model_copy(update={"boneyard": (good.hands[0][0], *good.boneyard[1:])})
        ),
        "deal-tiles missing": lambda: apply(
            fresh, good.model_copy(update={"boneyard": good.boneyard[1:]})
        ),
        "deal-hands": lambda: apply(
            fresh, Deal(hands=(good.hands[0],), boneyard=good.boneyard, start=0)
        ),
        "deal-hand-size": lambda: apply(
            fresh, Deal(hands=(good.hands[0][:8], good.hands[1]), boneyard=good.boneyard, start=0)
        ),
        "start-player no seat": lambda: apply(fresh, good.model_copy(update={"start": 2})),
        "start-player went out": after_out,
    }
    found = {}
    for name, call in cases.items():
        err = _raised(call)
        assert isinstance(err, IllegalActionError), name
        found[name] = err
    return found


def boneyard_empty() -> IllegalActionError:
    """The refusal of a draw from an empty boneyard: the rules core never lets it happen
    in play, so it is made the way the engine makes it."""
    state = play(dealt(TWO, [["6-6"], ["1-0"]]), "6-6").state
    return IllegalActionError(
        "the boneyard is empty", rule="boneyard-empty", seat=state.current, action=DRAW
    )


def _after_someone_went_out() -> Callable[[], object]:
    """A deal that lets the wrong seat start after a hand someone went out of."""
    for seed in range(50):
        state = new_game(Rules(players=2, target=500))
        state = apply(state, seeded_deal(state, seed)).state
        while not state.is_chance:
            state = apply(state, legal_actions(state)[0]).state
        out = state.next_start
        if out is not None:
            return lambda: apply(state, make_deal(state.rules, [], start=1 - out))
    raise AssertionError("nobody went out in 50 seeded hands")


NOTATION_TEXTS: dict[str, object] = {
    "not-text": 53,
    "too-long": "5-3 E" * 100,
    "empty": "   ",
    "not-an-action": "hello there friend",
    "not-an-end": "5-3 Q",
    "deal-without-boneyard": "deal 0 | 6-6 | 5-5",
    "deal-parts": "deal 0 | 6-6 / 1-1",
    "deal-start": "deal x | 6-6 | 5-5 / 1-1",
}
"""Text that does not parse as an action, by the code of its :class:`NotationError`."""
TILE_TEXTS: dict[str, object] = {"not-a-tile": "5+3", "tile-pips": "9-3", "tile-not-text": 7}
"""Text that does not parse as a tile, by the code of its :class:`NotationError`."""


def notation_errors() -> dict[str, NotationError]:
    """Each :class:`NotationError`, by its code (a tile's, too)."""
    found: dict[str, NotationError] = {}
    texts = {**NOTATION_TEXTS, **TILE_TEXTS}
    for code, text in texts.items():
        parse = parse_tile if code in TILE_TEXTS else parse_action
        # some texts are not even str ("tile-not-text" is 7): hostile on purpose
        err = _raised(lambda: parse(text))  # type: ignore[arg-type]  # noqa: B023
        assert isinstance(err, NotationError) and err.code == code, (code, err)
        found[code] = err
    return found


def _small() -> dict[str, object]:
    data = json.loads(SMALL_RECORD)
    assert isinstance(data, dict)
    return data


def _with(**changes: object) -> str:
    return json.dumps({**_small(), **changes})


def _seat_changed(**changes: object) -> str:
    data = _small()
    seats = data["seats"]
    assert isinstance(seats, list)
    seats[0] = {**seats[0], **changes}
    return json.dumps(data)


def _actions(actions: list[str], hand: int = 0) -> str:
    data = _small()
    hands = data["hands"]
    assert isinstance(hands, list)
    hands[hand] = {**hands[hand], "actions": actions}
    return json.dumps(data)


def _deal(**changes: object) -> str:
    data = _small()
    hands = data["hands"]
    assert isinstance(hands, list)
    hands[0] = {**hands[0], "deal": {**hands[0]["deal"], **changes}}
    return json.dumps(data)


RECORD_TEXTS: dict[str, str | bytes] = {
    "empty": "  \n",
    "truncated": SMALL_RECORD[:200],
    "not-json": "{'format': 1}",
    "not-utf8": b'{"format": "\xff\xfe"}',
    "huge-number": '{"n": ' + "9" * 5000 + "}",
    "too-deep": "[" * 100_000 + "]" * 100_000,
    "not-an-object": "[1, 2]",
    "wrong-format": _with(format="chess-pgn"),
    "version-not-a-number": _with(version="two"),
    "version-too-new": _with(version=99),
    "version-unknown": _with(version=0),
    "no-game-id": _with(version=2),
    "too-large": " " * (3 * 1024 * 1024),
    "invalid-field less_than_equal": _with(rules={"players": 9}),
    "invalid-field missing": json.dumps({k: v for k, v in _small().items() if k != "rules"}),
    "invalid-field enum": _with(rules={"players": 2, "hand_size": "huge"}),
    "invalid-field string_too_long": _seat_changed(name="A" * 50),
    "invalid-field too_long": _deal(hands=[[]] * 5),
    "invalid-field extra_forbidden": _seat_changed(colour="red"),
    "invalid-field int_parsing": _deal(start="one"),
    "invalid-field int_type": _deal(start=[1]),
    "invalid-field control-characters": _seat_changed(name="An\x1bn"),
    "invalid-field level-not-computer": _seat_changed(kind="person", level="greedy"),
    "invalid-field computer-without-level": json.dumps(
        {**_small(), "version": 2, "game_id": "abc",
         "seats": [{"name": "A", "kind": "computer"}, {"name": "B"}]}
    ),
    "invalid-field seats-for-players": _with(seats=[{"name": "Ann"}]),
    "invalid-field partnerships-of-four": _with(
        rules={"players": 2, "partnerships": True, "hand_size": "five-each", "target": 30}
    ),
    "invalid-field greater_than_equal": _with(
        rules={"players": 2, "hand_size": "five-each", "target": -5}
    ),
    "invalid-field target-too-high": _with(
        rules={"players": 2, "hand_size": "five-each", "target": 10**6}
    ),
    "invalid-field target-multiple-of-5": _with(
        rules={"players": 2, "hand_size": "five-each", "target": 31}
    ),
    "invalid-field game-seed": _with(seed=-1),
    "invalid-field not-a-tile": _deal(boneyard=["x" * 20]),
    "invalid-field tile-pips": _deal(boneyard=["8-8"]),
    "bad-deal": _deal(start=3),
    "illegal-action": _actions(["6-4", "3-3 E"]),
    "illegal-action not-an-end": _actions(["6-4", "6-6 Q"]),
    "illegal-action deal-as-move": _actions(["6-4", "deal 0 | 6-6 | 5-5 / 1-1"]),
    "after-hand-over": _actions(
        ["6-4", "6-6 E", "4-2 W", "6-1 E", "2-2 W", "2-1 W", "3-1 W", "4-3 W",
         "draw", "1-0 E", "draw", "draw", "4-4 W", "0-0 E", "draw"]
    ),
    "after-game-over": _actions(["5-5", "5-0 E", "0-0 E", "draw"], hand=1),
    "hand-not-over": _actions(["6-4"]),
}
"""Record text with one problem, by its code; a second word names what lies behind it (the
code of its ``cause``, else the type of the pydantic error it ``invalid``)."""


def record_errors(folder: Path) -> dict[str, RecordError]:
    """Each :class:`RecordError` of a record's text or file, by its code (see
    :data:`RECORD_TEXTS`; files in ``folder`` for the problems of a file)."""
    found: dict[str, RecordError] = {}
    for name, text in RECORD_TEXTS.items():
        err = _raised(lambda: parse_game(text))  # noqa: B023
        assert isinstance(err, RecordError), name
        code, *behind = name.split()
        assert err.code == code, (name, err.code, str(err))
        if behind:
            found_behind = err.cause.code if err.cause else (err.invalid or {}).get("type")
            assert found_behind == behind[0], (name, found_behind, str(err))
        found[name] = err
    (folder / "a folder").mkdir()
    files = {"no-such-file": folder / "nothing.json", "is-a-folder": folder / "a folder"}
    for code, path in files.items():
        err = _raised(lambda: load_game(path))  # noqa: B023
        assert isinstance(err, RecordError) and err.code == code, (code, str(err))
        found[code] = err
    nul = _raised(lambda: load_game("bad\0name.json"))
    assert isinstance(nul, RecordError) and nul.code == "name-with-nul", str(nul)
    found["name-with-nul"] = nul
    return found


def check_errors() -> dict[str, AllFivesError]:
    """Each error of the engine's checks of a value (outside a record too), by its code."""
    from engine import End, HandSize, Tile
    from engine.match import MatchConfig, check_workers
    from engine.players.expert import ExpertPlayer, check_budget, check_playouts
    from engine.players.montecarlo import MonteCarloPlayer
    from engine.rng import check_game_seed

    calls: list[Callable[[], object]] = [
        lambda: HandSize("huge"),
        lambda: End("Z"),
        lambda: check_game_seed(-1),
        lambda: check_budget("x"),
        lambda: check_budget(-1.0),
        lambda: check_playouts(0),
        lambda: MatchConfig(entrants=("nope", "random")),
        lambda: MatchConfig(entrants=("random",) * 3, partnerships=True),
        lambda: MatchConfig(entrants=("random",)),
        lambda: MatchConfig(entrants=("random", "random"), games=0),
        lambda: MatchConfig(entrants=("random", "random"), budget=1e9),
        lambda: MatchConfig(entrants=("random", "random"), playouts=10**12),
        lambda: MatchConfig(entrants=("greedy@1", "random")),
        lambda: MatchConfig(entrants=("expert@-1", "random")),
        lambda: MatchConfig(entrants=("expert@1e9", "random")),
        lambda: check_workers("x"),
        lambda: check_workers(0),
        lambda: check_workers(10**6),
        lambda: ExpertPlayer(budget=None, playouts=None),
        lambda: MonteCarloPlayer(budget=None, playouts=None),
    ]
    found: dict[str, AllFivesError] = {}
    for call in calls:
        err = _raised(call)
        assert err.code, str(err)
        found.setdefault(err.code, err)
    tiles: list[Callable[[], object]] = [
        lambda: Tile(high=9, low=1), lambda: Tile.model_validate([1, "x"])
    ]
    for make in tiles:
        with pytest.raises(ValidationError) as refused:
            make()
        cause = refused.value.errors()[0]["ctx"]["error"]  # the engine's check behind pydantic
        assert isinstance(cause, AllFivesError)
        found[cause.code] = cause
    return found
