"""The new-game screen's seed field: every seed the settings take, and a too-large one
refused in words."""

from __future__ import annotations

from textual.widgets import Input, Static

from allfives_tui.table.settings import Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.new_game import NewGameScreen


def _empty_seed(app: AllFivesApp) -> NewGameScreen:
    """The new-game screen, its seed field emptied and focused for typing."""
    screen = app.screen
    assert isinstance(screen, NewGameScreen)
    field = screen.query_one("#seed", Input)
    field.value = ""
    field.focus()
    return screen


async def test_the_seed_field_takes_the_largest_seed_and_refuses_a_larger_one() -> None:
    app = AllFivesApp(Settings(speed=0.0), speed=0.0, autosave=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        screen = _empty_seed(app)
        await pilot.press(*"9223372036854775807")  # 2**63 - 1
        await pilot.pause()
        assert screen.query_one("#seed", Input).value == "9223372036854775807"
        assert screen.read_settings().seed == 2**63 - 1

        _empty_seed(app)
        await pilot.press(*"9999999999999999999")
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert app.screen is screen  # no game started
        error = str(screen.query_one("#form-error", Static).render())
        assert error == (
            "Seed: a seed must be a whole number from 0 to 9223372036854775807, "
            "not 9999999999999999999."
        )


async def test_a_remembered_large_seed_is_shown_whole() -> None:
    app = AllFivesApp(Settings(seed=2**62, speed=0.0), speed=0.0, autosave=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        assert screen.query_one("#seed", Input).value == str(2**62)
        assert screen.read_settings().seed == 2**62
