"""How likely a world makes the plays seen so far, and worlds drawn in proportion to it.

Draws and passes are certain facts (a seat that drew or passed held nothing
for the open ends) and :class:`~engine.players.knowledge.Knowledge` already
deals only worlds that respect them. A seat's *free* plays say less, and only
in probability: a seat that led a blank when it could have scored 15 is less
likely to have held the tile that scored 15. This module weighs a world by
that.

The model of a seat's choice (:class:`PlayLikelihood`): at each free play, each
legal placement of the tiles the seat held then is chosen with odds ``odds``
to the power of its points over 5 (a placement scoring 10 more is ``odds ** 2``
times as likely). The tiles held at a play are the seat's hidden hand now and
the tiles it has played freely since (public); a play is free unless it placed
a tile just drawn, and only the plays after the seat's last kept draw count
(the tiles it drew since are hidden, so its hand at an earlier play is not
known). A hidden hand's weight is the product over those plays of the chance
of the play seen, relative to a hand with no hidden tile to place there: 1
when no hidden tile would have been playable, less the more and the better
the placements its tiles offered.

:class:`WeightedWorlds` draws worlds in proportion to that weight by
sampling-importance-resampling over a growing pool: every draw adds one world
dealt uniformly (:meth:`Knowledge.sample_uniform_hands`) to the pool, then
takes a world from the pool with chance proportional to its weight. Everything
is built from the seat's :class:`~engine.state.SeatView` and draws only
``random()`` from the generator, so a seed gives the same worlds everywhere.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from engine import core
from engine.actions import Draw, Play
from engine.players.knowledge import Knowledge
from engine.rng import RandomSource, shuffle
from engine.state import SeatView
from engine.tiles import SET_SIZE

PRIMING = 16
"""Uniform worlds :class:`WeightedWorlds` puts in its pool before the first draw."""

MOST_POWER = 12
"""The most fives a placement scores (12 x 5 = 60 would need every end at its most)."""


def placements(lay: core.Layout, tile: int) -> list[int]:
    """The points of each legal placement of ``tile`` on ``lay`` (empty when it fits no end)."""
    if lay.lead < 0:
        return [core.placement_points(lay.total_after(tile, core.LEAD))]
    return [
        core.placement_points(lay.total_after(tile, code % 5))
        for code in core.play_codes(core.TILE_BIT[tile], lay.ends)
    ]


class Decision:
    """One free play of a seat: ``known`` the summed odds of the placements its public
    tiles offered (the played tile and those it played freely later), ``hidden[t]``
    those tile ``t`` would have offered (0.0 where it fits no end)."""

    __slots__ = ("hidden", "known")

    def __init__(self, known: float, hidden: list[float]) -> None:
        self.known = known
        self.hidden = hidden


class PlayLikelihood:
    """The weight of a world by the seats' free plays (see the module doc).

    ``odds[s]`` is seat ``s``'s model: None leaves its plays out (the seat's
    hands all weigh 1), a number above 0 is the odds a placement gains for
    every 5 points it scores. The viewing seat's own entry is ignored.
    """

    def __init__(self, view: SeatView, unseen: Sequence[int], odds: Sequence[float | None]) -> None:
        self.decisions: list[list[Decision]] = [
            _decisions(view, unseen, s, ratio) if s != view.seat and ratio is not None else []
            for s, ratio in enumerate(odds)
        ]

    @property
    def active(self) -> bool:
        """True when some seat's plays weigh worlds at all."""
        return any(self.decisions)

    def seat_weight(self, seat: int, hand: Sequence[int]) -> float:
        """How likely the plays of ``seat`` are with ``hand`` hidden, relative to a hand
        that offered nothing at any of its free plays (1.0): in (0, 1]."""
        w = 1.0
        for d in self.decisions[seat]:
            hidden = d.hidden
            total = d.known
            for t in hand:
                total += hidden[t]
            w *= d.known / total
        return w

    def weight(self, hands: Sequence[Sequence[int]]) -> float:
        """A world's weight: the product of every seat's :meth:`seat_weight` (``hands`` as
        :meth:`Knowledge.sample_hands` gives them; the viewer's entry is the boneyard)."""
        w = 1.0
        for seat, decisions in enumerate(self.decisions):
            if decisions:
                w *= self.seat_weight(seat, hands[seat])
        return w


def _decisions(view: SeatView, unseen: Sequence[int], seat: int, odds: float) -> list[Decision]:
    """The free plays of ``seat`` since its last kept draw, each as a :class:`Decision`."""
    powers = [1.0]
    for _ in range(MOST_POWER):
        powers.append(powers[-1] * odds)  # products, not pow(): the same bits everywhere
    history = view.history
    lay = core.Layout()
    moments: list[core.Layout] = []
    played: list[int] = []  # the tile of each moment's play
    for i, move in enumerate(history):
        action = move.action
        if isinstance(action, Play):
            tile = action.tile.id
            if move.seat == seat:
                forced = i > 0 and history[i - 1].seat == seat and isinstance(
                    history[i - 1].action, Draw
                )
                if not forced:
                    moments.append(lay.copy())
                    played.append(tile)
            lay.place(tile, core.LEAD if action.end is None else action.end.slot)
        elif isinstance(action, Draw) and move.seat == seat:
            nxt = history[i + 1] if i + 1 < len(history) else None
            if not (nxt is not None and nxt.seat == seat and isinstance(nxt.action, Play)):
                moments.clear()  # a kept draw: the hand at older plays is not known
                played.clear()
    out = []
    for k, before in enumerate(moments):
        known = 0.0
        for tile in played[k:]:
            for points in placements(before, tile):
                known += powers[points // 5]
        hidden = [0.0] * SET_SIZE
        for tile in unseen:
            for points in placements(before, tile):
                hidden[tile] += powers[points // 5]
        out.append(Decision(known, hidden))
    return out


class WeightedWorlds:
    """Worlds drawn in proportion to :class:`PlayLikelihood` (see the module doc)."""

    def __init__(self, know: Knowledge, likelihood: PlayLikelihood) -> None:
        self.know = know
        self.likelihood = likelihood
        self.pool: list[list[list[int]]] = []
        self.cumulative: list[float] = []
        self.total = 0.0

    def _add(self, rng: RandomSource) -> None:
        know = self.know
        hands = know.sample_uniform_hands(rng)
        if hands is None:
            know.uniform_misses += 1
            hands = know.sample_hands(rng)
        self.total += self.likelihood.weight(hands)
        self.pool.append(hands)
        self.cumulative.append(self.total)

    def sample_hands(self, rng: RandomSource) -> list[list[int]]:
        """Hidden hands as :meth:`Knowledge.sample_hands` gives them (the boneyard
        reshuffled), drawn from the pool by weight after adding a fresh one."""
        if not self.pool:
            for _ in range(PRIMING - 1):
                self._add(rng)
        self._add(rng)
        i = bisect_right(self.cumulative, rng.random() * self.total)
        hands = self.pool[min(i, len(self.pool) - 1)]
        me = self.know.me
        out = [hand if seat != me else hand[:] for seat, hand in enumerate(hands)]
        shuffle(out[me], rng)
        return out

    def sample(self, base: core.Core, rng: RandomSource) -> core.Core:
        """A copy of ``base`` with the unseen tiles dealt by :meth:`sample_hands`."""
        hands = self.sample_hands(rng)
        me = self.know.me
        c = base.copy()
        for seat, hand in enumerate(hands):
            if seat != me:
                c.held[seat] = core.hand_mask(hand)
        c.boneyard = hands[me]
        return c
