"""The transition: :func:`new_game`, :func:`legal_actions`, :func:`apply` and deals.

This is the only place a game moves on; the rules themselves are executed by
:mod:`engine.core`, and every function here is pure.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

from engine import core
from engine._fast import make, private
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
from engine.errors import AllFivesError, IllegalActionError, shown
from engine.events import Dealt, Drew, Event, GameOver, HandOver, Passed, Placed
from engine.layout import ENDS
from engine.rng import Rng, check_game_seed, derive_seed
from engine.rules import Rules
from engine.state import GameState, deal_into, state_after_deal, state_after_move
from engine.tiles import ALL_TILES, Tile


class Step(NamedTuple):
    """What :func:`apply` returns: the next snapshot and the events on the way.

    A named pair: ``state, events = apply(...)`` unpacks it with both types known.
    """

    state: GameState
    """The snapshot after the action."""
    events: tuple[Event, ...]
    """What happened, in order (see :mod:`engine.events`)."""


_new_step = partial(tuple.__new__, Step)
"""``Step(state, events)`` from a pair, without the call to the generated ``__new__``."""


def new_game(rules: Rules | None = None) -> GameState:
    """A game waiting for its first deal (a chance step: see :func:`seeded_deal`)."""
    if rules is None:
        rules = Rules()
    elif not isinstance(rules, Rules):
        raise AllFivesError(f"not the rules of a game: {shown(rules)} (make them with Rules)")
    return GameState(rules=rules)


def _not_a_state(state: object) -> AllFivesError:
    return AllFivesError(f"not a game state: {shown(state)} (start one with engine.new_game)")


_ACTION_TYPES = (Play, Draw, Pass, Deal)
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
    if state.__class__ is not GameState and not isinstance(state, GameState):
        raise _not_a_state(state)
    codes = private(state)["_legal"] or state.legal_codes()
    if len(codes) == 1:  # a third of all positions: a forced play, a draw or a pass
        return _SINGLE(codes[0])
    return tuple(map(_ACTION, codes))


def apply(state: GameState, action: Action) -> Step:
    """The snapshot after ``action`` and the events it caused; ``state`` is unchanged.

    Raises :class:`IllegalActionError` (a ``ValueError``) naming the rule broken.
    """
    if state.__class__ is not GameState and not isinstance(state, GameState):
        raise _not_a_state(state)
    code = _INTERNED_CODE(id(action))
    if code is None:
        if not isinstance(action, _ACTION_TYPES):
            raise AllFivesError(
                f"not an action: {shown(action)} (parse text with engine.parse_action)"
            )
        if action.kind == "deal":
            return _apply_deal(state, action)
        code = action_code(action)
    cache = private(state)
    c = cache["_core"] or state.core()
    codes = cache["_legal"]
    if codes is None:
        codes = cache["_legal"] = c.legal()
    if code not in codes:
        if c.phase == core.PHASE_OVER:
            raise IllegalActionError("the game is over", rule="game-over")
        if c.phase == core.PHASE_DEAL:
            raise IllegalActionError("the hand has not been dealt yet", rule="deal-first")
        raise _illegal(state, action)  # type: ignore[arg-type]
    c = c.copy()
    seat = c.current
    c.step(code)
    return _new_step((state_after_move(state, seat, c, code), _move_events(seat, code, c)))


_DRAW, _PHASE_PLAY = core.DRAW, core.PHASE_PLAY
_PLACED: dict[int, tuple[Event, ...]] = {}
_DREW: dict[int, tuple[Event, ...]] = {}
_PASSED: dict[int, tuple[Event, ...]] = {}
"""Interned events of a move within a hand, by their values: a game repeats them often."""


def _move_events(seat: int, code: int, c: core.Core) -> tuple[Event, ...]:
    """The events of move ``code`` by ``seat``, read off the core ``c`` it produced."""
    event: Event
    if code < _DRAW:
        total = c.last_total
        key = (total << 2 | seat) * _DRAW + code  # the points follow from the total
        events = _PLACED.get(key)
        if events is None:
            play: Play = PLAY_ACTIONS[code]
            event = make(
                Placed,
                {
                    "kind": "placed",
                    "seat": seat,
                    "tile": play.tile,
                    "end": play.end,
                    "total": total,
                    "points": c.last_points,
                },
            )
            events = _PLACED[key] = (event,)
    elif code == _DRAW:
        must = c.must >= 0
        key = (c.last_drawn << 3) | (must << 2) | seat
        events = _DREW.get(key)
        if events is None:
            drawn = _TILE(c.last_drawn)
            event = make(Drew, {"kind": "drew", "seat": seat, "tile": drawn, "must_play": must})
            events = _DREW[key] = (event,)
    else:
        events = _PASSED.get(seat)
        if events is None:
            events = _PASSED[seat] = (make(Passed, {"kind": "passed", "seat": seat}),)
    if c.phase == _PHASE_PLAY:
        return events
    out: list[Event] = [*events]
    scores = tuple(c.scores)
    result = c.last_result
    if result is not None:
        out.append(
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
        out.append(make(GameOver, {"kind": "game_over", "winner": c.winner, "scores": scores}))
    return tuple(out)


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
    return Step(state_after_deal(state, c, deal), (event,))


def _illegal(state: GameState, action: Play | Draw | Pass) -> IllegalActionError:
    """The most specific reason an action is not legal here."""
    seat = state.current
    hand = state.hands[seat] if seat is not None else ()
    can_play = any(isinstance(a, Play) for a in legal_actions(state))
    if isinstance(action, Draw):
        if can_play:
            return IllegalActionError(
                f"seat {seat} can play, so may not draw", rule="must-play", seat=seat, action=action
            )
        return IllegalActionError(
            "the boneyard is empty", rule="boneyard-empty", seat=seat, action=action
        )
    if isinstance(action, Pass):
        if can_play:
            return IllegalActionError(
                f"seat {seat} can play, so may not pass", rule="must-play", seat=seat, action=action
            )
        return IllegalActionError(
            "the boneyard is not empty: draw until a tile can be played",
            rule="draw-before-pass",
            seat=seat,
            action=action,
        )
    assert isinstance(action, Play)
    tile, end = action.tile, action.end

    def refused(
        message: str, rule: str, *, needs: int | None = None, drawn: Tile | None = None
    ) -> IllegalActionError:
        return IllegalActionError(
            message, rule=rule, seat=seat, action=action, tile=tile, end=end, needs=needs,
            drawn=drawn,
        )

    if tile not in hand:
        return refused(f"seat {seat} does not hold {tile}", "own-tile")
    if state.must_play is not None and tile != state.must_play:
        return refused(
            f"the drawn tile {state.must_play} must be played now, not {tile}",
            "play-drawn-tile",
            drawn=state.must_play,
        )
    if state.layout.lead is None:
        return refused(f"{tile} leads the hand: it takes no end", "lead")
    if end is None:
        return refused(f"the lead is already down: say which end {tile} goes on", "match-end")
    value = state.layout.ends[end.slot]
    if value < 0:
        if end.slot >= 2:
            return refused(
                f"the {end.word} end is not open: the spinner's sides must both be "
                "covered first",
                "spinner-sides-first",
            )
        return refused(f"the {end.word} end is not open", "open-end")
    return refused(
        f"{tile} does not match the {end.word} end, which needs a {value}", "match-end", needs=value
    )


def seeded_deal(state: GameState, seed: int) -> Deal:
    """The deal of the next hand for a game ``seed``: the same on every machine.

    Each hand's shuffle depends only on the seed and the hand number; the
    start player is whoever went out last hand, else drawn from the same stream.
    ``seed`` is a whole number ``0 <= seed <`` :data:`~engine.rng.SEED_LIMIT`
    (else :class:`~engine.errors.AllFivesError`).
    """
    seed = check_game_seed(seed)
    if not isinstance(state, GameState):
        raise _not_a_state(state)
    return random_deal(state, Rng(derive_seed(seed, state.core().hand_no + 1)))


def random_deal(state: GameState, rng: Rng) -> Deal:
    """A uniformly random deal of the next hand drawn from ``rng``."""
    if not isinstance(state, GameState):
        raise _not_a_state(state)
    if not isinstance(rng, Rng):
        raise AllFivesError(f"not a generator: {shown(rng)} (make one with engine.Rng)")
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
    """A :class:`Deal` from tile texts, for tests and hand-made records.

    Anything else than a list of hands (lists of tiles) and a list of tiles
    raises :class:`~engine.errors.AllFivesError`.
    """
    if not _is_list(hands) or not all(_is_list(h) for h in hands):
        raise AllFivesError(f"the hands of a deal are lists of tiles, not {shown(hands)}")
    if not _is_list(boneyard):
        raise AllFivesError(f"the boneyard of a deal is a list of tiles, not {shown(boneyard)}")
    return Deal(
        hands=tuple(tuple(Tile.model_validate(t) for t in h) for h in hands),
        boneyard=tuple(Tile.model_validate(t) for t in boneyard),
        start=start,
    )


def _is_list(value: object) -> bool:
    return isinstance(value, (list, tuple))


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
