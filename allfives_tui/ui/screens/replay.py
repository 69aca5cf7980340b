"""The replay screen: step through a recorded game, every hand face up or one seat's view.

:class:`ReplayScreen` takes a :class:`~engine.record.GameRecord` (or a ready
:class:`~allfives_tui.table.replay.Replay`) and works inside any app: the game
app pushes it for "Replay this game" and "Open replay…", and
:class:`ReplayApp` (``allfives replay FILE``) runs it alone. Every snapshot is
precomputed, so stepping back is instant; widgets only render the frame.

:class:`OpenReplayScreen` asks for a file, shows why a file cannot be
replayed (the same one line as the command prints) and, when the actions
before a bad one are sound, offers to replay up to the last good one.

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
from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Button, Input, Static
from textual.worker import WorkerFailed, get_current_worker

from allfives_tui.coach.ratings import Review
from allfives_tui.coach.seat_review import SeatReview
from allfives_tui.locale import N_, _, ngettext
from allfives_tui.locale.formats import number
from allfives_tui.store.saves import ReplayLoadError, read_replay
from allfives_tui.table.replay import NOBODY, Frame, Replay, describe_events, status_line
from allfives_tui.ui import crash
from allfives_tui.ui.screens import REPLAY_CSS
from allfives_tui.ui.screens.game import display_order
from allfives_tui.ui.widgets import WIDGETS_CSS, Board, BoneyardCounter, HandView, Scoreboard
from allfives_tui.ui.widgets.analysis import AnalysisPane, analysis_seat
from allfives_tui.ui.widgets.footer import AppFooter
from allfives_tui.ui.widgets.hand import BAND
from allfives_tui.ui.widgets.move_list import MoveList
from engine import Play
from engine.record import GameRecord, RecordStep

SPEEDS: tuple[float, ...] = (3.0, 2.0, 1.2, 0.8, 0.5, 0.3, 0.15)
"""Seconds per step of automatic play, slowest first."""
DEFAULT_SPEED = 3
REVIEW_POLL_SECONDS = 0.2
"""How often the screen collects the analyst's ratings for the coach pane."""


_UNSET = object()




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
        Binding("space", "toggle_play", N_("Play"), priority=True, key_display=N_("Space")),
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
        self._shown: dict[str, object] = {}
        self.seat_review = SeatReview(self.replay, analysis_seat(self.replay, self.private_view))
        """The coach's review of one seat's decisions, for the analysis pane."""
        self._review_timer: Timer | None = None
        self.set_reactive(ReplayScreen.index, max(0, min(start, self.replay.last)))

    # -- building --------------------------------------------------------------
    def compose(self) -> ComposeResult:
        """Status line; board and hands beside the scores and move list; event line; keys."""
        replay = self.replay
        yield Static(id="replay-status")
        with Horizontal(id="replay-main"):
            with Vertical(id="replay-table"):
                yield Board(id="replay-board")
                with VerticalScroll(id="replay-hands"):
                    for seat in range(replay.rules.players):
                        with Horizontal(classes="replay-seat", id=f"seat-{seat}"):
                            yield Static(classes="replay-seat-label", id=f"seat-label-{seat}")
                            yield HandView(id=f"hand-{seat}")
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
        players = self.replay.rules.players
        self._board = self.query_one(Board)
        self._hands = [self.query_one(f"#hand-{s}", HandView) for s in range(players)]
        self._labels = [self.query_one(f"#seat-label-{s}", Static) for s in range(players)]
        self._scoreboard = self.query_one(Scoreboard)
        self._boneyard = self.query_one(BoneyardCounter)
        self._moves = self.query_one(MoveList)
        self._hands_box = self.query_one("#replay-hands", VerticalScroll)
        self._event = self.query_one("#replay-event", Static)
        self._status = self.query_one("#replay-status", Static)
        self._ready = True
        self._turn_hands(self.viewer)
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
        self._turn_hands(viewer)
        self._render_frame()

    def _turn_hands(self, viewer: int | None) -> None:
        """Mark the hands ``viewer`` may not see as face down."""
        for seat, hand in enumerate(self._hands):
            face_down = viewer is not None and viewer != seat
            hand.parent.set_class(face_down, "-face-down")  # type: ignore[union-attr]

    def watch_playing(self, playing: bool) -> None:
        if playing:
            self._start_timer()
        elif self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._render_status()

    def _changed(self, key: str, value: object) -> bool:
        """True (and remembered) when ``value`` differs from what ``key`` shows now."""
        if self._shown.get(key, _UNSET) == value:
            return False
        self._shown[key] = value
        return True

    def _render_frame(self) -> None:
        """Render the frame on show, touching only the widgets whose content changes."""
        if not self._ready:
            return
        frame = self.frame
        state = frame.state
        self._board.update_layout(state.layout, last=frame.last_placed)
        legal_tiles = frozenset(a.tile for a in state.legal_actions() if isinstance(a, Play))
        for seat, (hand, label) in enumerate(zip(self._hands, self._labels, strict=True)):
            tiles = tuple(display_order(state.hands[seat]))  # as the game shows a hand
            to_play = state.current == seat and not state.is_terminal
            if self.viewer is None or self.viewer == seat:
                playable = legal_tiles if to_play else None
                hand.update_hand(tiles, playable=playable, empty_text=_("no tiles"))
            else:
                hand.update_hand((), empty_text=_("(face down)"))
            if self._changed(f"label-{seat}", (to_play, len(tiles), hand.compact)):
                label.update(self._seat_label(seat, to_play), layout=False)
                if to_play and self._hands_box.max_scroll_y:
                    self.call_after_refresh(self._show_seat, seat)
        human = None if self.viewer == NOBODY else self.viewer
        given = [s.name for s in self.replay.record.seats]
        self._scoreboard.show(state, given, human=human)
        self._boneyard.show(state)
        # the move list's highlight follows in the next repaint: the frame comes first
        self.call_after_refresh(self._moves.show, self.index)
        self._event.update(self._event_text(), layout=False)
        self.query_one(AnalysisPane).show_step(self.index)
        self._render_status()

    def _show_seat(self, seat: int) -> None:
        """Scroll the hands so the whole of ``seat``'s row is in view."""
        row = self.query_one(f"#seat-{seat}")
        self._hands_box.scroll_to_widget(row, animate=False, immediate=True)

    # -- the hands' layout ------------------------------------------------------
    BOARD_ROWS = 10
    """The board's least height (its min-height in replay.tcss)."""
    OTHER_ROWS = 6
    """Rows that are not the board or the hands: status, event line and its rule, footer."""

    def on_resize(self) -> None:
        """Fit the hands and the status line to the new size."""
        if self._ready:
            self._fit_hands()
            self._render_status()

    def _fit_hands(self) -> None:
        """Every seat's hand in view: numbered tiles when a band each fits beside a
        board of its least height, else one row a hand (``[6|4]``)."""
        players = self.replay.rules.players
        room = self.app.size.height - self.OTHER_ROWS - self.BOARD_ROWS
        compact = players * BAND + 1 > room
        if compact == self._hands_box.has_class("-compact"):
            return
        self._hands_box.set_class(compact, "-compact")
        for hand in self._hands:
            hand.compact = compact
        self._render_frame()

    def _seat_label(self, seat: int, to_play: bool) -> Text:
        replay = self.replay
        state = self.frame.state
        text = Text()
        text.append("▶ " if to_play else "  ", style="bold")
        if self._hands[seat].compact:  # one row: the name and the count
            count = len(state.hands[seat])
            name_style = "bold reverse" if to_play else "bold"
            text.append(replay.seat_name(seat)[:7].ljust(7), style=name_style)
            text.append(number(count).rjust(2), style="dim")
            return text
        text.append(replay.seat_name(seat)[:10], style="bold reverse" if to_play else "bold")
        count = len(state.hands[seat])
        tiles = ngettext("{count} tile", "{count} tiles", count).format(count=number(count))
        text.append(f"\n  {tiles}", style="dim")
        return text

    def _event_text(self) -> Text:
        """The step in words, one paragraph (a seat's view does not name others' draws)."""
        return Text(" ".join(describe_events(self.frame, self.replay, viewer=self.viewer)))

    def _render_status(self) -> None:
        if not self._ready:
            return
        line = status_line(
            self.replay,
            self.index,
            viewer=self.viewer,
            source=self.source,
            in_progress=self.private_view is not None,
            step_seconds=SPEEDS[self.speed] if self.playing else None,
            width=self._status.content_region.width or self.app.size.width - 2,
        )
        self._status.update(line, layout=False)

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


class OpenReplayScreen(ModalScreen[None]):
    """Ask for a record file and open it in a :class:`ReplayScreen`.

    A file that cannot be replayed shows its one-line problem; when the
    actions before a bad one are sound, a button replays up to the last good one.
    """

    CSS_PATH = REPLAY_CSS

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"), key_display="Esc")]

    def __init__(
        self,
        path: str | None = None,
        *,
        error: ReplayLoadError | None = None,
        reveal_all: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        """Start with ``path`` in the input; ``error`` shows a problem already found;
        ``reveal_all`` opens an unfinished game with every hand face up."""
        super().__init__(name=name, id=id, classes=classes)
        self.initial_path = path or ""
        self.error = error
        self.reveal_all = reveal_all

    def compose(self) -> ComposeResult:
        """Title, path input, problem line and buttons."""
        with Vertical(id="open-replay"):
            problem = _("This game record has a problem")
            title = _("Open replay") if self.error is None else problem
            yield Static(title, id="open-replay-title")
            yield Input(
                self.initial_path, placeholder=_("path to a saved game (.json)"), id="open-path"
            )
            yield Static(self._hint(), id="open-hint")
            yield Static(id="open-problem")
            with Horizontal(id="open-buttons"):
                yield Button(_("Open"), id="open-go", variant="primary")
                yield Button(_("Replay the good part"), id="open-salvage", variant="warning")
                yield Button(_("Cancel"), id="open-cancel")
        yield AppFooter()  # this screen's keys, not those beneath

    @staticmethod
    def _hint() -> str:
        """Where the game app keeps the game in progress, if it has one."""
        from allfives_tui.store.folder import current_path
        from allfives_tui.store.saves import has_unfinished

        current = current_path()
        # a finished game stays in current.json, but it is no longer in progress
        if not has_unfinished():
            return ""
        return _("The game in progress is saved in {path}").format(path=current)

    def on_mount(self) -> None:
        """Show a problem handed over, else focus the path."""
        self._show_error(self.error)
        if self.error is not None and self.error.salvage is not None:
            self.query_one("#open-salvage", Button).focus()
        else:
            self.query_one(Input).focus()

    def _show_error(self, error: ReplayLoadError | None) -> None:
        self.error = error
        problem = self.query_one("#open-problem", Static)
        salvage = self.query_one("#open-salvage", Button)
        if error is None:
            problem.update("")
            problem.display = False
            salvage.display = False
            return
        path = self.query_one(Input).value.strip()
        if path:
            problem.update(Text(_("{path}: {problem}").format(path=path, problem=error.message)))
        else:
            problem.update(Text(error.message))
        problem.display = True
        salvage.display = error.salvage is not None
        if error.salvage is not None and error.salvage.steps:
            salvage.label = _salvage_label(error.salvage.steps[-1])

    @on(Input.Submitted, "#open-path")
    @on(Button.Pressed, "#open-go")
    def _open(self) -> None:
        path = self.query_one(Input).value.strip()
        if not path:
            self._show_error(ReplayLoadError(_("give the path of a saved game")))
            return
        try:
            replay = read_replay(_expand(path))
        except ReplayLoadError as err:
            self._show_error(err)
            return
        self.app.switch_screen(ReplayScreen(replay, source=path, reveal_all=self.reveal_all))

    @on(Button.Pressed, "#open-salvage")
    def _salvage(self) -> None:
        if self.error is None or self.error.salvage is None:
            return
        path = self.query_one(Input).value.strip()
        screen = ReplayScreen(
            Replay(self.error.salvage), source=path or None, reveal_all=self.reveal_all
        )
        self.app.switch_screen(screen)

    @on(Button.Pressed, "#open-cancel")
    def action_cancel(self) -> None:
        """Close without opening anything."""
        self.dismiss(None)


def _salvage_label(last: RecordStep) -> str:
    """The salvage button's words: up to the last sound step of the record."""
    if last.move == 0:
        return _("Replay up to the deal of hand {hand}").format(hand=number(last.hand))
    return _("Replay up to hand {hand}, move {move}").format(
        hand=number(last.hand), move=number(last.move)
    )


def _expand(path: str) -> str:
    """``~`` and ``~user`` expanded when they can be (else the path as typed)."""
    try:
        return str(Path(path).expanduser())
    except (RuntimeError, ValueError):  # no home folder to expand to
        return path


class _Blank(Screen[None]):
    """ReplayApp's base screen: when the replay above it closes, the app ends."""

    def on_screen_resume(self) -> None:
        if self.app.screen_stack[-1] is self and getattr(self, "_ready", False):
            self.app.exit()
        self._ready = True


class ReplayApp(App[None]):
    """``allfives replay FILE``: a replay on its own, or the problem with a bad file."""

    TITLE = "allfives replay"

    def __init__(
        self,
        replay: Replay | GameRecord | None = None,
        *,
        start: int = 0,
        title: str | None = None,
        error: ReplayLoadError | None = None,
        path: str | None = None,
        reveal_all: bool = False,
    ) -> None:
        """Show ``replay`` from frame ``start`` (titled by its file), or ``error`` about
        ``path`` with its salvage; an unfinished game from its player's view unless
        ``reveal_all``."""
        super().__init__()
        self._reveal_all = reveal_all
        self._replay = replay
        self._start = start
        self._source = title
        self._error = error
        self._path = path
        self.crash_report: str | None = None
        """After a crash: one line naming the crash log (the command prints it)."""
        self._end_after_crash = False

    def _handle_exception(self, error: Exception) -> None:
        """An unhandled error: the traceback goes to a crash log, not the terminal, and
        the app exits with status 1 (:attr:`crash_report` says where the log is)."""
        if self.crash_report is None:
            while isinstance(error, WorkerFailed):
                error = error.error  # type: ignore[assignment]
            self.crash_report = crash.crash_line("allfives replay", error)
            self._end_after_crash = not self.is_headless
        super()._handle_exception(error)
        self._exit_renderables.clear()

    def _print_error_renderables(self) -> None:
        """(Textual, once the terminal is given back.) A crashed replay ends within
        :data:`~allfives_tui.ui.crash.EXIT_GRACE` seconds, whatever still runs."""
        super()._print_error_renderables()
        if self._end_after_crash and self.crash_report is not None:
            crash.end_soon(self.crash_report)

    def get_key_display(self, binding: Binding) -> str:
        """A key as the footer shows it: a binding's own label in the current language (a
        key's name, not in the catalog, stays as it is), else Textual's."""
        if binding.key_display:
            return _(binding.key_display)
        return super().get_key_display(binding)

    def get_default_screen(self) -> Screen[None]:
        """A blank screen that ends the app when uncovered."""
        return _Blank()

    def on_mount(self) -> None:
        """Push the replay, or the problem."""
        if self._replay is not None:
            screen = ReplayScreen(
                self._replay, start=self._start, source=self._source, reveal_all=self._reveal_all
            )
            self.push_screen(screen)
        else:
            self.push_screen(
                OpenReplayScreen(self._path, error=self._error, reveal_all=self._reveal_all)
            )
