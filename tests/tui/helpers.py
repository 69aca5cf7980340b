"""Shared helpers for the TUI tests: states reached at fixed seeds."""

from __future__ import annotations

from engine import GameState, Rules, apply, new_game, seeded_deal
from engine.rng import Rng


def random_state(seed: int, moves: int, players: int = 2) -> GameState:
    """A two-player game at ``seed`` after ``moves`` random legal moves (stops at a hand's end)."""
    state = new_game(Rules(players=players))
    state = apply(state, seeded_deal(state, seed)).state
    rng = Rng(seed)
    for _ in range(moves):
        legal = state.legal_actions()
        nxt = apply(state, legal[rng.below(len(legal))]).state
        if nxt.phase.value != "play":
            break
        state = nxt
    return state


def screen_text(app: object) -> str:
    """The app's screen as plain text, one line per row."""
    return "\n".join(s.text for s in app.screen._compositor.render_strips())  # type: ignore[attr-defined]
