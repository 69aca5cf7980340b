"""Under the pseudo-locale every word of the statistics and past games, and of ``allfives
history``, ``sim`` and ``analyse``, comes from the catalog; their ``--json`` stays the same
in every language."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, DataTable, Static

from allfives_tui.coach import ratings
from allfives_tui.locale import _, use_language
from allfives_tui.store.history import History
from allfives_tui.table.settings import Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.confirm import ConfirmScreen
from allfives_tui.ui.screens.past_games import PastGamesScreen, status_text
from allfives_tui.ui.screens.stats import (
    LEVEL_CHOICES,
    PLAYER_CHOICES,
    StatsScreen,
    level_text,
    players_text,
)
from allfives_tui.ui.widgets.chart import SeriesChart
from engine.match import MatchConfig
from engine.players import LEVELS
from engine.record import save
from tests.cli.helpers import run as allfives
from tests.locale.pseudo import unmarked
from tests.locale.screens import SIZE, unmarked_on_screen
from tests.locale.test_pseudo_cli import _tokens
from tests.records import game_record
from tests.store.games import NAMES, T0, random_game
from tests.ui.helpers import screen_text, until

GAMES = 40
PEOPLE = {"You", "Guest", *NAMES}
"""The names at the tables of :func:`random_game` (``Guest0``...: player names are no
catalog's words)."""
NOTATION = {"N", "E", "S", "W", "draw", "pass"}
"""The letters of tile notation: ends and the actions without a tile."""
ALLOWED = {*LEVELS, *PEOPLE}


pytestmark = pytest.mark.usefixtures("utc")
"""Local time is UTC here (the fixture in tests/conftest.py)."""


@pytest.fixture
def history(data_dir: Path) -> Path:
    """A history of 40 random games at fixed dates (2 to 4 players, partnerships, people,
    abandoned games)."""
    rng = random.Random(3)
    with History() as h:
        for i in range(GAMES):
            h.record(random_game(rng, i), now=T0)
    return data_dir


def _text(app: Any) -> str:
    return screen_text(app)


def _unmarked(app: AllFivesApp, *names: str) -> list[str]:
    """The words on the whole screen, its footer too, that no catalog gave, less key
    names and the ``names`` of people."""
    return unmarked_on_screen(app, {*ALLOWED, *names})


async def _open(pilot: Pilot[Any], screen: StatsScreen | PastGamesScreen) -> None:
    """Open ``screen`` and wait until its figures are read and on the screen."""
    pilot.app.push_screen(screen)
    await until(pilot, lambda: screen.loaded)
    await pilot.app.workers.wait_for_complete()
    reading = _("Reading the history…")
    await until(pilot, lambda: reading not in _text(pilot.app))


def _app(pseudo_locale: str) -> AllFivesApp:
    use_language(pseudo_locale)
    return AllFivesApp(Settings(speed=0.0), speed=0.0, autosave=False)


# -- the screens --------------------------------------------------------------------------


async def test_the_statistics_are_marked_and_whole(history: Path, pseudo_locale: str) -> None:
    app = _app(pseudo_locale)
    async with app.run_test(size=SIZE) as pilot:
        screen = StatsScreen("You")
        await _open(pilot, screen)
        assert "⟦" in _text(app)
        for chart in screen.query(SeriesChart):  # both charts drawn, with data, titled
            assert chart.data is not None and not chart.data.is_empty
            assert chart.data.title in _text(app)
        assert _unmarked(app) == []
        # every label the filters cycle through fits its button whole
        for key, choices in (("l", LEVEL_CHOICES), ("n", PLAYER_CHOICES)):
            for _choice in choices:
                await pilot.press(key)
                await until(pilot, lambda: screen.loaded)
                label = level_text(screen.level) if key == "l" else players_text(screen.players)

                def shown(label: str = label) -> bool:  # shown whole
                    return label in _text(app)

                await until(pilot, shown)
                assert _unmarked(app) == [], (screen.level, screen.players)
        for button in screen.query(Button):
            assert button.size.height == 1  # a label wrapped would hide its second line


async def test_statistics_of_nobody_and_of_no_history_are_marked(
    history: Path, pseudo_locale: str
) -> None:
    app = _app(pseudo_locale)
    async with app.run_test(size=SIZE) as pilot:
        screen = StatsScreen("Nobody")
        await _open(pilot, screen)
        assert "Nobody" in _text(app)
        assert _unmarked(app, "Nobody") == []
        (history / "history.sqlite").unlink()
        await pilot.press("p")  # on to "You": the history has gone, no games
        await until(pilot, lambda: screen.loaded and screen.player == "You")
        await until(pilot, lambda: "Nobody" not in _text(app))
        assert _unmarked(app) == []


async def test_the_past_games_are_marked_and_whole(history: Path, pseudo_locale: str) -> None:
    app = _app(pseudo_locale)
    async with app.run_test(size=SIZE) as pilot:
        screen = PastGamesScreen("You")
        await _open(pilot, screen)
        table = screen.query_one("#past-games", DataTable)
        assert table.row_count == GAMES
        assert _unmarked(app) == []
        await pilot.press("slash", *"greedy")  # a search
        await until(pilot, lambda: table.row_count < GAMES)
        assert table.row_count > 0
        status = status_text(GAMES, table.row_count, searching=True)
        await until(pilot, lambda: status in _text(app))
        assert _unmarked(app) == []
        await pilot.press("enter", "d")  # the question before a deletion: its words
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        asked = (dialog.title_text, dialog.note, dialog.yes, dialog.no)
        assert all(text.startswith("⟦") for text in asked)
        assert unmarked("\n".join(asked), ALLOWED) == []


async def test_an_empty_list_of_past_games_is_marked(data_dir: Path, pseudo_locale: str) -> None:
    app = _app(pseudo_locale)
    async with app.run_test(size=SIZE) as pilot:
        await _open(pilot, PastGamesScreen("You"))
        assert _unmarked(app) == []


# -- the commands -------------------------------------------------------------------------


def _words(path: Path) -> set[str]:
    """The letter runs of a file's path (a name, not words of a catalog)."""
    return set(re.findall("[A-Za-z]+", str(path)))


def _marked(text: str, allowed: set[str] | frozenset[str] = frozenset()) -> list[str]:
    assert "⟦" in text
    return unmarked(text, {*_tokens(), *ALLOWED, *allowed})


def test_allfives_history_is_marked(
    history: Path, pseudo_locale: str, capsys: pytest.CaptureFixture[str]
) -> None:
    lang = ["--lang", pseudo_locale]
    with History() as h:
        ids = {g.game_id[:8] for g in h.games()}
    code, out, err = allfives([*lang, "history", "-n", str(GAMES)], capsys)
    assert code == 0 and err == ""
    assert all(i in out for i in ids)
    letters = {w for i in ids for w in re.findall("[A-Za-z]+", i)}  # the games' ids
    assert _marked(out, letters) == []
    code, out, err = allfives([*lang, "history", "--search", "nothing-like-it"], capsys)
    assert code == 0 and _marked(out) == []


def test_allfives_stats_is_marked(
    history: Path, pseudo_locale: str, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a wide terminal: in 80 columns a long line of opponents is cut short, in English
    # too (the layout is not what this test is about)
    monkeypatch.setenv("COLUMNS", "160")
    code, out, err = allfives(["--lang", pseudo_locale, "stats"], capsys)
    assert code == 0 and err == ""
    assert _marked(out) == []
    code, out, err = allfives(["--lang", pseudo_locale, "stats", "--player", "Nobody"], capsys)
    assert code == 0 and _marked(out, {"Nobody"}) == []


def test_allfives_history_with_no_history_is_marked(
    data_dir: Path, pseudo_locale: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _err = allfives(["--lang", pseudo_locale, "history"], capsys)
    assert code == 0 and _marked(out) == []


def test_history_import_lines_are_marked(
    data_dir: Path, tmp_path: Path, pseudo_locale: str, capsys: pytest.CaptureFixture[str]
) -> None:
    lang = ["--lang", pseudo_locale]
    good = save(game_record(), tmp_path / "good.json")
    empty = save(game_record().model_copy(update={"hands": ()}), tmp_path / "empty.json")
    code, out, err = allfives([*lang, "history", "import", str(good), str(empty)], capsys)
    assert code == 2
    assert _marked(out) == []
    assert err.startswith("allfives: ") and _marked(err, _words(empty)) == []
    code, out, err = allfives([*lang, "history", "import", str(good)], capsys)  # already there
    assert code == 0 and _marked(out) == []
    code, out, err = allfives([*lang, "history", "import", ""], capsys)
    assert code == 2 and _marked(err) == []


def test_a_match_is_marked(pseudo_locale: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--lang", pseudo_locale, "sim", "greedy", "random", "-n", "2", "-w", "1",
            "--target", "50"]
    code, out, err = allfives(argv, capsys)
    assert code == 0
    assert len(out.splitlines()) == 6  # the headline, the table (4 lines), the note
    assert _marked(out) == []
    assert len(err.splitlines()) > 1 and _marked(err) == []  # the progress, a line a tenth


def test_an_option_the_engine_refuses_is_marked_around_the_engines_words(
    pseudo_locale: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ValueError) as refused:
        MatchConfig(entrants=("greedy",), partnerships=True)
    engine_words = set(re.findall("[A-Za-z]+", str(refused.value)))  # the engine's own
    code, out, err = allfives(["--lang", pseudo_locale, "sim", "greedy", "--partnerships"], capsys)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 2 and _marked(err, engine_words) == []


def test_a_review_is_marked(
    tmp_path: Path, pseudo_locale: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = save(game_record(), tmp_path / "game.json")
    lang = ["--lang", pseudo_locale]
    code, out, err = allfives([*lang, "analyse", str(path), "--playouts", "8"], capsys)
    assert code == 0
    version = re.findall("[A-Za-z]+", ratings.evaluator_version())  # a fingerprint
    name = game_record().seats[0].name
    assert name is not None
    assert _marked(out, {name, *NOTATION, *version}) == []
    assert re.search(r"⟦[^⟧]*\d+ [^⟧]*⟧", out.splitlines()[0])  # a decision's line, marked
    code, out, err = allfives([*lang, "analyse", str(path), "--seat", "5"], capsys)
    assert code == 2 and err.count("\n") == 1
    assert _marked(err, _words(path)) == []


# -- machine outputs ----------------------------------------------------------------------


def _json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    code, out, _err = allfives(argv, capsys)
    assert code == 0
    return json.loads(out)


def test_json_is_the_same_in_every_language(
    history: Path, tmp_path: Path, pseudo_locale: str, capsys: pytest.CaptureFixture[str]
) -> None:
    game = save(game_record(), tmp_path / "game.json")
    for argv in (
        ["history", "--json"],
        ["history", "--json", "--search", "abandoned"],
        ["stats", "--json"],
        ["stats", "--json", "--players", "4"],
        ["analyse", str(game), "--json", "--playouts", "8"],
    ):
        english = _json(["--lang", "en", *argv], capsys)
        assert english, argv
        assert _json(["--lang", pseudo_locale, *argv], capsys) == english, argv
    sim = ["sim", "greedy", "random", "-n", "2", "-w", "1", "--target", "50", "--json", "--quiet"]
    english, pseudo = _json(["--lang", "en", *sim], capsys), _json(["--lang", pseudo_locale, *sim],
                                                                   capsys)
    timing = re.compile(r"(_s|elapsed)$")

    def untimed(value: Any) -> Any:  # the times a move took differ from run to run
        if isinstance(value, dict):
            return {k: untimed(v) for k, v in value.items() if not timing.search(k)}
        if isinstance(value, list):
            return [untimed(v) for v in value]
        return value

    assert untimed(pseudo) == untimed(english)


async def test_the_past_games_are_laid_out_again_when_the_terminal_narrows(
    history: Path, pseudo_locale: str
) -> None:
    app = _app(pseudo_locale)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = PastGamesScreen("You")
        await _open(pilot, screen)
        await pilot.press("down", "down")
        table = screen.query_one("#past-games", DataTable)
        assert len(table.columns) == 5  # room for every column
        await pilot.resize_terminal(*SIZE)
        await until(pilot, lambda: len(table.columns) < 5)
        hands = _("Hands")
        await until(pilot, lambda: hands not in _text(app))  # the list as it is now, shown
        assert table.cursor_row == 2
        assert _unmarked(app) == []


async def test_the_statistics_are_laid_out_again_when_the_terminal_narrows(
    history: Path, pseudo_locale: str
) -> None:
    app = _app(pseudo_locale)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = StatsScreen("You")
        await _open(pilot, screen)

        def heading() -> str:
            return str(screen.query_one("#stats-table", Static).render()).splitlines()[0]

        assert heading().count("⟦") == 7  # every column
        await pilot.resize_terminal(*SIZE)
        await until(pilot, lambda: heading().count("⟦") < 7)
        await until(pilot, lambda: heading().strip() in _text(app))  # shown
        assert _unmarked(app) == []
