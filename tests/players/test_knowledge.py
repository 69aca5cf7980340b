"""What a seat infers from draws and passes, and the worlds it samples."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine import AllFivesError, GameState, Rules, apply, new_game, seeded_deal
from engine.players import make_player
from engine.players.knowledge import (
    Knowledge,
    SeatConstraint,
    _fill,
    _fill_looking_ahead,
)
from engine.rng import shuffle
from engine.tiles import PIP_MASK


def feasible(con: SeatConstraint, hand: list[int]) -> bool:
    """Can ``hand`` be explained by the seat's deal and the draws it kept?"""
    for k in range(len(con.masks)):
        late = sum(1 for t in hand if con.last_violation(t) >= k)
        if late > con.caps[k]:
            return False
    return True


def positions(rules: Rules, seed: int, moves: int, level: str = "random") -> list[GameState]:
    """Every position of one hand played by ``level`` players, up to ``moves`` moves."""
    state = new_game(rules)
    state = apply(state, seeded_deal(state, seed)).state
    players = [make_player(level, seed * 7 + s) for s in range(rules.players)]
    out = [state]
    for _ in range(moves):
        if state.is_chance or state.is_terminal:
            break
        seat = state.current
        assert seat is not None
        view = state.view(seat)
        state = apply(state, players[seat].choose(view, view.legal_actions())).state
        if not state.is_chance and not state.is_terminal:
            out.append(state)
    return out


RULES = st.sampled_from(
    [Rules(players=2), Rules(players=3), Rules(players=4), Rules(players=4, partnerships=True)]
)


@settings(max_examples=25, deadline=None)
@given(rules=RULES, seed=st.integers(0, 100_000), level=st.sampled_from(["random", "greedy"]))
def test_the_truth_is_always_consistent_with_what_a_seat_infers(
    rules: Rules, seed: int, level: str
) -> None:
    for state in positions(rules, seed, 60, level):
        for seat in range(rules.players):
            know = Knowledge(state.view(seat))
            for other in range(rules.players):
                if other == seat:
                    continue
                con = know.constraints[other]
                hand = [t.id for t in state.hands[other]]
                assert con.count == len(hand)
                assert all(know.can_hold(other, t) for t in hand)
                assert feasible(con, hand)
                # What the history shows includes the core's void mask (and can
                # be sharper), except just after ``other`` drew: others cannot
                # tell whether the drawn tile fits (and must now be played) or not.
                last = state.history[-1] if state.history else None
                just_drew = (
                    last is not None and last.seat == other and last.action.kind == "draw"
                )
                if not just_drew:
                    assert state.voids[other] & ~con.void_mask == 0


@settings(max_examples=20, deadline=None)
@given(rules=RULES, seed=st.integers(0, 100_000), sample_seed=st.integers(0, 2**32))
# First-fit left seat 0 short of the three tiles it could hold 40 times in a row,
# and the last try then padded seat 0's hand with tiles it had shown it lacked.
@example(rules=Rules(players=4), seed=3228, sample_seed=0)
def test_sampled_worlds_match_counts_and_constraints(
    rules: Rules, seed: int, sample_seed: int
) -> None:
    rng = random.Random(sample_seed)
    for state in positions(rules, seed, 60)[::3]:
        seat = state.current
        assert seat is not None
        view = state.view(seat)
        know = Knowledge(view)
        base = know.base_core()
        world = know.sample(base, rng)
        assert world.hand(seat) == tuple(sorted(t.id for t in state.hands[seat]))
        assert len(world.boneyard) == len(state.boneyard)
        dealt = [t for s in range(rules.players) for t in world.hand(s)] + list(world.boneyard)
        on_table = [t.id for t in state.layout.tiles()]
        assert sorted(dealt + on_table) == list(range(28))
        for other in range(rules.players):
            if other == seat:
                continue
            assert len(world.hand(other)) == len(state.hands[other])
            assert feasible(know.constraints[other], list(world.hand(other)))
            assert not any(PIP_MASK[t] & state.voids[other] for t in world.hand(other))
        assert world.legal() == state.core().legal()


def cornered() -> tuple[GameState, Knowledge, list[int]]:
    """A 4-player position where first-fit mostly fails: seat 1 (filled first) may
    take any of the three tiles that are the only ones seat 0 can hold."""
    state = positions(Rules(players=4), 3228, 60)[27]
    assert state.current == 2
    know = Knowledge(state.view(2))
    order = sorted(know.others(), key=lambda s: (-len(know.constraints[s].masks), s))
    assert order == [1, 3, 0]
    return state, know, order


def test_a_deal_first_fit_cannot_finish_is_found_by_looking_ahead() -> None:
    state, know, order = cornered()
    rng = random.Random(0)
    cornered_pools = 0
    for _ in range(200):
        pool = know.unseen[:]
        shuffle(pool, rng)
        first_fit = _fill(know.constraints, order, pool)
        hands = _fill_looking_ahead(know.constraints, order, pool)
        assert hands is not None
        if first_fit is None:
            cornered_pools += 1
        else:
            assert hands == first_fit  # the same deal wherever first-fit gets through
        for s in order:
            assert len(hands[s]) == len(state.hands[s])
            assert feasible(know.constraints[s], hands[s])
        assert len(hands[2]) == len(state.boneyard) == 0
    assert cornered_pools > 150
    base = know.base_core()
    for _ in range(300):  # some of these exhaust the first-fit tries
        world = know.sample(base, rng)
        for s in order:
            assert not any(PIP_MASK[t] & state.voids[s] for t in world.hand(s))
            assert feasible(know.constraints[s], list(world.hand(s)))


def test_a_record_no_deal_fits_is_refused() -> None:
    _, know, _ = cornered()
    seat0 = know.constraints[0]
    # Pretend seat 0 also passed on every value: no tile fits its two-tile hand.
    know.constraints[0] = SeatConstraint(0, seat0.count, [*seat0.masks, 0b1111111], [0, 0, 0])
    with pytest.raises(AllFivesError, match="no deal fits"):
        know.sample_hands(random.Random(1))


def deals(constraints: list[SeatConstraint], pool: list[int]) -> list[dict[int, frozenset[int]]]:
    """Every way to deal ``pool`` to the seats' counts, each hand feasible (brute force)."""
    seats = [c for c in constraints if c.count >= 0]
    out: list[dict[int, frozenset[int]]] = []

    def rec(i: int, left: frozenset[int], got: dict[int, frozenset[int]]) -> None:
        if i == len(seats):
            out.append(dict(got))
            return
        con = seats[i]
        for hand in itertools.combinations(sorted(left), con.count):
            if feasible(con, list(hand)):
                got[con.seat] = frozenset(hand)
                rec(i + 1, left - got[con.seat], got)
                del got[con.seat]

    rec(0, frozenset(pool), {})
    return out


MOMENTS = st.lists(st.tuples(st.integers(1, 127), st.integers(0, 2)), max_size=3)


@settings(max_examples=300, deadline=None)
@given(
    moments=st.lists(MOMENTS, min_size=1, max_size=3),
    counts=st.lists(st.integers(0, 3), min_size=3, max_size=3),
    boneyard=st.integers(0, 3),
    pool_seed=st.integers(0, 2**32),
)
def test_the_look_ahead_fill_deals_whenever_some_deal_fits(
    moments: list[list[tuple[int, int]]], counts: list[int], boneyard: int, pool_seed: int
) -> None:
    constraints = [SeatConstraint(0, -1, [], [])]
    for seat, seat_moments in enumerate(moments, start=1):
        masks = [m for m, _ in seat_moments]
        caps = [c for _, c in seat_moments]
        constraints.append(SeatConstraint(seat, counts[seat - 1], masks, caps))
    rng = random.Random(pool_seed)
    size = sum(c.count for c in constraints[1:]) + boneyard
    pool = list(range(28))
    shuffle(pool, rng)
    pool = pool[:size]
    order = list(range(1, len(constraints)))
    shuffle(order, rng)
    possible = deals(constraints, pool)
    first_fit = _fill(constraints, order, pool)
    hands = _fill_looking_ahead(constraints, order, pool)
    if not possible:
        assert hands is None and first_fit is None
        return
    assert hands is not None
    assert {s: frozenset(hands[s]) for s in order} in possible
    assert sorted(hands[0]) == sorted(set(pool) - {t for s in order for t in hands[s]})
    if first_fit is not None:
        assert hands == first_fit


def test_a_drawn_tile_kept_in_hand_is_not_covered_by_an_earlier_void() -> None:
    con = SeatConstraint(1, 3, masks=[0b0110000, 0b0001000], caps=[1, 0])
    # masks: the 4 and 5 ends were open at a draw that was kept; then a pass on a 3.
    five_one = 5 * 6 // 2 + 1
    assert con.last_violation(five_one) == 0
    assert con.allows(five_one)  # the tile drawn then may show a 5
    assert feasible(con, [five_one, 0, 1])
    five_two = 5 * 6 // 2 + 2
    assert not feasible(con, [five_one, five_two, 0])  # only one drawn tile
    assert con.void_mask == 0b0001000


def test_tiles_an_opponent_passed_up_are_kept_from_its_hand() -> None:
    from engine import parse_tile
    from tests.players.helpers import position

    # Seat 0 leads 6-4 (ends 4 and 6); seat 1 plays 5-4 on the west end for
    # nothing, though a 6-1 on the east end would have scored 5.
    state = position(
        Rules(players=2),
        "deal 0 | 6-4 6-6 3-1 5-1 4-1 5-2 0-0 5-5 2-2 | 5-4 1-0 5-3 3-3 6-2 3-2 4-0 6-5 3-0"
        " / 6-1 1-1 2-1 2-0 4-2 4-3 4-4 6-0 6-3 5-0",
        ["6-4", "5-4 W"],
    )
    view = state.view(0)
    six_one = parse_tile("6-1").id
    know = Knowledge(view, passed_up_weight=1.0)
    assert know.passed_up[1] == {six_one: 1}
    rng = random.Random(4)
    base = know.base_core()
    assert all(six_one not in know.sample(base, rng).hand(1) for _ in range(40))
    plain = Knowledge(view)
    assert plain.passed_up[1] == {}
    assert any(six_one in plain.sample(base, rng).hand(1) for _ in range(40))
