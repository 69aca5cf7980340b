"""The replay screen: step through a recorded game, every hand face up or one seat's view.

:class:`ReplayScreen` takes a :class:`~engine.record.GameRecord` (or a ready
:class:`~allfives_tui.table.replay.Replay`) and works inside any app: the game
app pushes it for "Replay this game" and "Open replay…"
(:mod:`~allfives_tui.ui.screens.open_replay`), and
:class:`~allfives_tui.ui.screens.replay_app.ReplayApp` (``allfives replay FILE``)
runs it alone. Every snapshot is precomputed, so stepping back is instant;
widgets only render the frame.

A game still in progress (a ``ctrl+s`` copy, ``current.json``) replays
only from its player's view (:meth:`~allfives_tui.table.replay.Replay.private_viewer`):
the other hands face down, their draws unnamed, and ``v`` does not change
the view; ``reveal_all`` (``allfives replay FILE --all``) shows everything.
A finished game opens every hand.

The shared widgets repaint in place while their size stays the same, so a
step repaints only what changed; the screen patches none of their internals.
"""

from __future__ import annotations

import contextlib

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static
from textual.worker import get_current_worker

from allfives_tui.coach.ratings import Review
from allfives_tui.coach.seat_review import SeatReview
from allfives_tui.locale import N_, NP_
from allfives_tui.table.replay import NOBODY, Frame, Replay, describe_events, status_line
from allfives_tui.ui.screens import REPLAY_CSS
from allfives_tui.ui.widgets import WIDGETS_CSS, Board, BoneyardCounter, Scoreboard
from allfives_tui.ui.widgets.analysis import AnalysisPane, analysis_seat
from allfives_tui.ui.widgets.fitted_line import FittedLine
from allfives_tui.ui.widgets.footer import AppFooter
from allfives_tui.ui.widgets.hand import BAND
from allfives_tui.ui.widgets.move_list import MoveList
from allfives_tui.ui.widgets.replay_hands import ReplayHands
from engine.record import GameRecord

SPEEDS: tuple[float, ...] = (3.0, 2.0, 1.2, 0.8, 0.5, 0.3, 0.15)
"""Seconds per step of automatic play, slowest first."""
DEFAULT_SPEED = 3
REVIEW_POLL_SECONDS = 0.2
"""How often the screen collects the analyst's ratings for the coach pane."""


class ReplayScreen(Screen[None]):
    """A recorded game, one action at a time, with the board, all hands and the scores."""

    CSS_PATH = [WIDGETS_CSS, REPLAY_CSS]

    BINDINGS = [
        # pairs show once in the Footer ("←→ Step") so every key fits in 80 columns
        Binding("left", "back", N_("Back"), priority=True, show=False),
        Binding("right", "forward", N_("Step"), priority=True, key_display="←→"),
        Binding("home", "start", N_("Jump"), priority=True, key_display="Home/End"),
        Binding("end", "end", N_("Last"), priority=True, show=False),
        Binding("pageup", "prev_hand", N_("Hand"), priority=True, key_display="PgUp/PgDn"),
        Binding("pagedown", "next_hand", N_("Next hand"), priority=True, show=False),
        Binding(
            "space", "toggle_play", NP_("key: run the replay on, or pause it", "Play"),
            priority=True, key_display=N_("Space"),
        ),
        Binding("plus,equals_sign", "faster", N_("Speed"), key_display="+/-"),
        Binding("minus,underscore", "slower", N_("Slower"), show=False),
        Binding("v", "cycle_view", N_("View")),
        Binding("a", "toggle_analysis", N_("Coach")),
        Binding("escape,q", "close", N_("Close"), key_display="q"),
    ]

    index: reactive[int] = reactive(0, init=False, repaint=False)
    """The frame on show."""
    viewer: reactive[int | None] = reactive(None, init=False, repaint=False)
    """``None`` shows every hand face up; a seat shows only what that seat saw
    (:data:`~allfives_tui.table.replay.NOBODY`: no hand at all)."""
    playing: reactive[bool] = reactive(False, init=False, repaint=False)
    """True while automatic play runs."""

    def __init__(
        self,
        record: GameRecord | Replay,
        *,
        start: int = 0,
        source: str | None = None,
        reveal_all: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        """Replay ``record`` from frame ``start``; ``source`` (a file name) shows in the title.

        An unfinished game shows only its player's view unless ``reveal_all``.
        """
        super().__init__(name=name, id=id, classes=classes)
        self.replay = record if isinstance(record, Replay) else Replay(record)
        self.private_view = None if reveal_all else self.replay.private_viewer()
        """The one view an unfinished game may be seen from (``None``: any view)."""
        if self.private_view is not None:
            self.set_reactive(ReplayScreen.viewer, self.private_view)
        self.source = source
        self.names = tuple(self.replay.seat_name(seat) for seat in range(self.replay.rules.players))
        self.speed = DEFAULT_SPEED
        self._timer: Timer | None = None
        self._ready = False
        self.seat_review = SeatReview(self.replay, analysis_seat(self.replay, self.private_view))
        """The coach's review of one seat's decisions, for the analysis pane."""
        self._review_timer: Timer | None = None
        self.set_reactive(ReplayScreen.index, max(0, min(start, self.replay.last)))

    # -- building --------------------------------------------------------------
    def compose(self) -> ComposeResult:
        """Status line; board and hands beside the scores and move list; event line; keys."""
        replay = self.replay
        yield FittedLine(self._status_words, id="replay-status")
        with Horizontal(id="replay-main"):
            with Vertical(id="replay-table"):
                yield Board(id="replay-board")
                yield ReplayHands(self.names, id="replay-hands")
            with Vertical(id="replay-side"):
                yield Scoreboard(id="replay-scores")
                yield BoneyardCounter(stack_beside=True, id="replay-boneyard")
                yield MoveList(replay.frames, self.names, id="replay-moves")
            review = self.seat_review
            yield AnalysisPane(
                replay, review.seat, total=review.total, error=review.error, id="replay-analysis"
            )
        yield Static(id="replay-event")
        yield AppFooter(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        """Show the first frame and give the move list the keys."""
        self._board = self.query_one(Board)
        self._hands = self.query_one(ReplayHands)
        self._scoreboard = self.query_one(Scoreboard)
        self._boneyard = self.query_one(BoneyardCounter)
        self._moves = self.query_one(MoveList)
        self._event = self.query_one("#replay-event", Static)
        self._status = self.query_one(FittedLine)
        self._ready = True
        self._hands.turn(self.viewer)
        self._fit_hands()
        self._render_frame()
        self._moves.focus()

    # -- reading the frame -----------------------------------------------------
    @property
    def frame(self) -> Frame:
        """The frame on show."""
        return self.replay.frames[self.index]

    def watch_index(self) -> None:
        self._render_frame()

    def watch_viewer(self, viewer: int | None) -> None:
        self._hands.turn(viewer)
        self._render_frame()

    def watch_playing(self, playing: bool) -> None:
        if playing:
            self._start_timer()
        elif self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._render_status()

    def _render_frame(self) -> None:
        """Render the frame on show, touching only the widgets whose content changes."""
        if not self._ready:
            return
        frame = self.frame
        state = frame.state
        self._board.update_layout(state.layout, last=frame.last_placed)
        self._hands.show(state, self.viewer)
        human = None if self.viewer == NOBODY else self.viewer
        given = [s.name for s in self.replay.record.seats]
        self._scoreboard.show(state, given, human=human)
        self._boneyard.show(state)
        # the move list's highlight follows in the next repaint: the frame comes first
        self.call_after_refresh(self._moves.show, self.index)
        self._event.update(self._event_text(), layout=False)
        self.query_one(AnalysisPane).show_step(self.index)
        self._render_status()

    # -- the hands' layout ------------------------------------------------------
    BOARD_ROWS = 10
    """The board's least height (its min-height in replay.tcss)."""
    OTHER_ROWS = 6
    """Rows that are not the board or the hands: status, event line and its rule, footer."""

    def on_resize(self) -> None:
        """Fit the hands to the new height (the status line fits itself to its width)."""
        if self._ready:
            self._fit_hands()

    def _fit_hands(self) -> None:
        """Every seat's hand in view: numbered tiles when a band each fits beside a
        board of its least height, else one row a hand (``[6|4]``)."""
        players = self.replay.rules.players
        room = self.app.size.height - self.OTHER_ROWS - self.BOARD_ROWS
        if self._hands.fit(players * BAND + 1 > room):
            self._render_frame()

    def _event_text(self) -> Text:
        """The step in words, one paragraph (a seat's view does not name others' draws)."""
        return Text(" ".join(describe_events(self.frame, self.replay, viewer=self.viewer)))

    def _render_status(self) -> None:
        if self._ready:
            self._status.refit()

    def _status_words(self, width: int) -> str:
        """Where the replay stands, in at most ``width`` cells (the status line's words)."""
        return status_line(
            self.replay,
            self.index,
            viewer=self.viewer,
            source=self.source,
            in_progress=self.private_view is not None,
            step_seconds=SPEEDS[self.speed] if self.playing else None,
            width=width,
        )

    # -- moving ----------------------------------------------------------------
    def go(self, index: int) -> None:
        """Show frame ``index`` (clamped to the game)."""
        self.index = max(0, min(index, self.replay.last))

    def action_forward(self) -> None:
        """One action forward."""
        self.go(self.index + 1)

    def action_back(self) -> None:
        """One action back."""
        self.playing = False
        self.go(self.index - 1)

    def action_start(self) -> None:
        """The first deal."""
        self.playing = False
        self.go(0)

    def action_end(self) -> None:
        """The last action of the record."""
        self.playing = False
        self.go(self.replay.last)

    def action_prev_hand(self) -> None:
        """This hand's deal, or the previous hand's."""
        self.go(self.replay.prev_hand(self.index))

    def action_next_hand(self) -> None:
        """The next hand's deal (the end, in the last hand)."""
        self.go(self.replay.next_hand(self.index))

    def action_toggle_play(self) -> None:
        """Start or stop automatic play (from the start again when at the end)."""
        if not self.playing and self.index >= self.replay.last:
            self.go(0)
        self.playing = not self.playing

    def action_faster(self) -> None:
        """Shorten the pause between automatic steps."""
        self._set_speed(self.speed + 1)

    def action_slower(self) -> None:
        """Lengthen the pause between automatic steps."""
        self._set_speed(self.speed - 1)

    def _set_speed(self, speed: int) -> None:
        self.speed = max(0, min(speed, len(SPEEDS) - 1))
        if self.playing:
            self._start_timer()
        self._render_status()

    def _start_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_interval(SPEEDS[self.speed], self._tick)

    def _tick(self) -> None:
        if self.index >= self.replay.last:
            self.playing = False
        else:
            self.go(self.index + 1)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``v`` is dimmed while an unfinished game keeps its one view."""
        if action == "cycle_view" and self.private_view is not None:
            return None
        return True

    def action_cycle_view(self) -> None:
        """All hands face up → seat 1's view → seat 2's view … → all hands again.

        An unfinished game keeps its player's view (nothing changes).
        """
        if self.private_view is not None:
            return
        players = self.replay.rules.players
        if self.viewer is None:
            self.viewer = 0
        elif self.viewer + 1 < players:
            self.viewer = self.viewer + 1
        else:
            self.viewer = None

    def action_toggle_analysis(self) -> None:
        """Show or hide the coach's pane (in place of the scores and moves); the first
        time, its analysis starts."""
        pane = self.query_one(AnalysisPane)
        pane.display = not pane.display
        self.query_one("#replay-side").display = not pane.display
        if pane.display:
            self._start_review(pane)

    # -- the coach's review ----------------------------------------------------------
    def _start_review(self, pane: AnalysisPane) -> None:
        """The first time: the review from the cache (looked up in a thread: the file may
        be slow or damaged), else rated in the background process."""
        review = self.seat_review
        if pane.started or not review.possible or review.seat is None:
            return
        pane.show_review(Review(review.seat, review.playouts, (), review.total))
        self._look_up_review()

    @work(thread=True, exclusive=True, group="analysis-cache", exit_on_error=False)
    def _look_up_review(self) -> None:
        """Read the cache off the UI thread; the screen goes on in :meth:`_looked_up`."""
        found = self.seat_review.look_up()
        if not get_current_worker().is_cancelled:
            with contextlib.suppress(RuntimeError):  # the app has gone meanwhile
                self.app.call_from_thread(self._looked_up, found)

    def _looked_up(self, found: Review | None) -> None:
        if not self.is_attached:
            return
        if self.seat_review.begin(found):
            self._review_timer = self.set_interval(REVIEW_POLL_SECONDS, self._poll_review)
        self._show_review()

    def _poll_review(self) -> None:
        review = self.seat_review
        if review.poll():
            self._show_review()
        if review.analyst is None:
            if self._review_timer is not None:
                self._review_timer.stop()
                self._review_timer = None
            if review.to_keep:
                self._keep_review()

    @work(thread=True, group="analysis-cache-put", exit_on_error=False)
    def _keep_review(self) -> None:
        """Keep a finished review in the cache, off the UI thread."""
        self.seat_review.keep()

    def _show_review(self) -> None:
        review = self.seat_review
        self.query_one(AnalysisPane).show_review(
            review.review, error=review.error, from_cache=review.from_cache
        )

    def on_unmount(self) -> None:
        """Stop the coach's background process."""
        if self._review_timer is not None:
            self._review_timer.stop()
        self.seat_review.close()

    def action_close(self) -> None:
        """Leave the replay."""
        self.playing = False
        self.dismiss(None)

    @on(MoveList.Picked)
    def _picked(self, event: MoveList.Picked) -> None:
        self.playing = False
        self.go(event.index)
