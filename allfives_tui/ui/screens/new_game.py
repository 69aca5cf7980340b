"""The new-game screen: players, partnerships, hand size, target, levels, name, seed.

It starts from the remembered settings; Enter (or the Start button) starts
the game; "Continue" resumes the last unfinished game when there is one;
"Statistics" and "Past games" (ctrl+t, ctrl+g) open the game history.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import ValidationError
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Select, Static

from allfives_tui.locale import _
from allfives_tui.table.places import place_name
from allfives_tui.table.problems import validation_text
from allfives_tui.table.settings import PERSON, SEAT_PLACES, SPEEDS, Settings
from allfives_tui.table.words import level_description
from allfives_tui.ui.widgets.compact import compact
from allfives_tui.ui.widgets.footer import AppFooter
from allfives_tui.ui.widgets.too_small import TooSmall
from engine import HandSize
from engine.players import LEVELS, REGISTRY
from engine.rng import SEED_LIMIT
from engine.rules import DEFAULT_TARGETS, Rules

HAND_SIZE_TEXT = {
    HandSize.STANDARD: "standard",
    HandSize.FIVE_EACH: "five each",
    HandSize.SEVEN_FIVE: "seven-five",
}


def speed_name(seconds: float) -> str:
    """The named pace nearest ``seconds``."""
    return min(SPEEDS, key=lambda k: abs(SPEEDS[k] - seconds))


def coach_choice(settings: Settings) -> str:
    """The coach row's value: ``"off"``, ``"on"`` or ``"all"`` (hints for every person)."""
    if not settings.coach:
        return "off"
    return "all" if settings.hints_for_all else "on"


SEED_DIGITS = len(str(SEED_LIMIT - 1))
"""The seed field holds this many digits: every seed the settings accept, and the
too-large ones of that length, which they refuse in words."""

FIELD_WORDS = {
    "players": "Players",
    "target": "Target",
    "name": "Your name",
    "seed": "Seed",
    "levels": "Computer level",
    "names": "Names",
    "hand_size": "Tiles per hand",
    "speed": "Computer pace",
}
"""The form's words for the settings' fields, for error messages."""


class NewGameScreen(Screen[None]):
    """Set up a game; posts :class:`Start` with the settings (or :class:`Continue`).

    Opened over a game in progress (``can_go_back``), Esc and the Back button
    dismiss it and that game goes on.
    """

    @dataclass
    class Start(Message):
        """Start a new game with ``settings``."""

        settings: Settings

    class Continue(Message):
        """Continue the unfinished game."""

    DEFAULT_CSS = "#level-note { color: $text-muted; height: 1; }"

    BINDINGS = [
        Binding("ctrl+n", "start", "Start", key_display="^n", priority=True),
        Binding("ctrl+o", "continue_game", "Continue", key_display="^o"),
        Binding("escape", "back", "Back to the game", key_display="Esc"),
        Binding("ctrl+t", "app.statistics", "Stats", key_display="^t"),
        Binding("ctrl+g", "app.past_games", "Games", key_display="^g"),
        Binding("question_mark", "app.show_help", "Help", key_display="?"),
        Binding("ctrl+q", "app.quit", "Quit", key_display="^q"),
    ]

    def __init__(
        self, settings: Settings, *, can_continue: bool = False, can_go_back: bool = False
    ) -> None:
        super().__init__()
        self.settings = settings
        self._shown_players = settings.players
        """The player count the seats' rows are laid out for."""
        self._by_place: dict[str, tuple[object, str]] = {}
        """Each place's level and name as last set there (kept while the count changes)."""
        self.can_continue = can_continue and not can_go_back
        self.can_go_back = can_go_back
        self._posted: set[str] = set()
        """What was asked of the App already (a key pressed twice quickly asks once)."""

    def compose(self) -> ComposeResult:
        """The form: one compact row per setting, then the buttons."""
        s = self.settings
        yield TooSmall()
        with Vertical(id="new-game"):
            yield Static("All Fives — new game", id="new-game-title")
            with Grid(id="form"):
                yield Label("Players")
                yield compact(Select(
                    [(f"{n} players", n) for n in (2, 3, 4)],
                    value=s.players,
                    allow_blank=False,
                    id="players",
                ))
                yield Label("Partnerships")
                yield compact(Select(
                    [
                        ("no: each player for themselves", False),
                        ("yes: you and North against West and East", True),
                    ],
                    value=s.partnerships,
                    allow_blank=False,
                    id="partnerships",
                ))
                yield Label("Tiles per hand")
                yield compact(Select(
                    self._hand_size_options(s.players),
                    value=s.hand_size,
                    allow_blank=False,
                    id="hand-size",
                ))
                yield Label("Target")
                yield compact(Input(
                    str(s.target) if s.target else "",
                    placeholder=f"default {DEFAULT_TARGETS[s.players]}",
                    id="target",
                    restrict=r"[0-9]*",
                    max_length=5,
                ))
                for i in range(3):
                    yield Label("", id=f"level-label-{i}", classes="level-label")
                    with Horizontal(id=f"seat-{i}", classes="seat"):
                        yield compact(Select(
                            [*((f"computer: {lv}", lv) for lv in LEVELS), ("a person", PERSON)],
                            value=s.levels[i],
                            allow_blank=False,
                            id=f"level-{i}",
                            classes="level",
                        ))
                        yield compact(Input(
                            s.names[i],
                            placeholder="their name",
                            id=f"person-{i}",
                            classes="person",
                            max_length=20,
                        ))
                yield Label("Your name")
                yield compact(Input(
                    s.name, placeholder=_("your name (optional)"), id="name", max_length=20
                ))
                yield Label("Seed")
                yield compact(Input(
                    "" if s.seed is None else str(s.seed),
                    placeholder="blank: a new shuffle",
                    id="seed",
                    restrict=r"[0-9]*",
                    max_length=SEED_DIGITS,
                ))
                yield Label("Computer pace")
                yield compact(Select(
                    [
                        (f"{name} ({SPEEDS[name]:g} s a move)", name)
                        for name in ("instant", "fast", "normal", "slow")
                    ],
                    value=speed_name(s.speed),
                    allow_blank=False,
                    id="speed",
                ))
                yield Label("Draw for me")
                yield compact(Select(
                    [
                        ("no: press d to draw, p to pass", False),
                        ("yes: draw and pass for me when nothing fits", True),
                    ],
                    value=s.auto_draw,
                    allow_blank=False,
                    id="auto-draw",
                ))
                yield Label("Coach")
                yield compact(Select(
                    [
                        ("on: hints (t) and your moves rated", "on"),
                        ("on, hints for every person (all agree)", "all"),
                        ("off", "off"),
                    ],
                    value=coach_choice(s),
                    allow_blank=False,
                    id="coach",
                ))
            yield Static("", id="level-note")
            yield Static("", id="form-error")
            with Horizontal(id="new-game-buttons"):
                yield compact(Button("Start ⏎", id="start", variant="primary"))
                if self.can_go_back:
                    yield compact(Button("Back to the game", id="back"))
                elif self.can_continue:
                    yield compact(Button("Continue", id="continue"))
                if not self.can_go_back:  # over a game the row is full: ^t and ^g do
                    yield compact(Button("Statistics", id="statistics"))
                    yield compact(Button("Past games", id="past-games"))
                yield compact(Button("Quit", id="quit"))
        yield AppFooter()

    def on_mount(self) -> None:
        """Fit the form to the number of players and focus Start."""
        self._sync_players(self.settings.players)
        self.query_one("#start", Button).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Continue only when there is a game to continue; Back only over a game."""
        if action == "continue_game":
            return True if self.can_continue else (False if self.can_go_back else None)
        if action == "back":
            return self.can_go_back
        return True

    @staticmethod
    def _hand_size_options(players: int) -> list[tuple[str, HandSize]]:
        out = []
        for size, text in HAND_SIZE_TEXT.items():
            n = Rules(players=players, hand_size=size).tiles_per_hand
            out.append((f"{text}: {n} each", size))
        return out

    def _sync_players(self, players: int) -> None:
        names = [place_name(place) for place in SEAT_PLACES[players]]
        for i in range(3):
            label = self.query_one(f"#level-label-{i}", Label)
            seat = self.query_one(f"#seat-{i}", Horizontal)
            shown = i < len(names)
            label.display = shown
            seat.display = shown
            if shown:
                label.update(names[i])
                self.query_one(f"#person-{i}", Input).placeholder = f"their name ({names[i]})"
            self._sync_person(i)
        box = self.query_one("#partnerships", Select)
        box.disabled = players != 4
        if players != 4:
            box.value = False
        sizes = self.query_one("#hand-size", Select)
        value = sizes.value
        sizes.set_options(self._hand_size_options(players))
        sizes.value = value if isinstance(value, HandSize) else HandSize.STANDARD
        # the same value keeps the old label ("standard: 9 each"): show the new option's
        sizes.mutate_reactive(Select.value)  # type: ignore[misc]  # (the generic reactive)
        self.query_one("#target", Input).placeholder = f"default {DEFAULT_TARGETS[players]}"
        self._show_level()

    def _sync_person(self, i: int) -> None:
        """Seat ``i``'s name field shows only when a person sits there."""
        person = self.query_one(f"#level-{i}", Select).value == PERSON
        self.query_one(f"#person-{i}", Input).display = person

    @on(Select.Changed, ".level")
    def _level_changed(self, event: Select.Changed) -> None:
        seat = (event.select.id or "").removeprefix("level-")
        if seat.isdigit():
            self._sync_person(int(seat))
            # (each select says Changed as it mounts: the note keeps the first seat's)
            self._show_level(int(seat) if event.select.has_focus_within else None)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """A seat's level in focus: the note says what that level is."""
        seat = (event.widget.id or "").removeprefix("level-")
        if event.widget.has_class("level") and seat.isdigit():
            self._show_level(int(seat))

    def _show_level(self, seat: int | None = None) -> None:
        """The note under the form: what the computer level at ``seat`` is and how strong
        it measured (the first computer seat's when ``seat`` is none or not a computer)."""
        shown = range(len(SEAT_PLACES[self._players()]))
        levels = {i: self.query_one(f"#level-{i}", Select).value for i in shown}
        computers = [i for i, level in levels.items() if level in REGISTRY]
        if seat not in computers:
            seat = computers[0] if computers else None
        note = self.query_one("#level-note", Static)
        if seat is None:
            note.update("")
            return
        level = str(levels[seat])
        note.update(
            _("{level}: {description}").format(level=level, description=level_description(level))
        )

    def _players(self) -> int:
        players = self.query_one("#players", Select).value
        return players if isinstance(players, int) else self.settings.players

    @on(Select.Changed, "#players")
    def _players_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, int):
            if event.value != self._shown_players:
                self._move_seats(self._shown_players, event.value)
            self._sync_players(event.value)

    def _move_seats(self, before: int, after: int) -> None:
        """From ``before`` players to ``after``: each place keeps its level and name
        (North's stays North's, wherever its row is); a place not set yet keeps the row's."""
        for i, place in enumerate(SEAT_PLACES[before]):
            self._by_place[place] = (
                self.query_one(f"#level-{i}", Select).value,
                self.query_one(f"#person-{i}", Input).value,
            )
        for i, place in enumerate(SEAT_PLACES[after]):
            if place in self._by_place:
                level, name = self._by_place[place]
                self.query_one(f"#level-{i}", Select).value = level
                self.query_one(f"#person-{i}", Input).value = name
        self._shown_players = after

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_start()

    @on(Button.Pressed)
    def _button(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "continue":
            self.action_continue_game()
        elif event.button.id == "back":
            self.action_back()
        elif event.button.id == "statistics":
            self.call_later(self.run_action, "app.statistics")
        elif event.button.id == "past-games":
            self.call_later(self.run_action, "app.past_games")
        else:
            self.app.exit()

    def read_settings(self) -> Settings:
        """The settings in the form; ``ValueError`` with a clear message when one is wrong.

        :class:`Settings` (and the engine's ``Rules`` behind it) check every value.
        """
        players = self.query_one("#players", Select).value
        target = self.query_one("#target", Input).value.strip()
        seed = self.query_one("#seed", Input).value.strip()
        speed = self.query_one("#speed", Select).value
        data = {
            "players": players,
            "partnerships": self.query_one("#partnerships", Select).value is True,
            "hand_size": self.query_one("#hand-size", Select).value,
            "target": target or 0,
            "levels": [self.query_one(f"#level-{i}", Select).value for i in range(3)],
            "names": [self.query_one(f"#person-{i}", Input).value for i in range(3)],
            "name": self.query_one("#name", Input).value,
            "seed": seed or None,
            "speed": SPEEDS.get(str(speed), self.settings.speed),
            "auto_draw": self.query_one("#auto-draw", Select).value is True,
            "coach": self.query_one("#coach", Select).value != "off",
            "hints_for_all": self.query_one("#coach", Select).value == "all",
        }
        try:
            settings = Settings.model_validate(data)
            settings.rules()
        except ValidationError as err:
            first = err.errors()[0]
            field = ".".join(str(p) for p in first["loc"][:1]) or "settings"
            message = validation_text(first)
            raise ValueError(f"{FIELD_WORDS.get(field, field)}: {message}.") from None
        return settings

    def action_start(self) -> None:
        """Start a game with the form's settings."""
        try:
            settings = self.read_settings()
        except ValueError as err:
            self.query_one("#form-error", Static).update(str(err))
            return
        if "start" not in self._posted:
            self._posted.add("start")
            self.post_message(self.Start(settings))

    def action_continue_game(self) -> None:
        """Resume the unfinished game."""
        if self.can_continue and "continue" not in self._posted:
            self._posted.add("continue")
            self.post_message(self.Continue())

    def action_back(self) -> None:
        """Back to the game in progress (once, however fast Esc comes)."""
        if self.can_go_back and self.is_active and not self._posted:
            self.dismiss(None)
