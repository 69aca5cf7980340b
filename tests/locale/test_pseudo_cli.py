"""Under the pseudo-locale every word of every command's ``--help`` and of its error lines
comes from the catalog: only option names, metavars, choices and names stay as they are."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

from allfives_tui.cli.arguments import PLACES
from allfives_tui.cli.parser import COMMANDS, PROG, build_parser
from allfives_tui.locale import supported
from allfives_tui.table.settings import SPEEDS
from engine.players import LEVELS
from tests.cli.helpers import run as allfives
from tests.locale.pseudo import unmarked


def _tokens() -> set[str]:
    """Every letter run of the command line's own tokens: option strings, metavars,
    choices, command names, levels, paces, places and language codes (English tokens by
    design)."""
    words: set[str] = {PROG, *COMMANDS, *LEVELS, *SPEEDS, *PLACES, *supported()}
    words |= {"ALLFIVES_PASSWORD", "YYYY", "MM", "DD"}
    pending = [build_parser(complete=True)]
    while pending:
        parser = pending.pop()
        for action in parser._actions:
            words.update(action.option_strings)
            metavar = action.metavar
            if isinstance(metavar, str):
                words.add(metavar)
            words.add(action.dest.upper())
            if isinstance(action, argparse._SubParsersAction):
                words.update(action.choices)
                pending.extend(action.choices.values())
            elif action.choices is not None:
                words.update(map(str, action.choices))
    found: set[str] = set()
    for word in words:
        found.update(re.findall(r"[^\W\d_]+", word))
    return found


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Exit status and all ``allfives ARGV`` printed, stdout and stderr together."""
    code, out, err = allfives(argv, capsys)
    return code, out + err


@pytest.mark.parametrize("command", [None, *COMMANDS, "history import"])
def test_every_help_is_marked(
    command: str | None, pseudo_locale: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--lang", pseudo_locale, *(command.split() if command else []), "--help"]
    code, text = _run(argv, capsys)
    assert code == 0
    assert "⟦" in text
    assert unmarked(text, _tokens()) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["nonsense"],
        ["--no-such-option"],
        ["--players", "9"],
        ["--seed"],
        ["serve", "--port", "0"],
        ["sim", "--workers", "0", "greedy", "greedy"],
        ["host", "--grace", "soon"],
        ["--seat", "south=Ana"],
        ["analyse"],
        ["replay"],
        ["replay", "--last", "--game", "abc"],
        ["--seat", "east=Bo"],
        ["--players", "3", "--seat", "north=Bo"],
    ],
)
def test_error_lines_are_marked(
    argv: list[str], pseudo_locale: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, text = _run(["--lang", pseudo_locale, *argv], capsys)
    assert code == 2
    # the quoted bad value is the user's own
    allowed = _tokens() | {"nonsense", "such", "option", "soon", "south", "Ana", "Bo", "abc"}
    assert unmarked(text, allowed) == [], text


def test_an_unknown_language_gets_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, text = _run(["--lang", "xx", "--help"], capsys)
    assert code == 2
    codes = ", ".join(supported())
    assert text == f"allfives: error: unknown language 'xx': choose from {codes}\n"


def test_the_remembered_language_is_spoken(
    pseudo_locale: str, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir.mkdir(parents=True)
    (data_dir / "settings.json").write_text(json.dumps({"language": pseudo_locale}))
    code, text = _run(["--help"], capsys)
    assert code == 0 and "⟦" in text
    code, text = _run(["--lang", "C", "--help"], capsys)
    assert code == 0 and "⟦" not in text


def test_the_statistics_with_no_history_are_marked(
    pseudo_locale: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, text = _run(["--lang", pseudo_locale, "stats"], capsys)
    assert code == 0 and "⟦" in text
    assert unmarked(text, _tokens()) == []
