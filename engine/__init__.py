"""allfives engine: the rules of All Fives as immutable snapshots and a pure transition.

>>> from engine import Rules, new_game, seeded_deal, apply, legal_actions
>>> state = new_game(Rules(players=2))
>>> state = apply(state, seeded_deal(state, seed=7)).state
>>> state, events = apply(state, legal_actions(state)[0])
"""

from engine.actions import DRAW, PASS, Action, Deal, Draw, MoveAction, Pass, Play
from engine.errors import AllFivesError, IllegalActionError, NotationError, RecordError
from engine.events import Dealt, Drew, Event, GameOver, HandOver, Passed, Placed
from engine.game import (
    Step,
    apply,
    explicit_deal,
    legal_actions,
    new_game,
    random_deal,
    seeded_deal,
)
from engine.layout import ENDS, End, Layout, OpenEnd, Placement
from engine.notation import parse_action, to_text
from engine.rng import Rng
from engine.rules import HandSize, Rules
from engine.state import CHANCE, TERMINAL, GameState, Move, Phase, SeatView
from engine.tiles import ALL_TILES, Tile, parse_tile

__all__ = [
    "ALL_TILES",
    "CHANCE",
    "DRAW",
    "ENDS",
    "PASS",
    "TERMINAL",
    "Action",
    "AllFivesError",
    "Deal",
    "Dealt",
    "Draw",
    "Drew",
    "End",
    "Event",
    "GameOver",
    "GameState",
    "HandOver",
    "HandSize",
    "IllegalActionError",
    "Layout",
    "Move",
    "MoveAction",
    "NotationError",
    "OpenEnd",
    "Pass",
    "Passed",
    "Phase",
    "Placed",
    "Placement",
    "Play",
    "RecordError",
    "Rng",
    "Rules",
    "SeatView",
    "Step",
    "Tile",
    "apply",
    "explicit_deal",
    "legal_actions",
    "new_game",
    "parse_action",
    "parse_tile",
    "random_deal",
    "seeded_deal",
    "to_text",
]
