"""The montecarlo level (issue 16, item 1): uniform worlds, greedy playouts, margin + 200."""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter

import pytest

from engine import Rules, apply
from engine.players import LEVELS, MonteCarloPlayer, make_player
from engine.players.knowledge import Knowledge, SeatConstraint, fits_caps
from engine.players.montecarlo import TARGET_BONUS
from tests.players.helpers import position, with_scores
from tests.players.test_honesty import midgame, reshuffled
from tests.players.test_levels import EASY_TWENTY, FIFTEEN_OVER_TEN, TO_THE_TARGET, VOID_DEAL

TWO = Rules(players=2)


def test_montecarlo_sits_between_heuristic_and_expert() -> None:
    assert LEVELS.index("heuristic") < LEVELS.index("montecarlo") < LEVELS.index("expert")
    player = make_player("montecarlo", seed=4, budget=None, playouts=50)
    assert isinstance(player, MonteCarloPlayer)
    assert (player.seed, player.budget, player.playouts) == (4, None, 50)


def test_reaching_the_target_is_worth_the_points_and_the_bonus() -> None:
    # 6-0 W scores 5 and takes seat 1 from 245 to 250: the game ends in every world.
    state = with_scores(position(Rules(players=2, target=250), *TO_THE_TARGET), (240, 245))
    view = state.view(1)
    legal = view.legal_actions()
    player = MonteCarloPlayer(seed=1, budget=None, playouts=40)
    values = dict(zip(map(str, legal), player.evaluate(view, legal), strict=True))
    assert values["6-0 W"] == 5 + TARGET_BONUS
    assert all(v < 5 + TARGET_BONUS for a, v in values.items() if a != "6-0 W")
    assert str(player.choose(view, legal)) == "6-0 W"
    assert apply(state, player.choose(view, legal)).state.winner == 1


def test_an_opponent_reaching_the_target_costs_the_bonus() -> None:
    # With seat 0 at 245 of 250 its next score wins the game: most playouts
    # end that way, each a margin of -200 less the points. At 0-0 no playout
    # reaches the target and the values are plain margins.
    def values(scores: tuple[int, int]) -> list[float]:
        state = with_scores(position(TWO, *EASY_TWENTY), scores)
        view = state.view(1)
        player = MonteCarloPlayer(seed=2, budget=None, playouts=150)
        return player.evaluate(view, view.legal_actions())

    assert all(abs(v) < 60 for v in values((0, 0)))
    assert all(v < -TARGET_BONUS / 2 for v in values((245, 0)))


def test_seeded_and_reproducible_with_a_fixed_playout_count() -> None:
    state = position(TWO, *FIFTEEN_OVER_TEN)
    view = state.view(1)
    legal = view.legal_actions()
    a = MonteCarloPlayer(seed=9, budget=None, playouts=300)
    b = MonteCarloPlayer(seed=9, budget=None, playouts=300)
    c = MonteCarloPlayer(seed=10, budget=None, playouts=300)
    assert a.evaluate(view, legal) == b.evaluate(view, legal)
    assert a.last_playouts == 300
    assert a.evaluate(view, legal) != c.evaluate(view, legal)
    assert a.choose(view, legal) == b.choose(view, legal)


def test_it_keeps_its_budget_in_cpu_time() -> None:
    state = position(TWO, *EASY_TWENTY)
    view = state.view(1)
    legal = view.legal_actions()
    player = MonteCarloPlayer(seed=0, budget=0.05)
    t0 = time.thread_time()
    player.choose(view, legal)
    spent = time.thread_time() - t0
    assert spent < 0.05 + 0.02  # it stops before a world would overrun
    assert player.last_playouts >= 3 * len(legal)


def test_a_forced_move_is_instant() -> None:
    state = position(TWO, *VOID_DEAL)
    view = state.view(1)
    legal = view.legal_actions()
    player = MonteCarloPlayer(seed=0, budget=10.0)
    t0 = time.thread_time()
    assert player.choose(view, legal) == legal[0]
    assert time.thread_time() - t0 < 0.01 and player.last_playouts == 0


def test_the_options_are_checked() -> None:
    with pytest.raises(ValueError, match="needs a time budget, a playout count, or both"):
        MonteCarloPlayer(budget=None, playouts=None)
    with pytest.raises(ValueError, match="the time budget must be"):
        MonteCarloPlayer(budget=float("inf"))
    with pytest.raises(ValueError, match="the playout count must be"):
        MonteCarloPlayer(budget=None, playouts=0)


@pytest.mark.parametrize(
    "rules", [Rules(players=2), Rules(players=3), Rules(players=4, partnerships=True)]
)
@pytest.mark.parametrize("seed", [11, 12])
def test_its_evaluation_is_unchanged_by_a_consistent_reshuffle(rules: Rules, seed: int) -> None:
    state = midgame(rules, seed, 14)
    seat = state.current
    assert seat is not None
    rng = random.Random(seed)
    other = next(o for o in (reshuffled(state, seat, rng) for _ in range(500)) if o is not None)
    assert other.hands != state.hands or other.boneyard != state.boneyard
    view = state.view(seat)
    values = MonteCarloPlayer(seed=seed, budget=None, playouts=120).evaluate(
        view, view.legal_actions()
    )
    other_view = other.view(seat)  # made just before its own evaluation
    assert values == MonteCarloPlayer(seed=seed, budget=None, playouts=120).evaluate(
        other_view, other_view.legal_actions()
    )


# -- uniform worlds ------------------------------------------------------------


def consistent(know: Knowledge, hands: list[list[int]]) -> bool:
    for seat, con in enumerate(know.constraints):
        if seat == know.me:
            continue
        hand = hands[seat]
        if len(hand) != con.count or not all(con.allows(t) for t in hand):
            return False
        if not fits_caps(con, hand):
            return False
    return True


def test_uniform_worlds_are_every_consistent_deal_equally_often() -> None:
    """On a small hand-made case the sampler's frequencies match the exact count."""
    state = position(Rules(players=3), *_THREE_SEATS)
    know = Knowledge(state.view(0))
    # Eight unseen tiles: seats 1 and 2 hold 3 each, the boneyard 2. Seat 1
    # lacked 6s at a pass (no draw since); seat 2 lacked 6s and 5s at a draw
    # after which it kept one drawn tile (so at most one 6 or 5).
    know.unseen = [0, 1, 2, 3, 20, 21, 25, 26]  # 0-0 1-0 1-1 2-0 5-5 6-0 6-4 6-5
    know.constraints = [
        SeatConstraint(0, -1, [], []),
        SeatConstraint(1, 3, [1 << 6], [0]),
        SeatConstraint(2, 3, [(1 << 6) | (1 << 5)], [1]),
    ]
    know._allowed = None
    deals = []
    for hand1 in itertools.combinations(know.unseen, 3):
        rest = [t for t in know.unseen if t not in hand1]
        for hand2 in itertools.combinations(rest, 3):
            hands = [[], list(hand1), list(hand2)]
            if consistent(know, hands):
                deals.append((hand1, hand2))
    assert 10 < len(deals) < 200
    rng = random.Random(3)
    counts: Counter[tuple[tuple[int, ...], tuple[int, ...]]] = Counter()
    draws = 40 * len(deals)
    for _ in range(draws):
        sampled = know.sample_uniform_hands(rng)
        assert sampled is not None and consistent(know, sampled)
        assert sorted(sampled[0] + sampled[1] + sampled[2]) == know.unseen
        counts[(tuple(sorted(sampled[1])), tuple(sorted(sampled[2])))] += 1
    assert set(counts) == set(deals)
    expected = draws / len(deals)
    # every count within 5 standard deviations of the uniform expectation
    assert all(abs(n - expected) < 5 * expected**0.5 for n in counts.values()), counts


_THREE_SEATS: tuple[str, list[str]] = (
    "deal 0 | 6-6 5-4 4-4 3-3 2-2 6-2 6-1 | 5-0 4-0 3-0 5-1 4-1 3-1 6-3"
    " | 5-3 4-3 5-2 4-2 3-2 2-1 1-0 / 0-0 1-1 2-0 5-5 6-0 6-4 6-5",
    [],
)
