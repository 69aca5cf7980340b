"""What one seat may infer about hidden tiles, and worlds sampled consistently with it.

Everything here is built from a :class:`~engine.state.SeatView` alone: the
seat's own hand, the layout, the tile counts, the boneyard's size and the
public history of the hand. Nothing can reach another seat's tiles.

A seat that draws or passes shows that, at that moment, it held nothing for
the open ends. Tiles it drew *later* are not covered by that fact, so each
hidden tile of a seat is tied to the moment it joined the hand (dealt, or a
draw that did not fit and so stayed hidden). A tile may sit in a seat's hand
only where it fits such a moment; :meth:`Knowledge.sample` deals the unseen
tiles so that every seat's hand can be explained that way.

Sampling draws only ``random()`` from its generator (a
:class:`~engine.rng.RandomSource`, see :mod:`engine.rng`), so a seed samples
the same worlds on every machine and Python version.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine import core
from engine.actions import Draw, Pass, Play
from engine.errors import AllFivesError
from engine.rng import RandomSource, shuffle
from engine.state import SeatView, core_from_snapshot
from engine.tiles import PIP_MASK, SET_SIZE


def placement_points(layout: core.Layout, code: int) -> int:
    """Points the placement ``code`` would score on ``layout`` (which is left unchanged)."""
    return core.placement_points(layout.total_after(code // 5, code % 5))


UNIFORM_ATTEMPTS = 400
"""Proposals :meth:`Knowledge.sample_uniform_hands` tries before it gives up (returns None)."""


class SeatConstraint:
    """The public facts about one seat's hidden hand.

    ``masks[k]`` is the pip mask of the open ends at the seat's k-th draw or
    pass of the hand; ``caps[k]`` is how many still-hidden drawn tiles joined
    the hand *after* that moment (only those may show a value of ``masks[k]``).
    """

    __slots__ = ("caps", "count", "masks", "seat")

    def __init__(self, seat: int, count: int, masks: list[int], caps: list[int]) -> None:
        self.seat = seat
        self.count = count
        self.masks = masks
        self.caps = caps

    def last_violation(self, tile: int) -> int:
        """The index of the latest moment whose open ends ``tile`` matches (-1 if none)."""
        pm = PIP_MASK[tile]
        masks = self.masks
        for k in range(len(masks) - 1, -1, -1):
            if pm & masks[k]:
                return k
        return -1

    def allows(self, tile: int) -> bool:
        """True when ``tile`` could be in this seat's hand at all."""
        last = self.last_violation(tile)
        return last < 0 or self.caps[last] > 0

    @property
    def void_mask(self) -> int:
        """Pip values no tile of the hand can show now (from the moments after the last draw)."""
        m = 0
        for k, mask in enumerate(self.masks):
            if self.caps[k] == 0:
                m |= mask
        return m


class Knowledge:
    """One seat's knowledge of the hidden tiles, from its :class:`SeatView`."""

    def __init__(self, view: SeatView, passed_up_weight: float = 0.0) -> None:
        rules = view.rules
        self.view = view
        self.me = view.seat
        self.players = rules.players
        self.team_of = tuple(rules.team_of(s) for s in range(rules.players))
        self.my_hand = [t.id for t in view.hand]
        seen = set(self.my_hand)
        seen.update(t.id for t in view.layout.tiles())
        self.unseen = [t for t in range(SET_SIZE) if t not in seen]
        self.boneyard_size = view.boneyard_size
        counts = view.hand_counts or tuple(0 for _ in range(self.players))
        self.constraints = _constraints(view, counts)
        self.passed_up_weight = passed_up_weight
        self.uniform_misses = 0
        self._allowed: list[tuple[int, list[int], int]] | None = None
        self.passed_up: list[dict[int, int]] = (
            _passed_up(view, self.unseen) if passed_up_weight > 0 else [{} for _ in counts]
        )

    def others(self) -> list[int]:
        """The other seats, in turn order after this one."""
        return [(self.me + i) % self.players for i in range(1, self.players)]

    def can_hold(self, seat: int, tile: int) -> bool:
        """True when public play does not rule out ``tile`` being in ``seat``'s hand."""
        return self.constraints[seat].allows(tile)

    def base_core(self) -> core.Core:
        """A core holding everything public, with this seat's hand and no hidden tiles yet."""
        hands: list[list[int]] = [[] for _ in range(self.players)]
        hands[self.me] = list(self.my_hand)
        return core_from_snapshot(self.view, hands, [])

    def sample(self, base: core.Core, rng: RandomSource) -> core.Core:
        """A copy of ``base`` with the unseen tiles dealt consistently with public play.

        The boneyard's order is shuffled too.
        """
        hands = self.sample_hands(rng)
        c = base.copy()
        for seat, hand in enumerate(hands):
            if seat != self.me:
                c.held[seat] = core.hand_mask(hand)
        c.boneyard = hands[self.me]
        return c

    def sample_hands(self, rng: RandomSource) -> list[list[int]]:
        """Hidden hands per seat; this seat's entry holds the boneyard instead (in draw order).

        Every hand honours its seat's count and :class:`SeatConstraint`, and the
        boneyard holds the rest. The seats are filled first-fit from a shuffled
        pool (see :func:`_fill`); should that paint itself into a corner more
        than ``ATTEMPTS - 1`` times, the last shuffle is dealt by a fill that
        looks ahead (it deals that shuffle as the first-fit would wherever the
        first-fit gets through, and finds a deal wherever one exists).

        Raises :class:`~engine.errors.AllFivesError` when no deal fits the
        public record, which cannot happen in a hand reached by legal play
        (its true deal fits): only a hand-built snapshot can contradict itself.
        """
        order = sorted(self.others(), key=lambda s: (-len(self.constraints[s].masks), s))
        pool = self.unseen
        weight = self.passed_up_weight
        for attempt in range(ATTEMPTS):
            shuffled = pool[:]
            shuffle(shuffled, rng)
            if weight > 0 and attempt < ATTEMPTS // 2:
                shuffled = _deprioritise(shuffled, self.passed_up, order, weight, rng)
            hands = _fill(self.constraints, order, shuffled)
            if hands is None and attempt == ATTEMPTS - 1:
                hands = _fill_looking_ahead(self.constraints, order, shuffled)
            if hands is not None:
                return hands
        raise AllFivesError(
            f"seat {self.me} sees a hand no deal fits: the public history rules out "
            "every way to deal the unseen tiles to the hand counts"
        )

    def sample_uniform(self, base: core.Core, rng: RandomSource) -> core.Core:
        """:meth:`sample`, but drawn uniformly among every deal consistent with the
        public draws and passes (:meth:`sample_uniform_hands`), without inference.

        When rejection finds no deal in :data:`UNIFORM_ATTEMPTS` proposals (a
        seat that may hold few tiles, in a three- or four-player game), the
        world comes from :meth:`sample_hands` instead, and ``uniform_misses``
        counts it.
        """
        hands = self.sample_uniform_hands(rng)
        if hands is None:
            self.uniform_misses += 1
            hands = self.sample_hands(rng)
        c = base.copy()
        for seat, hand in enumerate(hands):
            if seat != self.me:
                c.held[seat] = core.hand_mask(hand)
        c.boneyard = hands[self.me]
        return c

    def sample_uniform_hands(
        self, rng: RandomSource, attempts: int = UNIFORM_ATTEMPTS
    ) -> list[list[int]] | None:
        """Hidden hands as :meth:`sample_hands` gives them, each consistent deal equally likely.

        Exact rejection sampling: each other seat in turn (in a fixed order,
        the most restricted first) takes a uniformly random set of its count
        ``k_i`` from the tiles it may hold at all that are still free
        (``free_i``); the proposal is kept with the chance
        ``prod C(free_i, k_i) / C(most_i, k_i)``, where ``most_i`` is the most
        tiles that could be free for that seat, which evens out the proposal's
        odds so that every assignment of hands within the allowed tiles is
        equally likely; and only if every hand also fits its seat's caps
        (:func:`fits_caps`). The boneyard takes the rest, shuffled. Where no
        seat is restricted, or with one hidden hand (two players), the chance
        is 1. None when ``attempts`` proposals all fail.
        """
        if self._allowed is None:
            pool = self.unseen
            per_seat = [
                (s, [t for t in pool if self.constraints[s].allows(t)]) for s in self.others()
            ]
            # The most restricted seats first: any fixed order is exact, this one rejects least.
            per_seat.sort(key=lambda sa: (len(sa[1]) - self.constraints[sa[0]].count, sa[0]))
            self._allowed = []
            dealt = 0
            for s, tiles in per_seat:
                k = max(self.constraints[s].count, 0)
                # the most tiles that can be free for the seat when its turn comes
                most = min(len(tiles), len(pool) - dealt)
                self._allowed.append((s, tiles, math.comb(most, k) if most >= k else 1))
                dealt += k
        rnd = rng.random
        constraints = self.constraints
        players = self.players
        for _ in range(attempts):
            taken = 0
            odds = 1.0
            hands: list[list[int]] = [[] for _ in range(players)]
            ok = True
            for s, allowed, most in self._allowed:
                con = constraints[s]
                k = con.count
                if k <= 0:
                    continue
                free = [t for t in allowed if not taken >> t & 1]
                n = len(free)
                if n < k:
                    ok = False
                    break
                ways = math.comb(n, k)
                if ways != most:
                    odds *= ways / most
                for i in range(k):  # a partial Fisher-Yates draw of k tiles
                    j = i + int(rnd() * (n - i))
                    free[i], free[j] = free[j], free[i]
                hand = free[:k]
                if not fits_caps(con, hand):
                    ok = False
                    break
                for t in hand:
                    taken |= 1 << t
                hands[s] = hand
            if not ok:
                continue
            if odds < 1.0 and rnd() >= odds:
                continue
            rest = [t for t in self.unseen if not taken >> t & 1]
            shuffle(rest, rng)
            hands[self.me] = rest
            return hands
        return None


ATTEMPTS = 40
"""Shuffles :meth:`Knowledge.sample_hands` deals first-fit at most (the last with look-ahead)."""


def fits_caps(con: SeatConstraint, hand: Sequence[int]) -> bool:
    """True when ``hand`` could be ``con``'s seat's hidden hand: for every moment k,
    no more of its tiles show a value of moment k or later than ``caps[k]`` (tiles
    that joined after moment k). The caps are nested, so this is also enough."""
    masks = con.masks
    if not masks:
        return True
    caps = con.caps
    used = [0] * len(masks)
    for t in hand:
        last = con.last_violation(t)
        for k in range(last + 1):
            used[k] += 1
            if used[k] > caps[k]:
                return False
    return True


def _deprioritise(
    pool: list[int],
    passed_up: Sequence[dict[int, int]],
    order: Sequence[int],
    weight: float,
    rng: RandomSource,
) -> list[int]:
    """Move tiles a seat would probably have played earlier to the back of the pool.

    A tile that would have scored more than what a seat chose to play, at a
    moment it already held that tile, is kept from that seat's hand with
    probability ``1 - (1 - weight) ** times`` (the pool order decides who gets
    what, see :func:`_fill`). Only the first seat in ``order`` that passed the
    tile up is considered, which is enough for two-player games and a fair
    approximation with more.
    """
    front: list[int] = []
    back: list[int] = []
    keep = 1.0 - weight
    rnd = rng.random
    for t in pool:
        times = 0
        for s in order:
            times = passed_up[s].get(t, 0)
            if times:
                break
        if times:
            # keep ** times by products: IEEE products round alike everywhere,
            # where pow() may differ in the last bit from one C library to another.
            kept = keep
            for _ in range(times - 1):
                kept *= keep
            if rnd() >= kept:
                back.append(t)
                continue
        front.append(t)
    return front + back


def _passed_up(view: SeatView, unseen: Sequence[int]) -> list[dict[int, int]]:
    """Per seat: unseen tiles that would have scored more than a free choice it made.

    Only choices made after the seat's last kept draw count: every tile it
    holds now was in its hand then. Forced plays of a drawn tile do not count.
    """
    players = view.rules.players
    history = view.history
    lay = core.Layout()
    choices: list[list[tuple[core.Layout, int, int]]] = [[] for _ in range(players)]
    for i, move in enumerate(history):
        seat = move.seat
        action = move.action
        if isinstance(action, Play):
            forced = i > 0 and history[i - 1].seat == seat and isinstance(
                history[i - 1].action, Draw
            )
            if not forced and seat != view.seat:
                choices[seat].append((lay.copy(), move.points, i))
            lay.place(action.tile.id, core.LEAD if action.end is None else action.end.slot)
        elif isinstance(action, Draw):
            nxt = history[i + 1] if i + 1 < len(history) else None
            if not (nxt is not None and nxt.seat == seat and isinstance(nxt.action, Play)):
                choices[seat] = []  # a kept draw: older choices say nothing of it
    out: list[dict[int, int]] = []
    for seat in range(players):
        found: dict[int, int] = {}
        for before, points, _ in choices[seat]:
            ends = before.ends
            for t in unseen:
                if before.lead < 0:
                    best = placement_points(before, t * 5 + core.LEAD)
                else:
                    best = 0
                    for e in range(4):
                        v = ends[e]
                        if v >= 0 and core.fits(t, v):
                            pts = placement_points(before, t * 5 + e)
                            if pts > best:
                                best = pts
                if best > points:
                    found[t] = found.get(t, 0) + 1
        out.append(found)
    return out


def _fill(
    constraints: Sequence[SeatConstraint], order: Sequence[int], pool: list[int]
) -> list[list[int]] | None:
    """Deal ``pool`` first-fit: each seat in ``order`` takes the first tiles it may hold.

    The seat whose count is -1 (the sampling seat) gets the rest, as the
    boneyard. None when a seat cannot be filled: first-fit can hand an early
    seat the only tiles a later one may hold (see :func:`_fill_looking_ahead`).
    """
    hands: list[list[int]] = [[] for _ in range(len(constraints))]
    taken = [False] * len(pool)
    for s in order:
        con = constraints[s]
        need = con.count
        if not need:
            continue
        masks = con.masks
        caps = con.caps
        used = [0] * len(masks)
        hand = hands[s]
        for i, t in enumerate(pool):
            if taken[i]:
                continue
            last = con.last_violation(t) if masks else -1
            if last >= 0:
                ok = True
                for k in range(last + 1):
                    if used[k] >= caps[k]:
                        ok = False
                        break
                if not ok:
                    continue
                for k in range(last + 1):
                    used[k] += 1
            hand.append(t)
            taken[i] = True
            if len(hand) == need:
                break
        if len(hand) < need:
            return None
    rest = [t for i, t in enumerate(pool) if not taken[i]]
    me = next(s for s in range(len(constraints)) if constraints[s].count < 0)
    hands[me] = rest
    return hands


def _fill_looking_ahead(
    constraints: Sequence[SeatConstraint], order: Sequence[int], pool: list[int]
) -> list[list[int]] | None:
    """:func:`_fill`, but a seat takes a tile only if the seats still to fill can
    then be filled too (:func:`_completable`).

    None only when no deal of ``pool`` fits at all. Wherever first-fit gets
    through, each tile it takes leaves a deal (its own), so both deal alike.
    """
    hands: list[list[int]] = [[] for _ in range(len(constraints))]
    left = list(pool)
    for pos, s in enumerate(order):
        con = constraints[s]
        caps = con.caps
        used = [0] * len(con.masks)
        hand = hands[s]
        later = [
            (constraints[r], [0] * len(constraints[r].masks), constraints[r].count)
            for r in order[pos + 1 :]
        ]
        i = 0
        while len(hand) < con.count:
            if i == len(left):
                return None
            t = left[i]
            last = con.last_violation(t)
            if all(used[k] < caps[k] for k in range(last + 1)):
                for k in range(last + 1):
                    used[k] += 1
                rest = left[:i] + left[i + 1 :]
                if _completable([(con, used, con.count - len(hand) - 1), *later], rest):
                    hand.append(t)
                    left = rest
                    continue
                for k in range(last + 1):
                    used[k] -= 1
            i += 1
    me = next(s for s in range(len(constraints)) if constraints[s].count < 0)
    hands[me] = left
    return hands


def _completable(
    seats: Sequence[tuple[SeatConstraint, list[int], int]], tiles: Sequence[int]
) -> bool:
    """Can ``tiles`` fill each ``(constraint, used, need)`` seat with ``need`` more tiles?

    ``used[k]`` is how many tiles the seat holds already that count against
    ``caps[k]``; tiles no seat takes go to the boneyard, which takes any. A
    maximum flow: source -> tile (1) -> the seat's node for the tile's latest
    violated moment, down a chain ``k -> k-1`` (room ``caps[k] - used[k]``:
    a tile violating moment ``last`` counts against every ``k <= last``) to
    the seat's node -1 -> sink (``need``). Every seat fills iff the flow
    carries every need.
    """
    total = 0
    for _, _, need in seats:
        if need < 0:
            return False
        total += need
    if total == 0:
        return True
    if total > len(tiles):
        return False
    # Nodes: 0 source, 1 sink, 2.. tiles, then each seat's chain -1, 0, 1, ...
    heads: list[int] = []
    caps_: list[int] = []
    edges: list[list[int]] = [[], []]

    def add(a: int, b: int, room: int) -> None:
        edges[a].append(len(heads))
        heads.append(b)
        caps_.append(room)
        edges[b].append(len(heads))
        heads.append(a)
        caps_.append(0)

    first_tile = 2
    for _ in tiles:
        edges.append([])
    for i in range(len(tiles)):
        add(0, first_tile + i, 1)
    for con, used, need in seats:
        if need == 0:
            continue
        base = len(edges)  # node of moment k is base + 1 + k
        for _ in range(len(con.masks) + 1):
            edges.append([])
        add(base, 1, need)
        for k in range(len(con.masks)):
            room = con.caps[k] - used[k]
            if room > 0:
                add(base + 1 + k, base + k, room)
        for i, t in enumerate(tiles):
            add(first_tile + i, base + 1 + con.last_violation(t), 1)
    flow = 0
    while flow < total:
        # one augmenting path by depth-first search (unit room on the source side)
        parent = [-1] * len(edges)
        parent[0] = -2
        stack = [0]
        while stack and parent[1] == -1:
            a = stack.pop()
            for e in edges[a]:
                b = heads[e]
                if caps_[e] > 0 and parent[b] == -1:
                    parent[b] = e
                    stack.append(b)
        if parent[1] == -1:
            return False
        b = 1
        while b != 0:
            e = parent[b]
            caps_[e] -= 1
            caps_[e ^ 1] += 1
            b = heads[e ^ 1]
        flow += 1
    return True


def _constraints(view: SeatView, counts: Sequence[int]) -> list[SeatConstraint]:
    """Replay the public history of the hand to find each seat's draw and pass moments."""
    players = view.rules.players
    masks: list[list[int]] = [[] for _ in range(players)]
    kept: list[list[bool]] = [[] for _ in range(players)]
    pending = [-1] * players
    lay = core.Layout()
    history = view.history
    for i, move in enumerate(history):
        seat = move.seat
        action = move.action
        if isinstance(action, Play):
            tile = action.tile.id
            end = core.LEAD if action.end is None else action.end.slot
            lay.place(tile, end)
        elif isinstance(action, Draw):
            masks[seat].append(core.open_mask(lay.ends))
            nxt = history[i + 1] if i + 1 < len(history) else None
            played_at_once = nxt is not None and nxt.seat == seat and isinstance(nxt.action, Play)
            if nxt is None and seat == view.current:
                # The seat's turn goes on: it may hold a drawn tile that fits and
                # must now be played (only that seat knows), or kept a misfit.
                pending[seat] = len(masks[seat]) - 1
            kept[seat].append(not played_at_once)
        elif isinstance(action, Pass):
            masks[seat].append(core.open_mask(lay.ends))
            kept[seat].append(False)
    out = []
    for seat in range(players):
        m = masks[seat]
        k = kept[seat]
        # caps[j] = kept draws strictly after moment j
        caps = [0] * len(m)
        running = 0
        for j in range(len(m) - 1, -1, -1):
            if j == pending[seat]:
                caps[j] = running + 1
            else:
                caps[j] = running
            if k[j]:
                running += 1
        count = counts[seat] if seat != view.seat else -1
        out.append(SeatConstraint(seat, count, m, caps))
    return out
