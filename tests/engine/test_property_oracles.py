"""Random games checked against an independent recount of the whole game.

The property tests in ``test_properties.py`` take the engine's open ends as
given. Here a small, separate model of the rules (:class:`Oracle`), written
from ``docs/rules.md`` and sharing no code with the engine, follows every
action of random games and checks the engine against it at every step:

* the open ends and what they add up to, recounted from the placements
  (the lead, the spinner and when its north and south open, doubles counting
  both halves at an end, a lone spinner counting once);
* a drawn tile that fits must be played at once (``must_play``);
* whose turn it is, every hand, the legal moves and the placement points;
* at every hand's end each side's score is its score before the hand, plus
  its placement points, less the penalty of *each* of its seats rounded on
  its own (issue 14: dropping a partner's penalty, or rounding the side's
  summed pips once, passed every other test);
* every seat's view shows that seat's own hand (``state.view(s).hand ==
  state.hands[s]``: a view built with the hand of the seat to move passed).
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    ALL_TILES,
    Deal,
    Draw,
    Drew,
    GameOver,
    GameState,
    HandOver,
    HandSize,
    Pass,
    Placed,
    Play,
    Rng,
    Rules,
    Tile,
    apply,
    legal_actions,
    new_game,
    seeded_deal,
)

W, E, N, S = "W", "E", "N", "S"


def round_to_five(pips: int) -> int:
    """The nearest multiple of five (pip sums never fall half-way)."""
    return 5 * round(pips / 5)


class Oracle:
    """An independent model of one game, fed the same actions as the engine."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.scores = [0] * rules.teams
        self.winner: int | None = None
        self.hand_over = True
        self.next_start: int | None = None

    def team(self, seat: int) -> int:
        return seat % 2 if self.rules.partnerships else seat

    # -- a hand ------------------------------------------------------------
    def deal(self, deal: Deal) -> None:
        assert self.hand_over and self.winner is None
        if self.next_start is not None:
            assert deal.start == self.next_start, "whoever went out starts"
        self.hands = [list(h) for h in deal.hands]
        self.boneyard = list(deal.boneyard)  # boneyard[0] is drawn first
        self.turn = deal.start
        self.must: Tile | None = None
        self.lead: Tile | None = None
        self.arms: dict[str, list[tuple[Tile, int]]] = {W: [], E: [], N: [], S: []}
        self.spinner: Tile | None = None
        self.spinner_on: tuple[str, int] | None = None  # ("lead", 0) or (arm, index)
        self.hand_points = [0] * self.rules.teams
        self.hand_start_scores = list(self.scores)
        self.hand_over = False

    def spinner_sides_covered(self) -> bool:
        if self.spinner_on is None:
            return False
        where, index = self.spinner_on
        if where == "lead":
            return bool(self.arms[W]) and bool(self.arms[E])
        return len(self.arms[where]) > index + 1  # the tile it joined covers its inner side

    def ends(self) -> dict[str, int]:
        """The pip each end needs (-1: not open)."""
        if self.lead is None:
            return {W: -1, E: -1, N: -1, S: -1}
        out = {
            W: self.arms[W][-1][1] if self.arms[W] else self.lead.low,
            E: self.arms[E][-1][1] if self.arms[E] else self.lead.high,
            N: -1,
            S: -1,
        }
        if self.spinner is not None and self.spinner_sides_covered():
            for arm in (N, S):
                out[arm] = self.arms[arm][-1][1] if self.arms[arm] else self.spinner.high
        return out

    def total(self) -> int:
        """The open ends added up, as the rules score them."""
        if self.lead is None:
            return 0
        total = 0
        # west and east: the outer tile of each line; the lead shows its halves
        end_tiles = []
        for arm, lead_half in ((W, self.lead.low), (E, self.lead.high)):
            if self.arms[arm]:
                tile, outer = self.arms[arm][-1]
                end_tiles.append((tile, outer))
            else:
                end_tiles.append((self.lead, lead_half))
        spinner_counted = False
        for tile, outer in end_tiles:
            if tile == self.spinner and not self.spinner_sides_covered():
                # the spinner with a long side open counts its full pips, once
                if not spinner_counted:
                    total += tile.pips
                    spinner_counted = True
            elif tile.is_double:
                total += 2 * outer
            else:
                total += outer
        for arm in (N, S):  # an empty arm adds nothing
            if self.arms[arm]:
                tile, outer = self.arms[arm][-1]
                total += 2 * outer if tile.is_double else outer
        return total

    def legal(self) -> set[object]:
        """The legal moves of the seat to act."""
        hand = self.hands[self.turn]
        if self.lead is None:
            return {("lead", t) for t in hand}
        ends = self.ends()
        tiles = [self.must] if self.must is not None else hand
        open_ends = [(end, v) for end, v in ends.items() if v >= 0]
        plays: set[object] = {
            (end, t) for t in tiles if t is not None for end, v in open_ends if t.has(v)
        }
        if plays:
            return plays
        assert self.must is None, "a drawn tile that must be played fits somewhere"
        return {"draw"} if self.boneyard else {"pass"}

    def anyone_can_play(self) -> bool:
        values = {v for v in self.ends().values() if v >= 0}
        return any(t.has(v) for hand in self.hands for t in hand for v in values)

    def play(self, tile: Tile, end: str | None) -> int:
        """Place ``tile``; the points scored."""
        seat = self.turn
        assert self.must in (None, tile)
        self.hands[seat].remove(tile)
        if end is None:
            assert self.lead is None
            self.lead = tile
            if tile.is_double:
                self.spinner, self.spinner_on = tile, ("lead", 0)
        else:
            need = self.ends()[end]
            assert need >= 0 and tile.has(need)
            self.arms[end].append((tile, tile.other(need)))
            if self.spinner is None and tile.is_double:
                assert end in (W, E), "north and south open only from a spinner"
                self.spinner, self.spinner_on = tile, (end, len(self.arms[end]) - 1)
        self.must = None
        total = self.total()
        points = total if total > 0 and total % 5 == 0 else 0
        team = self.team(seat)
        self.scores[team] += points
        self.hand_points[team] += points
        if self.scores[team] >= self.rules.target:
            self.winner = team  # at once: no penalties
            self.hand_over = True
            return points
        if not self.hands[seat]:
            self.end_hand(out=seat)
        else:
            self.turn = (seat + 1) % self.rules.players
            if not self.boneyard and not self.anyone_can_play():
                self.end_hand(out=None)
        return points

    def draw(self) -> Tile:
        tile = self.boneyard.pop(0)
        self.hands[self.turn].append(tile)
        values = {v for v in self.ends().values() if v >= 0}
        if any(tile.has(v) for v in values):
            self.must = tile
        elif not self.boneyard and not self.anyone_can_play():
            self.end_hand(out=None)  # blocked as soon as it is blocked
        return tile

    def pass_(self) -> None:
        self.turn = (self.turn + 1) % self.rules.players
        if not self.anyone_can_play():
            self.end_hand(out=None)

    def end_hand(self, out: int | None) -> None:
        self.hand_over = True
        self.out = out
        self.penalties = [round_to_five(sum(t.pips for t in hand)) for hand in self.hands]
        for seat, penalty in enumerate(self.penalties):
            self.scores[self.team(seat)] -= penalty
        self.next_start = out


def check_step(state: GameState, events: tuple[object, ...], o: Oracle) -> None:
    """The engine's state and events after one action agree with the oracle's."""
    rules = state.rules
    assert state.winner == o.winner
    for seat in range(rules.players):
        assert Counter(state.hands[seat]) == Counter(o.hands[seat]), "hands"
        assert state.view(seat).hand == state.hands[seat], f"seat {seat}'s view shows its hand"
    assert list(state.boneyard) == o.boneyard
    assert list(state.scores) == o.scores, "scores"
    ends = o.ends()
    assert state.layout.ends == (ends[W], ends[E], ends[N], ends[S]), "open ends recounted"
    assert state.layout.total == o.total(), "the open ends' total recounted"
    counts = state.layout.counts
    for slot, arm in ((2, N), (3, S)):
        expected = 0
        if o.arms[arm]:
            tile, outer = o.arms[arm][-1]
            expected = 2 * outer if tile.is_double else outer
        assert counts[slot] == expected
    assert state.layout.spinner == o.spinner
    hand_over = [e for e in events if isinstance(e, HandOver)]
    assert bool(hand_over) == (o.hand_over and o.winner is None)
    assert any(isinstance(e, GameOver) for e in events) == (o.winner is not None)
    if hand_over:
        event = hand_over[0]
        assert state.is_chance
        assert event.out_seat == o.out
        assert list(event.penalties) == o.penalties
        # each side: its score before the hand, plus its placement points,
        # less the penalty of each of its seats, each rounded on its own
        for team in range(rules.teams):
            seats = [s for s in range(rules.players) if o.team(s) == team]
            penalty = sum(round_to_five(sum(t.pips for t in state.hands[s])) for s in seats)
            expected = o.hand_start_scores[team] + o.hand_points[team] - penalty
            assert state.scores[team] == expected, f"side {team} at the end of the hand"
        assert list(event.scores) == o.scores
        return
    if o.winner is not None:
        assert state.is_terminal
        return
    assert state.current == o.turn, "whose turn"
    assert state.must_play == o.must, "a drawn tile that fits must be played"
    legal: set[object] = set()
    for action in legal_actions(state):
        if isinstance(action, Play):
            legal.add(("lead" if action.end is None else action.end.value, action.tile))
        else:
            legal.add("draw" if isinstance(action, Draw) else "pass")
    assert legal == o.legal(), "legal moves"


def play_checked_game(rules: Rules, seed: int, max_actions: int = 2500) -> Oracle:
    """Play a random game (or its first ``max_actions`` actions), checking every step."""
    rng = Rng(seed)
    state = new_game(rules)
    o = Oracle(rules)
    for _ in range(max_actions):
        if state.is_terminal:
            break
        if state.is_chance:
            deal = seeded_deal(state, seed)
            state, events = apply(state, deal)
            o.deal(deal)
        else:
            legal = legal_actions(state)
            action = legal[rng.below(len(legal))]
            state, events = apply(state, action)
            if isinstance(action, Play):
                points = o.play(action.tile, None if action.end is None else action.end.value)
                placed = [e for e in events if isinstance(e, Placed)]
                assert len(placed) == 1 and placed[0].points == points
            elif isinstance(action, Draw):
                tile = o.draw()
                drew = [e for e in events if isinstance(e, Drew)]
                assert drew[0].tile == tile and drew[0].must_play == (o.must is not None)
            else:
                assert isinstance(action, Pass)
                o.pass_()
        check_step(state, events, o)
    return o


@st.composite
def rules_strategy(draw: st.DrawFn) -> Rules:
    players = draw(st.sampled_from([2, 3, 4, 4]))
    partnerships = players == 4 and draw(st.booleans())
    hand_size = draw(st.sampled_from(list(HandSize)))
    target = draw(st.sampled_from([0, 50, 100, 150]))
    return Rules(players=players, partnerships=partnerships, hand_size=hand_size, target=target)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy(), seed=st.integers(min_value=0, max_value=2**32))
def test_random_games_agree_with_an_independent_recount(rules: Rules, seed: int) -> None:
    play_checked_game(rules, seed)


@pytest.mark.parametrize("seed", range(6))
def test_partnership_games_take_each_partners_rounded_penalty(seed: int) -> None:
    """Whole partnership games: many hands end with both partners holding tiles."""
    o = play_checked_game(Rules(players=4, partnerships=True, target=200), seed, max_actions=20_000)
    assert o.winner is not None


def test_the_oracle_knows_the_worked_examples() -> None:
    """The oracle itself, on docs/rules.md's examples 3 and 4 (spinner, sides first)."""
    o = Oracle(Rules(players=2))
    t = {str(x): x for x in ALL_TILES}
    o.hands = [[t["5-5"], t["6-5"], t["5-3"], t["0-0"]], [t["5-0"], t["5-4"], t["1-1"]]]
    o.boneyard, o.turn, o.must, o.lead, o.spinner, o.spinner_on = [], 0, None, None, None, None
    o.arms = {W: [], E: [], N: [], S: []}
    o.hand_points, o.hand_start_scores, o.hand_over = [0, 0], [0, 0], False
    assert [o.play(t["5-5"], None), o.play(t["5-0"], E), o.play(t["6-5"], W)] == [10, 10, 0]
    assert o.ends() == {W: 6, E: 0, N: 5, S: 5}
    assert [o.play(t["5-4"], N), o.play(t["5-3"], S)] == [10, 0]
