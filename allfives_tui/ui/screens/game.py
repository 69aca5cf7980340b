"""The game screen: the board, the hand, the scoreboard, the boneyard and the log.

It renders a :class:`~allfives_tui.table.table.TableReading` (a local table or
a network client's) through seats' views, and turns keys and clicks into
engine actions, which it posts to the App as :class:`GameScreen.Act` messages;
the App hands them to the table and sets :attr:`GameScreen.step` to the
table's new step. Nothing here changes the game: the screen only reads the
table (views, names, who sits where) and asks the engine what a move would
score on the view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Static

from allfives_tui.coach.ratings import Option
from allfives_tui.locale import N_, _, ngettext
from allfives_tui.locale.formats import number
from allfives_tui.table.table import TableReading
from allfives_tui.table.words import end_name
from allfives_tui.ui.widgets import Board, BoneyardCounter, EventLog, HandView, Scoreboard
from allfives_tui.ui.widgets.footer import GameFooter
from allfives_tui.ui.widgets.hint import HintPanel
from allfives_tui.ui.widgets.too_small import TooSmall
from engine import (
    Action,
    Draw,
    End,
    Event,
    Pass,
    Phase,
    Placed,
    Play,
    SeatView,
    Tile,
)
from engine.players.evaluate import ActionValue
from engine.players.simple import points_now

TILE_KEYS = Binding.Group(N_("Tile"), compact=True)
END_KEYS = Binding.Group(N_("End"), compact=True)
END_ORDER: tuple[End, ...] = (End.W, End.N, End.E, End.S)
"""The order the arrows step through ends: round the cross, west to south."""


def display_order(hand: tuple[Tile, ...]) -> list[Tile]:
    """The hand as shown: highest tiles first."""
    return sorted(hand, key=lambda t: (t.high, t.low), reverse=True)


class GameScreen(Screen[None]):
    """Play a game: see the table, choose tiles and ends, watch the computers play."""

    BINDINGS = [
        Binding("left,h", "prev", N_("Tile"), key_display="←", group=TILE_KEYS),
        Binding("right,l", "next", N_("Tile"), key_display="→", group=TILE_KEYS),
        Binding("enter", "play", N_("Play"), key_display="⏎"),
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
        self._prompt = ""
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
        yield Static(id="prompt")
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
        table = self.table
        log = self.query_one(EventLog)
        log.clear()
        rules = table.rules
        names = table.words(self.viewer)
        target = number(rules.target)
        if table.resumed:
            text = _("Game continued (hand {hand}, to {target}).")
            log.write_text(text.format(hand=number(self.view().hand_number), target=target))
        elif self.viewer is None:
            text = _("New game: {players}, to {target} points.")
            log.write_text(text.format(players=", ".join(table.names), target=target))
        else:
            me = rules.team_of(self.viewer)
            partners = [names.seat(s) for s in rules.seats_of(me) if s != self.viewer]
            others = ", ".join(names.team(t) for t in range(rules.teams) if t != me)
            if partners:  # a side is at most two seats: one partner
                text = _("New game with {partner} against {others}, to {target} points.")
            else:
                text = _("New game against {others}, to {target} points.")
            partner = partners[0] if partners else ""
            log.write_text(text.format(partner=partner, others=others, target=target))
        self.show_events(table.hand_events)

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
    def view(self) -> SeatView:
        """What the person at this screen may see (with nobody viewing: the table's
        onlooker seat's view, of which only the public parts are shown)."""
        seat = self.viewer if self.viewer is not None else self.table.onlooker_seat()
        return self.table.view(seat)

    def human_turn(self) -> bool:
        """True when the person at this screen is to act now."""
        if self.viewer is None:
            return False
        view = self.view()
        return view.phase is Phase.PLAY and view.current == self.viewer

    def legal(self) -> tuple[Action, ...]:
        """The person's legal actions now (empty when it is not their turn)."""
        return self.view().legal_actions() if self.human_turn() else ()

    def legal_is_automatic(self) -> bool:
        """True when auto-draw will draw or pass for the person by itself."""
        legal = self.legal()
        return self.auto_draw and len(legal) == 1 and isinstance(legal[0], (Draw, Pass))

    def drawn_to_play(self) -> bool:
        """True when the person just drew a tile that fits: it stays selected until played."""
        return self.human_turn() and self.view().must_play is not None

    def shown_hand(self) -> list[Tile]:
        """The viewing person's tiles in display order (none while nobody views)."""
        return [] if self.viewer is None else display_order(self.view().hand)

    def ends_for(self, tile: Tile) -> list[End | None]:
        """Where ``tile`` may be placed now (``[None]`` for the lead)."""
        return [a.end for a in self.legal() if isinstance(a, Play) and a.tile == tile]

    def playable(self) -> set[Tile]:
        """The person's tiles that may be played now."""
        return {a.tile for a in self.legal() if isinstance(a, Play)}

    def selected_tile(self) -> Tile | None:
        """The tile under the selection, if any."""
        hand = self.shown_hand()
        if not hand:
            return None
        return hand[min(self.selected, len(hand) - 1)]

    def _fix_selection(self) -> None:
        """Keep the selection on the hand; on the person's turn, on the tile that must be
        played, or a playable one."""
        hand = self.shown_hand()
        if self.selected >= len(hand):
            self.set_reactive(GameScreen.selected, max(0, len(hand) - 1))
        if not self.human_turn():
            return
        must_play = self.view().must_play
        if must_play is not None and must_play in hand:
            self.set_reactive(GameScreen.selected, hand.index(must_play))
            return
        tile = self.selected_tile()
        playable = self.playable()
        if tile is not None and tile not in playable and playable:
            self.set_reactive(
                GameScreen.selected, next(i for i, t in enumerate(hand) if t in playable)
            )

    # -- rendering ---------------------------------------------------------
    def render_state(self) -> None:
        """Render every widget from the view on show (each skips what did not change)."""
        self._render_pending = False
        if not self._shown:
            return
        view = self.view()
        self.query_one(Scoreboard).show(view, self.table.given_names, human=self.viewer)
        self.query_one(BoneyardCounter).show(view)
        hand = self.shown_hand()
        human = self.human_turn()
        self.query_one(HandView).update_hand(
            hand,
            empty_text=self._no_hand_text(),
            playable=self.playable() if human else set(),
            # The selection stays visible while the others play, to plan the next move.
            selected=min(self.selected, len(hand) - 1)
            if hand and view.phase is Phase.PLAY
            else None,
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
        prompt = self.prompt_text(self._prompt_width())
        if prompt != self._prompt:
            self._prompt = prompt
            self.query_one("#prompt", Static).update(prompt, layout=False)  # one row high

    def _prompt_width(self) -> int:
        """The cells the one-row prompt has for its text."""
        box = self.query_one("#prompt", Static)
        width = box.content_region.width or self.app.size.width - 2
        return max(width, 20)

    def on_resize(self) -> None:
        """The prompt says as much as the new width holds."""
        self._render_soon()

    def _no_hand_text(self) -> str:
        """What the hand panel says when it shows no tiles."""
        if self.viewer is not None:
            return _("(no tiles)")
        st = self.view()
        if st.phase is Phase.PLAY and st.current is not None:
            who = self.table.names[st.current]
            if self.table.kind(st.current) == "person":
                return _("(tiles hidden: pass the keyboard to {name})").format(name=who)
            return _("(tiles hidden while {name} plays)").format(name=who)
        return _("(tiles hidden)")

    def prompt_text(self, width: int = 1000) -> str:
        """What the player should do now, in words (in at most ``width`` cells where
        it can be said shorter)."""
        st = self.view()
        if self.human_turn() and self.choosing:
            tile = self.selected_tile()
            if tile is not None:
                return self._choosing_text(tile, width)
        said = self._prompts(st)
        return next((text for text in said if cell_len(text) <= width), said[-1])

    def _prompts(self, st: SeatView) -> list[str]:
        """What to do now, said in full first and then shorter (for a narrow prompt)."""
        if st.phase is Phase.OVER:
            return [_("The game is over.")]
        if st.phase is Phase.DEAL:
            return [_("The hand is over.")]
        if not self.human_turn():
            who = self.table.names[st.current or 0]
            if self.table.kind(st.current or 0) == "person":
                return [_("{name}'s turn.").format(name=who)]
            thinking = _("{name} is thinking…").format(name=who)
            if self.viewer is not None:
                look = _("{name} is thinking… (←→ look over your tiles)").format(name=who)
                return [look, thinking]
            return [thinking]
        legal = self.legal()
        tile = self.selected_tile()
        if legal and isinstance(legal[0], Draw):
            return [
                _("Nothing fits an open end: press d to draw from the boneyard"),
                _("Nothing fits: press d to draw"),
            ]
        if legal and isinstance(legal[0], Pass):
            return [
                _("Nothing fits and the boneyard is empty: press p to pass"),
                _("Nothing fits: press p to pass"),
            ]
        if st.must_play is not None:
            return [
                _("You drew {tile}: it fits, so it must be played now (⏎)").format(
                    tile=st.must_play
                ),
                _("⏎ plays the drawn {tile}").format(tile=st.must_play),
            ]
        if tile is None:
            return [_("Your turn: ←→ or 1-9 choose a tile")]
        if st.layout.is_empty:
            points = self._score(Play(tile=tile))
            if points:
                long = _("Your lead: any tile. ←→ or 1-9 choose, ⏎ leads {tile} (+{points})")
                short = _("⏎ leads {tile} (+{points})")
            else:
                long = _("Your lead: any tile. ←→ or 1-9 choose, ⏎ leads {tile} (no score)")
                short = _("⏎ leads {tile} (no score)")
            return [t.format(tile=tile, points=number(points)) for t in (long, short)]
        fits = self.ends_for(tile)
        if not fits:
            return [
                _("Your turn: ←→ or 1-9 choose a tile ({tile} fits no open end)").format(
                    tile=tile
                ),
                _("{tile} fits no open end").format(tile=tile),
            ]
        if len(fits) == 1 and fits[0] is not None:
            points = self._score(Play(tile=tile, end=fits[0]))
            if points:
                long = _("Your turn: ←→ or 1-9 choose, ⏎ plays {tile} on the {end} end (+{points})")
                short = _("⏎ plays {tile} on the {end} end (+{points})")
            else:
                long = _("Your turn: ←→ or 1-9 choose, ⏎ plays {tile} on the {end} end (no score)")
                short = _("⏎ plays {tile} on the {end} end (no score)")
            return [
                t.format(tile=tile, end=end_name(fits[0]), points=number(points))
                for t in (long, short)
            ]
        count = len(fits)
        long = ngettext(
            "Your turn: ←→ or 1-9 choose, ⏎ plays {tile} (it fits {count} end)",
            "Your turn: ←→ or 1-9 choose, ⏎ plays {tile} (it fits {count} ends)",
            count,
        )
        short = ngettext(
            "⏎ plays {tile} (it fits {count} end)", "⏎ plays {tile} (it fits {count} ends)", count
        )
        return [t.format(tile=tile, count=number(count)) for t in (long, short)]

    def _choosing_text(self, tile: Tile, width: int) -> str:
        """While choosing an end: where ⏎ plays the tile, then as much about the other
        ends as fits in ``width`` cells."""
        chosen = self.choosing[self.cursor]
        points = self._score(Play(tile=tile, end=chosen))
        if points:
            here = _("⏎ plays {tile} on the {end} end (+{points})")
        else:
            here = _("⏎ plays {tile} on the {end} end (no score)")
        here = here.format(tile=tile, end=end_name(chosen), points=number(points))
        others = [e for e in self.choosing if e is not chosen]
        keys = "/".join(e.value.lower() for e in others)  # the keys that choose them
        scores = [self._score(Play(tile=tile, end=e)) for e in others]
        words = ", ".join(
            (_("{end} (+{points})") if p else _("{end} (no score)")).format(
                end=end_name(e), points=number(p)
            )
            for e, p in zip(others, scores, strict=True)
        )
        shorter = ", ".join(
            _("{end} +{points}").format(end=end_name(e), points=number(p))
            for e, p in zip(others, scores, strict=True)
        )
        # the key letter, as on the board's marker, and the points
        short = ", ".join(
            f"{e.value} +{number(p)}" for e, p in zip(others, scores, strict=True)
        )
        count = len(others)
        for text in (
            _("{here} · ←→ or {keys}: {ends} · Esc back").format(here=here, keys=keys, ends=words),
            _("{here} · ←→ or {keys}: {ends} · Esc back").format(
                here=here, keys=keys, ends=shorter
            ),
            _("{here} · ←→ or {keys}: {ends} · Esc back").format(here=here, keys=keys, ends=short),
            ngettext(
                "{here} · ←→ {count} other end · Esc back",
                "{here} · ←→ {count} other ends · Esc back",
                count,
            ).format(here=here, count=number(count)),
            f"{here} · ←→ · Esc",
        ):
            if cell_len(text) <= width:
                return text
        return here

    def _score(self, action: Play) -> int:
        """What playing ``action`` now would score, as the engine counts it."""
        return points_now(self.view(), action)

    # -- actions ------------------------------------------------------------
    def act(self, action: Action) -> None:
        """Ask the App to play ``action`` for the person at this screen."""
        self.post_message(self.Act(action, self.step))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show every binding; dim the ones not allowed now."""
        human = self.human_turn()
        legal = self.legal() if human else ()
        # Looking over the hand is allowed while the others play, too; not while a
        # drawn tile must be played (it stays selected, so Enter plays it).
        browsing = (
            self.view().phase is Phase.PLAY
            and bool(self.shown_hand())
            and not self.drawn_to_play()
        )
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
        if action == "hint":
            if not self.hints:
                return False  # no hints at this table: not shown
            nothing_fits = bool(legal) and not any(isinstance(a, Play) for a in legal)
            return True if len(legal) > 1 or nothing_fits else None
        if action == "take_back":
            if not self.table.takes_back:
                return False  # moves stand with other people at the table: not shown
            seat = self.viewer
            return True if seat is not None and self.table.can_take_back(seat) else None
        return True

    def action_hint(self) -> None:
        """Ask the coach for the best move here (the App runs it off the UI thread); where
        no tile fits, say at once to draw (or pass)."""
        if not (self.hints and self.human_turn()):
            return
        legal = self.legal()
        if legal and not any(isinstance(a, Play) for a in legal):
            self.query_one(HintPanel).say(
                _("Nothing fits: draw")
                if any(isinstance(a, Draw) for a in legal)
                else _("Nothing fits: pass")
            )
        elif len(legal) > 1:
            self.query_one(HintPanel).thinking()
            self.post_message(self.HintAsked(self.step))

    def show_hint(self, step: int, values: Sequence[ActionValue]) -> None:
        """The coach's hint asked at ``step``: its top options in the panel, and the best
        tile selected on the hand and its end under the cursor on the board (⏎ plays it)."""
        if step != self.step or not values or not self.human_turn():
            return
        self.query_one(HintPanel).show([Option.of(v) for v in values])
        best = values[0].action
        if not isinstance(best, Play):
            return
        hand = self.shown_hand()
        if best.tile in hand:
            self.selected = hand.index(best.tile)
        ends = [e for e in self.ends_for(best.tile) if e is not None]
        if len(ends) > 1 and best.end is not None:
            self.choosing = tuple(e for e in END_ORDER if e in ends)
            self.cursor = self.choosing.index(best.end)
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
        elif self.drawn_to_play():
            return
        elif n := len(self.shown_hand()):
            self.selected = (min(self.selected, n - 1) + delta) % n

    def action_pick(self, number: int) -> None:
        """Select tile ``number`` (1 is the leftmost)."""
        if number <= len(self.shown_hand()) and not self.drawn_to_play():
            self.selected = number - 1

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
            must_play = self.view().must_play
            if must_play is not None and tile != must_play:
                self.notify(_("The drawn {tile} must be played now.").format(tile=must_play))
            elif any(isinstance(a, Play) for a in self.legal()):
                self.notify(
                    _("{tile} fits no open end: choose a highlighted tile.").format(tile=tile)
                )
            else:
                self.notify(_("Nothing fits: draw (d) or pass (p)."))
            self.app.bell()
            return
        if len(ends) == 1:
            self.act(Play(tile=tile, end=ends[0]))
            return
        self.choosing = tuple(e for e in END_ORDER if e in ends)

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
        if any(isinstance(a, Draw) for a in self.legal()):
            self.act(Draw())

    def action_pass_turn(self) -> None:
        """Pass (only when nothing fits and the boneyard is empty)."""
        if any(isinstance(a, Pass) for a in self.legal()):
            self.act(Pass())

    KEYS_THAT_SAY_WHY = {"d": "draw", "p": "pass_turn", "enter": "play"}
    """Keys that, when their action cannot be done now, say why instead of nothing."""

    def on_key(self, event: events.Key) -> None:
        """``d``, ``p`` or Enter that could do nothing now (their binding is dimmed, so
        the key comes here): a notice says why."""
        action = self.KEYS_THAT_SAY_WHY.get(event.key)
        if action is None or self.check_action(action, ()):
            return
        reason = self.why_not(action)
        if reason:
            event.stop()
            self.notify(reason, timeout=4)

    def why_not(self, action: str) -> str | None:
        """Why ``action`` (``draw``, ``pass_turn`` or ``play``) cannot be done now, in a
        sentence; None when it can."""
        view = self.view()
        if view.phase is Phase.OVER:
            return _("The game is over.")
        if view.phase is not Phase.PLAY:
            return _("The hand is over.")
        if not self.human_turn():
            name = self.table.names[view.current or 0]
            if self.table.kind(view.current or 0) == "person":
                return _("It is {name}'s turn, not yours.").format(name=name)
            return _("{name} is thinking: wait for your turn.").format(name=name)
        legal = self.legal()
        can_play = any(isinstance(a, Play) for a in legal)
        can_draw = any(isinstance(a, Draw) for a in legal)
        can_pass = any(isinstance(a, Pass) for a in legal)
        if action == "draw" and not can_draw:
            if view.must_play is not None:
                return _("The drawn {tile} fits: it must be played now (⏎).").format(
                    tile=view.must_play
                )
            if can_play:
                return _("A tile fits an open end: you draw only when nothing fits.")
            return _("The boneyard is empty: press p to pass.")
        if action == "pass_turn" and not can_pass:
            if can_play:
                return _(
                    "A tile fits an open end: you pass only when nothing fits and the "
                    "boneyard is empty."
                )
            return _("Nothing fits, but the boneyard has tiles: press d to draw.")
        if action == "play" and not can_play:
            if can_draw:
                return _("Nothing fits an open end: press d to draw.")
            return _("Nothing fits and the boneyard is empty: press p to pass.")
        return None

    # -- mouse ---------------------------------------------------------------
    @on(HandView.TileClicked)
    def _tile_clicked(self, message: HandView.TileClicked) -> None:
        if not self.human_turn():
            if self.view().phase is Phase.PLAY:  # select it for later, play nothing
                self.selected = message.index
            return
        if message.index == self.selected and not self.choosing:
            self.play_tile(message.tile)
            return
        if self.drawn_to_play():
            self.play_tile(message.tile)  # says the drawn tile must be played
            return
        self.selected = message.index
        self.choosing = ()

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
            self.notify(
                _("{tile} does not fit the {end} end.").format(tile=tile, end=end_name(message.end))
            )
            self.app.bell()
