"""The new-game settings: one model that checks them, whoever gives them.

:class:`Settings` is checked the same way from the new-game screen, the
command line and the remembered file (see :mod:`allfives_tui.store.settings_file`);
it says which seats a game has (:meth:`Settings.seats`) and the engine rules it
describes (:meth:`Settings.rules`).
"""

from __future__ import annotations

from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from allfives_tui.locale import _, match, supported
from allfives_tui.table.names import player_name
from allfives_tui.table.problems import validation_text
from engine import HandSize, Rules
from engine.errors import shown
from engine.players import LEVELS
from engine.record import PLACES, Place, Seat
from engine.rng import check_game_seed


def default_level() -> str:
    """The computer level offered first: "greedy" if there is one, else the middle level."""
    return "greedy" if "greedy" in LEVELS else LEVELS[len(LEVELS) // 2]


SPEEDS: dict[str, float] = {"instant": 0.0, "fast": 0.3, "normal": 0.7, "slow": 1.4}
"""Named computer-move paces in seconds."""

PERSON = "person"
"""In :attr:`Settings.levels`: the seat is played by a person at this terminal."""

SEAT_PLACES: dict[int, tuple[Place, ...]] = {n: places[1:] for n, places in PLACES.items()}
"""Where seats 1, 2, 3 sit, by number of players (seat 0, the first person, sits south):
their place codes (:func:`allfives_tui.table.places.place_name` words them). A seat
nobody named (a computer's) has its place's name."""
OLD_DEFAULT_NAME = "You"
"""The first person's default name that older allfives remembered: read as blank."""

ALONE = "alone"
"""Validation context key: check one setting on its own (see :meth:`Settings.check_one`)."""


class Settings(BaseModel):
    """The new-game settings, remembered between runs.

    This model is the one place settings are checked, whoever gives them (the
    new-game screen, the command line, the remembered file); the target is
    checked by the engine's :class:`~engine.Rules` with the other settings.
    """

    model_config = ConfigDict(extra="ignore")

    players: int = 2
    partnerships: bool = False
    hand_size: HandSize = HandSize.STANDARD
    target: int = Field(default=0, ge=0, le=10000)
    levels: list[str] = Field(default_factory=lambda: [default_level()] * 3)
    """Seats 1, 2, 3: a computer level, or :data:`PERSON` for a person."""
    name: str = ""
    """The name of the person in seat 0 (blank: the default name of the seat's place;
    older allfives remembered it as ``"You"``, read as blank)."""
    names: list[str] = Field(default_factory=lambda: [""] * 3)
    """Seats 1, 2, 3: the names of the people there (blank: the seat's place)."""
    seed: int | None = None
    speed: float = 0.7
    auto_draw: bool = False
    coach: bool = True
    """The coach: hints (alone against computers) and the person's moves rated."""
    hints_for_all: bool = False
    """With several people at the table: every one of them agreed to hints for all."""
    language: str = ""
    """The language chosen (a code of :func:`allfives_tui.locale.supported`); blank: the
    environment's."""
    theme: str = Field(default="", max_length=60)
    """The app's theme as last chosen (the palette's "Change theme"); blank: the default.
    A name the app does not know is left alone."""

    @classmethod
    def check_one(cls, field: str, value: Any) -> Any:
        """``value`` checked and converted as setting ``field`` on its own (a command-line flag).

        Only the field's own checks run, not those that need the other settings
        (the target's check by the rules needs the players); raises
        :class:`~pydantic.ValidationError`.
        """
        return getattr(cls.model_validate({field: value}, context={ALONE: True}), field)

    @field_validator("players")
    @classmethod
    def _table_size(cls, players: int) -> int:
        if not 2 <= players <= 4:
            raise ValueError(
                _("All Fives is for 2, 3 or 4 players, not {value}").format(
                    value=shown(players, 80)
                )
            )
        return players

    @field_validator("partnerships")
    @classmethod
    def _partnerships_of_four(cls, partnerships: bool, info: ValidationInfo) -> bool:
        if (info.context or {}).get(ALONE) or "players" not in info.data:
            return partnerships  # checked alone, or the players are wrong (that is reported)
        if partnerships and info.data["players"] != 4:
            raise ValueError(
                _("partnerships need 4 players, not {players}").format(players=info.data["players"])
            )
        return partnerships

    @field_validator("target")
    @classmethod
    def _rules_accept_target(cls, target: int, info: ValidationInfo) -> int:
        if (info.context or {}).get(ALONE) or "players" not in info.data:
            return target  # checked alone, or the players are wrong (that error is reported)
        try:
            _rules(
                info.data["players"],
                info.data.get("partnerships", False),
                info.data.get("hand_size", HandSize.STANDARD),
                target,
            )
        except ValidationError as err:
            raise ValueError(validation_text(err.errors()[0])) from None
        return target

    @field_validator("name")
    @classmethod
    def _printable_name(cls, name: str) -> str:
        if not name.strip() or name.strip() == OLD_DEFAULT_NAME:
            return ""
        return player_name(name)

    @field_validator("names")
    @classmethod
    def _printable_names(cls, names: list[str]) -> list[str]:
        fixed = [player_name(n) if n.strip() else "" for n in names[:3]]
        return fixed + [""] * (3 - len(fixed))

    @field_validator("language")
    @classmethod
    def _offered_language(cls, code: str) -> str:
        if not code.strip():
            return ""
        found = match(code, supported())
        if found is None:
            raise ValueError(
                _("there are no words in {code}: choose from {codes}").format(
                    code=shown(code, 80), codes=", ".join(supported())
                )
            )
        return found

    @field_validator("levels")
    @classmethod
    def _known_levels(cls, levels: list[str]) -> list[str]:
        fixed = [lv if lv in LEVELS or lv == PERSON else default_level() for lv in levels[:3]]
        return fixed + [default_level()] * (3 - len(fixed))

    @model_validator(mode="after")
    def _people_apart(self) -> Settings:
        names = [s.name for s in self.seats() if s.is_person and s.name is not None]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(
                _("two people at the table are called {name}: give each a name").format(
                    name=twice[0]
                )
            )
        return self

    def seats(self) -> tuple[Seat, ...]:
        """The seats of a game with these settings: a person in seat 0, then each seat's
        computer or person; a seat with no name given has its place's (``None``)."""
        seats = [Seat(name=self.name or None, kind="person")]
        for i in range(len(SEAT_PLACES.get(self.players, ()))):
            if self.levels[i] == PERSON:
                seats.append(Seat(name=self.names[i] or None, kind="person"))
            else:
                seats.append(Seat(kind="computer", level=self.levels[i]))
        return tuple(seats)

    @field_validator("seed")
    @classmethod
    def _whole_seed(cls, seed: int | None) -> int | None:
        return None if seed is None else check_game_seed(seed)

    @field_validator("speed", mode="before")
    @classmethod
    def _named_speed(cls, speed: Any) -> Any:
        if isinstance(speed, str):
            name = speed.strip().lower()
            if name in SPEEDS:
                return SPEEDS[name]
            try:
                return float(name)
            except ValueError:
                raise ValueError(
                    _("{value} is not a pace: give seconds (e.g. 0.5) or one of {paces}").format(
                        value=shown(speed, 80), paces=", ".join(SPEEDS)
                    )
                ) from None
        return speed

    @field_validator("speed")
    @classmethod
    def _speed_range(cls, speed: float) -> float:
        if not 0 <= speed <= 5:
            raise ValueError(
                _("the pace must be between 0 and 5 seconds a move, not {seconds}").format(
                    seconds=f"{speed:g}"
                )
            )
        return speed

    def rules(self) -> Rules:
        """The engine rules these settings describe."""
        return _rules(self.players, self.partnerships, self.hand_size, self.target)


def _rules(players: int, partnerships: bool, hand_size: HandSize, target: int) -> Rules:
    return Rules(
        players=players,
        partnerships=partnerships and players == 4,
        hand_size=hand_size,
        target=target,
    )
