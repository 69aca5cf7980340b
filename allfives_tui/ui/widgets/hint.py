"""The hint panel: the coach's top options for the move to make, with their win chance
and expected points.

It shows what it is given (:meth:`HintPanel.show`: the coach's options as plain
values, in the order shown) and hides when cleared; the game screen asks for a
hint and marks the best tile and end on the hand and the board.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.text import Text
from textual.widgets import Static

from allfives_tui.coach.ratings import Option
from allfives_tui.locale import _
from allfives_tui.locale.formats import percent, signed
from allfives_tui.table.words import move_words
from allfives_tui.ui.styled import styled

TOP = 3
"""How many options the panel lists."""


def hint_text(options: Sequence[Option], *, thinking: bool = False) -> Text:
    """The panel's text: a title, then the first options of ``options`` (in the order
    shown: :func:`~allfives_tui.coach.ratings.shown_order`), the first marked."""
    text = Text()
    if thinking:
        text.append(_("Hint: thinking…"), style="bold")
        return text
    text.append(_("Hint"), style="bold")
    text.append("  " + _("win · points"), style="dim")
    for rank, option in enumerate(options[:TOP]):
        mark = "▶ " if rank == 0 else "  "
        text.append(f"\n{mark}{option_line(option.action, option.win, option.points)}",
                    style="bold" if rank == 0 else "")
    if len(options) == 1:
        text.append("\n  " + _("(the only move)"), style="dim")
    return text


def option_line(action: str, win: float, points: float) -> str:
    """One option in columns: ``"5-3 E    62% · +4.5"`` (the move, its win chance and
    expected points, in the language's numbers)."""
    move = move_words(action)
    chance = percent(round(100 * win) / 100).rjust(4)
    return f"{move}{' ' * max(0, 7 - cell_len(move))} {chance} · {signed(points, 1)}"


class HintPanel(Static):
    """The top options of a hint; hidden while there is none."""

    DEFAULT_CSS = """
    HintPanel {
        display: none;
        height: auto;
        margin-bottom: 1;
        color: $text;
        background: $boost;
    }
    HintPanel.-shown { display: block; }
    """

    def show(self, options: Sequence[Option]) -> None:
        """Show ``options`` (best first)."""
        self.update(hint_text(options))
        self.add_class("-shown")

    def say(self, words: str) -> None:
        """Show ``words`` in place of options (a move that needs no search)."""
        self.update(styled(_("Hint: {advice}"), "bold", advice=(words, "")))
        self.add_class("-shown")

    def thinking(self) -> None:
        """Say a hint is on its way."""
        self.update(hint_text((), thinking=True))
        self.add_class("-shown")

    def clear(self) -> None:
        """Hide the panel."""
        self.remove_class("-shown")
        self.update("")
