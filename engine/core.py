"""The compact rules core: the one implementation of All Fives' rules.

Tiles are ints (their :func:`engine.tiles.tile_id`), a hand is a bit mask of
tile ids (bit ``t`` set while tile ``t`` is held), ends are ints (``W, E, N,
S``; ``LEAD`` for the first tile of a hand) and actions are ints
(:func:`play_code`, :data:`DRAW`, :data:`PASS`). A :class:`Core` is mutable
and cheap to copy, so computer players run thousands of playouts on it; the
immutable snapshot API (:mod:`engine.state`, :mod:`engine.game`) is built on
it and never mutates a core that a snapshot holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.errors import IllegalActionError, shown
from engine.tiles import ALL_TILES, HIGH, IS_DOUBLE, LOW, PIP_MASK, PIPS, SET_SIZE

W, E, N, S, LEAD = 0, 1, 2, 3, 4
DRAW = SET_SIZE * 5
PASS = DRAW + 1

PHASE_DEAL, PHASE_PLAY, PHASE_OVER = 0, 1, 2

_new = object.__new__


def play_code(tile: int, end: int) -> int:
    """The action code for placing ``tile`` on ``end`` (``LEAD`` to lead)."""
    return tile * 5 + end


def round_pips(pips: int) -> int:
    """Round a pip total to the nearest multiple of five (7 -> 5, 8 -> 10)."""
    return (pips + 2) // 5 * 5


def placement_points(total: int) -> int:
    """Points a placement scores when the open ends add up to ``total``."""
    return total if total > 0 and total % 5 == 0 else 0


def fits(tile: int, value: int) -> bool:
    """True when ``tile`` has a half showing ``value``."""
    return HIGH[tile] == value or LOW[tile] == value


TILE_BIT: tuple[int, ...] = tuple(1 << t for t in range(SET_SIZE))
"""``TILE_BIT[t]``: tile ``t``'s bit in a hand mask."""

SUIT: tuple[int, ...] = (
    *(sum(1 << t for t in range(SET_SIZE) if v in (HIGH[t], LOW[t])) for v in range(7)),
    0,
)
"""``SUIT[v]``: the mask of the seven tiles showing ``v``; ``SUIT[-1]`` (a closed end) is 0."""


def _fit_table(end: int) -> dict[int, tuple[int, ...]]:
    # Every set of tiles sharing a pip value -> their play codes on ``end``, in id order.
    table: dict[int, tuple[int, ...]] = {}
    for v in range(7):
        masks: list[int] = [0]
        codes: list[tuple[int, ...]] = [()]
        for t in range(SET_SIZE):  # ascending, so each code joins the end of the tuple
            if SUIT[v] >> t & 1:
                bit, code = 1 << t, (t * 5 + end,)
                masks += [m | bit for m in masks]
                codes += [c + code for c in codes]
        table.update(zip(masks, codes, strict=True))
    return table


_FIT_W, _FIT_E, _FIT_N, _FIT_S = (_fit_table(end) for end in (W, E, N, S))


def _chunk_table(k: int) -> list[tuple[int, ...]]:
    # Seven bits of a hand mask (tiles 7k..7k+6) -> their tile ids, by doubling.
    rows: list[tuple[int, ...]] = [()]
    for t in range(7 * k, 7 * k + 7):
        rows += [(*row, t) for row in rows]
    return rows


# A hand mask read seven bits at a time: the tile ids, lead codes and pips in each chunk.
_CHUNK_TILES = tuple(tuple(_chunk_table(k)) for k in range(4))
_CHUNK_LEADS = tuple(
    tuple(tuple(t * 5 + LEAD for t in tiles) for tiles in chunk) for chunk in _CHUNK_TILES
)
_CHUNK_PIPS = tuple(tuple(sum(PIPS[t] for t in tiles) for tiles in chunk) for chunk in _CHUNK_TILES)


def hand_mask(tiles: Iterable[int]) -> int:
    """The hand mask holding the tile ids ``tiles``."""
    mask = 0
    for t in tiles:
        mask |= 1 << t
    return mask


def tiles_in(mask: int) -> tuple[int, ...]:
    """The tile ids in a hand mask, in id order."""
    a, b, c, d = _CHUNK_TILES
    return a[mask & 127] + b[mask >> 7 & 127] + c[mask >> 14 & 127] + d[mask >> 21]


def pips_in(mask: int) -> int:
    """The pip total of the tiles in a hand mask."""
    a, b, c, d = _CHUNK_PIPS
    return a[mask & 127] + b[mask >> 7 & 127] + c[mask >> 14 & 127] + d[mask >> 21]


def lead_codes(mask: int) -> tuple[int, ...]:
    """The codes for leading each tile of a hand mask, in id order."""
    a, b, c, d = _CHUNK_LEADS
    return a[mask & 127] + b[mask >> 7 & 127] + c[mask >> 14 & 127] + d[mask >> 21]


def play_codes(mask: int, ends: Sequence[int]) -> tuple[int, ...]:
    """The codes for placing a tile of a hand mask on an open end: end by end
    (``W, E, N, S``), tiles in id order. ``ends`` gives each end's needed value
    (-1 when not open)."""
    w, e, n, s = ends
    out = _FIT_W[mask & SUIT[w]] + _FIT_E[mask & SUIT[e]]
    if n >= 0:  # north and south open together
        out += _FIT_N[mask & SUIT[n]] + _FIT_S[mask & SUIT[s]]
    return out


_DRAW_ONLY = (DRAW,)
_PASS_ONLY = (PASS,)


def legal_codes(
    mask: int, ends: Sequence[int], has_lead: bool, must: int, boneyard: int
) -> tuple[int, ...]:
    """The legal action codes for a player holding the hand mask ``mask``.

    ``ends`` gives each end's needed value (-1 when not open); ``must`` is a
    drawn tile that has to be played now (-1 if none); ``boneyard`` is its size.
    The order is :meth:`Core.legal`'s.
    """
    if must >= 0:
        return play_codes(TILE_BIT[must], ends)
    if not has_lead:
        return lead_codes(mask)
    return play_codes(mask, ends) or (_DRAW_ONLY if boneyard else _PASS_ONLY)


_BIT = (1, 2, 4, 8, 16, 32, 64, 0)
"""``_BIT[v]``: the bit of pip value ``v``; ``_BIT[-1]`` (a closed end) is 0."""


def open_mask(ends: Sequence[int]) -> int:
    """Bit mask of the pip values needed at the open ends."""
    w, e, n, s = ends
    return _BIT[w] | _BIT[e] | _BIT[n] | _BIT[s]


class Layout:
    """The tableau in compact form: the lead, the four arms' tips and the spinner.

    The arms run outward from the lead (west, east) or from the spinner (north,
    south); the rules need only each arm's length (``lengths``) and its outermost
    tile (``tips``: ``tile * 8 + outer``, -1 while the arm is empty). The full
    arms live in the snapshot's :class:`engine.layout.Layout`. ``spinner_arm``
    is ``LEAD`` when the lead is the spinner, else ``W`` or ``E`` with
    ``spinner_index`` its position in that arm; -1 while there is none.
    """

    __slots__ = (
        "counts",
        "ends",
        "lead",
        "lengths",
        "spinner",
        "spinner_arm",
        "spinner_index",
        "tips",
    )

    def __init__(self) -> None:
        self.lead = -1
        self.tips = [-1, -1, -1, -1]
        self.lengths = [0, 0, 0, 0]
        self.spinner = -1
        self.spinner_arm = -1
        self.spinner_index = -1
        self.ends = [-1, -1, -1, -1]
        self.counts = [0, 0, 0, 0]

    def copy(self) -> Layout:
        """An independent copy."""
        new = _new(Layout)
        new.lead = self.lead
        new.tips = self.tips[:]
        new.lengths = self.lengths[:]
        new.spinner = self.spinner
        new.spinner_arm = self.spinner_arm
        new.spinner_index = self.spinner_index
        new.ends = self.ends[:]
        new.counts = self.counts[:]
        return new

    @property
    def total(self) -> int:
        """Sum of the open ends as scored (see docs/rules.md, Scoring)."""
        c = self.counts
        return c[0] + c[1] + c[2] + c[3]

    def place(self, tile: int, end: int) -> None:
        """Put ``tile`` on ``end`` (already checked to fit) and update the open ends.

        An incremental form of :meth:`recount`; the two must always agree.
        """
        ends = self.ends
        counts = self.counts
        if end == LEAD:
            self.lead = tile
            lo = LOW[tile]
            hi = HIGH[tile]
            ends[:] = [lo, hi, -1, -1]
            if IS_DOUBLE[tile]:
                self.spinner = tile
                self.spinner_arm = LEAD
                counts[:] = [2 * lo, 0, 0, 0]  # a lone spinner counts its pips once
            else:
                counts[:] = [lo, hi, 0, 0]
            return
        value = ends[end]
        outer = LOW[tile] if HIGH[tile] == value else HIGH[tile]
        double = IS_DOUBLE[tile]
        self.tips[end] = tile * 8 + outer
        lengths = self.lengths
        length = lengths[end] = lengths[end] + 1
        ends[end] = outer
        counts[end] = 2 * outer if double else outer
        if end > E:
            return
        spinner_arm = self.spinner_arm
        if self.spinner < 0:
            if double:
                # Only the west and east ends exist before a spinner.
                self.spinner = tile
                self.spinner_arm = end
                self.spinner_index = length - 1
            return
        if ends[N] >= 0:
            return
        if spinner_arm == LEAD:
            if not lengths[1 - end]:
                # The lone spinner's first side is covered: it counts on the other side.
                counts[1 - end] = 2 * HIGH[self.lead]
                return
        elif spinner_arm != end or length <= self.spinner_index + 1:
            return
        pip = HIGH[self.spinner]
        ends[N] = ends[S] = pip

    def total_after(self, tile: int, end: int) -> int:
        """What the ends would add up to after placing ``tile`` on ``end``, without placing it.

        The same rule as :meth:`place` (the two are tested to agree), for
        players that weigh many candidate moves.
        """
        lo = LOW[tile]
        if end == LEAD:
            return 2 * lo if IS_DOUBLE[tile] else lo + HIGH[tile]
        counts = self.counts
        outer = lo if HIGH[tile] == self.ends[end] else HIGH[tile]
        total = counts[0] + counts[1] + counts[2] + counts[3] - counts[end]
        total += 2 * outer if IS_DOUBLE[tile] else outer
        if end == W and self.spinner_arm == LEAD and not self.lengths[W] and not self.lengths[E]:
            total += 2 * HIGH[self.lead]  # the lone spinner now counts on its east side
        return total

    def spinner_sides_covered(self) -> bool:
        """True once tiles stand against both long sides of the spinner."""
        arm = self.spinner_arm
        if arm == LEAD:
            return self.lengths[W] > 0 and self.lengths[E] > 0
        if arm < 0:
            return False
        return self.lengths[arm] > self.spinner_index + 1

    def recount(self) -> None:
        """Derive the open ends' needed values and scoring counts from the tips."""
        lead = self.lead
        ends = self.ends
        counts = self.counts
        if lead < 0:
            ends[:] = [-1, -1, -1, -1]
            counts[:] = [0, 0, 0, 0]
            return
        tips = self.tips
        lead_double = IS_DOUBLE[lead]
        spinner_pip = -1
        if self.spinner >= 0 and self.spinner_sides_covered():
            spinner_pip = HIGH[self.spinner]
        # What an arm without tiles shows: the lead's halves west and east, the
        # spinner north and south (once open); an empty north or south adds nothing.
        bare = (LOW[lead], HIGH[lead], spinner_pip, spinner_pip)
        for end in (W, E, N, S):
            code = tips[end]
            if code >= 0:
                outer = code & 7
                ends[end] = outer
                counts[end] = 2 * outer if IS_DOUBLE[code >> 3] else outer
            else:
                ends[end] = bare[end]
                counts[end] = bare[end] if end <= E and not lead_double else 0
        if lead_double and not (tips[W] >= 0 and tips[E] >= 0):
            # A spinner lead with a side still open counts its full pips, once.
            counts[E if tips[W] >= 0 else W] = 2 * LOW[lead]


class Core:
    """The whole truth of a game in compact, mutable form.

    ``held`` has each seat's hand as a mask of tile ids (see :func:`tiles_in`),
    ``boneyard`` is the draw order reversed (the next tile drawn is
    ``boneyard[-1]``) and ``scores`` are per team.
    After each :meth:`step` the ``last_*`` fields describe what happened.
    """

    __slots__ = (
        "boneyard",
        "current",
        "hand_no",
        "held",
        "last_drawn",
        "last_points",
        "last_result",
        "last_total",
        "layout",
        "layout_shared",
        "must",
        "next_start",
        "per_hand",
        "phase",
        "players",
        "scores",
        "target",
        "team_of",
        "voids",
        "winner",
    )

    def __init__(self, players: int, team_of: Sequence[int], target: int, per_hand: int) -> None:
        self.players = players
        self.team_of = tuple(team_of)
        self.target = target
        self.per_hand = per_hand
        self.held = [0] * players
        self.boneyard: list[int] = []
        self.layout = Layout()
        self.layout_shared = False
        self.current = -1
        self.must = -1
        self.scores = [0] * (max(self.team_of) + 1)
        self.phase = PHASE_DEAL
        self.hand_no = 0
        self.next_start = -1
        self.winner = -1
        self.voids = [0] * players
        self.last_points = 0
        self.last_total = 0
        self.last_drawn = -1
        self.last_result: HandResult | None = None

    def copy(self) -> Core:
        """An independent copy (the ``last_*`` fields are reset).

        Inner lists are shared copy-on-write: the core never mutates the
        boneyard, ``scores`` or ``voids`` in place, it replaces them. The
        layout is shared too until either core places a tile (``layout_shared``).
        """
        new = _new(Core)
        new.players = self.players
        new.team_of = self.team_of
        new.target = self.target
        new.per_hand = self.per_hand
        new.held = self.held[:]
        new.boneyard = self.boneyard
        new.layout = self.layout
        new.layout_shared = self.layout_shared = True
        new.current = self.current
        new.must = self.must
        new.scores = self.scores
        new.phase = self.phase
        new.hand_no = self.hand_no
        new.next_start = self.next_start
        new.winner = self.winner
        new.voids = self.voids
        new.last_points = new.last_total = 0
        new.last_drawn = -1
        new.last_result = None  # step() resets these too
        return new

    # -- queries -----------------------------------------------------------
    def hand(self, seat: int) -> tuple[int, ...]:
        """The tile ids ``seat`` holds, in id order."""
        return tiles_in(self.held[seat])

    def legal(self) -> tuple[int, ...]:
        """Legal action codes for the player to move (empty unless playing).

        Placements come end by end (``W, E, N, S``), tiles in id order; a
        player with no placement has :data:`DRAW`, or :data:`PASS` once the
        boneyard is empty.
        """
        if self.phase != PHASE_PLAY:
            return ()
        lay = self.layout
        must = self.must
        if must >= 0:
            return play_codes(TILE_BIT[must], lay.ends)  # a drawn tile that fits
        mask = self.held[self.current]
        if lay.lead < 0:
            return lead_codes(mask)
        # play_codes(mask, lay.ends), inlined: this is half of every playout step.
        w, e, n, s = lay.ends
        out = _FIT_W[mask & SUIT[w]] + _FIT_E[mask & SUIT[e]]
        if n >= 0:
            out += _FIT_N[mask & SUIT[n]] + _FIT_S[mask & SUIT[s]]
        return out or (_DRAW_ONLY if self.boneyard else _PASS_ONLY)

    def can_anyone_play(self) -> bool:
        """True when some seat holds a tile matching an open end."""
        w, e, n, s = self.layout.ends
        fitting = SUIT[w] | SUIT[e] | SUIT[n] | SUIT[s]
        return any(map(fitting.__and__, self.held))

    # -- transitions -------------------------------------------------------
    def deal(
        self,
        hands: Sequence[Sequence[int]],
        boneyard: Sequence[int],
        start: int,
        *,
        checked: bool = False,
    ) -> None:
        """Start the next hand with an explicit deal (the chance step).

        ``checked=True`` skips :func:`check_deal` for a deal known to be
        complete and fair (one the engine shuffled itself).
        """
        if self.phase != PHASE_DEAL:
            raise IllegalActionError("a hand is already in play", rule="deal-between-hands")
        if not checked:
            check_deal(self.players, self.per_hand, hands, boneyard, start)
        if self.next_start >= 0 and start != self.next_start:
            raise IllegalActionError(
                f"seat {self.next_start} went out last hand and must start, not seat {start}",
                rule="start-player",
                seat=self.next_start,
                details={"value": start},
            )
        self.held = [hand_mask(h) for h in hands]
        self.boneyard = list(reversed(boneyard))
        self.layout = Layout()
        self.layout_shared = False
        self.current = start
        self.must = -1
        self.phase = PHASE_PLAY
        self.hand_no += 1
        self.voids = [0] * self.players
        self.last_points = self.last_total = 0
        self.last_drawn = -1
        self.last_result = None

    def step(self, code: int) -> None:
        """Apply a legal action code (the caller has checked legality)."""
        self.last_result = None
        if code >= DRAW:
            self.last_points = self.last_total = 0
            if code == DRAW:
                self._draw()
            else:
                self.last_drawn = -1
                self._pass()
            return
        # A placement (inlined: this is the hottest path of every playout).
        self.last_drawn = -1
        tile = code // 5
        seat = self.current
        hand = self.held[seat] ^ TILE_BIT[tile]
        self.held[seat] = hand
        lay = self.layout
        if self.layout_shared:
            lay = self.layout = lay.copy()
            self.layout_shared = False
        lay.place(tile, code - tile * 5)
        self.must = -1
        c = lay.counts
        total = c[0] + c[1] + c[2] + c[3]
        self.last_total = total
        if total % 5 or not total:
            self.last_points = 0
        else:
            self.last_points = total
            team = self.team_of[seat]
            scores = self.scores = self.scores[:]
            scores[team] += total
            if scores[team] >= self.target:
                self.phase = PHASE_OVER
                self.winner = team
                self.current = -1
                return
        if not hand:
            self._end_hand(seat)
            return
        self.current = (seat + 1) % self.players
        if not self.boneyard and not self.can_anyone_play():
            self._end_hand(-1)

    def _draw(self) -> None:
        seat = self.current
        w, e, n, s = self.layout.ends
        mask = _BIT[w] | _BIT[e] | _BIT[n] | _BIT[s]
        voids = self.voids = self.voids[:]
        voids[seat] = mask
        tile = self.boneyard[-1]
        self.boneyard = self.boneyard[:-1]
        self.held[seat] |= TILE_BIT[tile]
        self.last_drawn = tile
        if PIP_MASK[tile] & mask:
            self.must = tile
            return
        if not self.boneyard and not self.can_anyone_play():
            self._end_hand(-1)

    def _pass(self) -> None:
        seat = self.current
        voids = self.voids = self.voids[:]
        voids[seat] |= open_mask(self.layout.ends)
        self.current = (seat + 1) % self.players
        if not self.can_anyone_play():
            self._end_hand(-1)

    def _end_hand(self, out_seat: int) -> None:
        pips = tuple(map(pips_in, self.held))
        penalties = tuple(map(round_pips, pips))
        scores = self.scores = self.scores[:]
        for seat, pen in enumerate(penalties):
            scores[self.team_of[seat]] -= pen
        self.last_result = HandResult(out_seat, pips, penalties)
        self.next_start = out_seat
        self.phase = PHASE_DEAL
        self.current = -1
        self.must = -1


class HandResult:
    """How a hand ended: who went out (-1 when blocked), pips and penalties."""

    __slots__ = ("out_seat", "penalties", "pips")

    def __init__(self, out_seat: int, pips: tuple[int, ...], penalties: tuple[int, ...]) -> None:
        self.out_seat = out_seat
        self.pips = pips
        self.penalties = penalties


_ALL_IDS = frozenset(range(SET_SIZE))


def check_deal(
    players: int, per_hand: int, hands: Sequence[Sequence[int]], boneyard: Sequence[int], start: int
) -> None:
    """Raise :class:`IllegalActionError` unless the deal is a complete, fair deal."""
    if (
        len(hands) == players
        and all(map(per_hand.__eq__, map(len, hands)))
        and 0 <= start < players
        and len(boneyard) == SET_SIZE - players * per_hand
        and set(boneyard).union(*hands) == _ALL_IDS
    ):
        return  # the usual case; otherwise find the first problem and name it
    if len(hands) != players:
        raise IllegalActionError(
            f"the deal has {len(hands)} hands for {players} players",
            rule="deal-hands",
            details={"count": len(hands), "expected": players},
        )
    for seat, hand in enumerate(hands):
        if len(hand) != per_hand:
            raise IllegalActionError(
                f"seat {seat} was dealt {len(hand)} tiles, not {per_hand}",
                rule="deal-hand-size",
                seat=seat,
                details={"count": len(hand), "expected": per_hand},
            )
    seen: set[int] = set()
    for t in [t for h in hands for t in h] + list(boneyard):
        if not 0 <= t < SET_SIZE:
            raise IllegalActionError(
                f"no tile with id {t}", rule="deal-tiles", details={"value": shown(t)}
            )
        if t in seen:
            raise IllegalActionError(
                f"tile {ALL_TILES[t]} is dealt twice", rule="deal-tiles", tile=ALL_TILES[t]
            )
        seen.add(t)
    if len(seen) != SET_SIZE:
        missing = tuple(ALL_TILES[t] for t in range(SET_SIZE) if t not in seen)
        raise IllegalActionError(
            f"the deal is missing {', '.join(map(str, missing))}",
            rule="deal-tiles",
            details={"missing": missing},
        )
    if not 0 <= start < players:
        raise IllegalActionError(
            f"no seat {shown(start)} to start", rule="start-player", details={"value": shown(start)}
        )
