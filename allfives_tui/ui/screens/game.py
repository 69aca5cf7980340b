"""The game screen: the board, the hand, the scoreboard, the boneyard and the log.

Keys and clicks become engine actions; :meth:`GameScreen.act` applies them
through the session and every widget re-renders from the new snapshot.
Computer seats choose in a thread worker, paced so a person can follow.
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Static
from textual.worker import get_current_worker

from allfives_tui.table.table import GameSession
from allfives_tui.ui.widgets import Board, BoneyardCounter, EventLog, HandView, Scoreboard
from allfives_tui.ui.widgets.too_small import TooSmall
from engine import (
    Action,
    Draw,
    End,
    Event,
    GameOver,
    GameState,
    HandOver,
    IllegalActionError,
    Pass,
    Phase,
    Placed,
    Play,
    Tile,
    apply,
)

if TYPE_CHECKING:
    from allfives_tui.ui.app import AllFivesApp

TILE_KEYS = Binding.Group("Tile", compact=True)
END_KEYS = Binding.Group("End", compact=True)
END_ORDER: tuple[End, ...] = (End.W, End.N, End.E, End.S)
"""The order the arrows step through ends: round the cross, west to south."""


def display_order(hand: tuple[Tile, ...]) -> list[Tile]:
    """The hand as shown: highest tiles first."""
    return sorted(hand, key=lambda t: (t.high, t.low), reverse=True)


class GameScreen(Screen[None]):
    """Play a game: see the table, choose tiles and ends, watch the computers play."""

    BINDINGS = [
        Binding("left,h", "prev", "Tile", key_display="←", group=TILE_KEYS),
        Binding("right,l", "next", "Tile", key_display="→", group=TILE_KEYS),
        Binding("enter", "play", "Play", key_display="⏎"),
        *(Binding(str(i), f"pick({i})", f"Tile {i}", show=False) for i in range(1, 10)),
        Binding("n", "end('N')", "End", group=END_KEYS),
        Binding("e", "end('E')", "End", group=END_KEYS),
        Binding("s", "end('S')", "End", group=END_KEYS),
        Binding("w", "end('W')", "End", group=END_KEYS),
        Binding("up,k", "prev_end", "End", show=False),
        Binding("down,j", "next_end", "End", show=False),
        Binding("escape", "cancel", "Back", show=False),
        Binding("d", "draw", "Draw"),
        Binding("p", "pass_turn", "Pass"),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("ctrl+s", "save_copy", "Save", key_display="^s"),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(self, session: GameSession, *, speed: float = 0.7, auto_draw: bool = False):
        super().__init__()
        self.session = session
        self.speed = speed
        self.auto_draw = auto_draw
        self.selected = 0
        self.choosing: list[End] = []
        self.cursor = 0
        self.last_tile: Tile | None = None
        self._pending: threading.Event | None = None
        self._auto_timer: Timer | None = None
        self._prompt = ""
        self._allowed: tuple[bool | None, ...] = ()

    @property
    def aapp(self) -> AllFivesApp:
        """The app, typed."""
        return self.app  # type: ignore[return-value]

    @property
    def state(self) -> GameState:
        """The current snapshot (the whole truth; widgets see the human's view only)."""
        return self.session.state

    # -- composition -------------------------------------------------------
    def compose(self) -> ComposeResult:
        """Board and side panel above, the prompt and the hand below."""
        yield TooSmall()
        with Horizontal(id="table"):
            yield Board(id="board")
            with Vertical(id="side"):
                yield Scoreboard(id="scoreboard")
                yield BoneyardCounter(id="boneyard")
                yield EventLog(id="log")
        yield Static(id="prompt")
        yield HandView(id="hand", empty_text="(no tiles)")
        yield Footer()

    def on_mount(self) -> None:
        """Show the game and, if a computer is to act, let it."""
        log = self.query_one(EventLog)
        names = self.session.names
        rules = self.state.rules
        if self.session.hand_events:
            log.write(f"Game continued (hand {self.state.hand_number}, to {rules.target}).")
            self._log(self.session.hand_events)
        else:
            others = ", ".join(names[s] for s in range(rules.players) if s != self.session.human)
            log.write(f"New game against {others}, to {rules.target} points.")
            self._log(self.session.last_events)
        self._after_change(self.session.last_events)

    # -- state helpers -----------------------------------------------------
    def human_turn(self) -> bool:
        """True when the human is to act now."""
        st = self.state
        return st.phase is Phase.PLAY and st.current == self.session.human

    def legal(self) -> tuple[Action, ...]:
        """The human's legal actions now (empty when it is not their turn)."""
        return self.session.view().legal_actions() if self.human_turn() else ()

    def legal_is_automatic(self) -> bool:
        """True when auto-draw will draw or pass for the human by itself."""
        legal = self.legal()
        return self.auto_draw and len(legal) == 1 and isinstance(legal[0], (Draw, Pass))

    def shown_hand(self) -> list[Tile]:
        """The human's tiles in display order."""
        return display_order(self.session.view().hand)

    def ends_for(self, tile: Tile) -> list[End | None]:
        """Where ``tile`` may be placed now (``[None]`` for the lead)."""
        return [a.end for a in self.legal() if isinstance(a, Play) and a.tile == tile]

    def playable(self) -> set[Tile]:
        """The human's tiles that may be played now."""
        return {a.tile for a in self.legal() if isinstance(a, Play)}

    def selected_tile(self) -> Tile | None:
        """The tile under the selection, if any."""
        hand = self.shown_hand()
        if not hand:
            return None
        self.selected = min(self.selected, len(hand) - 1)
        return hand[self.selected]

    # -- rendering ---------------------------------------------------------
    def render_state(self) -> None:
        """Re-render every widget from the current snapshot."""
        view = self.session.view()
        names = self.session.names
        self.query_one(Scoreboard).show(view, names, human=self.session.human)
        self.query_one(BoneyardCounter).show(view)
        hand = self.shown_hand()
        playable = self.playable()
        human = self.human_turn()
        self.query_one(HandView).update_hand(
            hand,
            playable=playable if human else set(),
            # The selection stays visible while the others play, to plan the next move.
            selected=self.selected if hand and self.state.phase is Phase.PLAY else None,
        )
        cursor = self.choosing[self.cursor] if self.choosing else None
        highlight: list[End] = list(self.choosing)
        if not self.choosing and human:
            tile = self.selected_tile()
            if tile is not None:
                highlight = [e for e in self.ends_for(tile) if e is not None]
        self.query_one(Board).update_layout(
            view.layout, highlight=highlight, cursor=cursor, last=self.last_tile
        )
        prompt = self.prompt_text()
        if prompt != self._prompt:
            self._prompt = prompt
            self.query_one("#prompt", Static).update(prompt)
        # Re-compose the footer only when what is allowed has changed.
        allowed = tuple(
            self.check_action(a, ()) for a in ("prev", "pick", "play", "draw", "pass_turn", "end")
        )
        if allowed != self._allowed:
            self._allowed = allowed
            self.refresh_bindings()

    def prompt_text(self) -> str:
        """What the player should do now, in words."""
        st = self.state
        names = self.session.names
        if st.phase is Phase.OVER:
            return "The game is over."
        if st.phase is Phase.DEAL:
            return "The hand is over."
        if not self.human_turn():
            return f"{names[st.current or 0]} is thinking… (←→ look over your tiles)"
        legal = self.legal()
        tile = self.selected_tile()
        if self.choosing and tile is not None:
            ends = ", ".join(
                f"{e.word} ({self._points_text(Play(tile=tile, end=e))})" for e in self.choosing
            )
            return f"{tile} fits {ends}: ←→ or n/e/s/w, ⏎ plays, Esc back"
        if legal and isinstance(legal[0], Draw):
            return "Nothing fits an open end: press d to draw from the boneyard"
        if legal and isinstance(legal[0], Pass):
            return "Nothing fits and the boneyard is empty: press p to pass"
        if st.must_play is not None:
            return f"You drew {st.must_play}: it fits, so it must be played now (⏎)"
        if st.layout.is_empty:
            lead = f" ({self._points_text(Play(tile=tile))})" if tile is not None else ""
            return f"Your lead: any tile. ←→ or 1-9 choose, ⏎ leads {tile}{lead}"
        fits = self.ends_for(tile) if tile is not None else []
        if tile is None or not fits:
            return f"Your turn: ←→ or 1-9 choose a tile ({tile} fits no open end)"
        if len(fits) == 1 and fits[0] is not None:
            score = self._points_text(Play(tile=tile, end=fits[0]))
            where = f"on the {fits[0].word} end"
            return f"Your turn: ←→ or 1-9 choose, ⏎ plays {tile} {where} ({score})"
        return f"Your turn: ←→ or 1-9 choose, ⏎ plays {tile} (it fits {len(fits)} ends)"

    def _points_text(self, action: Play) -> str:
        """What playing ``action`` now would score, as the engine counts it."""
        _, events = apply(self.state, action)
        points = sum(e.points for e in events if isinstance(e, Placed))
        return f"+{points}" if points else "no score"

    def _log(self, events: tuple[Event, ...]) -> None:
        self.query_one(EventLog).add_events(
            events, self.session.names, self.session.human, self.state.rules
        )

    # -- the one road every action takes ----------------------------------
    def act(self, action: Action) -> bool:
        """Apply ``action`` for the seat to act; False (and a message) if it is illegal."""
        try:
            events = self.session.apply(action)
        except IllegalActionError as err:
            self.notify(str(err), severity="warning")
            return False
        self.choosing = []
        self._log(events)
        self._after_change(events)
        return True

    def _after_change(self, events: tuple[Event, ...]) -> None:
        placed = [e for e in events if isinstance(e, Placed)]
        if placed:
            self.last_tile = placed[-1].tile
        self.aapp.autosave(self.session)
        st = self.state
        if self.human_turn():
            hand = self.shown_hand()
            if st.must_play is not None and st.must_play in hand:
                self.selected = hand.index(st.must_play)
            else:
                tile = self.selected_tile()
                playable = self.playable()
                if tile is not None and tile not in playable and playable:
                    self.selected = next(i for i, t in enumerate(hand) if t in playable)
        self.render_state()
        game_over = next((e for e in events if isinstance(e, GameOver)), None)
        hand_over = next((e for e in events if isinstance(e, HandOver)), None)
        if st.phase is Phase.OVER:
            self.aapp.show_game_over(self.session, game_over)
        elif st.phase is Phase.DEAL:
            if hand_over is not None:
                self.aapp.show_hand_summary(self.session, hand_over, self.next_hand)
            else:
                self.next_hand()
        elif self.session.is_computer(st.current):
            self.computer_turn(st)
        elif self.auto_draw and self.human_turn():
            legal = self.legal()
            if len(legal) == 1 and isinstance(legal[0], (Draw, Pass)):
                self._auto_timer = self.set_timer(
                    max(0.05, self.speed / 2), lambda: self._auto(st, legal[0])
                )

    def _auto(self, expected: GameState, action: Action) -> None:
        if self.state is expected:
            self.act(action)

    def next_hand(self) -> None:
        """Deal the next hand and carry on."""
        if self.state.phase is not Phase.DEAL:
            return
        self.last_tile = None
        events = self.session.deal()
        self._log(events)
        self._after_change(events)

    # -- computer turns ----------------------------------------------------
    @work(thread=True, exclusive=True, group="computer", exit_on_error=True)
    def computer_turn(self, state: GameState) -> None:
        """Choose the computer's action off the UI thread, then wait out the pace."""
        worker = get_current_worker()
        start = time.monotonic()
        action = self.session.computer_action(state)
        wait = self.speed - (time.monotonic() - start)
        if wait > 0:
            stop = threading.Event()
            self._pending = stop
            stop.wait(wait)
        if not worker.is_cancelled:
            self.app.call_from_thread(self._computer_done, state, action)

    def _computer_done(self, state: GameState, action: Action) -> None:
        if self.state is state and self.is_attached:
            self.act(action)

    def on_unmount(self) -> None:
        """Stop waiting on a computer move when the screen goes."""
        if self._pending is not None:
            self._pending.set()

    # -- bindings ----------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show every binding; dim the ones not allowed now."""
        if action in {"help", "save_copy", "quit_game"}:
            return True
        human = self.human_turn()
        legal = self.legal() if human else ()
        # Looking over the hand is allowed while the others play, too.
        browsing = self.state.phase is Phase.PLAY and bool(self.shown_hand())
        if action in {"prev", "next"}:
            return True if self.choosing or browsing else None
        if action in {"prev_end", "next_end"}:
            return True if human and (self.choosing or self.shown_hand()) else None
        if action == "pick":
            return True if browsing and not self.choosing else None
        if action == "play":
            return True if any(isinstance(a, Play) for a in legal) else None
        if action == "draw":
            return True if any(isinstance(a, Draw) for a in legal) else None
        if action == "pass_turn":
            return True if any(isinstance(a, Pass) for a in legal) else None
        if action == "end":
            return True if self.choosing else None
        if action == "cancel":
            return bool(self.choosing)
        return True

    def _refresh(self) -> None:
        self.render_state()

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
        else:
            n = len(self.shown_hand())
            if n:
                self.selected = (self.selected + delta) % n
        self._refresh()

    def action_pick(self, number: int) -> None:
        """Select tile ``number`` (1 is the leftmost)."""
        if number <= len(self.shown_hand()):
            self.selected = number - 1
            self._refresh()

    def action_play(self) -> None:
        """Play the selected tile (or, while choosing, on the chosen end)."""
        if not self.human_turn():
            return
        tile = self.selected_tile()
        if tile is None:
            return
        if self.choosing:
            self.act(Play(tile=tile, end=self.choosing[self.cursor]))
            return
        self.play_tile(tile)

    def play_tile(self, tile: Tile) -> None:
        """Play ``tile``: at once where it fits one end, else ask which end."""
        ends = self.ends_for(tile)
        if not ends:
            if self.state.must_play is not None and tile != self.state.must_play:
                self.notify(f"The drawn {self.state.must_play} must be played now.")
            elif any(isinstance(a, Play) for a in self.legal()):
                self.notify(f"{tile} fits no open end: choose a highlighted tile.")
            else:
                self.notify("Nothing fits: draw (d) or pass (p).")
            self.app.bell()
            return
        if len(ends) == 1:
            self.act(Play(tile=tile, end=ends[0]))
            return
        self.choosing = [e for e in END_ORDER if e in ends]
        self.cursor = 0
        self._refresh()

    def action_end(self, letter: str) -> None:
        """While choosing, move to the end named by ``letter``."""
        end = End(letter)
        if self.choosing and end in self.choosing:
            self.cursor = self.choosing.index(end)
            self._refresh()
        elif self.choosing:
            self.notify(f"The tile does not fit the {end.word} end.")

    def action_cancel(self) -> None:
        """Stop choosing an end."""
        self.choosing = []
        self._refresh()

    def action_draw(self) -> None:
        """Draw a tile (only when nothing fits)."""
        if any(isinstance(a, Draw) for a in self.legal()):
            self.act(Draw())

    def action_pass_turn(self) -> None:
        """Pass (only when nothing fits and the boneyard is empty)."""
        if any(isinstance(a, Pass) for a in self.legal()):
            self.act(Pass())

    def action_help(self) -> None:
        """Open the rules and keys."""
        self.aapp.action_show_help()

    def action_save_copy(self) -> None:
        """Save a copy of the game where the player says."""
        self.aapp.action_save_copy()

    def action_quit_game(self) -> None:
        """Quit, keeping the game to continue later."""
        self.aapp.action_quit_keep()

    # -- mouse ---------------------------------------------------------------
    @on(HandView.TileClicked)
    def _tile_clicked(self, message: HandView.TileClicked) -> None:
        if not self.human_turn():
            if self.state.phase is Phase.PLAY:  # select it for later, play nothing
                self.selected = message.index
                self._refresh()
            return
        if message.index == self.selected and not self.choosing:
            self.play_tile(message.tile)
            return
        self.selected = message.index
        self.choosing = []
        self._refresh()

    @on(Board.EndClicked)
    def _end_clicked(self, message: Board.EndClicked) -> None:
        if not self.human_turn():
            return
        tile = self.selected_tile()
        if tile is None:
            return
        if message.end in self.ends_for(tile):
            self.act(Play(tile=tile, end=message.end))
        else:
            self.notify(f"{tile} does not fit the {message.end.word} end.")
            self.app.bell()
