"""The heuristic level: points now, minus the reply it invites, plus good shape.

For every legal placement it scores

* the points it makes now;
* minus the points the next opponent can expect to make in reply, counting only
  tiles that opponent may hold (a seat that drew or passed held nothing for the
  open ends at that moment, see :mod:`engine.players.knowledge`);
* plus a bonus for shedding heavy tiles and doubles while the hand is young;
* plus a bonus for keeping tiles that follow the open ends, especially ends the
  opponents are known not to hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import core
from engine.actions import Action, Play, action_code
from engine.players.base import no_choice
from engine.players.knowledge import Knowledge
from engine.players.playout import placement_points
from engine.state import SeatView
from engine.tiles import HIGH, IS_DOUBLE, LOW, PIP_MASK, PIPS


@dataclass(frozen=True)
class Weights:
    """How much each part of the heuristic counts (points are worth 1)."""

    reply: float = 1.0
    pips: float = 0.35
    double: float = 2.5
    follow: float = 1.5
    control: float = 1.0


def expected_best(points_and_probs: list[tuple[int, float]]) -> float:
    """The expected best score when each option is available with its own probability."""
    points_and_probs.sort(reverse=True)
    expected = 0.0
    none_yet = 1.0
    for pts, p in points_and_probs:
        expected += none_yet * p * pts
        none_yet *= 1.0 - p
    return expected


def reply_points(lay: core.Layout, know: Knowledge, seat: int, exclude: int = -1) -> float:
    """What ``seat`` can expect to score on ``lay`` with one placement, given public knowledge."""
    count = know.view.hand_counts[seat] if know.view.hand_counts else 0
    if count <= 0:
        return 0.0
    ends = lay.ends
    options: list[tuple[int, float]] = []
    possible = [t for t in know.unseen if t != exclude and know.can_hold(seat, t)]
    if not possible:
        return 0.0
    p = min(1.0, count / len(possible))
    for t in possible:
        h = HIGH[t]
        lo = LOW[t]
        best = 0
        for e in range(4):
            v = ends[e]
            if v >= 0 and (v == h or v == lo):
                pts = placement_points(lay, t * 5 + e)
                if pts > best:
                    best = pts
        if best:
            options.append((best, p))
    return expected_best(options)


class HeuristicPlayer:
    """Points now, minus the next opponent's expected reply, plus shape (see the module doc)."""

    level = "heuristic"

    def __init__(self, seed: int = 0, weights: Weights | None = None) -> None:
        self.seed = seed
        self.weights = weights or Weights()

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """The legal action with the best heuristic score (first among equals)."""
        if len(legal) == 1:
            return legal[0]
        if not legal:
            raise no_choice()
        scores = self.scores(view, legal)
        best = max(range(len(legal)), key=lambda i: (scores[i], -i))
        return legal[best]

    def scores(self, view: SeatView, legal: Sequence[Action]) -> list[float]:
        """The heuristic score of each legal action."""
        know = Knowledge(view)
        base = view.layout.to_core()
        w = self.weights
        me = view.seat
        players = view.rules.players
        nxt = (me + 1) % players
        per_hand = view.rules.tiles_per_hand
        hand = [t.id for t in view.hand]
        youth = max(0.0, len(hand) / per_hand)
        # Values the other seats are known to lack (for "control" of an end).
        opp_void = 0x7F
        for s in range(players):
            if s != me and view.rules.team_of(s) != view.rules.team_of(me):
                opp_void &= know.constraints[s].void_mask
        out: list[float] = []
        for action in legal:
            if not isinstance(action, Play):
                out.append(0.0)
                continue
            code = action_code(action)
            tile = code // 5
            lay = base.copy()
            lay.place(tile, code % 5)
            pts = core.placement_points(lay.total)
            score = float(pts)
            score -= w.reply * reply_points(lay, know, nxt, exclude=tile)
            score += w.pips * PIPS[tile]
            if IS_DOUBLE[tile]:
                score += w.double * youth
            rest = [t for t in hand if t != tile]
            open_values = core.open_mask(lay.ends)
            follow = 0
            control = 0
            for t in rest:
                fit = PIP_MASK[t] & open_values
                if fit:
                    follow += 1
                    if fit & opp_void:
                        control += 1
            score += w.follow * min(follow, 3) + w.control * min(control, 2)
            out.append(score)
        return out
