"""The turn driver: every kind of step, stale answers, take-backs, covers, away seats."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from allfives_tui.table.driver import (
    SEAT_SEEDS,
    AskComputer,
    Automatic,
    AwaitPerson,
    Cover,
    Deal,
    Driver,
    Elsewhere,
    Over,
    SeatDriver,
    StaleAnswerError,
    Step,
    Summary,
    TakeOver,
    computer_player,
    player_seed,
)
from allfives_tui.table.settings import PERSON, Settings
from allfives_tui.table.table import NotYourTurnError, Table
from allfives_tui.table.words import Names, game_over_title
from engine import Draw, IllegalActionError, Pass, Play, Rules
from engine.record import Seat


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def _table(*kinds: str, seed: int = 5, target: int = 0) -> Table:
    seats = [
        Seat(name=f"P{i}", kind=kind, level="greedy" if kind == "computer" else None)
        for i, kind in enumerate(kinds)
    ]
    rules = Rules(players=len(kinds), target=target) if target else Rules(players=len(kinds))
    return Table.new(rules, seats, seed)


def _perform(driver: Driver, step: Step) -> None:
    """Answer ``step`` as a front-end would (a person plays their first legal action)."""
    if isinstance(step, Summary):
        driver.ready(*step.waiting_for)
    elif isinstance(step, (Deal, Cover, TakeOver)):
        driver.done(step)
    elif isinstance(step, (AskComputer, Automatic)):
        driver.done(step, driver.think(step))
    elif isinstance(step, AwaitPerson):
        driver.done(step, step.legal[0])
    else:
        raise AssertionError(step)


def _until(driver: Driver, wanted: Callable[[Step], bool], limit: int = 20_000) -> Step:
    """Perform steps until one is ``wanted`` (which is returned, not performed)."""
    for _ in range(limit):
        step = driver.next()
        if wanted(step) or isinstance(step, Over):
            return step
        _perform(driver, step)
    raise AssertionError("no such step")


def test_a_computers_turn_carries_its_view_seed_level_and_pace() -> None:
    clock = Clock()
    table = _table("computer", "computer", seed=7)
    flushed: list[int] = []
    driver = Driver(table, now=clock, flush=lambda: flushed.append(table.step), pace=0.5)
    step = driver.next()
    assert isinstance(step, AskComputer)
    seat = table.to_act
    assert seat is not None
    assert (step.seat, step.number, step.level) == (seat, table.step, "greedy")
    assert not step.stand_in
    assert step.view == table.view(seat) and step.legal == table.view(seat).legal_actions()
    assert step.seed == player_seed(7, seat) == 7 * SEAT_SEEDS + seat
    assert step.not_before == clock.t + 0.5
    assert driver.next() == step  # asking again without a change asks the same
    action = driver.think(step)
    expected = computer_player(7, seat, "greedy").choose(step.view, step.legal)
    assert action == expected and flushed == [step.number]  # flushed before it is applied
    clock.t += 2.0
    events = driver.done(step, action)
    assert events and table.step == step.number + 1
    after = driver.next()
    assert isinstance(after, AskComputer) and after.not_before == clock.t + 0.5


def test_a_stale_answer_is_refused_and_changes_nothing() -> None:
    clock = Clock()
    table = _table("computer", "computer")
    driver = Driver(table, now=clock)
    first = driver.next()
    assert isinstance(first, AskComputer)
    action = driver.think(first)
    driver.done(first, action)
    state, number = table.state, table.step
    with pytest.raises(StaleAnswerError) as caught:
        driver.done(first, action)
    assert isinstance(caught.value, ValueError)
    assert table.state is state and table.step == number


def test_a_persons_move_is_theirs_only_and_must_be_legal() -> None:
    clock = Clock()
    table = _table("person", "computer", "computer", seed=3)
    driver = Driver(table, now=clock)
    step = _until(driver, lambda s: isinstance(s, AwaitPerson))
    assert isinstance(step, AwaitPerson) and step.seat == 0 and step.grace_deadline is None
    with pytest.raises(NotYourTurnError):
        driver.act(1, step.legal[0])
    tiles = {a.tile for a in step.legal if isinstance(a, Play)}
    unplayable = next(t for t in step.view.hand if t not in tiles) if step.view.hand else None
    if unplayable is not None:
        with pytest.raises(IllegalActionError):
            driver.act(0, Play(tile=unplayable))
    number = table.step
    assert driver.act(0, step.legal[0])
    assert table.step == number + 1
    with pytest.raises(IllegalActionError):
        driver.done(driver.next())  # a computer's turn needs an action


def test_with_auto_draw_a_forced_draw_or_pass_is_automatic_at_half_the_pace() -> None:
    clock = Clock()
    for seed in range(1, 60):
        table = _table("person", "computer", seed=seed)
        driver = Driver(table, now=clock, auto_draw=True, pace=1.0)
        step = _until(driver, lambda s: isinstance(s, Automatic))
        if isinstance(step, Automatic):
            break
    else:
        pytest.fail("no forced draw in 60 seeds")
    assert step.seat == 0 and isinstance(step.action, (Draw, Pass))
    assert (step.action,) == table.view(0).legal_actions()
    assert step.not_before == clock.t + 0.5
    assert driver.think(step) == step.action
    without = Driver(table, now=clock, auto_draw=False).next()
    assert isinstance(without, AwaitPerson) and without.legal == (step.action,)


def test_a_summary_waits_for_the_people_then_the_deal_comes() -> None:
    clock = Clock()
    table = _table("person", "computer", seed=2)
    driver = Driver(table, now=clock)
    step = _until(driver, lambda s: isinstance(s, Summary))
    assert isinstance(step, Summary) and step.waiting_for == (0,) and step.deadline is None
    assert step.hand_over == table.hand_over
    clock.t += 10_000
    assert driver.next() == step  # no time-out: it waits as long as it takes
    with pytest.raises(StaleAnswerError):
        driver.done(Deal(step.number))  # the deal is not due yet
    driver.ready(0)
    deal = driver.next()
    assert deal == Deal(step.number)
    hand = table.view(0).hand_number
    driver.done(deal)
    assert table.view(0).hand_number == hand + 1 and table.hand_over is None
    # the next hand's summary waits for the person again
    again = _until(driver, lambda s: isinstance(s, Summary))
    assert isinstance(again, Summary) and again.waiting_for == (0,)


def test_a_summary_times_out() -> None:
    clock = Clock()
    table = _table("person", "computer", seed=2)
    driver = Driver(table, now=clock, summary_timeout=5.0)
    step = _until(driver, lambda s: isinstance(s, Summary))
    assert isinstance(step, Summary) and step.deadline == clock.t + 5.0
    clock.t += 4.9
    assert isinstance(driver.next(), Summary)
    clock.t += 0.2
    assert isinstance(driver.next(), Deal)


def test_people_sharing_a_screen_get_it_covered_between_turns() -> None:
    clock = Clock()
    table = _table("person", "person", seed=4)
    driver = Driver(table, now=clock, shared_screen=True)
    assert driver.at_screen is None
    covers: list[int] = []
    for _ in range(8):
        step = driver.next()
        if isinstance(step, Cover):
            assert driver.at_screen is None and step.seat == table.to_act
            covers.append(step.seat)
            driver.done(step)
            assert driver.at_screen == step.seat
            person = driver.next()
            assert isinstance(person, AwaitPerson) and person.seat == step.seat
        elif isinstance(step, AwaitPerson):
            assert driver.at_screen == step.seat  # the same person moves again
            driver.done(step, step.legal[0])
        else:
            _perform(driver, step)
    assert len(covers) >= 2 and set(covers) == {0, 1}
    alone = Driver(_table("person", "computer", seed=4), now=clock)
    first = _until(alone, lambda s: isinstance(s, (Cover, AwaitPerson)))
    assert isinstance(first, AwaitPerson)  # one person: no cover


def test_a_take_back_makes_the_thinking_computers_answer_stale() -> None:
    clock = Clock()
    table = _table("person", "computer", "computer", seed=9)
    driver = Driver(table, now=clock, pace=1.0)
    mine = _until(driver, lambda s: isinstance(s, AwaitPerson))
    assert isinstance(mine, AwaitPerson)
    driver.done(mine, mine.legal[0])
    thinking = driver.next()
    if not isinstance(thinking, AskComputer):
        pytest.skip("the hand ended on the person's move at this seed")
    action = driver.think(thinking)
    clock.t += 3.0
    table.take_back(0)
    driver.taken_back()
    with pytest.raises(StaleAnswerError):
        driver.done(thinking, action)
    back = driver.next()
    assert isinstance(back, AwaitPerson) and back.seat == 0 and back.legal == mine.legal
    assert back.number > thinking.number  # a take-back is a change: a new step


def test_an_away_seat_is_handed_to_the_computer_and_back() -> None:
    clock = Clock()
    table = _table("person", "remote", seed=6)
    driver = Driver(table, now=clock, grace=30.0, stand_in_level="heuristic")
    step = _until(driver, lambda s: isinstance(s, AwaitPerson) and s.seat == 1)
    assert isinstance(step, AwaitPerson)
    driver.away(1)
    assert driver.away_seats() == (1,)
    waiting = driver.next()
    assert isinstance(waiting, AwaitPerson) and waiting.grace_deadline == clock.t + 30.0
    clock.t += 30.0
    over = driver.next()
    assert over == TakeOver(step.number, 1)
    driver.done(over)
    assert driver.played_by_computer(1)
    standing_in = driver.next()
    assert isinstance(standing_in, AskComputer) and standing_in.stand_in
    assert standing_in.level == "heuristic" and standing_in.seat == 1
    driver.done(standing_in, driver.think(standing_in))
    summary = _until(driver, lambda s: isinstance(s, Summary))
    assert isinstance(summary, Summary) and summary.waiting_for == (0,)  # not the away seat
    assert driver.back(1) is True
    assert driver.back(1) is False  # back already
    assert not driver.played_by_computer(1) and driver.away_seats() == ()
    mine = _until(driver, lambda s: isinstance(s, AwaitPerson) and s.seat == 1)
    assert isinstance(mine, AwaitPerson) and mine.grace_deadline is None


def test_a_whole_game_ends_over_and_the_step_counter_survives_a_reload() -> None:
    clock = Clock()
    table = _table("person", "computer", "computer", seed=12, target=60)
    driver = Driver(table, now=clock, auto_draw=True)
    kinds: Counter[str] = Counter()

    def counted(step: Step) -> bool:
        kinds[type(step).__name__] += 1
        return False

    step = _until(driver, counted)
    assert isinstance(step, Over) and step.game_over == table.game_over is not None
    assert {"AskComputer", "AwaitPerson", "Summary", "Deal", "Over"} <= set(kinds)
    assert Table.from_record(table.record()).step == table.step
    with pytest.raises(IllegalActionError):
        driver.done(step)  # nothing to answer once it is over


def test_a_hot_seat_game_to_its_end_covers_the_screen_between_people() -> None:
    """Two people and two computers at one screen play a whole game: a person moves only
    with the screen uncovered for them, and the game's end names the winning side."""
    clock = Clock()
    settings = Settings(
        players=4, partnerships=True, name="Ben", levels=["greedy", PERSON, "greedy"],
        names=["", "Ana", ""], seed=2, target=40,
    )
    table = Table.from_settings(settings)
    driver = Driver(table, now=clock, shared_screen=True)
    assert driver.people == {0, 2}
    kinds: Counter[str] = Counter()

    def checked(step: Step) -> bool:
        kinds[type(step).__name__] += 1
        if isinstance(step, AwaitPerson):
            assert driver.at_screen == step.seat
        elif isinstance(step, Cover):
            assert driver.at_screen is None and step.seat in (0, 2)
        elif isinstance(step, Summary):
            assert step.waiting_for == (0, 2)
        return False

    step = _until(driver, checked)
    assert isinstance(step, Over) and step.game_over is not None
    assert kinds["Cover"] >= 2 and kinds["Summary"] >= 1 and kinds["AskComputer"] >= 2
    names = Names.of(table.names, table.rules, you=None)
    title = game_over_title(names, step.game_over.winner)
    assert title in ("Ben & Ana win the game.", "West & East win the game.")


def test_a_seat_driver_performs_its_own_seats_steps_only() -> None:
    clock = Clock()
    table = _table("person", "computer", seed=2)
    host = Driver(table, now=clock)
    mine = SeatDriver(table, 0, now=clock)
    for _ in range(2000):
        step = host.next()
        if isinstance(step, Summary):
            break
        seen = mine.next(host.waiting_for())
        if isinstance(step, AwaitPerson):
            assert seen == step
            assert mine.done(seen, step.legal[0]) == step.legal[0]
        else:
            assert seen == Elsewhere(table.step, table.to_act)
        _perform(host, step)
    assert isinstance(step, Summary)
    shown = mine.next(step.waiting_for)
    assert isinstance(shown, Summary) and shown.hand_over == step.hand_over
    assert mine.next(()) == Elsewhere(table.step, None)  # the host no longer waits for it
    mine.ready()
    assert mine.next(step.waiting_for) == Elsewhere(table.step, None)
    with pytest.raises(StaleAnswerError):
        mine.done(shown, Draw(), step.waiting_for)
