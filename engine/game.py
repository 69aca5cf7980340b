"""The transition: :func:`new_game`, :func:`legal_actions`, :func:`apply` and deals.

This is the only place a game moves on; the rules themselves are executed by
:mod:`engine.core`, and every function here is pure.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine import core
from engine._fast import make, new_object, set_private
from engine.actions import (
    ACTIONS_BY_CODE,
    INTERNED_CODES,
    PLAY_ACTIONS,
    Action,
    Deal,
    Draw,
    Pass,
    Play,
    action_code,
)
from engine.errors import IllegalActionError
from engine.events import Dealt, Drew, Event, GameOver, HandOver, Passed, Placed
from engine.layout import ENDS
from engine.rng import Rng, derive_seed
from engine.rules import Rules
from engine.state import GameState, Phase, deal_into, state_after
from engine.tiles import ALL_TILES, Tile


class Step:
    """What :func:`apply` returns: the next snapshot and the events on the way.

    Unpacks like a pair (``state, events = apply(...)``); the events are
    computed when first read.
    """

    __slots__ = ("_code", "_events", "_seat", "state")

    def __init__(
        self,
        state: GameState,
        events: tuple[Event, ...] | None = None,
        seat: int = -1,
        code: int = -1,
    ) -> None:
        self.state = state
        self._events = events
        self._seat = seat
        self._code = code

    @property
    def events(self) -> tuple[Event, ...]:
        """What happened, in order (see :mod:`engine.events`)."""
        events = self._events
        if events is None:
            events = self._events = _move_events(self._seat, self._code, self.state.core())
        return events

    def __iter__(self) -> Iterator[Any]:
        return iter((self.state, self.events))

    def __len__(self) -> int:
        return 2

    def __getitem__(self, index: int) -> Any:
        return (self.state, self.events)[index]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Step):
            return NotImplemented
        return self.state == other.state and self.events == other.events

    def __hash__(self) -> int:
        return hash((self.state, self.events))

    def __repr__(self) -> str:
        return f"Step(state={self.state!r}, events={self.events!r})"


def new_game(rules: Rules | None = None) -> GameState:
    """A game waiting for its first deal (a chance step: see :func:`seeded_deal`)."""
    rules = rules or Rules()
    return GameState(rules=rules)


_ACTION = ACTIONS_BY_CODE.__getitem__
_SINGLE = tuple((action,) for action in ACTIONS_BY_CODE).__getitem__
_INTERNED_CODE = INTERNED_CODES.get
_TILE = ALL_TILES.__getitem__


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every legal move of the seat to act: plays that match an open end, else draw, else pass.

    Plays come end by end (west, east, north, south; a lead before any), and
    on each end by tile (``ALL_TILES`` order). Empty at a deal (use
    :func:`seeded_deal` or :func:`random_deal`) and at the end.
    """
    private: dict[str, Any] = state.__pydantic_private__  # type: ignore[assignment]
    codes = private["_legal"]
    if codes is None:
        codes = private["_legal"] = (private["_core"] or state.core()).legal()
    if len(codes) == 1:  # a third of all positions: a forced play, a draw or a pass
        return _SINGLE(codes[0])
    return tuple(map(_ACTION, codes))


def apply(state: GameState, action: Action) -> Step:
    """The snapshot after ``action`` and the events it caused; ``state`` is unchanged.

    Raises :class:`IllegalActionError` (a ``ValueError``) naming the rule broken.
    """
    code = _INTERNED_CODE(id(action))
    if code is None:
        if action.kind == "deal":
            return _apply_deal(state, action)
        code = action_code(action)
    private: dict[str, Any] = state.__pydantic_private__  # type: ignore[assignment]
    codes = private["_legal"]
    if codes is None:
        codes = state.legal_codes()
    if code not in codes:
        if state.phase is Phase.OVER:
            raise IllegalActionError("the game is over", rule="game-over")
        if state.phase is Phase.DEAL:
            raise IllegalActionError("the hand has not been dealt yet", rule="deal-first")
        raise _illegal(state, action)  # type: ignore[arg-type]
    c = private["_core"].copy()
    seat = c.current
    c.step(code)
    # state_after(state, c, code), inlined: a snapshot whose fields come on first read
    new = new_object(GameState)
    set_private(new, {"_core": c, "_legal": None, "_log": [private["_log"] or state, code, None]})
    # Step(new, None, seat, code), without the call
    step = new_object(Step)
    step.state = new
    step._events = None
    step._seat = seat
    step._code = code
    return step


def _move_events(seat: int, code: int, c: core.Core) -> tuple[Event, ...]:
    """The events of move ``code`` by ``seat``, read off the core ``c`` it produced."""
    event: Event
    if code < core.DRAW:
        play: Play = PLAY_ACTIONS[code]
        event = make(
            Placed,
            {
                "kind": "placed",
                "seat": seat,
                "tile": play.tile,
                "end": play.end,
                "total": c.last_total,
                "points": c.last_points,
            },
        )
    elif code == core.DRAW:
        drawn = _TILE(c.last_drawn)
        event = make(Drew, {"kind": "drew", "seat": seat, "tile": drawn, "must_play": c.must >= 0})
    else:
        event = make(Passed, {"kind": "passed", "seat": seat})
    if c.phase == core.PHASE_PLAY:
        return (event,)
    events: list[Event] = [event]
    scores = tuple(c.scores)
    result = c.last_result
    if result is not None:
        events.append(
            make(
                HandOver,
                {
                    "kind": "hand_over",
                    "hand_number": c.hand_no,
                    "out_seat": result.out_seat if result.out_seat >= 0 else None,
                    "pips": result.pips,
                    "penalties": result.penalties,
                    "scores": scores,
                },
            )
        )
    if c.winner >= 0:
        events.append(make(GameOver, {"kind": "game_over", "winner": c.winner, "scores": scores}))
    return tuple(events)


def _apply_deal(state: GameState, deal: Deal) -> Step:
    c = state.core().copy()
    if c.phase == core.PHASE_OVER:
        raise IllegalActionError("the game is over", rule="game-over")
    made = _made_deal
    if made is not None and made[0] is deal and made[3] == (c.players, c.per_hand):
        c.deal(made[1], made[2], deal.start, checked=True)
    else:
        deal_into(c, deal)
    event = make(Dealt, {"kind": "dealt", "hand_number": c.hand_no, "start": deal.start})
    return Step(state_after(state, c, deal), (event,))


def _illegal(state: GameState, action: Play | Draw | Pass) -> IllegalActionError:
    """The most specific reason an action is not legal here."""
    seat = state.current
    hand = state.hands[seat] if seat is not None else ()
    can_play = any(isinstance(a, Play) for a in legal_actions(state))
    if isinstance(action, Draw):
        if can_play:
            return IllegalActionError(f"seat {seat} can play, so may not draw", rule="must-play")
        return IllegalActionError("the boneyard is empty", rule="boneyard-empty")
    if isinstance(action, Pass):
        if can_play:
            return IllegalActionError(f"seat {seat} can play, so may not pass", rule="must-play")
        return IllegalActionError(
            "the boneyard is not empty: draw until a tile can be played", rule="draw-before-pass"
        )
    assert isinstance(action, Play)
    tile = action.tile
    if tile not in hand:
        return IllegalActionError(f"seat {seat} does not hold {tile}", rule="own-tile")
    if state.must_play is not None and tile != state.must_play:
        return IllegalActionError(
            f"the drawn tile {state.must_play} must be played now, not {tile}",
            rule="play-drawn-tile",
        )
    if state.layout.lead is None:
        return IllegalActionError(f"{tile} leads the hand: it takes no end", rule="lead")
    if action.end is None:
        return IllegalActionError(
            f"the lead is already down: say which end {tile} goes on", rule="match-end"
        )
    value = state.layout.ends[action.end.slot]
    if value < 0:
        if action.end.slot >= 2:
            return IllegalActionError(
                f"the {action.end.word} end is not open: the spinner's sides must both be "
                "covered first",
                rule="spinner-sides-first",
            )
        return IllegalActionError(f"the {action.end.word} end is not open", rule="open-end")
    return IllegalActionError(
        f"{tile} does not match the {action.end.word} end, which needs a {value}",
        rule="match-end",
    )


def seeded_deal(state: GameState, seed: int) -> Deal:
    """The deal of the next hand for a game ``seed``: the same on every machine.

    Each hand's shuffle depends only on the seed and the hand number; the
    start player is whoever went out last hand, else drawn from the same stream.
    """
    return random_deal(state, Rng(derive_seed(seed, state.core().hand_no + 1)))


def random_deal(state: GameState, rng: Rng) -> Deal:
    """A uniformly random deal of the next hand drawn from ``rng``."""
    c = state.core()
    players = c.players
    order = rng.shuffled(_TILE_IDS)  # the same order as shuffling ALL_TILES
    k = c.per_hand
    hand_ids = [order[i * k : (i + 1) * k] for i in range(players)]
    boneyard_ids = order[players * k :]
    start = c.next_start if c.next_start >= 0 else rng.below(players)
    deal: Deal = make(
        Deal,
        {
            "kind": "deal",
            "hands": tuple(tuple(map(_TILE, h)) for h in hand_ids),
            "boneyard": tuple(map(_TILE, boneyard_ids)),
            "start": start,
        },
    )
    global _made_deal
    _made_deal = (deal, hand_ids, boneyard_ids, (players, k))
    return deal


_TILE_IDS = list(range(len(ALL_TILES)))
_made_deal: tuple[Deal, list[list[int]], list[int], tuple[int, int]] | None = None
"""The deal :func:`random_deal` made last, with its tile ids and the (players,
tiles a hand) it was made for: applying that very object to a game of that
shape (the usual next step) skips converting and re-checking its tiles."""


def explicit_deal(
    hands: list[list[str]] | tuple[tuple[str, ...], ...],
    boneyard: list[str] | tuple[str, ...],
    start: int,
) -> Deal:
    """A :class:`Deal` from tile texts, for tests and hand-made records."""
    return Deal(
        hands=tuple(tuple(Tile.model_validate(t) for t in h) for h in hands),
        boneyard=tuple(Tile.model_validate(t) for t in boneyard),
        start=start,
    )


__all__ = [
    "ENDS",
    "Step",
    "apply",
    "explicit_deal",
    "legal_actions",
    "new_game",
    "random_deal",
    "seeded_deal",
]
