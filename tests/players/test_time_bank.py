"""The expert's time management: a settled choice stops early, and what it saves is banked
for close choices later, so the mean stays within the budget (issue 16)."""

from __future__ import annotations

import math

import pytest

from engine import Rules, apply, new_game, seeded_deal
from engine.players import ExpertPlayer, make_player
from engine.players.evaluate import SETTLE_WORLDS, SETTLE_Z, Search, settled
from engine.players.expert import BANK_MOST, BANK_SHARE, MOVE_MOST
from tests.players.helpers import position, with_scores
from tests.players.test_levels import EASY_TWENTY, TO_THE_TARGET

TWO = Rules(players=2)


def test_settled_asks_for_a_clear_paired_lead_over_every_other_action() -> None:
    worlds = 40
    lead = [1.0 + (w % 3) for w in range(worlds)]
    close = [x - 0.01 * (w % 2) for w, x in enumerate(lead)]  # behind by 0.005 on average
    far = [x - 5.0 + 0.1 * (w % 2) for w, x in enumerate(lead)]
    assert settled([0, 2], [lead, close, far], worlds, SETTLE_Z)
    assert not settled([0, 1, 2], [lead, close, far], worlds, 100.0)  # noise: not that sure
    noisy = [x + (20.0 if w % 2 else -20.0) - 0.5 for w, x in enumerate(lead)]
    assert not settled([0, 2], [lead, close, noisy], worlds, SETTLE_Z)
    assert settled([1], [lead, close, far], worlds, SETTLE_Z)  # one action left


def test_a_search_stops_once_its_choice_is_settled_and_says_so() -> None:
    # 6-0 W reaches the target: a certain win, clearly ahead of every other action
    view = with_scores(position(TWO, *TO_THE_TARGET), (240, 245)).view(1)
    legal = view.legal_actions()
    full = Search(view, legal, seed=4)
    full.run(playouts=3000, race=True)
    early = Search(view, legal, seed=4)
    early.run(playouts=3000, race=True, settle=SETTLE_Z)
    assert early.settled_early and not full.settled_early
    assert SETTLE_WORLDS <= early.worlds < full.worlds
    assert early.best() == full.best()
    assert str(legal[early.best()]) == "6-0 W"


def test_a_close_choice_runs_to_its_limit() -> None:
    view = position(TWO, *EASY_TWENTY).view(1)  # 4-1 W and 4-3 W are about level
    search = Search(view, view.legal_actions(), seed=4)
    search.run(playouts=600, race=True, settle=SETTLE_Z)
    assert not search.settled_early and search.worlds == 200


def test_a_decision_draws_a_share_of_the_bank_and_never_more_than_the_cap() -> None:
    player = ExpertPlayer(seed=1, budget=0.25)
    assert player._allowance(0.25) == 0.25  # nothing banked yet
    player.bank = 0.2
    assert player._allowance(0.25) == pytest.approx(0.25 + BANK_SHARE * 0.2)
    player.bank = 100.0
    assert player._allowance(0.25) == pytest.approx(MOVE_MOST * 0.25)
    player._spent(0.25, 0.05)  # a settled decision banks what it saved, up to the cap
    assert player.bank == pytest.approx(BANK_MOST * 0.25)
    player.bank = 0.1
    player._spent(0.25, 0.3)  # a close one spends from the bank
    assert player.bank == pytest.approx(0.05)
    player._spent(0.25, 1.0)  # an overrun is a debt of at most one budget...
    assert player.bank == pytest.approx(-0.25)
    assert player._allowance(0.25) == pytest.approx(0.25 - BANK_SHARE * 0.25)  # ...paid back


def _game_playouts(player: ExpertPlayer, rules: Rules, seed: int) -> list[int]:
    """The playouts of every searched decision of ``player`` (seat 0) in one hand."""
    state = apply(new_game(rules), seeded_deal(new_game(rules), seed)).state
    others = [make_player("greedy", seed=s) for s in range(rules.players)]
    used = []
    while not state.is_terminal and state.hand_number == 1 and not state.is_chance:
        seat = state.current
        assert seat is not None
        view = state.view(seat)
        legal = view.legal_actions()
        if seat == 0:
            action = player.choose(view, legal)
            if len(legal) > 1:
                used.append(player.last_playouts)
        else:
            action = others[seat].choose(view, legal)
        state = apply(state, action).state
    return used


@pytest.mark.parametrize("seed", [3, 8])
def test_over_a_hand_the_expert_spends_within_its_playouts_on_average(seed: int) -> None:
    limit = 300
    used = _game_playouts(ExpertPlayer(seed=2, budget=None, playouts=limit, tree=None), TWO, seed)
    assert len(used) >= 4
    assert sum(used) <= limit * len(used)
    assert min(used) < limit  # a settled choice stopped early...
    assert max(used) > limit  # ...and a later close one used the time it saved
    assert max(used) <= math.ceil(MOVE_MOST * limit) + 3 * 16


def test_without_settle_every_decision_gets_the_same_limit() -> None:
    used = _game_playouts(
        ExpertPlayer(seed=2, budget=None, playouts=300, settle=None, tree=None), TWO, 3
    )
    assert max(used) <= 300
