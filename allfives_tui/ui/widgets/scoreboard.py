"""The scoreboard and the boneyard counter.

``Scoreboard.show(snapshot, names, human=0)`` takes a :class:`~engine.GameState`
or a :class:`~engine.SeatView` (both carry rules, scores, the seat to act, the
hand number and the public history) and lists every side's score against the
target, whose turn it is, the last play's points and each seat's tile count.
``BoneyardCounter.show(snapshot)`` shows the tiles left to draw.

Both skip a snapshot that shows the same as the one on show, and repaint
without a new layout while their height stays the same (it changes only
when a line starts or stops wrapping), so a move repaints them in place.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from allfives_tui.locale import _
from allfives_tui.table.words import Names
from engine import GameState, Phase, Play, SeatView

Snapshot = GameState | SeatView


def hand_counts(snapshot: Snapshot) -> tuple[int, ...]:
    """Tiles held per seat (public knowledge)."""
    if isinstance(snapshot, SeatView):
        return snapshot.hand_counts
    return tuple(len(h) for h in snapshot.hands)


def boneyard_size(snapshot: Snapshot) -> int:
    """Tiles left in the boneyard."""
    if isinstance(snapshot, SeatView):
        return snapshot.boneyard_size
    return len(snapshot.boneyard)


class _Steady(Static):
    """A Static that asks for a new layout only when its content's height changes."""

    _key: object = None
    """What the content on show was made from."""
    _shape: object = None
    """What the content's height depends on, at the width it was measured for."""

    def _show(self, key: object, content: RenderableType, shape: object = None) -> None:
        """Show ``content`` made from ``key``.

        ``shape`` sums up what the height depends on: while it stays the same
        the height is not measured again (``None``: always measure).
        """
        self._key = key
        width = self.content_region.width
        auto = self.styles.height is not None and self.styles.height.is_auto
        if width <= 0 or not self.is_mounted:
            self._shape = None
            self.update(content)
            return
        before = self.content_region.height
        self.update(content, layout=False)
        shape = None if shape is None else (width, shape)
        if not auto or (shape is not None and shape == self._shape):
            return
        self._shape = shape
        if self.get_content_height(self.size, self.size, width) != before:
            self.refresh(layout=True)

    def on_resize(self) -> None:
        """A new width: the next content measures its height afresh."""
        self._shape = None


class Scoreboard(_Steady):
    """Every side's score and the target, whose turn it is, the last play, the hand number."""

    def show(
        self, snapshot: Snapshot, names: Sequence[str | None], human: int | None = 0
    ) -> None:
        """Render ``snapshot`` with the names the seats were given (``None``: the seat's
        default name); ``human`` is marked as "you"."""
        rules = snapshot.rules
        counts = hand_counts(snapshot)
        key = (
            rules,
            snapshot.scores,
            snapshot.current,
            snapshot.phase,
            snapshot.hand_number,
            counts,
            snapshot.history[-1:],
            tuple(names),
            human,
        )
        if key == self._key:
            return
        table = Table.grid(padding=(0, 1), expand=True)
        table.add_column(width=1)
        table.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        table.add_column(justify="right")
        table.add_column(justify="right")
        table.add_row("", "", Text("pts", style="dim"), Text("tiles", style="dim"))
        rows = 1
        turn = snapshot.current if snapshot.phase is Phase.PLAY else None
        # one rule for team names and for marking "(you)": words.Names
        labels, mine = Names(tuple(names), rules), Names(tuple(names), rules, human)
        for team in range(rules.teams):
            seats = rules.seats_of(team)
            score = snapshot.scores[team] if snapshot.scores else 0
            if len(seats) > 1:
                label = labels.team(team)
                table.add_row("", Text(label, style="bold"), Text(str(score), style="bold"), "")
                rows += 1
            for s in seats:
                marker = Text("▶", style="bold") if s == turn else Text(" ")
                shown = labels.name(s)
                if s != human:
                    name = Text(shown)
                elif (marked := mine.label(s)).startswith(shown):
                    name = Text(shown, style="bold")
                    name.append(marked.removeprefix(shown), style="dim")
                else:  # "You", for the default name
                    name = Text(marked, style="bold")
                pts = "" if len(seats) > 1 else str(score)
                table.add_row(marker, name, Text(pts, style="bold"), Text(str(counts[s])))
                rows += 1
        status = Text()
        status.append(f"Hand {max(snapshot.hand_number, 1)}", style="bold")
        status.append(f" · to {rules.target}")
        last = snapshot.history[-1] if snapshot.history else None
        lines = Text()
        if last is not None and isinstance(last.action, Play):
            scored = _("Last: {name} {tile}, +{points}") if last.points else _(
                "Last: {name} {tile}, no score"
            )
            lines.append(
                scored.format(
                    name=labels.name(last.seat), tile=last.action.tile, points=last.points
                )
            )
        elif last is not None:
            lines.append(f"Last: {labels.name(last.seat)} {last.action}")
        else:
            lines.append("Last: —")
        out = Table.grid(expand=True)
        out.add_row(status)
        out.add_row(table)
        out.add_row(lines)
        # the table's rows take a line each; the status and last lines may wrap
        width = self.content_region.width
        shape: object = None
        if self.is_mounted and width > 0:
            console = self.app.console
            shape = (
                rows,
                max(len(str(s)) for s in (*snapshot.scores, 0)),
                len(status.wrap(console, width)),
                len(lines.wrap(console, width)),
            )
        self._show(key, out, shape)


class BoneyardCounter(_Steady):
    """Tiles left in the boneyard, as a number and, on a line of its own, a little stack:
    two lines however many are left, so the panel keeps its height (one line where the
    style gives it one: the stack then follows the number)."""

    def show(self, snapshot: Snapshot) -> None:
        """Render the boneyard's size from ``snapshot``."""
        n = boneyard_size(snapshot)
        if n == self._key:
            return
        text = Text()
        text.append("Boneyard ", style="bold")
        text.append(f"{n} tile{'s' if n != 1 else ''}")
        height = self.styles.height
        apart = "  " if height is not None and height.is_cells and height.value < 2 else "\n"
        if n:
            text.append(apart + "▮" * min(n, 14), style="dim")
        else:
            text.append(apart + "(empty)", style="dim")
        self._show(n, text)
