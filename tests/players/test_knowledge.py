"""What a seat infers from draws and passes, and the worlds it samples."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import GameState, Rules, apply, new_game, seeded_deal
from engine.players import make_player
from engine.players.knowledge import Knowledge, SeatConstraint
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
