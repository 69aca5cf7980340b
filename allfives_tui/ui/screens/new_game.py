"""The new-game screen: players, partnerships, hand size, target, levels, name, seed,
pace, drawing, the coach and the language.

It starts from the remembered settings; Enter (or the Start button) starts
the game; "Continue" resumes the last unfinished game when there is one;
"Statistics" and "Past games" (ctrl+t, ctrl+g) open the game history. The
Language row switches the app's language at once (the App speaks it and
remembers it); the form is then made again in that language, its values kept.
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

from allfives_tui.locale import N_, SOURCE, _, current, ngettext
from allfives_tui.table.places import place_name
from allfives_tui.table.problems import validation_text
from allfives_tui.table.settings import PERSON, SEAT_PLACES, SPEEDS, Settings
from allfives_tui.table.words import level_description
from allfives_tui.ui.language import LanguageSwitched, language_options
from allfives_tui.ui.widgets.compact import compact
from allfives_tui.ui.widgets.footer import AppFooter
from allfives_tui.ui.widgets.too_small import TooSmall
from engine import HandSize
from engine.players import LEVELS, REGISTRY
from engine.rng import SEED_LIMIT
from engine.rules import DEFAULT_TARGETS, Rules

HAND_SIZE_TEXT = {
    HandSize.STANDARD: N_("standard"),
    HandSize.FIVE_EACH: N_("five each"),
    HandSize.SEVEN_FIVE: N_("seven-five"),
}
"""Each hand size's name (translated where shown)."""


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
    "players": N_("Players"),
    "target": N_("Target"),
    "name": N_("Your name"),
    "seed": N_("Seed"),
    "levels": N_("Computer level"),
    "names": N_("Names"),
    "hand_size": N_("Tiles per hand"),
    "speed": N_("Computer pace"),
    "language": N_("Language"),
}
"""The form's words for the settings' fields, for error messages (translated where shown)."""

FIELDS = (
    "players", "partnerships", "hand-size", "target", "level-0", "person-0", "level-1",
    "person-1", "level-2", "person-2", "name", "seed", "speed", "auto-draw", "coach",
)
"""The ids of the form's fields whose values are kept when it is made again."""


def seconds(value: float) -> str:
    """``value`` (seconds) as the language writes it: ``0.3``, ``0,3`` (English needs no
    Babel for it)."""
    if current() == SOURCE:
        return f"{value:g}"
    from allfives_tui.locale.formats import number

    return number(value, 2)


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

    @dataclass
    class Language(Message):
        """Speak the language ``code`` from now on."""

        code: str

    DEFAULT_CSS = "#level-note { color: $text-muted; height: 2; }"

    BINDINGS = [
        Binding("ctrl+n", "start", N_("Start"), key_display="^n", priority=True),
        Binding("ctrl+o", "continue_game", N_("Continue"), key_display="^o"),
        Binding("escape", "back", N_("Back to the game"), key_display="Esc"),
        Binding("ctrl+t", "app.statistics", N_("Stats"), key_display="^t"),
        Binding("ctrl+g", "app.past_games", N_("Games"), key_display="^g"),
        Binding("question_mark", "app.show_help", N_("Help"), key_display="?"),
        Binding("ctrl+q", "app.quit", N_("Quit"), key_display="^q"),
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
        self._kept: dict[str, object] = {}
        """The form's values as they were when it was last made again (a language switch)."""
        self._language_chosen: str | None = None
        """The language picked on this form (``None``: the remembered setting stays)."""

    def _value(self, field: str, default: object) -> object:
        """The value ``field`` shows: as kept from before the form was made again, else
        ``default`` (the settings')."""
        return self._kept.get(field, default)

    def compose(self) -> ComposeResult:
        """The form: one compact row per setting, then the buttons."""
        s = self.settings
        value = self._value
        yield TooSmall()
        with Vertical(id="new-game"):
            yield Static(_("All Fives — new game"), id="new-game-title")
            with Grid(id="form"):
                yield Label(_("Players"))
                yield compact(Select(
                    [
                        (ngettext("{count} player", "{count} players", n).format(count=n), n)
                        for n in (2, 3, 4)
                    ],
                    value=value("players", s.players),
                    allow_blank=False,
                    id="players",
                ))
                yield Label(_("Partnerships"))
                yield compact(Select(
                    [
                        (_("no: each player for themselves"), False),
                        (
                            _("yes: you and {partner} as partners").format(
                                partner=place_name("north")
                            ),
                            True,
                        ),
                    ],
                    value=value("partnerships", s.partnerships),
                    allow_blank=False,
                    id="partnerships",
                ))
                yield Label(_("Tiles per hand"))
                players = value("players", s.players)
                yield compact(Select(
                    self._hand_size_options(players if isinstance(players, int) else s.players),
                    value=value("hand-size", s.hand_size),
                    allow_blank=False,
                    id="hand-size",
                ))
                yield Label(_("Target"))
                yield compact(Input(
                    str(value("target", str(s.target) if s.target else "")),
                    placeholder=_("default {target}").format(target=DEFAULT_TARGETS[s.players]),
                    id="target",
                    restrict=r"[0-9]*",
                    max_length=5,
                ))
                for i in range(3):
                    yield Label("", id=f"level-label-{i}", classes="level-label")
                    with Horizontal(id=f"seat-{i}", classes="seat"):
                        yield compact(Select(
                            [
                                *((_("computer: {level}").format(level=lv), lv) for lv in LEVELS),
                                (_("a person"), PERSON),
                            ],
                            value=value(f"level-{i}", s.levels[i]),
                            allow_blank=False,
                            id=f"level-{i}",
                            classes="level",
                        ))
                        yield compact(Input(
                            str(value(f"person-{i}", s.names[i])),
                            placeholder=_("their name"),
                            id=f"person-{i}",
                            classes="person",
                            max_length=20,
                        ))
                yield Label(_("Your name"))
                yield compact(Input(
                    str(value("name", s.name)),
                    placeholder=_("your name (optional)"),
                    id="name",
                    max_length=20,
                ))
                yield Label(_("Seed"))
                yield compact(Input(
                    str(value("seed", "" if s.seed is None else str(s.seed))),
                    placeholder=_("blank: a new shuffle"),
                    id="seed",
                    restrict=r"[0-9]*",
                    max_length=SEED_DIGITS,
                ))
                yield Label(_("Computer pace"))
                yield compact(Select(
                    [
                        (
                            _("{pace} ({seconds} s a move)").format(
                                pace=name, seconds=seconds(SPEEDS[name])
                            ),
                            name,
                        )
                        for name in ("instant", "fast", "normal", "slow")
                    ],
                    value=value("speed", speed_name(s.speed)),
                    allow_blank=False,
                    id="speed",
                ))
                yield Label(_("Draw for me"))
                yield compact(Select(
                    [
                        (
                            _("no: press {draw} to draw, {pass_} to pass").format(
                                draw="d", pass_="p"
                            ),
                            False,
                        ),
                        (_("yes: when no tile fits"), True),
                    ],
                    value=value("auto-draw", s.auto_draw),
                    allow_blank=False,
                    id="auto-draw",
                ))
                yield Label(_("Coach"))
                yield compact(Select(
                    [
                        (_("on: hints ({key}) and your moves rated").format(key="t"), "on"),
                        (_("on, hints for every person"), "all"),
                        (_("off"), "off"),
                    ],
                    value=value("coach", coach_choice(s)),
                    allow_blank=False,
                    id="coach",
                ))
                yield Label(_("Language"))
                yield compact(Select(
                    language_options(), value=current(), allow_blank=False, id="language"
                ))
            yield Static("", id="level-note")
            yield Static("", id="form-error").set_styles("display: none;")
            with Horizontal(id="new-game-buttons"):
                yield compact(Button(_("Start ⏎"), id="start", variant="primary"))
                if self.can_go_back:
                    yield compact(Button(_("Back to the game"), id="back"))
                elif self.can_continue:
                    yield compact(Button(_("Continue"), id="continue"))
                if not self.can_go_back:  # over a game the row is full: ^t and ^g do
                    yield compact(Button(_("Statistics"), id="statistics"))
                    yield compact(Button(_("Past games"), id="past-games"))
                yield compact(Button(_("Quit"), id="quit"))
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
            label = ngettext("{size}: {count} each", "{size}: {count} each", n)
            out.append((label.format(size=_(text), count=n), size))
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
        self.query_one("#target", Input).placeholder = _("default {target}").format(
            target=DEFAULT_TARGETS[players]
        )
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

    @on(Select.Changed, "#language")
    def _language_changed(self, event: Select.Changed) -> None:
        """Another language picked: the App is asked to speak it (the form is made again
        in it when the App says it does, :meth:`on_language_switched`)."""
        code = event.value
        if isinstance(code, str) and code != current():
            self._language_chosen = code
            self.post_message(self.Language(code))

    async def on_language_switched(self, message: LanguageSwitched) -> None:
        """The app speaks another language: the form is made again in it, its values and
        the focus kept."""
        focused = self.focused.id if self.focused is not None else None
        self._kept = self._form_values()
        await self.recompose()
        self._sync_players(self._players())
        if focused:
            for widget in self.query(f"#{focused}"):
                widget.focus()

    def _form_values(self) -> dict[str, object]:
        """Every field's value as it stands (the settings need not be valid yet)."""
        values: dict[str, object] = {}
        for field in FIELDS:
            widget = self.query_one(f"#{field}")
            if isinstance(widget, (Select, Input)):
                values[field] = widget.value
        return values

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
            "language": (
                self.settings.language if self._language_chosen is None
                else self._language_chosen
            ),
        }
        try:
            settings = Settings.model_validate(data)
            settings.rules()
        except ValidationError as err:
            first = err.errors()[0]
            field = ".".join(str(p) for p in first["loc"][:1]) or "settings"
            words = _(FIELD_WORDS[field]) if field in FIELD_WORDS else field
            raise ValueError(
                _("{field}: {problem}.").format(field=words, problem=validation_text(first))
            ) from None
        return settings

    def action_start(self) -> None:
        """Start a game with the form's settings."""
        try:
            settings = self.read_settings()
        except ValueError as err:
            self._show_error(str(err))
            return
        if "start" not in self._posted:
            self._posted.add("start")
            self.post_message(self.Start(settings))

    def _show_error(self, text: str) -> None:
        """Say what is wrong with the form (an empty ``text``: nothing, and no line)."""
        error = self.query_one("#form-error", Static)
        error.update(text)
        error.display = bool(text)

    def action_continue_game(self) -> None:
        """Resume the unfinished game."""
        if self.can_continue and "continue" not in self._posted:
            self._posted.add("continue")
            self.post_message(self.Continue())

    def action_back(self) -> None:
        """Back to the game in progress (once, however fast Esc comes)."""
        if self.can_go_back and self.is_active and not self._posted:
            self.dismiss(None)
