"""``--help`` gives each computer level one line: what it is and how strong it measured."""

from __future__ import annotations

import pytest

from allfives_tui.cli.parser import build_parser
from engine.players import LEVELS, REGISTRY


@pytest.mark.parametrize("argv", [["--help"], ["play", "--help"], ["sim", "--help"]])
def test_help_gives_every_level_its_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(argv)
    assert stop.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    for level in LEVELS:
        line = next(x for x in lines if x.split()[:1] == [level])
        assert line.strip().endswith(REGISTRY[level].description) and len(line) <= 80
    master = next(x for x in lines if x.split()[:1] == ["master"])
    assert master.rstrip().endswith("1 s a move; won 55 % vs expert")
