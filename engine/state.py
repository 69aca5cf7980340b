"""Snapshots: :class:`GameState` (the whole truth) and :class:`SeatView` (one seat's knowledge)."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from engine import core
from engine._fast import complete, lazy_maker, make
from engine.actions import ACTIONS_BY_CODE, Action, Deal, MoveAction
from engine.layout import EMPTY_LAYOUT, Layout, next_layout
from engine.rules import Rules
from engine.tiles import ALL_TILES, Tile, tile_ids

CHANCE = -1
""":attr:`GameState.current_player` at a deal (a chance step), as in OpenSpiel."""
TERMINAL = -4
""":attr:`GameState.current_player` once the game is over, as in OpenSpiel."""


class Phase(StrEnum):
    """Where the game stands: waiting for a deal, in a hand, or over."""

    DEAL = "deal"
    PLAY = "play"
    OVER = "over"


_PHASE_DEAL, _PHASE_OVER = core.PHASE_DEAL, core.PHASE_OVER
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
    """Fields shared by the full state and a seat's view."""

    model_config = ConfigDict(frozen=True)

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

    A snapshot made by :func:`engine.apply` holds the rules core it was computed
    with and a log of the moves since the last snapshot whose fields are known;
    it fills its own fields on first use (see :func:`_fill`). A program that only
    asks for legal actions and applies them (a search, a simulation) never pays
    for fields it does not read, and snapshots it drops are freed at once.
    Reading any field, comparing, hashing, printing, copying, pickling or
    dumping a snapshot gives exactly what an eagerly built one would.
    """

    hands: tuple[tuple[Tile, ...], ...] = ()
    boneyard: tuple[Tile, ...] = ()
    must_play: Tile | None = None
    deals: tuple[Deal, ...] = ()
    past: tuple[tuple[Move, ...], ...] = ()

    _core: core.Core | None = PrivateAttr(default=None)
    _legal: tuple[int, ...] | None = PrivateAttr(default=None)
    _log: list[Any] | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _check_consistent(self) -> GameState:
        object.__setattr__(self, "__pydantic_private__", _fresh_private())
        rules = self.rules
        if not self.scores:
            object.__setattr__(self, "scores", (0,) * rules.teams)
        if not self.voids:
            object.__setattr__(self, "voids", (0,) * rules.players)
        if not self.hands:
            object.__setattr__(self, "hands", ((),) * rules.players)
        if len(self.scores) != rules.teams or len(self.hands) != rules.players:
            raise ValueError("scores or hands do not match the number of players")
        if self.phase is not Phase.DEAL or self.hand_number:
            tiles = [t for h in self.hands for t in h] + list(self.boneyard)
            tiles += list(self.layout.tiles())
            if len(tiles) != 28 or len(set(tiles)) != 28:
                raise ValueError(
                    "the hands, boneyard and layout do not hold the 28 tiles once each"
                )
        lay = self.layout.to_core()
        if tuple(lay.ends) != self.layout.ends or tuple(lay.counts) != self.layout.counts:
            raise ValueError("the layout's open ends do not match its tiles")
        if len(self.deals) != self.hand_number or len(self.past) != max(0, self.hand_number - 1):
            raise ValueError("deals and past hands do not match the hand number")
        if self.phase is Phase.PLAY and self.current is None:
            raise ValueError("a hand in play needs a current seat")
        return self

    # -- lazily filled fields ----------------------------------------------
    if not TYPE_CHECKING:

        def __getattr__(self, name: str) -> Any:
            # Only reached when ``name`` is not in __dict__: a field not filled in
            # yet, or pydantic's bookkeeping slots of a snapshot not filled yet.
            if not self.__dict__ and (name in _FIELD_NAMES or name in _PYDANTIC_SLOTS):
                _fill(self)
                return getattr(self, name)
            return super().__getattr__(name)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self.filled().__dict__ == other.filled().__dict__

    def __hash__(self) -> int:
        return hash(tuple(self.filled().__dict__.values()))

    def __iter__(self) -> Any:
        return super(GameState, self.filled()).__iter__()

    def __repr_args__(self) -> Any:
        return super(GameState, self.filled()).__repr_args__()

    def __getstate__(self) -> dict[Any, Any]:
        return super(GameState, self.filled()).__getstate__()

    def __copy__(self) -> GameState:
        # A copy may be given new field values (model_copy(update=...)), so it
        # keeps no cached core: it rebuilds one from its own fields when asked.
        new = super(GameState, self.filled()).__copy__()
        object.__setattr__(new, "__pydantic_private__", _fresh_private())
        return new

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> GameState:
        new = super(GameState, self.filled()).__deepcopy__(memo)
        object.__setattr__(new, "__pydantic_private__", _fresh_private())
        return new

    @model_serializer(mode="wrap")
    def _serialize(self, handler: SerializerFunctionWrapHandler) -> Any:
        return handler(self.filled())

    def filled(self) -> GameState:
        """This snapshot with every field computed (it is the same object)."""
        if not self.__dict__:
            _fill(self)
        return self

    # -- the rules core ----------------------------------------------------
    def core(self) -> core.Core:
        """The compact core behind this snapshot. Do not mutate it: copy it."""
        private = self.__pydantic_private__
        assert private is not None
        c: core.Core | None = private["_core"]
        if c is None:
            c = private["_core"] = _core_from_state(self)
        return c

    def legal_codes(self) -> tuple[int, ...]:
        """The legal actions as core codes (cached)."""
        private = self.__pydantic_private__
        assert private is not None
        codes: tuple[int, ...] | None = private["_legal"]
        if codes is None:
            codes = private["_legal"] = self.core().legal()
        return codes

    @property
    def is_chance(self) -> bool:
        """True when the next step is a deal."""
        c = self.__pydantic_private__["_core"]  # type: ignore[index]
        return (c or self.core()).phase == _PHASE_DEAL

    @property
    def is_terminal(self) -> bool:
        """True once a side has reached the target."""
        c = self.__pydantic_private__["_core"]  # type: ignore[index]
        return (c or self.core()).phase == _PHASE_OVER

    @property
    def current_player(self) -> int:
        """The seat to act, or :data:`CHANCE` before a deal, :data:`TERMINAL` at the end."""
        c = self.core()
        if c.phase == core.PHASE_DEAL:
            return CHANCE
        if c.phase == core.PHASE_OVER:
            return TERMINAL
        return c.current

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
        if not 0 <= seat < self.rules.players:
            raise ValueError(f"no seat {seat} in a {self.rules.players}-player game")
        return SeatView(
            rules=self.rules,
            phase=self.phase,
            hand_number=self.hand_number,
            current=self.current,
            layout=self.layout,
            scores=self.scores,
            next_start=self.next_start,
            winner=self.winner,
            voids=self.voids,
            history=self.history,
            seat=seat,
            hand=self.hands[seat],
            hand_counts=tuple(len(h) for h in self.hands),
            boneyard_size=len(self.boneyard),
            must_play=self.must_play if self.current == seat else None,
        )


_FIELD_NAMES = frozenset(GameState.model_fields)
_PYDANTIC_SLOTS = frozenset({"__pydantic_fields_set__", "__pydantic_extra__"})
new_lazy_state = lazy_maker(GameState)
"""A snapshot from its private attributes alone (see :func:`state_after`)."""


def _fresh_private() -> dict[str, Any]:
    return {"_core": None, "_legal": None, "_log": None}


def state_after(previous: GameState, c: core.Core, move: int | Deal) -> GameState:
    """The snapshot that ``move`` (an action code or a deal) led to from ``previous``.

    ``c`` is the rules core after the move: a core of its own, never mutated
    again. The new snapshot's fields are computed when first read.
    """
    log = previous.__pydantic_private__["_log"]  # type: ignore[index]
    return new_lazy_state({"_core": c, "_legal": None, "_log": [log or previous, move, None]})


_TILE = ALL_TILES.__getitem__


def deal_into(c: core.Core, deal: Deal) -> None:
    """Deal ``deal`` on core ``c`` (the core checks it is a complete, fair deal)."""
    c.deal([tile_ids(h) for h in deal.hands], tile_ids(deal.boneyard), deal.start)


def _fill(state: GameState) -> None:
    """Compute the fields of a snapshot made by :func:`state_after`.

    Its log is a linked list of nodes ``[previous, move, snapshot]``: ``previous``
    is the node before or, at the start, a snapshot whose fields are known;
    ``snapshot`` is the node's snapshot once its fields are known. The moves
    since the latest known snapshot are replayed on a copy of its core, each
    node on the way remembers the snapshot it leads to (so filling a game's
    snapshots in order costs one move each), and the fields follow from the
    replay exactly as the rules core computed them.
    """
    private = state.__pydantic_private__
    assert private is not None
    node = private["_log"]
    pending = []
    while True:
        pending.append(node)
        previous = node[0]
        if isinstance(previous, GameState):
            break
        if previous[2] is not None:
            previous = previous[2]
            break
        node = previous
    values = previous.__dict__
    c = previous.core()
    last = len(pending) - 1
    for i in range(last, -1, -1):
        node = pending[i]
        move = node[1]
        if i == 0:
            nxt = private["_core"]
        else:
            nxt = c.copy()
            if isinstance(move, Deal):
                deal_into(nxt, move)
            else:
                nxt.step(move)
        if isinstance(move, Deal):
            values = _fields_after_deal(values, nxt, move)
        else:
            values = _fields_after(values, c.current, nxt, move)
        c = nxt
        if i:
            node[2] = make(GameState, values, {"_core": c, "_legal": None, "_log": None})
    state.__dict__.update(values)
    complete(state)
    private["_log"] = None
    pending[0][2] = state


def _fields_after_deal(before: dict[str, Any], c: core.Core, deal: Deal) -> dict[str, Any]:
    """The fields after a deal, from the fields ``before`` it and the core ``c`` after it."""
    values = before.copy()
    values.update(
        phase=Phase.PLAY,
        hand_number=c.hand_no,
        current=deal.start,
        layout=EMPTY_LAYOUT,
        hands=tuple(tuple(h) for h in deal.hands),
        boneyard=tuple(deal.boneyard),
        must_play=None,
        voids=(0,) * c.players,
        history=(),
        deals=(*before["deals"], deal),
        past=(*before["past"], before["history"]) if before["deals"] else (),
    )
    return values


def _fields_after(before: dict[str, Any], seat: int, c: core.Core, code: int) -> dict[str, Any]:
    """The fields after ``seat``'s move ``code``: the fields ``before`` it, with its changes.

    The changes are read off ``c``, the rules core after the move.
    """
    values = before.copy()
    old_hands = before["hands"]
    hands = list(old_hands)
    points = 0
    if code < core.DRAW:
        held = old_hands[seat]  # the placed tile leaves it; the rest keep their order
        i = held.index(_TILE(code // 5))
        hands[seat] = held[:i] + held[i + 1 :]
        values["layout"] = next_layout(before["layout"], c.layout, code % 5)
        points = c.last_points
        if points:
            values["scores"] = tuple(c.scores)
    elif code == core.DRAW:
        hands[seat] = (*old_hands[seat], _TILE(c.last_drawn))
        values["boneyard"] = before["boneyard"][1:]
        values["voids"] = tuple(c.voids)
    else:
        values["voids"] = tuple(c.voids)
    values["hands"] = tuple(hands)
    values["must_play"] = _TILE(c.must) if c.must >= 0 else None
    values["current"] = c.current if c.current >= 0 else None
    values["history"] = (
        *before["history"],
        make(Move, {"seat": seat, "action": ACTIONS_BY_CODE[code], "points": points}),
    )
    if c.phase != core.PHASE_PLAY:
        if c.last_result is not None:
            values["scores"] = tuple(c.scores)
            out = c.last_result.out_seat
            values["next_start"] = out if out >= 0 else None
        values["phase"] = _PHASES[c.phase]
        if c.winner >= 0:
            values["winner"] = c.winner
    return values


class SeatView(_Snapshot):
    """One seat's knowledge: its own hand, the others' tile counts and all public play.

    It has no field that could hold another seat's tiles or the boneyard's order.
    """

    seat: int
    hand: tuple[Tile, ...] = ()
    hand_counts: tuple[int, ...] = ()
    boneyard_size: int = 0
    must_play: Tile | None = None

    def legal_actions(self) -> tuple[Action, ...]:
        """The seat's legal actions (empty when it is not this seat's turn)."""
        if self.phase is not Phase.PLAY or self.current != self.seat:
            return ()
        codes = core.legal_codes(
            [t.id for t in self.hand],
            self.layout.ends,
            self.layout.lead is not None,
            self.must_play.id if self.must_play is not None else -1,
            self.boneyard_size,
        )
        return tuple(ACTIONS_BY_CODE[c] for c in codes)

    def unseen_tiles(self) -> tuple[Tile, ...]:
        """Tiles this seat cannot see: in other hands or the boneyard."""
        seen = set(self.hand) | set(self.layout.tiles())
        return tuple(t for t in ALL_TILES if t not in seen)


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


def phase_of(code: int) -> Phase:
    """The :class:`Phase` for a core phase code."""
    return _PHASES[code]
