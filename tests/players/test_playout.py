"""The playout policies the expert runs on the rules core."""

from __future__ import annotations

import random

from engine import core, parse_tile
from engine.players.playout import greedy_policy, reply_policy
from engine.tiles import PIPS, SET_SIZE


def tile(text: str) -> int:
    return parse_tile(text).id


def dealt(hands: list[str], boneyard: str) -> core.Core:
    c = core.Core(2, (0, 1), 250, 9)
    c.deal([[tile(t) for t in h.split()] for h in hands], [tile(t) for t in boneyard.split()], 0)
    return c


def best_reply(lay: core.Layout, hand: tuple[int, ...]) -> int:
    """The most the holder of ``hand`` can score with one placement on ``lay`` (by placing)."""
    best = 0
    for t in hand:
        for end in range(4):
            v = lay.ends[end]
            if v >= 0 and core.fits(t, v):
                after = lay.copy()
                after.place(t, end)
                best = max(best, core.placement_points(after.total))
    return best


def reference(c: core.Core) -> int:
    """The reply policy's rule, by placing every candidate and every reply on copies."""
    legal = c.legal()
    if len(legal) == 1:
        return legal[0]
    nxt = c.hand((c.current + 1) % c.players)

    def key(code: int) -> int:
        after = c.layout.copy()
        after.place(code // 5, code % 5)
        now = core.placement_points(after.total)
        return 16 * (now - best_reply(after, nxt)) + PIPS[code // 5]

    return max(legal, key=lambda code: (key(code), -legal.index(code)))


def test_reply_policy_avoids_handing_over_an_easy_twenty() -> None:
    # After the 6-4 lead seat 1 can only score 0; greedy sheds the 6-6 on the
    # east end (4 + 12), and seat 0's 4-4 on the west end then scores 20.
    c = dealt(
        [
            "5-2 0-0 6-0 2-1 6-1 5-1 4-0 4-4 6-4",
            "4-1 3-0 5-3 5-5 3-3 4-3 5-0 3-1 6-6",
        ],
        "4-2 6-5 5-4 2-0 3-2 6-2 6-3 1-0 1-1 2-2",
    )
    c.step(core.play_code(tile("6-4"), core.LEAD))
    rng = random.Random(0)
    greedy = greedy_policy(c, rng)
    assert greedy == core.play_code(tile("6-6"), core.E)
    after = c.copy()
    after.step(greedy)
    assert best_reply(after.layout, after.hand(0)) == 20
    choice = reply_policy(c, rng)
    assert choice != greedy
    after = c.copy()
    after.step(choice)
    assert best_reply(after.layout, after.hand(0)) < 20


def test_reply_policy_matches_placing_every_reply() -> None:
    # The incremental reply (and the exact copy around the spinner) agrees with
    # placing each candidate and each of the next hand's replies on a copy.
    rng = random.Random(5)
    decisions = 0
    for _ in range(150):
        c = core.Core(2, (0, 1), 10**6, 9)
        order = list(range(SET_SIZE))
        rng.shuffle(order)
        c.deal([order[:9], order[9:18]], order[18:], rng.randrange(2))
        while c.phase == core.PHASE_PLAY:
            choice = reply_policy(c, rng)
            assert choice == reference(c)
            decisions += 1
            legal = c.legal()
            c.step(choice if rng.random() < 0.5 else legal[rng.randrange(len(legal))])
    assert decisions > 2000


def test_reply_policy_plays_whole_hands_legally() -> None:
    rng = random.Random(2)
    for players, per_hand, teams in ((2, 9, (0, 1)), (3, 7, (0, 1, 2)), (4, 5, (0, 1, 0, 1))):
        for _ in range(30):
            c = core.Core(players, teams, 10**6, per_hand)
            order = list(range(SET_SIZE))
            rng.shuffle(order)
            hands = [order[i * per_hand : (i + 1) * per_hand] for i in range(players)]
            c.deal(hands, order[players * per_hand :], 0)
            while c.phase == core.PHASE_PLAY:
                choice = reply_policy(c, rng)
                assert choice in c.legal()
                c.step(choice)
            assert c.last_result is not None or c.winner >= 0
