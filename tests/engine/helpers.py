"""Helpers for building exact positions in engine tests."""

from __future__ import annotations

from engine import (
    ALL_TILES,
    Deal,
    GameState,
    Rules,
    Step,
    apply,
    new_game,
    parse_action,
    parse_tile,
)


def make_deal(
    rules: Rules, hands: list[list[str]], start: int = 0, boneyard_first: list[str] | None = None
) -> Deal:
    """A deal whose hands begin with the given tiles, filled from the rest of the set.

    ``boneyard_first`` fixes the first tiles to be drawn.
    """
    used = {parse_tile(t) for h in hands for t in h} | {parse_tile(t) for t in boneyard_first or []}
    rest = [t for t in ALL_TILES if t not in used]
    full = []
    for seat in range(rules.players):
        given = [parse_tile(t) for t in (hands[seat] if seat < len(hands) else [])]
        need = rules.tiles_per_hand - len(given)
        full.append(tuple(given + rest[:need]))
        rest = rest[need:]
    boneyard = tuple(parse_tile(t) for t in boneyard_first or []) + tuple(rest)
    return Deal(hands=tuple(full), boneyard=boneyard, start=start)


def dealt(
    rules: Rules, hands: list[list[str]], start: int = 0, boneyard_first: list[str] | None = None
) -> GameState:
    """A new game with that deal applied."""
    state = new_game(rules)
    return apply(state, make_deal(rules, hands, start, boneyard_first)).state


def play(state: GameState, *moves: str) -> Step:
    """Apply moves in notation; return the last step."""
    step = Step(state, ())
    for text in moves:
        step = apply(step.state, parse_action(text))
    return step
