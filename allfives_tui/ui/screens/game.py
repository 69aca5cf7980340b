"""The game screen: the board, the hand, the scoreboard, the boneyard and the log.

It renders a :class:`~allfives_tui.table.table.TableReading` (a local table or
a network client's) through seats' views, and turns keys and clicks into
engine actions, which it posts to the App as :class:`GameScreen.Act` messages;
the App hands them to the table and sets :attr:`GameScreen.step` to the
table's new step. Nothing here changes the game: the screen reads the table
through the person's :class:`~allfives_tui.ui.screens.game_choices.Choices`
(what they see, what is legal, what a move would score), and says what to do in
the words of :mod:`~allfives_tui.ui.screens.game_words`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen

from allfives_tui.coach.ratings import Option
from allfives_tui.locale import N_, NP_, _
from allfives_tui.table.table import TableReading
from allfives_tui.table.words import end_name
from allfives_tui.ui.language import LanguageSwitched
from allfives_tui.ui.screens.game_choices import Choices
from allfives_tui.ui.screens.game_words import (
    cannot_play,
    hidden_hand_text,
    opening_line,
    prompt_text,
    why_not,
)
from allfives_tui.ui.widgets import Board, BoneyardCounter, EventLog, HandView, Scoreboard
from allfives_tui.ui.widgets.fitted_line import FittedLine
from allfives_tui.ui.widgets.footer import GameFooter
from allfives_tui.ui.widgets.hint import HintPanel
from allfives_tui.ui.widgets.too_small import TooSmall
from engine import Action, Draw, End, Event, Pass, Phase, Placed, Play, SeatView, Tile
from engine.players.evaluate import ActionValue

TILE_KEYS = Binding.Group(N_("Tile"), compact=True)
END_KEYS = Binding.Group(N_("End"), compact=True)


class GameScreen(Screen[None]):
    """Play a game: see the table, choose tiles and ends, watch the computers play."""

    BINDINGS = [
        Binding("left,h", "prev", N_("Tile"), key_display="←", group=TILE_KEYS),
        Binding("right,l", "next", N_("Tile"), key_display="→", group=TILE_KEYS),
        Binding("enter", "play", NP_("key: play the chosen tile", "Play"), key_display="⏎"),
        *(Binding(str(i), f"pick({i})", N_("Choose a tile"), show=False) for i in range(1, 10)),
        Binding("n", "end('N')", N_("End"), group=END_KEYS),
        Binding("e", "end('E')", N_("End"), group=END_KEYS),
        Binding("s", "end('S')", N_("End"), group=END_KEYS),
        Binding("w", "end('W')", N_("End"), group=END_KEYS),
        Binding("up,k", "prev_end", N_("End"), show=False),
        Binding("down,j", "next_end", N_("End"), show=False),
        Binding("escape", "cancel", N_("Back"), show=False),
        Binding("d", "draw", N_("Draw")),
        Binding("p", "pass_turn", N_("Pass")),
        Binding("u", "take_back", N_("Undo")),
        Binding("t", "hint", N_("Hint")),
        Binding("question_mark", "app.show_help", N_("Help"), key_display="?"),
        Binding("ctrl+s", "app.save_copy", N_("Save"), key_display="^s"),
        Binding("q", "app.quit_keep", N_("Quit")),
    ]

    @dataclass
    class Act(Message):
        """The person at this screen takes ``action`` (the App applies it).

        ``step`` is the table's step it was chosen at: a key pressed twice before
        the App answered the first asks twice, and the second, at a step already
        gone, is dropped.
        """

        action: Action
        step: int | None = None

    class TakeBack(Message):
        """The person at this screen takes back their last move (the App does it)."""

    @dataclass
    class HintAsked(Message):
        """The person at this screen asks the coach for a hint at the table's ``step``."""

        step: int

    @dataclass
    class Ready(Message):
        """The screen is up and showing its table: the game may go on."""

        screen: GameScreen

    # The widgets repaint what changed themselves: no reactive repaints the whole screen.
    step: reactive[int] = reactive(
        0, always_update=True, bindings=True, init=False, repaint=False
    )
    """The table's step on show, set by the App after every change."""
    selected: reactive[int] = reactive(0, bindings=True, init=False, repaint=False)
    """Index of the selected tile in the hand as shown."""
    choosing: reactive[tuple[End, ...]] = reactive((), bindings=True, init=False, repaint=False)
    """The ends the selected tile may go to, while the player picks one."""
    cursor: reactive[int] = reactive(0, init=False, repaint=False)
    """Which of :attr:`choosing` is under the cursor."""
    viewer: reactive[int | None] = reactive[int | None](
        None, bindings=True, init=False, repaint=False
    )
    """The seat whose tiles show and who is "you" in the log; ``None`` hides every hand
    (between two people's turns at one terminal)."""

    def __init__(
        self,
        table: TableReading,
        viewer: int | None,
        *,
        auto_draw: bool = False,
        hints: bool = False,
    ) -> None:
        super().__init__()
        self.table = table
        self.auto_draw = auto_draw
        self.hints = hints
        """True when the coach's hints are offered at this table (the ``t`` key)."""
        self.set_reactive(GameScreen.viewer, viewer)
        self.last_tile: Tile | None = None
        self._render_pending = False
        self._shown = False
        self._hand_lines = 0
        """How many of the log's event lines are of the table's hand events."""
        self.set_reactive(GameScreen.step, table.step)

    # -- composition -------------------------------------------------------
    def compose(self) -> ComposeResult:
        """Board and side panel above, the prompt and the hand below."""
        yield TooSmall()
        with Horizontal(id="table"):
            yield Board(id="board")
            with Vertical(id="side"):
                yield Scoreboard(id="scoreboard")
                yield BoneyardCounter(id="boneyard")
                yield HintPanel(id="hint")
                yield EventLog(id="log")
        yield FittedLine(self._prompt_words, id="prompt")
        yield HandView(id="hand", empty_text=_("(no tiles)"))
        yield GameFooter()

    def on_mount(self) -> None:
        """Open the log with how the game started, and show the table."""
        self._shown = True
        self.watch(self.query_one(Board), "large", self._hand_size)
        self._fill_log()
        self._fix_selection()
        self.render_state()
        self.post_message(self.Ready(self))

    def _hand_size(self, large: bool) -> None:
        """The hand's tiles as large as the board's."""
        self.query_one(HandView).large = large

    def _fill_log(self) -> None:
        """The log from the start of this hand, in the words of the seat now viewing."""
        log = self.query_one(EventLog)
        log.clear()
        log.write_text(opening_line(self.choices()))
        self.show_events(self.table.hand_events)

    # -- what the App tells the screen ------------------------------------
    def show_events(self, events: tuple[Event, ...]) -> None:
        """Log ``events`` (the App calls this with every change, before setting the step)."""
        placed = [e for e in events if isinstance(e, Placed)]
        view = self.view()
        if placed:
            self.last_tile = placed[-1].tile
        elif view.phase is Phase.PLAY and view.layout.is_empty:
            self.last_tile = None
        self.query_one(EventLog).add_events(events, self.table.words(self.viewer))
        self._hand_lines = len(self.table.hand_events)

    def taken_back(self) -> None:
        """The App took a move back: the log loses the lines of the moves taken back and
        says so, and the table shows as it was then."""
        placed = [e for e in self.table.hand_events if isinstance(e, Placed)]
        self.last_tile = placed[-1].tile if placed else None
        log = self.query_one(EventLog)
        log.drop_last_events(self._hand_lines - len(self.table.hand_events))
        self._hand_lines = len(self.table.hand_events)
        if self.viewer is not None:  # the viewer took it back: the log reads them as "you"
            log.write_text(_("You take back your last move."))
        self.step = self.table.step

    def watch_viewer(self) -> None:
        """Another seat is viewing (or nobody): its words in the log, its tiles in the hand."""
        if self._shown:
            self._fill_log()
        self.set_reactive(GameScreen.choosing, ())
        self._fix_selection()
        self._render_soon()

    def on_language_switched(self, message: LanguageSwitched) -> None:
        """The app speaks another language: the log is told again in it, from its events."""
        if self._shown:
            self._fill_log()
        self._render_soon()

    def watch_step(self) -> None:
        """A new step: stop choosing an end, keep a sensible selection, re-render."""
        if self._shown:
            self.query_one(HintPanel).clear()  # a hint is for the step it was asked at
        self.set_reactive(GameScreen.choosing, ())
        self.set_reactive(GameScreen.cursor, 0)
        self._fix_selection()
        self._render_soon()

    def watch_selected(self) -> None:
        """The hand's selection moved: the hand, the ends it fits and the prompt change."""
        self._render_soon()

    def watch_choosing(self) -> None:
        """Choosing an end started or stopped."""
        self.set_reactive(GameScreen.cursor, 0)
        self._render_soon()

    def watch_cursor(self) -> None:
        """The end cursor moved."""
        self._render_soon()

    def _render_soon(self) -> None:
        """Render once after the current message, however many reactives changed."""
        if not self._render_pending:
            self._render_pending = True
            self.call_next(self.render_state)


    # -- what the screen reads ---------------------------------------------
    def choices(self) -> Choices:
        """What the person at this screen may see and do now."""
        return Choices(
            self.table,
            self.viewer,
            auto_draw=self.auto_draw,
            selected=self.selected,
            choosing=self.choosing,
            cursor=self.cursor,
        )

    def view(self) -> SeatView:
        """What the person at this screen may see (:attr:`Choices.view`)."""
        return self.choices().view

    def human_turn(self) -> bool:
        """True when the person at this screen is to act now."""
        return self.choices().human_turn

    def legal(self) -> tuple[Action, ...]:
        """The person's legal actions now (empty when it is not their turn)."""
        return self.choices().legal

    def shown_hand(self) -> list[Tile]:
        """The viewing person's tiles in display order (none while nobody views)."""
        return self.choices().hand

    def selected_tile(self) -> Tile | None:
        """The tile under the selection, if any."""
        return self.choices().selected_tile

    def _fix_selection(self) -> None:
        """Keep the selection on the hand (:meth:`Choices.fixed_selection`)."""
        self.set_reactive(GameScreen.selected, self.choices().fixed_selection())

    def prompt_text(self, width: int = 1000) -> str:
        """What the person should do now, in at most ``width`` cells where it can be
        said shorter."""
        return prompt_text(self.choices(), width)

    # -- rendering ---------------------------------------------------------
    def render_state(self) -> None:
        """Render every widget from the view on show (each skips what did not change)."""
        self._render_pending = False
        if not self._shown:
            return
        choices = self.choices()
        view = choices.view
        self.query_one(Scoreboard).show(view, self.table.given_names, human=self.viewer)
        self.query_one(BoneyardCounter).show(view)
        hand = choices.hand
        human = choices.human_turn
        self.query_one(HandView).update_hand(
            hand,
            empty_text=hidden_hand_text(choices),
            playable=choices.playable if human else set(),
            # The selection stays visible while the others play, to plan the next move.
            selected=min(self.selected, len(hand) - 1)
            if hand and view.phase is Phase.PLAY
            else None,
        )
        cursor = self.choosing[self.cursor] if self.choosing else None
        highlight: list[End] = list(self.choosing)
        if not self.choosing and human:
            tile = choices.selected_tile
            if tile is not None:
                highlight = [e for e in choices.ends_for(tile) if e is not None]
        self.query_one(Board).update_layout(
            view.layout, highlight=highlight, cursor=cursor, last=self.last_tile
        )
        self.query_one(FittedLine).refit()

    def _prompt_words(self, width: int) -> str:
        """The prompt's words for a line ``width`` cells wide (at least 20)."""
        return prompt_text(self.choices(), max(width, 20))

    # -- keys ---------------------------------------------------------------
    def act(self, action: Action) -> None:
        """Ask the App to play ``action`` for the person at this screen."""
        self.post_message(self.Act(action, self.step))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show every binding; dim the ones not allowed now (:meth:`Choices.allows`)."""
        if action == "hint" and not self.hints:
            return False  # no hints at this table: not shown
        if action == "take_back":
            if not self.table.takes_back:
                return False  # moves stand with other people at the table: not shown
            seat = self.viewer
            return True if seat is not None and self.table.can_take_back(seat) else None
        return self.choices().allows(action)

    def action_hint(self) -> None:
        """Ask the coach for the best move here (the App runs it off the UI thread); where
        no tile fits, say at once to draw (or pass)."""
        choices = self.choices()
        if not (self.hints and choices.human_turn):
            return
        if choices.legal and not choices.can(Play):
            self.query_one(HintPanel).say(
                _("Nothing fits: draw") if choices.can(Draw) else _("Nothing fits: pass")
            )
        elif len(choices.legal) > 1:
            self.query_one(HintPanel).thinking()
            self.post_message(self.HintAsked(self.step))

    def show_hint(self, step: int, values: Sequence[ActionValue]) -> None:
        """The coach's hint asked at ``step``: its top options in the panel, and the best
        tile selected on the hand and its end under the cursor on the board (⏎ plays it)."""
        choices = self.choices()
        if step != self.step or not values or not choices.human_turn:
            return
        self.query_one(HintPanel).show([Option.of(v) for v in values])
        best = values[0].action
        if not isinstance(best, Play):
            return
        if best.tile in choices.hand:
            self.selected = choices.hand.index(best.tile)
        ends = choices.ends_to_choose(best.tile)
        if len(ends) > 1 and best.end is not None:
            self.choosing = ends
            self.cursor = ends.index(best.end)
        else:
            self.choosing = ()

    def action_take_back(self) -> None:
        """Ask the App to take back this person's last move of the hand."""
        self.post_message(self.TakeBack())

    def action_prev(self) -> None:
        """Select the tile (or, while choosing, the end) to the left."""
        self._step(-1)

    def action_next(self) -> None:
        """Select the tile (or, while choosing, the end) to the right."""
        self._step(1)

    def action_prev_end(self) -> None:
        """While choosing an end, step to the previous one."""
        if self.choosing:
            self._step(-1)

    def action_next_end(self) -> None:
        """While choosing an end, step to the next one."""
        if self.choosing:
            self._step(1)

    def _step(self, delta: int) -> None:
        if self.choosing:
            self.cursor = (self.cursor + delta) % len(self.choosing)
            return
        choices = self.choices()
        if not choices.drawn_to_play and (n := len(choices.hand)):
            self.selected = (min(self.selected, n - 1) + delta) % n

    def action_pick(self, number: int) -> None:
        """Select tile ``number`` (1 is the leftmost)."""
        choices = self.choices()
        if number <= len(choices.hand) and not choices.drawn_to_play:
            self.selected = number - 1

    def action_play(self) -> None:
        """Play the selected tile (or, while choosing, on the chosen end)."""
        choices = self.choices()
        tile = choices.selected_tile
        if not choices.human_turn or tile is None:
            return
        if self.choosing:
            self.act(Play(tile=tile, end=self.choosing[self.cursor]))
            return
        self.play_tile(tile)

    def play_tile(self, tile: Tile) -> None:
        """Play ``tile``: at once where it fits one end, else ask which end."""
        choices = self.choices()
        ends = choices.ends_for(tile)
        if not ends:
            self.notify(cannot_play(choices, tile))
            self.app.bell()
            return
        if len(ends) == 1:
            self.act(Play(tile=tile, end=ends[0]))
            return
        self.choosing = choices.ends_to_choose(tile)

    def action_end(self, letter: str) -> None:
        """While choosing, move to the end named by ``letter``."""
        end = End(letter)
        if self.choosing and end in self.choosing:
            self.cursor = self.choosing.index(end)
        elif self.choosing:
            self.notify(_("The tile does not fit the {end} end.").format(end=end_name(end)))

    def action_cancel(self) -> None:
        """Stop choosing an end."""
        self.choosing = ()

    def action_draw(self) -> None:
        """Draw a tile (only when nothing fits)."""
        if self.choices().can(Draw):
            self.act(Draw())

    def action_pass_turn(self) -> None:
        """Pass (only when nothing fits and the boneyard is empty)."""
        if self.choices().can(Pass):
            self.act(Pass())

    KEYS_THAT_SAY_WHY = {"d": "draw", "p": "pass_turn", "enter": "play"}
    """Keys that, when their action cannot be done now, say why instead of nothing."""

    def on_key(self, event: events.Key) -> None:
        """``d``, ``p`` or Enter that could do nothing now (their binding is dimmed, so
        the key comes here): a notice says why (:func:`game_words.why_not`)."""
        action = self.KEYS_THAT_SAY_WHY.get(event.key)
        if action is None or self.check_action(action, ()):
            return
        reason = why_not(self.choices(), action)
        if reason:
            event.stop()
            self.notify(reason, timeout=4)

    # -- mouse ---------------------------------------------------------------
    @on(HandView.TileClicked)
    def _tile_clicked(self, message: HandView.TileClicked) -> None:
        choices = self.choices()
        if not choices.human_turn:
            if choices.view.phase is Phase.PLAY:  # select it for later, play nothing
                self.selected = message.index
            return
        if message.index == self.selected and not self.choosing:
            self.play_tile(message.tile)
            return
        if choices.drawn_to_play:
            self.play_tile(message.tile)  # says the drawn tile must be played
            return
        self.selected = message.index
        self.choosing = ()

    @on(Board.EndClicked)
    def _end_clicked(self, message: Board.EndClicked) -> None:
        choices = self.choices()
        tile = choices.selected_tile
        if not choices.human_turn or tile is None:
            return
        if message.end in choices.ends_for(tile):
            self.act(Play(tile=tile, end=message.end))
        else:
            self.notify(
                _("{tile} does not fit the {end} end.").format(tile=tile, end=end_name(message.end))
            )
            self.app.bell()
