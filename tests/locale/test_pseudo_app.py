"""The app's shell through the catalog: under the pseudo-locale at 80x24 the new-game
screen, the help, the command palette (Textual's own commands too) and the Keys panel show
no word that no catalog gave and no message cut off; and a language picked on the
new-game screen is spoken at once, everywhere, and remembered."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.command import CommandList
from textual.pilot import Pilot
from textual.widgets import Input, Select

from allfives_tui.locale import EXTRA_ENV, current, use_language
from allfives_tui.store.settings_file import load_settings, save_settings
from allfives_tui.table.settings import SPEEDS, Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.screens.help import HelpScreen
from allfives_tui.ui.screens.new_game import NewGameScreen
from allfives_tui.ui.textual_words import textual_word
from allfives_tui.ui.widgets import EventLog
from allfives_tui.ui.widgets.keys_panel import KeysHelpPanel, KeysPanel
from engine import Play
from engine.players import LEVELS
from tests.locale.pseudo import CLOSE, OPEN, build, unmarked
from tests.locale.screens import KEY_NAMES, SIZE, unmarked_on_screen
from tests.ui.helpers import screen_text, settle, until

TOKENS = frozenset({*LEVELS, *SPEEDS, "allfives", "continue", "en", "XA"})
"""What stays as it is in every language: level and pace names, the command that resumes
a game, and the pseudo-locale's code (its name in the Language row: Babel has none for
it)."""

SYSTEM_COMMANDS = ("Theme", "Quit", "Keys", "Screenshot")
"""Some of Textual's own commands in the palette."""


def new_game_app() -> AllFivesApp:
    return AllFivesApp(Settings(speed=0.0), speed=0.0, autosave=False)


TEXTUAL_KEYS = frozenset(
    {"esc", "tab", "shift", "super", "alt", "del", "home", "end", "pgup", "pgdn"}
)
"""Keys as Textual names them in the Keys panel (the same in every language)."""


def words_only(text: str) -> list[str]:
    """The words of ``text`` that no catalog gave (markers cut by the edge of a scrolled
    view not counted)."""
    plain = text.replace(OPEN, "").replace(CLOSE, "")
    return unmarked(plain, {*KEY_NAMES, *TEXTUAL_KEYS, *TOKENS})


async def test_the_new_game_screen_is_all_marked(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    app = new_game_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert OPEN in screen_text(app)
        assert unmarked_on_screen(app, TOKENS) == [], screen_text(app)
        # a dropdown open: its options, and Textual's own key to close it, in the footer
        await pilot.click("#players")
        await pilot.pause()
        assert textual_word("Dismiss menu") in screen_text(app)
        assert unmarked_on_screen(app, TOKENS | TEXTUAL_KEYS) == [], screen_text(app)
        # four players, every seat a person: every row of the form shows
        await pilot.press("down", "down", "enter")
        for seat in range(3):
            app.screen.query_one(f"#level-{seat}", Select).value = "person"
        await pilot.pause()
        assert unmarked_on_screen(app, TOKENS) == [], screen_text(app)


async def test_the_help_is_all_marked(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    app = new_game_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause()
        pages = 0
        while True:  # page by page to the end: every word on the way is marked
            pages += 1
            assert words_only(screen_text(app)) == [], screen_text(app)
            before = app.screen.query_one("#help").scroll_y
            await pilot.press("pagedown")
            await pilot.pause()
            if app.screen.query_one("#help").scroll_y == before:
                break
        assert pages > 2
    # the whole help at once, as wide: no message is cut off anywhere
    app = new_game_app()
    async with app.run_test(size=(SIZE[0], 200)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause()
        assert unmarked_on_screen(app, TOKENS) == [], screen_text(app)


async def open_palette(app: App[None], pilot: Pilot[Any]) -> CommandList:
    await pilot.press("ctrl+p")
    await until(pilot, lambda: bool(app.screen.query(CommandList)))
    commands = app.screen.query_one(CommandList)
    offered = len(list(app.get_system_commands(app.screen_stack[-2])))
    await until(pilot, lambda: commands.option_count == offered)
    await pilot.pause()
    return commands


def prompts(commands: CommandList) -> list[str]:
    return [str(commands.get_option_at_index(i).prompt) for i in range(commands.option_count)]


async def test_the_palette_and_textuals_commands_are_all_marked(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    app = new_game_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        commands = await open_palette(app, pilot)
        assert textual_word("Search for commands…") in screen_text(app)
        listed = "\n".join(prompts(commands))
        for system in SYSTEM_COMMANDS:
            assert textual_word(system) in listed
        assert words_only(screen_text(app)) == [], screen_text(app)
        for _ in range(commands.option_count - 1):  # down the list: every word on the way
            await pilot.press("down")
            await pilot.pause()
            assert words_only(screen_text(app)) == [], screen_text(app)
        assert commands.highlighted == commands.option_count - 1
        # Theme: Textual's palette of themes, its placeholder in the language too
        theme = textual_word("Theme")
        commands.highlighted = next(
            i for i, prompt in enumerate(prompts(commands)) if prompt.startswith(theme)
        )
        await pilot.press("enter")
        placeholder = textual_word("Search for themes…")
        await until(pilot, lambda: placeholder in screen_text(app))
    # the whole list at once, as wide: no message is cut off
    app = new_game_app()
    async with app.run_test(size=(SIZE[0], 40)) as pilot:
        await pilot.pause()
        await open_palette(app, pilot)
        assert unmarked_on_screen(app, TOKENS) == [], screen_text(app)


async def test_the_keys_panel_is_all_marked(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    app = new_game_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        commands = await open_palette(app, pilot)
        keys = textual_word("Keys")
        commands.highlighted = next(
            i for i, prompt in enumerate(prompts(commands)) if prompt.startswith(keys)
        )
        await pilot.press("enter")  # Keys, chosen in the palette
        await until(pilot, lambda: bool(app.screen.query(KeysHelpPanel)))
        await pilot.pause()
        text = screen_text(app)
        assert textual_word("Copy selected text").split()[0] in text  # Textual's own keys
        assert words_only(text) == [], text
        panel = app.screen.query_one(KeysHelpPanel).region
        inside = "\n".join(
            line[panel.x : panel.right] for line in text.splitlines()[panel.y : panel.bottom]
        )
        assert unmarked(inside, {*KEY_NAMES, *TEXTUAL_KEYS}) == [], inside
        # a field in focus: Textual's keys of a text field under their title, page by page
        app.screen.query_one("#name").focus()
        await pilot.pause()
        await pilot.pause()
        keys_panel = app.screen.query_one(KeysPanel)
        seen = ""
        while True:
            text = screen_text(app)
            assert words_only(text) == [], text
            seen += text
            before = keys_panel.scroll_y
            keys_panel.scroll_page_down(animate=False)
            await pilot.pause()
            if keys_panel.scroll_y == before:
                break
        assert textual_word("Input") in seen and textual_word("Submit") in seen, seen


# -- switching the language on the new-game screen -------------------------------------

IT, FR = "ɪᴛ·", "ꜰʀ·"
"""The tags of the two test catalogs' messages (no ASCII letters: each reads as part of
its message)."""


@pytest.fixture
def italian_and_french(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two test catalogs built from the template, ``it`` and ``fr``, each message tagged."""
    folder = tmp_path / "locales"
    build(folder, code="it", tag=IT)
    build(folder, code="fr", tag=FR)
    monkeypatch.setenv(EXTRA_ENV, str(folder))


async def choose_language(pilot: Pilot[Any], app: AllFivesApp, code: str) -> None:
    """Pick ``code`` in the Language row as a player does: open it, move to it, Enter."""
    row = app.screen.query_one("#language", Select)
    row.focus()
    await pilot.press("enter")
    await pilot.pause()
    codes = [value for _label, value in row._options]
    step = "down" if codes.index(code) > codes.index(str(row.value)) else "up"
    for _ in range(abs(codes.index(code) - codes.index(str(row.value)))):
        await pilot.press(step)
    await pilot.press("enter")
    await until(pilot, lambda: current() == code)
    await pilot.pause()


async def test_switching_italian_to_french_leaves_no_italian(italian_and_french: None) -> None:
    use_language("it")
    app = AllFivesApp(Settings(seed=3, speed=0.0, players=2), speed=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert IT in screen_text(app) and FR not in screen_text(app)
        row = app.screen.query_one("#language", Select)
        labels = {code: label for label, code in row._options}
        assert labels["en"] == "English", "each language by its own name"
        assert (labels["fr"], labels["it"]) == ("français", "italiano")
        app.screen.query_one("#seed").focus()
        await choose_language(pilot, app, "fr")
        text = screen_text(app)
        assert FR in text and IT not in text, text
        assert app.screen.query_one("#seed", Input).value == "3", "the form keeps its values"
        assert load_settings().language == "fr", "the choice is remembered at once"
        await pilot.press("ctrl+n")  # start: the game, in French
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        await settle(pilot)
        table = app.table
        assert table is not None
        moves = len(table.state.actions)
        await play_a_tile(pilot, app)
        await until(pilot, lambda: len(table.state.actions) > moves)
        await settle(pilot)
        assert FR in screen_text(app) and IT not in screen_text(app)
        commands = await open_palette(app, pilot)
        listed = "\n".join(prompts(commands))
        text = screen_text(app)
        assert FR in text and IT not in text, text
        assert IT not in listed and all(
            textual_word(name) in listed for name in SYSTEM_COMMANDS
        )
        await pilot.press("escape")
        await pilot.pause()
        assert IT not in screen_text(app)
        assert app.settings.language == "fr"


async def play_a_tile(pilot: Pilot[Any], app: AllFivesApp) -> None:
    """Play a tile that fits, by its number and Enter (and Enter again for its end)."""
    screen = app.screen
    assert isinstance(screen, GameScreen)
    tile = next(a.tile for a in screen.legal() if isinstance(a, Play))
    await pilot.press(str(screen.shown_hand().index(tile) + 1))
    await pilot.press("enter")
    await pilot.pause()
    if screen.choosing:
        await pilot.press("enter")


async def test_a_switch_over_a_game_rewords_its_log_and_keys(italian_and_french: None) -> None:
    use_language("it")
    app = AllFivesApp(Settings(seed=3, speed=0.0, players=2), start=True, speed=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = app.table
        assert table is not None
        moves = len(table.state.actions)
        await play_a_tile(pilot, app)
        await until(pilot, lambda: len(table.state.actions) > moves)
        await settle(pilot)
        game = app.screen
        assert isinstance(game, GameScreen)
        log = game.query_one(EventLog)
        assert IT in "\n".join(log._texts) and FR not in "\n".join(log._texts)
        app.action_new_game()  # leave this game? yes: set a new one up, over it
        await until(pilot, lambda: bool(app.screen.query("#yes")))
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.pause()
        await choose_language(pilot, app, "fr")
        await pilot.press("escape")  # back to the game, which speaks French now
        await until(pilot, lambda: app.screen is game)
        await pilot.pause()
        await pilot.pause()
        lines = "\n".join(log._texts)
        assert FR in lines and IT not in lines, lines
        footer = screen_text(app).splitlines()[-1]
        assert FR in footer and IT not in footer, footer
        assert IT not in screen_text(app), screen_text(app)


async def test_the_help_opened_before_a_switch_is_made_again(italian_and_french: None) -> None:
    use_language("it")
    app = AllFivesApp(Settings(speed=0.0), speed=0.0, autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause()
        assert IT in screen_text(app)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await choose_language(pilot, app, "fr")
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause()
        assert FR in screen_text(app) and IT not in screen_text(app)


async def test_lang_for_one_run_leaves_the_remembered_language(italian_and_french: None) -> None:
    """``--lang fr`` over a remembered ``it``: the form shows French, and starting a game
    keeps ``it`` remembered (the run's language is not the player's choice)."""
    remembered = Settings(speed=0.0, seed=4, language="it")
    save_settings(remembered)
    use_language("fr")  # as `allfives --lang fr` does before the app is made
    app = AllFivesApp(speed=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#language", Select).value == "fr"
        assert FR in screen_text(app) and IT not in screen_text(app)
        await pilot.press("ctrl+n")
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        assert load_settings().language == "it"
        assert current() == "fr"


def region_text(app: AllFivesApp, selector: str) -> str:
    """The screen's text within the region of the widget ``selector`` finds."""
    region = app.screen.query_one(selector).region
    rows = screen_text(app).splitlines()[region.y : region.bottom]
    return "\n".join(row[region.x : region.right] for row in rows)


async def test_the_leave_question_and_the_enlarge_notice_are_marked(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    app = AllFivesApp(Settings(seed=3, speed=0.0), start=True, speed=0.0, autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.action_new_game()
        await until(pilot, lambda: bool(app.screen.query(".confirm")))
        await pilot.pause()
        dialog = region_text(app, ".confirm")
        assert OPEN in dialog
        # the scores are listed the language's way, by Babel (English for the pseudo-locale)
        assert unmarked(dialog, {*KEY_NAMES, *TOKENS, "and"}) == [], dialog
        await pilot.resize_terminal(60, 18)
        await pilot.pause()
        assert "60x18" in screen_text(app)
        assert unmarked_on_screen(app, TOKENS) == [], screen_text(app)


def test_a_crash_line_is_marked(pseudo_locale: str) -> None:
    """What the app prints after a crash: its words are the catalog's (the program, the
    error, the folders and the command are as they are)."""
    use_language(pseudo_locale)
    from allfives_tui.ui.crash import crash_line
    from allfives_tui.ui.keeping import Keeping

    kept = Keeping(autosave=False, lock=None, report=lambda line: None)
    line = crash_line("allfives", RuntimeError("boom"), kept.where_kept(None, None))
    words = re.sub(r"/\S+?\.log", "", line)  # the crash log's path
    assert OPEN in line
    assert unmarked(words, {"allfives", "RuntimeError", "boom"}) == [], line


async def test_the_replay_apps_palette_is_marked(pseudo_locale: str) -> None:
    """``allfives replay FILE`` is an app of its own: its palette speaks the language too."""
    from allfives_tui.ui.screens.replay_app import ReplayApp
    from tests.records import record_of
    from tests.ui.helpers import random_state

    use_language(pseudo_locale)
    app = ReplayApp(record_of(random_state(5, 12)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        commands = await open_palette(app, pilot)
        assert textual_word("Search for commands…") in screen_text(app)
        assert all(textual_word(name) in "\n".join(prompts(commands)) for name in SYSTEM_COMMANDS)
        assert words_only(screen_text(app)) == [], screen_text(app)
