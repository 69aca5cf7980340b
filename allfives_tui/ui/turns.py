"""The turn loop at the screen, for a game at this terminal.

The table's :class:`~allfives_tui.table.driver.Driver` says what comes next;
the :class:`TurnLoop` performs it: a hand's summary or a hot-seat cover put
on show, a deal made, a computer's move (or an automatic draw) worked out in
the App's thread worker (:func:`computer_move`) and waited out at the
:class:`Pace`, and the answers applied, or dropped when the table moved on
meanwhile, or held while a new game is being set up over this one. The App
keeps the hooks its subclasses change (``play``, ``_changed``, ``_advance``,
``_answered``, ``_show_game_over``); the local game's hand them to the loop.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from allfives_tui.coach.table_coach import TableCoach
from allfives_tui.table.deadline import seconds_left
from allfives_tui.table.driver import (
    AskComputer,
    Automatic,
    Cover,
    Deal,
    Driver,
    Over,
    StaleAnswerError,
    Summary,
)
from allfives_tui.table.problems import problem_text
from allfives_tui.ui.coaching import paused
from allfives_tui.ui.leaving import Interlude
from allfives_tui.ui.screens.cover import CoverScreen
from allfives_tui.ui.screens.hand_summary import HandSummaryScreen
from engine import Action, Event, IllegalActionError

if TYPE_CHECKING:
    from allfives_tui.ui.app import AllFivesApp


class Pace:
    """The wait after a computer's move, so a person can follow it; :meth:`stop`
    cuts the wait in progress short."""

    def __init__(self) -> None:
        self._waiting: threading.Event | None = None

    def wait(self, seconds: float) -> None:
        """(A worker thread.) Wait ``seconds``, or until stopped."""
        if seconds > 0:
            waiting = threading.Event()
            self._waiting = waiting
            waiting.wait(seconds)

    def stop(self) -> None:
        """End the wait in progress at once."""
        if self._waiting is not None:
            self._waiting.set()


def computer_move(
    driver: Driver, step: AskComputer | Automatic, coach: TableCoach | None, pace: Pace
) -> Action:
    """(A worker thread.) A computer's action from its seat's view (the coach's
    analysis waits meanwhile) or the automatic draw, with the autosave on disk;
    then the pace is waited out."""
    with paused(coach if isinstance(step, AskComputer) else None):
        action = driver.think(step)
    pace.wait(seconds_left(step.not_before))
    return action


class TurnLoop:
    """The turns of the App's game in progress (see the module's docstring)."""

    def __init__(self, app: AllFivesApp) -> None:
        self.app = app
        self.driver: Driver | None = None
        """The turn driver of the game in progress: what is performed next."""
        self.pace = Pace()
        self.interlude = Interlude()
        """A new game being set up over the game in progress (which waits)."""

    def act(self, seat: int, action: Action) -> bool:
        """The person at ``seat`` takes ``action``; False (and a message) if they may not."""
        if self.driver is None:
            return False
        try:
            events = self.driver.act(seat, action)
        except IllegalActionError as err:
            self.app.notify(problem_text(err, self.driver.table.words(seat)), severity="warning")
            return False
        self.app._changed(events)
        return True

    def take_back(self) -> None:
        """Undo the person's last move of the hand and the computers' replies since."""
        app = self.app
        table, screen, seat = app.table, app.game_screen, app.viewer
        if table is None or seat is None or screen is None:
            return
        try:
            table.take_back(seat)
        except IllegalActionError as err:
            app.notify(problem_text(err, table.words(seat)), severity="warning")
            return
        if self.driver is not None:
            self.driver.taken_back()
        # a computer thinking or pacing now answers a step that is gone: its move is
        # dropped (see answered); stop it and any automatic draw at once
        self.pace.stop()
        app.workers.cancel_group(app, "computer")
        screen.taken_back()
        if app.coach is not None:
            app.coach.changed()

    def show(self, events: tuple[Event, ...]) -> None:
        """Show the new snapshot and carry the game on."""
        app = self.app
        screen = app.game_screen
        if screen is not None and app.table is not None:
            screen.show_events(events)
            screen.step = app.table.step
        if app.coach is not None:
            app.coach.changed()
        app._advance()

    def advance(self) -> None:
        """Perform the driver's next step: a summary, the game's end, a cover, a
        computer's turn or an automatic draw; on a person's turn, wait for them."""
        app = self.app
        table, driver = app.table, self.driver
        if table is None or driver is None or app.game_screen is None:
            return
        step = driver.next()
        if app.hot_seat:
            app._view_as(driver.at_screen)  # nobody's tiles while the turn passes on
        if isinstance(step, Over):
            app._show_game_over()
        elif isinstance(step, Summary):
            rated = app.coach is not None and app.coach.rates
            summary = HandSummaryScreen(
                table,
                step.hand_over,
                app._words(),
                rated=rated,
                grace=app.key_ahead_grace,
            )
            app.push_screen(summary, lambda _: self._summary_closed(driver, step))
            app.call_after_refresh(app._coach_poll, True)
        elif isinstance(step, Deal):
            app._changed(driver.done(step))
        elif isinstance(step, Cover):
            cover = CoverScreen(table.names[step.seat], grace=app.key_ahead_grace)
            app.push_screen(cover, lambda _: self._uncover(driver, step))
        elif isinstance(step, (AskComputer, Automatic)):
            app.computer_turn(driver, step)

    def _summary_closed(self, driver: Driver, step: Summary) -> None:
        """The hand's summary is closed: everyone at this screen has read it."""
        if driver is self.driver:
            driver.ready(*step.waiting_for)
            self.app._advance()

    def _uncover(self, driver: Driver, step: Cover) -> None:
        """The person named on the cover is alone at the screen: show their tiles."""
        if driver is not self.driver:
            return
        try:
            driver.done(step)
        except StaleAnswerError:
            return
        self.app._advance()

    def answered(self, driver: Driver, step: AskComputer | Automatic, action: Action) -> None:
        """A computer's answer (or the automatic draw) is in: apply it, unless it is stale."""
        app = self.app
        if app._setting_up():  # the move waits for the new-game screen to go back
            self.interlude.hold(lambda: app._answered(driver, step, action))
            return
        if driver is not self.driver or app.game_screen is None:
            return
        try:
            events = driver.done(step, action)
        except StaleAnswerError:
            return  # the table moved on (a take-back): the answer is dropped
        app._changed(events)
