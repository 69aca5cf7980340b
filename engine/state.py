"""Snapshots: :class:`GameState` (the whole truth) and :class:`SeatView` (one seat's knowledge)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, PrivateAttr, model_validator

from engine import core
from engine._fast import fields, make, maker, private, set_field, set_private
from engine.actions import ACTIONS_BY_CODE, Action, Deal, MoveAction
from engine.errors import AllFivesError, not_a_member, shown
from engine.layout import EMPTY_LAYOUT, Layout, next_layout
from engine.rules import Rules
from engine.tiles import ALL_TILES, Tile, tile_ids, tile_mask

CHANCE = -1
""":attr:`GameState.current_player` at a deal (a chance step), as in OpenSpiel."""
TERMINAL = -4
""":attr:`GameState.current_player` once the game is over, as in OpenSpiel."""


class Phase(StrEnum):
    """Where the game stands: waiting for a deal, in a hand, or over."""

    DEAL = "deal"
    PLAY = "play"
    OVER = "over"

    @classmethod
    def _missing_(cls, value: object) -> Phase:
        raise not_a_member("a phase", value, cls)


_PHASE_PLAY, _DRAW = core.PHASE_PLAY, core.DRAW
_PHASES = {core.PHASE_DEAL: Phase.DEAL, core.PHASE_PLAY: Phase.PLAY, core.PHASE_OVER: Phase.OVER}
_PHASE_CODES = {phase: code for code, phase in _PHASES.items()}


class Move(BaseModel):
    """One public entry of a hand's history: who did what, and the points scored."""

    model_config = ConfigDict(frozen=True)

    seat: int
    action: MoveAction
    points: int = 0

    def __str__(self) -> str:
        return f"{self.seat}:{self.action}"


def void_values(mask: int) -> frozenset[int]:
    """The pip values in a void bit mask."""
    return frozenset(v for v in range(7) if mask >> v & 1)


class _Snapshot(BaseModel):
    """Fields shared by the full state and a seat's view.

    A snapshot may cache values derived from its fields in private attributes
    (all ``None`` until computed). They are not part of its value: equality and
    hashing look at the fields only, and a copy given new field values
    (``model_copy(update=...)``) starts with empty caches.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    rules: Rules
    phase: Phase = Phase.DEAL
    hand_number: int = 0
    current: int | None = None
    layout: Layout = EMPTY_LAYOUT
    scores: tuple[int, ...] = ()
    next_start: int | None = None
    winner: int | None = None
    voids: tuple[int, ...] = ()
    history: tuple[Move, ...] = ()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Snapshot):
            return NotImplemented
        return type(self) is type(other) and fields(self) == fields(other)

    def __hash__(self) -> int:
        return hash(tuple(fields(self).values()))

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy (see pydantic's ``model_copy``); with ``update``, its caches start empty."""
        copied = super().model_copy(update=update, deep=deep)
        if update:
            set_private(copied, dict.fromkeys(self.__private_attributes__))
        return copied

    @property
    def is_chance(self) -> bool:
        """True when the next step is a deal."""
        return self.phase is Phase.DEAL

    @property
    def is_terminal(self) -> bool:
        """True once a side has reached the target."""
        return self.phase is Phase.OVER

    @property
    def current_player(self) -> int:
        """The seat to act, or :data:`CHANCE` before a deal, :data:`TERMINAL` at the end."""
        if self.phase is Phase.DEAL:
            return CHANCE
        if self.phase is Phase.OVER:
            return TERMINAL
        assert self.current is not None
        return self.current

    def seat_score(self, seat: int) -> int:
        """The score of the team that ``seat`` plays for."""
        return self.scores[self.rules.team_of(seat)]

    def known_voids(self, seat: int) -> frozenset[int]:
        """Pip values ``seat`` is publicly known not to hold (from its draws and passes)."""
        players = self.rules.players
        if type(seat) is not int or not 0 <= seat < players:
            raise AllFivesError(f"no seat {shown(seat)} in a {players}-player game")
        return void_values(self.voids[seat])

    def returns(self) -> tuple[float, ...]:
        """Per seat: 1.0 for the winning side, 0.0 for the others (0.0 for all before the end)."""
        if self.winner is None:
            return (0.0,) * self.rules.players
        return tuple(
            1.0 if self.rules.team_of(s) == self.winner else 0.0 for s in range(self.rules.players)
        )


class GameState(_Snapshot):
    """The whole truth of a game: every hand, the boneyard's order, the layout, the scores.

    Immutable; :func:`engine.apply` returns the next one. ``scores`` are per
    team (:meth:`Rules.team_of`), ``hands`` per seat, ``boneyard[0]`` is the next
    tile drawn, ``must_play`` the drawn tile the current seat has to play,
    ``history`` the public moves of the current hand and ``actions`` every
    action of the game (deals included), from which a record is written.

    It caches the compact rules core behind it and its legal action codes.
    """

    hands: tuple[tuple[Tile, ...], ...] = ()
    boneyard: tuple[Tile, ...] = ()
    must_play: Tile | None = None
    deals: tuple[Deal, ...] = ()
    past: tuple[tuple[Move, ...], ...] = ()

    _core: core.Core | None = PrivateAttr(default=None)
    _legal: tuple[int, ...] | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _check_consistent(self) -> GameState:
        rules = self.rules
        if not self.scores:
            set_field(self, "scores", (0,) * rules.teams)
        if not self.voids:
            set_field(self, "voids", (0,) * rules.players)
        if not self.hands:
            set_field(self, "hands", ((),) * rules.players)
        if len(self.scores) != rules.teams or len(self.hands) != rules.players:
            raise ValueError("scores or hands do not match the number of players")
        tiles = [t for h in self.hands for t in h] + list(self.boneyard)
        tiles += list(self.layout.tiles())
        if len(set(tiles)) != len(tiles):
            twice = next(t for i, t in enumerate(tiles) if t in tiles[:i])
            raise ValueError(f"the tile {twice} is held twice (in the hands, boneyard and layout)")
        if (self.phase is not Phase.DEAL or self.hand_number) and len(tiles) != 28:
            raise ValueError("the hands, boneyard and layout do not hold the 28 tiles once each")
        lay = self.layout.to_core()
        if tuple(lay.ends) != self.layout.ends or tuple(lay.counts) != self.layout.counts:
            raise ValueError("the layout's open ends do not match its tiles")
        if len(self.deals) != self.hand_number or len(self.past) != max(0, self.hand_number - 1):
            raise ValueError("deals and past hands do not match the hand number")
        if self.phase is Phase.PLAY and self.current is None:
            raise ValueError("a hand in play needs a current seat")
        players = rules.players
        current = self.current
        if current is not None and not 0 <= current < players:
            raise ValueError(
                f"current: no seat {shown(current)} in a {players}-player game "
                "(None at a deal and after the game)"
            )
        if self.must_play is not None and (
            current is None or self.must_play not in self.hands[current]
        ):
            holder = "no seat is to play" if current is None else f"seat {current} does not hold it"
            raise ValueError(
                f"must_play: the drawn tile {self.must_play} must be played, but {holder}"
            )
        if self.winner is not None and not 0 <= self.winner < rules.teams:
            raise ValueError(
                f"winner: no side {shown(self.winner)} among the game's {rules.teams} sides"
            )
        self._check_phase()
        if len(self.voids) != players or any(not 0 <= v < 1 << 7 for v in self.voids):
            raise ValueError(
                f"voids: one bit mask of the pip values 0 to 6 per seat ({players}), "
                f"not {shown(self.voids)}"
            )
        start = self.next_start
        if start is not None and not 0 <= start < players:
            raise ValueError(
                f"next_start: no seat {shown(start)} in a {players}-player game "
                "(None when the starter is drawn)"
            )
        return self

    def _check_phase(self) -> None:
        """The phase agrees with the winner, the scores and the seat to play."""
        target = self.rules.target
        if self.phase is Phase.OVER:
            if self.winner is None:
                raise ValueError("winner: a finished game needs a winning side")
        else:
            if self.winner is not None:
                raise ValueError(
                    f"winner: a game in the {self.phase.value} phase has no winner yet"
                )
            reached = [team for team, score in enumerate(self.scores) if score >= target]
            if reached:
                raise ValueError(
                    f"scores: side {reached[0]} has reached the target of {target}, "
                    f"so the game is over, not in the {self.phase.value} phase"
                )
        if self.phase is not Phase.PLAY and self.current is not None:
            raise ValueError(
                f"current: no seat is to play in the {self.phase.value} phase, "
                f"not {shown(self.current)}"
            )

    # -- the rules core ----------------------------------------------------
    def core(self) -> core.Core:
        """The compact core behind this snapshot. Do not mutate it: copy it."""
        cache = private(self)
        c: core.Core | None = cache["_core"]
        if c is None:
            c = cache["_core"] = _core_from_state(self)
        return c

    def legal_codes(self) -> tuple[int, ...]:
        """The legal actions as core codes (cached)."""
        cache = private(self)
        codes: tuple[int, ...] | None = cache["_legal"]
        if codes is None:
            codes = cache["_legal"] = self.core().legal()
        return codes

    # -- conveniences --------------------------------------------------------
    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action of the game in order, each hand's deal first."""
        out: list[Action] = []
        hands = (*self.past, self.history) if self.deals else ()
        for deal, moves in zip(self.deals, hands, strict=True):
            out.append(deal)
            out.extend(m.action for m in moves)
        return tuple(out)

    def legal_actions(self) -> tuple[Action, ...]:
        """See :func:`engine.legal_actions`."""
        return tuple(ACTIONS_BY_CODE[c] for c in self.legal_codes())

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know: see :class:`SeatView`."""
        f = fields(self)
        rules = f["rules"]
        if not (isinstance(seat, int) and 0 <= seat < rules.players):
            raise AllFivesError(f"no seat {shown(seat)} in a {rules.players}-player game")
        # Every value comes from this validated snapshot: the view needs no
        # validation of its own. Its fields are the public ones of this
        # snapshot, then its own (in declaration order, as validation makes
        # them). It knows its legal actions already: this snapshot's on its
        # turn, else none.
        values = f.copy()
        hands = values.pop("hands")
        boneyard = values.pop("boneyard")
        must_play = values.pop("must_play")
        del values["deals"], values["past"]
        values["seat"] = seat
        values["hand"] = hands[seat]
        values["hand_counts"] = tuple(map(len, hands))
        values["boneyard_size"] = len(boneyard)
        if values["current"] == seat:
            values["must_play"] = must_play
            return _new_view(values, {"_legal": private(self)["_legal"] or self.legal_codes()})
        values["must_play"] = None
        return _new_view(values, {"_legal": ()})


_new_state = maker(GameState)


def deal_into(c: core.Core, deal: Deal) -> None:
    """Deal ``deal`` on core ``c`` (the core checks it is a complete, fair deal)."""
    c.deal([tile_ids(h) for h in deal.hands], tile_ids(deal.boneyard), deal.start)


def state_after_deal(previous: GameState, c: core.Core, deal: Deal) -> GameState:
    """The snapshot after ``deal`` from ``previous``; ``c`` is the rules core after it."""
    values = fields(previous).copy()
    values.update(
        phase=Phase.PLAY,
        hand_number=c.hand_no,
        current=deal.start,
        layout=EMPTY_LAYOUT,
        voids=(0,) * c.players,
        history=(),
        hands=tuple(tuple(h) for h in deal.hands),
        boneyard=tuple(deal.boneyard),
        must_play=None,
        deals=(*values["deals"], deal),
        past=(*values["past"], values["history"]) if values["deals"] else (),
    )
    return _new_state(values, {"_core": c, "_legal": c.legal()})


_TILE = ALL_TILES.__getitem__
_CODES = len(ACTIONS_BY_CODE)
_MOVES: dict[int, Move] = {}
"""Interned history entries by seat, action code and points (a game repeats them often)."""


def state_after_move(previous: GameState, seat: int, c: core.Core, code: int) -> GameState:
    """The snapshot after ``seat``'s move ``code`` from ``previous``.

    ``c`` is the rules core after the move (a core of its own, never mutated
    again); the fields that change are read off it, the rest are shared with
    ``previous``.
    """
    before = fields(previous)
    values = before.copy()
    points = 0
    if code < _DRAW:
        hands = list(before["hands"])
        held = hands[seat]
        tile = _TILE(code // 5)
        # The placed tile leaves the hand; the rest keep their order. The
        # engine's tiles are the interned ones, so look for the object first.
        i = 0
        for t in held:
            if t is tile:
                break
            i += 1
        else:
            i = held.index(tile)
        hands[seat] = held[:i] + held[i + 1 :]
        values["hands"] = tuple(hands)
        values["layout"] = next_layout(before["layout"], c.layout, code % 5)
        values["must_play"] = None
        points = c.last_points
        if points:
            values["scores"] = tuple(c.scores)
    elif code == _DRAW:
        hands = list(before["hands"])
        hands[seat] = hands[seat] + (_TILE(c.last_drawn),)
        values["hands"] = tuple(hands)
        values["boneyard"] = before["boneyard"][1:]
        values["voids"] = tuple(c.voids)
        if c.must >= 0:
            values["must_play"] = _TILE(c.must)
    else:
        values["voids"] = tuple(c.voids)
    values["current"] = c.current if c.current >= 0 else None
    key = (points << 2 | seat) * _CODES + code
    move = _MOVES.get(key)
    if move is None:
        move = _MOVES[key] = make(
            Move, {"seat": seat, "action": ACTIONS_BY_CODE[code], "points": points}
        )
    values["history"] = before["history"] + (move,)
    if c.phase != _PHASE_PLAY:
        if c.last_result is not None:
            values["scores"] = tuple(c.scores)
            out = c.last_result.out_seat
            values["next_start"] = out if out >= 0 else None
        values["phase"] = _PHASES[c.phase]
        if c.winner >= 0:
            values["winner"] = c.winner
    return _new_state(values, {"_core": c, "_legal": c.legal()})


class SeatView(_Snapshot):
    """One seat's knowledge: its own hand, the others' tile counts and all public play.

    It has no field that could hold another seat's tiles or the boneyard's order.
    """

    seat: int
    hand: tuple[Tile, ...] = ()
    hand_counts: tuple[int, ...] = ()
    boneyard_size: int = 0
    must_play: Tile | None = None

    _legal: tuple[int, ...] | None = PrivateAttr(default=None)

    def legal_actions(self) -> tuple[Action, ...]:
        """The seat's legal actions (empty when it is not this seat's turn)."""
        cache = private(self)
        codes = cache["_legal"]
        if codes is None:
            codes = cache["_legal"] = self._legal_codes()
        if len(codes) == 1:
            return _SINGLE[codes[0]]
        return tuple(map(_ACTION, codes))

    def _legal_codes(self) -> tuple[int, ...]:
        if self.phase is not Phase.PLAY or self.current != self.seat:
            return ()
        layout = self.layout
        must = self.must_play
        return core.legal_codes(
            tile_mask(self.hand),
            layout.ends,
            layout.lead is not None,
            must.id if must is not None else -1,
            self.boneyard_size,
        )

    def unseen_tiles(self) -> tuple[Tile, ...]:
        """Tiles this seat cannot see: in other hands or the boneyard."""
        seen = set(self.hand) | set(self.layout.tiles())
        return tuple(t for t in ALL_TILES if t not in seen)


_new_view = maker(SeatView)
_ACTION = ACTIONS_BY_CODE.__getitem__
_SINGLE: tuple[tuple[Action, ...], ...] = tuple((action,) for action in ACTIONS_BY_CODE)


def core_from_snapshot(
    snapshot: GameState | SeatView, hands: list[list[int]], boneyard: list[int]
) -> core.Core:
    """A rules core holding everything public in ``snapshot``, with the given tiles.

    ``hands`` (tile ids per seat) and ``boneyard`` (tile ids, next draw first)
    supply what the snapshot may not show: a :class:`SeatView` does not know
    the other hands, so a searching player passes sampled ones.
    """
    rules = snapshot.rules
    c = core.Core(
        rules.players,
        [rules.team_of(s) for s in range(rules.players)],
        rules.target,
        rules.tiles_per_hand,
    )
    c.held = [core.hand_mask(h) for h in hands]
    c.boneyard = boneyard[::-1]
    c.layout = snapshot.layout.to_core()
    c.current = snapshot.current if snapshot.current is not None else -1
    c.must = snapshot.must_play.id if snapshot.must_play is not None else -1
    c.scores = list(snapshot.scores)
    c.phase = _PHASE_CODES[snapshot.phase]
    c.hand_no = snapshot.hand_number
    c.next_start = snapshot.next_start if snapshot.next_start is not None else -1
    c.winner = snapshot.winner if snapshot.winner is not None else -1
    c.voids = list(snapshot.voids)
    return c


def _core_from_state(state: GameState) -> core.Core:
    return core_from_snapshot(
        state, [[t.id for t in h] for h in state.hands], [t.id for t in state.boneyard]
    )
