"""Under the pseudo-locale, what the engine reports reaches a player in catalog words: every
rule's refusal (for you and for another seat), every notation and record problem, every
pydantic error a record can hold, and the command line's line for a bad file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from allfives_tui.cli import main
from allfives_tui.locale import use_language
from allfives_tui.table.problems import (
    NO_HANDS,
    STORED_DAMAGED,
    problem_text,
    validation_text,
)
from allfives_tui.table.table import NotYourTurnError, TakeBackError
from allfives_tui.table.words import Names
from engine import IllegalActionError, RecordError, Rules
from engine.errors import AllFivesError
from engine.players import LEVELS
from tests.engine_errors import (
    RECORD_TEXTS,
    boneyard_empty,
    check_errors,
    notation_errors,
    record_errors,
    refusals,
)
from tests.locale.pseudo import unmarked

_QUOTED = re.compile(r"(?<!\w)'[^']*'(?!\w)")
NAMES = ("Ana", "Bo")
PERSONAL = {"must-play", "own-tile", "deal-hand-size", "start-player", "turn", "take-back"}
"""The rules whose refusal names the seat it concerns (or addresses you)."""


def shown_of_the_file(text: str) -> str:
    """``text`` without what it quotes of a file or an action (the player's own text); the
    pseudo-locale's padding (``ŵ``) goes first, so a quote that ends a message is seen."""
    return _QUOTED.sub("", text.replace("ŵ", ""))


def table_refusals() -> list[IllegalActionError]:
    """The table's own refusals (a turn, a take-back, an answer too late)."""
    take_back = [
        TakeBackError("x", rule="take-back", seat=0, details={"reason": reason})
        for reason in ("moves-stand", "hand-over", "not-moved")
    ]
    return [
        NotYourTurnError("x", rule="turn", seat=0),
        *take_back,
        IllegalActionError("x", rule="stale"),
        IllegalActionError("x", rule="deal"),
        IllegalActionError("x", rule="take_back"),
    ]


def test_every_refusal_for_you_for_another_and_in_a_record(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    errors = [*refusals().values(), boneyard_empty(), *table_refusals()]
    for err in errors:
        seen = set()
        for you in (0, 1, None):
            for names in (Names(NAMES, Rules(players=2), you=you), None):
                text = problem_text(err, names)
                assert unmarked(shown_of_the_file(text), set(NAMES)) == [], (err.rule, text)
                seen.add(text)
        if err.seat is not None and err.rule in PERSONAL and err.details.get("reason") in (
            None, "not-moved"
        ):
            assert len(seen) == 3, (err.rule, seen)  # you, a name, a record's seat


def test_refusals_address_you_in_english() -> None:
    found = refusals()
    you = Names(NAMES, Rules(players=2), you=1)
    other = Names(NAMES, Rules(players=2), you=0)
    assert problem_text(found["must-play draw"], you) == "you can play, so you may not draw"
    assert problem_text(found["must-play pass"], other) == "Bo can play, so may not pass"
    assert problem_text(found["own-tile"], you) == "you do not hold 3-3"
    assert problem_text(found["own-tile"]) == "seat 1 does not hold 3-3"
    assert problem_text(found["match-end"], you) == (
        "2-2 does not match the east end, which needs a 6"
    )


def test_every_notation_problem(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    for code, err in notation_errors().items():
        text = problem_text(err)
        assert unmarked(shown_of_the_file(text)) == [], (code, text)


def test_every_record_problem(pseudo_locale: str, tmp_path: Path) -> None:
    found = record_errors(tmp_path)
    front = [
        RecordError("x", code=NO_HANDS, details={"to": "resume"}),
        RecordError("x", code=NO_HANDS, details={"to": "replay"}),
        RecordError("x", code=STORED_DAMAGED),
    ]
    use_language(pseudo_locale)
    for name, err in [*found.items(), *((e.code, e) for e in front)]:
        text = problem_text(err)
        where = str(err.details.get("where", ""))
        tokens = set(re.findall(r"[A-Za-z]+", where))
        assert unmarked(shown_of_the_file(text), tokens) == [], (name, text)
    assert set(RECORD_TEXTS) <= set(found)


def test_an_unknown_code_is_worded_too(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    text = problem_text(AllFivesError("x", code="something-new"))
    assert unmarked(text, {"something", "new"}) == []


def test_a_validators_own_words_pass_through() -> None:
    error = {"type": "value_error", "ctx": {"error": ValueError("already worded")}}
    assert validation_text(error) == "already worded"


@pytest.mark.parametrize("name", ["empty", "illegal-action", "invalid-field less_than_equal"])
def test_the_command_lines_line_for_a_bad_file(
    name: str, pseudo_locale: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    text = RECORD_TEXTS[name]
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    assert main(["--lang", pseudo_locale, "replay", str(path), "--text"]) == 2
    line = capsys.readouterr().err
    problem = line.removeprefix(f"allfives: {path}: ")
    assert problem != line and problem.startswith("⟦"), line
    assert unmarked(shown_of_the_file(problem), {"rules", "players"}) == [], line


async def test_a_joiners_refused_move_is_worded_in_the_joiners_language(
    pseudo_locale: str,
) -> None:
    from allfives_tui.net.client import join
    from allfives_tui.ui.remote import RemoteApp
    from allfives_tui.ui.screens.game import GameScreen
    from engine import Draw, Pass, Play
    from tests.net.conftest import start_host
    from tests.ui.helpers import until

    use_language(pseudo_locale)
    host = await start_host(rules=Rules(players=2, target=50), open_seats=1)
    assert host.port is not None
    connection = await join(f"127.0.0.1:{host.port}", "Ana")
    app = RemoteApp(connection, connection.seat)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, GameScreen)
                        and app.screen.is_mounted and app.screen.human_turn())
            remote = app.remote
            assert remote is not None
            legal = remote.view_now.legal_actions()
            wrong = Draw() if any(isinstance(a, Play) for a in legal) else Pass()
            assert app.play(connection.seat, wrong)
            await until(pilot, lambda: any("⟦" in str(n.message) for n in app._notifications))
            (note,) = [str(n.message) for n in app._notifications if "⟦" in str(n.message)]
            assert unmarked(note) == [], note
            await pilot.press("q")
    finally:
        await host.close()


def test_every_check_of_a_value(pseudo_locale: str, tmp_path: Path) -> None:
    from allfives_tui.table.problems import CHECKS

    found = check_errors()
    behind = [e.cause for e in record_errors(tmp_path).values() if e.cause is not None]
    found.update({e.code: e for e in behind if not isinstance(e, IllegalActionError)})
    unreachable = {"target-positive"}  # Rules takes 0 as the default and refuses below 0
    assert set(CHECKS) - unreachable <= set(found)
    use_language(pseudo_locale)
    for code, err in found.items():
        text = problem_text(err)
        assert unmarked(shown_of_the_file(text), set(LEVELS)) == [], (code, text)
    text = problem_text(AllFivesError("x", code="target-positive"))
    assert text.startswith("⟦") and unmarked(text) == []
