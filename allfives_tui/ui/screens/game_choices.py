"""What the person at the game screen may see and do now, read from the table.

:class:`Choices` is read afresh from the table, the seat viewing and the screen's
selection whenever the game screen needs it: the seat's view, the hand as shown,
the legal actions, the tile selected, the ends it fits and which of the screen's
keys can do something now. It changes nothing: the screen turns keys into actions
with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from allfives_tui.table.table import TableReading
from allfives_tui.ui.widgets.hand import display_order
from engine import Action, Draw, End, Pass, Phase, Play, SeatView, Tile
from engine.players.simple import points_now

END_ORDER: tuple[End, ...] = (End.W, End.N, End.E, End.S)
"""The order the arrows step through ends: round the cross, west to south."""


@dataclass(frozen=True)
class Choices:
    """The table as the person at the game screen finds it at one step.

    ``viewer`` is the seat whose tiles show (``None``: nobody's, between two people's
    turns at one terminal); ``selected`` indexes the hand as shown; ``choosing`` are
    the ends the selected tile may go to while the person picks one, ``cursor`` the
    one under the cursor.
    """

    table: TableReading
    viewer: int | None
    auto_draw: bool = False
    selected: int = 0
    choosing: tuple[End, ...] = ()
    cursor: int = 0

    @cached_property
    def view(self) -> SeatView:
        """What the person may see (with nobody viewing: the table's onlooker seat's
        view, of which only the public parts are shown)."""
        seat = self.viewer if self.viewer is not None else self.table.onlooker_seat()
        return self.table.view(seat)

    @cached_property
    def human_turn(self) -> bool:
        """True when the person is to act now."""
        view = self.view
        return self.viewer is not None and view.phase is Phase.PLAY and view.current == self.viewer

    @cached_property
    def legal(self) -> tuple[Action, ...]:
        """The person's legal actions now (empty when it is not their turn)."""
        return self.view.legal_actions() if self.human_turn else ()

    @property
    def legal_is_automatic(self) -> bool:
        """True when auto-draw will draw or pass for the person by itself."""
        legal = self.legal
        return self.auto_draw and len(legal) == 1 and isinstance(legal[0], (Draw, Pass))

    @property
    def drawn_to_play(self) -> bool:
        """True when the person just drew a tile that fits: it stays selected until played."""
        return self.human_turn and self.view.must_play is not None

    @cached_property
    def hand(self) -> list[Tile]:
        """The viewing person's tiles in display order (none while nobody views)."""
        return [] if self.viewer is None else display_order(self.view.hand)

    def ends_for(self, tile: Tile) -> list[End | None]:
        """Where ``tile`` may be placed now (``[None]`` for the lead)."""
        return [a.end for a in self.legal if isinstance(a, Play) and a.tile == tile]

    def ends_to_choose(self, tile: Tile) -> tuple[End, ...]:
        """The ends ``tile`` fits, in the order the arrows step through them."""
        ends = self.ends_for(tile)
        return tuple(e for e in END_ORDER if e in ends)

    @cached_property
    def playable(self) -> set[Tile]:
        """The person's tiles that may be played now."""
        return {a.tile for a in self.legal if isinstance(a, Play)}

    @property
    def selected_tile(self) -> Tile | None:
        """The tile under the selection, if any."""
        hand = self.hand
        if not hand:
            return None
        return hand[min(self.selected, len(hand) - 1)]

    def can(self, kind: type[Action]) -> bool:
        """True when an action of ``kind`` (Play, Draw or Pass) is legal now."""
        return any(isinstance(a, kind) for a in self.legal)

    def score(self, action: Play) -> int:
        """What playing ``action`` now would score, as the engine counts it."""
        return points_now(self.view, action)

    def fixed_selection(self) -> int:
        """The selection kept on the hand; on the person's turn, on the tile that must be
        played, or a playable one."""
        hand = self.hand
        selected = min(self.selected, max(0, len(hand) - 1))
        if not self.human_turn:
            return selected
        must_play = self.view.must_play
        if must_play is not None and must_play in hand:
            return hand.index(must_play)
        tile = hand[selected] if hand else None
        playable = self.playable
        if tile is not None and tile not in playable and playable:
            return next(i for i, t in enumerate(hand) if t in playable)
        return selected

    def allows(self, action: str) -> bool | None:
        """Whether the screen's ``action`` can do something now: True, else None (shown
        dimmed); ``cancel`` False (not shown) when no end is being chosen."""
        human = self.human_turn
        # Looking over the hand is allowed while the others play, too; not while a
        # drawn tile must be played (it stays selected, so Enter plays it).
        browsing = self.view.phase is Phase.PLAY and bool(self.hand) and not self.drawn_to_play
        if action in {"prev", "next"}:
            allowed = bool(self.choosing) or browsing
        elif action in {"prev_end", "next_end"}:
            allowed = human and (bool(self.choosing) or bool(self.hand))
        elif action == "pick":
            allowed = browsing and not self.choosing
        elif action == "play":
            allowed = self.can(Play)
        elif action == "draw":
            allowed = self.can(Draw)
        elif action == "pass_turn":
            allowed = self.can(Pass)
        elif action == "end":
            allowed = bool(self.choosing)
        elif action == "cancel":
            return bool(self.choosing)
        elif action == "hint":
            nothing_fits = bool(self.legal) and not self.can(Play)
            allowed = len(self.legal) > 1 or nothing_fits
        else:
            return True
        return True if allowed else None
