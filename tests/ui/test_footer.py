"""The app's footer: keys made once for what they show, styled as they mount."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets._footer import FooterKey

from allfives_tui.ui.widgets.footer import AppFooter
from tests.ui.helpers import screen_text, until


class Keys(App[None]):
    """Two keys, the second dimmed unless ``open`` is set."""

    BINDINGS = [
        Binding("a", "always", "Always"),
        Binding("o", "only_open", "Only open"),
    ]

    def __init__(self, *, compact: bool = False) -> None:
        super().__init__()
        self.open = True
        self.compact = compact

    def compose(self) -> ComposeResult:
        yield AppFooter(compact=self.compact)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return (True if self.open else None) if action == "only_open" else True  # None: dimmed

    def action_always(self) -> None:
        """Nothing to do."""

    def action_only_open(self) -> None:
        """Nothing to do."""


def keys(app: App[None]) -> dict[str, FooterKey]:
    return {key.action: key for key in app.screen.query(FooterKey)}


async def test_the_keys_are_made_again_only_when_what_they_show_changes() -> None:
    app = Keys()
    async with app.run_test() as pilot:
        await pilot.pause()
        first = keys(app)
        assert not first["only_open"].has_class("-disabled")
        app.refresh_bindings()
        await pilot.pause()
        assert keys(app) == first, "the same keys, not new ones, when nothing changed"
        app.open = False
        app.refresh_bindings()
        await pilot.pause()
        now = keys(app)
        assert now["only_open"].has_class("-disabled")
        assert now["only_open"] is not first["only_open"], "made again: it changed"
        assert not now["always"].has_class("-disabled")


async def test_keys_are_as_compact_as_the_footer_and_the_palette_key_always_is() -> None:
    for compact in (False, True):
        app = Keys(compact=compact)
        async with app.run_test() as pilot:
            await pilot.pause()
            shown = keys(app)
            for action in ("always", "only_open"):
                assert shown[action].compact is compact
                assert shown[action].has_class("-compact") is compact
            palette = shown["command_palette"]
            assert palette.compact and palette.has_class("-compact")


class ManyKeys(App[None]):
    """Eight keys whose words take more than 80 columns together."""

    BINDINGS = [Binding(c, f"act('{c}')", f"Long description {c}") for c in "abcdefgh"]

    def compose(self) -> ComposeResult:
        yield AppFooter()

    def action_act(self, key: str) -> None:
        """Nothing to do."""


async def test_keys_without_room_show_without_their_words() -> None:
    app = ManyKeys()
    async with app.run_test(size=(80, 5)) as pilot:
        await pilot.pause()
        line = screen_text(app).splitlines()[-1]
        shown = [key for key in app.screen.query(FooterKey) if key.key in "abcdefgh"]
        assert [key.key for key in shown] == list("abcdefgh")
        described = [key for key in shown if key.description]
        bare = shown[len(described):]
        assert described and bare, "the first keys keep their words, the last do not"
        assert all(not key.description for key in bare)
        for key in described:  # each whole on the line
            assert f"{key.key_display} {key.description}" in line
        for key in bare:  # the key itself shows, its words in its tooltip
            assert f" {key.key_display} " in f"{line} "
            assert key.tooltip == f"Long description {key.key}"
        assert "palette" not in line, "no room for the palette's key"
    app = ManyKeys()
    async with app.run_test(size=(200, 5)) as pilot:
        await pilot.pause()
        line = screen_text(app).splitlines()[-1]
        assert all(f"{c} Long description {c}" in line for c in "abcdefgh")
        assert "^p palette" in line


async def test_keys_are_fitted_again_when_the_footer_narrows() -> None:
    app = ManyKeys()
    async with app.run_test(size=(200, 5)) as pilot:
        await pilot.pause()
        assert all(key.description for key in app.screen.query(FooterKey))
        await pilot.resize_terminal(80, 5)
        await until(pilot, lambda: any(not k.description for k in app.screen.query(FooterKey)))
