"""Worlds weighed by how likely they make the plays seen (engine.players.likelihood)."""

from __future__ import annotations

import itertools
import random

import pytest

from engine import Rules
from engine.players import ExpertPlayer
from engine.players.evaluate import Search
from engine.players.knowledge import Knowledge
from engine.players.likelihood import PlayLikelihood, WeightedWorlds
from engine.tiles import PIP_MASK, parse_tile
from tests.players.helpers import position
from tests.players.test_honesty import midgame

TWO = Rules(players=2)

# Seat 0 leads 6-4 (ends 4 and 6). Seat 1 could score 5 with 6-1 E (ends 4 + 1) and
# plays 4-2 W for nothing; every other unseen tile that fits scores nothing there.
PASSED_UP_FIVE = (
    "deal 0 | 6-4 5-2 0-0 6-0 2-1 5-1 4-0 4-4 3-0 | 6-1 4-2 1-0 5-3 5-5 3-3 4-3 3-1 6-6"
    " / 1-1 2-0 2-2 3-2 4-1 5-0 5-4 6-2 6-3 6-5",
    ["6-4", "4-2 W"],
)

# Seat 1 plays 4-2 W freely, then cannot follow 1 or 6: draws 5-4 (kept) and 6-3, which
# it must play at once; then it plays 5-0 E freely.
KEPT_DRAW = (
    "deal 0 | 6-4 2-1 0-0 6-0 5-1 4-0 4-4 3-0 5-2 | 4-2 5-3 5-5 3-3 4-3 2-0 2-2 5-0 3-2"
    " / 5-4 6-3 1-0 1-1 3-1 4-1 6-1 6-2 6-5 6-6",
    ["6-4", "4-2 W", "2-1 W", "draw", "draw", "6-3 E", "3-0 E", "5-0 E"],
)


def ids(*tiles: str) -> list[int]:
    return [parse_tile(t).id for t in tiles]


def seat_one(odds: float | None, state_text: tuple[str, list[str]] = PASSED_UP_FIVE) -> tuple[
    Knowledge, PlayLikelihood
]:
    view = position(TWO, *state_text).view(0)
    know = Knowledge(view)
    return know, PlayLikelihood(view, know.unseen, [None, odds])


def test_a_seat_that_passed_up_points_is_less_likely_to_hold_the_scoring_tile() -> None:
    _, likelihood = seat_one(2.0)
    rest = ids("1-0", "5-3", "5-5", "3-3", "4-3", "3-1", "1-1")
    with_scorer = likelihood.seat_weight(1, [*rest, *ids("6-1")])
    with_blank = likelihood.seat_weight(1, [*rest, *ids("6-2")])  # fits the 6, scores 0
    assert 0.0 < with_scorer < with_blank < 1.0
    # placements then: the 4-2 played, 4-3 W from the rest, and 6-2 E or 6-1 E, all
    # for nothing but 6-1 E, which scores 5 and so counts twice at odds 2
    assert with_blank == 1 / (1 + 1 + 1)
    assert with_scorer == 1 / (1 + 1 + 2)


def test_at_even_odds_points_do_not_matter_only_how_many_plays_there_were() -> None:
    _, likelihood = seat_one(1.0)
    rest = ids("1-0", "5-3", "5-5", "3-3", "4-3", "3-1", "1-1")
    assert likelihood.seat_weight(1, [*rest, *ids("6-1")]) == likelihood.seat_weight(
        1, [*rest, *ids("6-2")]
    )
    # a tile that fits no end does not change the weight at all
    assert likelihood.seat_weight(1, ids("1-0", "5-3")) == 1.0


def test_without_odds_a_seat_weighs_nothing() -> None:
    _, likelihood = seat_one(None)
    assert not likelihood.active
    assert likelihood.weight([ids("2-0"), ids("6-1", "6-2")]) == 1.0


def test_weighted_worlds_deal_the_passed_up_tile_less_often() -> None:
    know, likelihood = seat_one(2.0)
    scorer = parse_tile("6-1").id
    worlds = WeightedWorlds(know, likelihood)
    rng_w, rng_u = random.Random(7), random.Random(7)
    n = 3000
    weighted = sum(scorer in worlds.sample_hands(rng_w)[1] for _ in range(n))
    uniform = 0
    for _ in range(n):
        hands = know.sample_uniform_hands(rng_u)
        assert hands is not None
        uniform += scorer in hands[1]
    # uniformly 8 of the 18 unseen tiles are seat 1's (0.444); weighted, far fewer
    assert abs(uniform / n - 8 / 18) < 0.03
    assert weighted / n < uniform / n - 0.08


def test_weighted_worlds_follow_the_exact_weights() -> None:
    # every hand seat 1 may hold (8 of the 18 unseen tiles), weighed exactly: the chance
    # that it holds the tile it passed up, against how often the sampler deals it
    know, likelihood = seat_one(2.0)
    scorer = parse_tile("6-1").id
    total = with_scorer = 0.0
    for hand in itertools.combinations(know.unseen, 8):
        w = likelihood.seat_weight(1, hand)
        total += w
        if scorer in hand:
            with_scorer += w
    exact = with_scorer / total
    assert 0.34 < exact < 8 / 18 - 0.06
    worlds = WeightedWorlds(know, likelihood)
    rng = random.Random(11)
    n = 4000
    dealt = sum(scorer in worlds.sample_hands(rng)[1] for _ in range(n))
    assert abs(dealt / n - exact) < 0.03


def test_a_kept_draw_forgets_older_plays_and_a_drawn_tile_played_at_once_is_no_choice() -> None:
    _, likelihood = seat_one(2.0, KEPT_DRAW)
    (only,) = likelihood.decisions[1]  # 5-0 E alone: 4-2 W came before the kept draw
    # at 5-0 E the ends were 1 and 0: the public 5-0 offered one placement (E)
    assert only.known == 1.0
    assert only.hidden[parse_tile("1-0").id] == 2.0  # on either end, for nothing
    assert only.hidden[parse_tile("6-6").id] == 0.0  # fits neither


def test_weighted_worlds_keep_every_public_fact() -> None:
    # draws and passes stay certain: no weighted world gives a seat a value it lacked
    for rules in (TWO, Rules(players=3), Rules(players=4, partnerships=True)):
        for seed in range(6):
            state = midgame(rules, seed, 24)
            seat = state.current
            assert seat is not None
            view = state.view(seat)
            search = Search(view, view.legal_actions(), seed=seed, odds=2.0, partner_odds=3.0)
            know = search.know
            for _ in range(40):
                world = search.world()
                for s, con in enumerate(know.constraints):
                    if s == seat:
                        continue
                    hand = world.hand(s)
                    assert len(hand) == view.hand_counts[s]
                    assert all(con.allows(t) for t in hand)
                    void = con.void_mask
                    assert not any(PIP_MASK[t] & void for t in hand)
                assert sorted(world.boneyard + [t for s in range(rules.players) if s != seat
                                                for t in world.hand(s)]) == sorted(know.unseen)


def test_partners_and_opponents_have_their_own_odds() -> None:
    rules = Rules(players=4, partnerships=True)
    state = midgame(rules, 5, 20)
    seat = state.current
    assert seat is not None
    view = state.view(seat)
    partner = (seat + 2) % 4
    search = Search(view, view.legal_actions(), partner_odds=2.0)
    assert search.weighted is not None
    decisions = search.weighted.likelihood.decisions
    assert decisions[partner] and not any(decisions[s] for s in range(4) if s != partner)
    search = Search(view, view.legal_actions(), odds=2.0)
    assert search.weighted is not None
    decisions = search.weighted.likelihood.decisions
    assert not decisions[partner] and not decisions[seat]
    assert any(decisions[s] for s in range(4) if s % 2 != seat % 2)
    assert Search(view, view.legal_actions()).weighted is None


@pytest.mark.parametrize("tree", [None, 2.0])
def test_weighted_searches_reproduce_with_a_seed_and_fixed_counts(tree: float | None) -> None:
    state = midgame(TWO, 11, 12)
    seat = state.current
    assert seat is not None

    def run() -> tuple[object, list[float]]:
        player = ExpertPlayer(seed=3, budget=None, playouts=400, tree=tree, odds=2.0)
        view = state.view(seat)
        choice = player.choose(view, view.legal_actions())
        return choice, player.evaluate(view, view.legal_actions())

    first, second = run(), run()
    assert first == second
    other = ExpertPlayer(seed=3, budget=None, playouts=400, tree=tree)
    view = state.view(seat)
    assert other.evaluate(view, view.legal_actions()) != first[1]  # the odds change worlds


# Three players. Seat 0 leads 6-6; seat 1 holds no 6 and neither does the boneyard, so
# seat 1 draws all seven tiles and passes; seat 2 plays 6-5 E freely.
DREW_AND_PASSED = (
    "deal 0 | 6-6 6-0 5-5 4-4 3-3 2-2 1-1 | 5-0 5-1 5-2 5-3 5-4 4-0 4-1"
    " | 6-1 6-2 6-3 6-4 6-5 4-2 4-3 / 0-0 1-0 2-0 3-0 2-1 3-1 3-2",
    ["6-6", *["draw"] * 7, "pass", "6-5 E"],
)


@pytest.mark.parametrize("odds", [1.5, 3.0])
def test_a_draw_and_a_pass_make_tiles_impossible_in_weighted_worlds(odds: float) -> None:
    view = position(Rules(players=3), *DREW_AND_PASSED).view(0)
    know = Knowledge(view)
    likelihood = PlayLikelihood(view, know.unseen, [None, odds, odds])
    assert not likelihood.decisions[1] and len(likelihood.decisions[2]) == 1
    worlds = WeightedWorlds(know, likelihood)
    sixes = set(ids("6-1", "6-2", "6-3", "6-4"))
    rng = random.Random(5)
    for _ in range(300):
        hands = worlds.sample_hands(rng)
        assert not sixes & set(hands[1])  # seat 1 showed it held no 6, twice over
        assert sixes <= set(hands[2])  # so every unseen 6 is seat 2's
        assert hands[0] == []  # the boneyard is empty
        assert len(hands[1]) == 14 and len(hands[2]) == 6
    # a hand that broke those facts would weigh nothing less: the facts are not a
    # matter of weight but of which worlds are dealt at all
    assert likelihood.seat_weight(1, ids("6-1")) == 1.0
