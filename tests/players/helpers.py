"""Building exact positions for player tests, through the public engine API only."""

from __future__ import annotations

from engine import GameState, Rules, apply, explicit_deal, new_game, parse_action


def position(rules: Rules, deal_text: str, moves: list[str]) -> GameState:
    """A game with an explicit deal (``"start | hand | hand / boneyard"``), then ``moves``."""
    start_text, rest = deal_text.split("|", 1)
    hands_text, boneyard_text = rest.split("/")
    hands = [h.split() for h in hands_text.split("|")]
    state = new_game(rules)
    state = apply(
        state, explicit_deal(hands, boneyard_text.split(), int(start_text.split()[-1]))
    ).state
    for move in moves:
        state = apply(state, parse_action(move)).state
    return state


def with_scores(state: GameState, scores: tuple[int, ...]) -> GameState:
    """The same position with other scores (validated like any snapshot)."""
    return GameState.model_validate({**dict(state), "scores": scores})
