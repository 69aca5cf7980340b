"""Leaving the game in progress for a new one: the question, and the game waiting.

While the question is asked, or the new game is being set up over the game in
progress, that game waits: a computer's move that comes meanwhile is held by
the :class:`Interlude` and goes on if the person goes back to the game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from textual.screen import Screen

from allfives_tui.locale import _
from allfives_tui.locale.formats import listing
from allfives_tui.table.table import Table
from allfives_tui.table.words import Names
from allfives_tui.ui.screens.confirm import ConfirmScreen
from allfives_tui.ui.screens.new_game import NewGameScreen


def leave_question(table: Table, words: Names) -> ConfirmScreen:
    """"Leave this game for a new one?", with the game's hand and scores."""
    scores = listing([
        _("{team} {points}").format(team=words.team(t), points=table.state.scores[t])
        for t in range(table.rules.teams)
    ])
    return ConfirmScreen(
        _("Leave this game for a new one?"),
        _(
            "The game in progress (hand {hand}: {scores}) is given up when the new game "
            "starts. Until then, {key} goes back to it."
        ).format(hand=table.state.hand_number, scores=scores, key="Esc"),
        yes=_("Set up a new game"),
        no=_("Keep playing"),
    )


class Interlude:
    """A new game asked for or being set up over the game in progress, which waits."""

    def __init__(self) -> None:
        self.question: Screen[bool] | None = None
        """The "leave this game?" question while it is asked."""
        self._held: Callable[[], None] | None = None
        """A move that came meanwhile."""

    def on(self, stack: Iterable[Screen[object]]) -> bool:
        """True while the question or a new-game screen is in ``stack`` (the screens')."""
        return any(isinstance(s, NewGameScreen) or s is self.question for s in stack)

    def hold(self, move: Callable[[], None]) -> None:
        """Keep ``move`` until the game goes on."""
        self._held = move

    def go_on(self) -> None:
        """Back to the game: the move held (if any) is made now."""
        held, self._held = self._held, None
        if held is not None:
            held()
