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

from rich.cells import cell_len
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from allfives_tui.locale import _, current, ngettext, pgettext
from allfives_tui.locale.formats import number
from allfives_tui.table.words import Names, move_words
from allfives_tui.ui.styled import styled
from engine import Draw, GameState, Pass, Phase, Play, SeatView

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
            current(),  # a language switched: worded again
        )
        if key == self._key:
            return
        table = Table.grid(padding=(0, 1), expand=True)
        table.add_column(width=1)
        table.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        table.add_column(justify="right")
        table.add_column(justify="right")
        table.add_row(
            "",
            "",
            Text(pgettext("scoreboard column", "pts"), style="dim"),
            Text(pgettext("scoreboard column", "tiles"), style="dim"),
        )
        rows = 1
        turn = snapshot.current if snapshot.phase is Phase.PLAY else None
        # one rule for team names and for marking "(you)": words.Names
        labels, mine = Names(tuple(names), rules), Names(tuple(names), rules, human)
        # the labels that are messages (a side's name, "Ana (you)", a place's name) wrap
        # where a name someone gave is cut, so no word of the language is lost
        worded: list[str] = []
        for team in range(rules.teams):
            seats = rules.seats_of(team)
            score = snapshot.scores[team] if snapshot.scores else 0
            if len(seats) > 1:
                label = labels.team(team)
                worded.append(label)
                side = Text(label, style="bold", no_wrap=False, overflow="fold")
                table.add_row("", side, Text(number(score), style="bold"), "")
                rows += 1
            for s in seats:
                marker = Text("▶", style="bold") if s == turn else Text(" ")
                shown = labels.name(s)
                if s != human:
                    name = Text(shown)
                elif not names[s]:  # "You", for the default name
                    name = Text(mine.label(s), style="bold")
                else:
                    # "Ana (you)": all in bold, the language's words round the name dim too
                    name = styled(_("{name} (you)"), "dim", name=(shown, "")).copy()
                    name.style, name.no_wrap, name.overflow = "bold", False, "fold"
                    worded.append(name.plain)
                if not names[s]:  # a place's name, or "You": the language's words
                    name.no_wrap, name.overflow = False, "fold"
                    worded.append(name.plain)
                pts = "" if len(seats) > 1 else number(score)
                table.add_row(marker, name, Text(pts, style="bold"), Text(number(counts[s])))
                rows += 1
        status = styled(
            _("Hand {hand} · to {target}"),
            "bold",
            after={"hand": ""},
            hand=(number(max(snapshot.hand_number, 1)), "bold"),
            target=number(rules.target),
        )
        lines = Text(last_play(snapshot, mine))
        out = Table.grid(expand=True)
        out.add_row(status)
        out.add_row(table)
        out.add_row(lines)
        # the table's rows take a line each but for the worded labels, which may wrap, as the
        # status and last lines may
        width = self.content_region.width
        shape: object = None
        if self.is_mounted and width > 0:
            console = self.app.console
            shape = (
                rows,
                tuple(worded),
                max(len(str(s)) for s in (*snapshot.scores, 0)),
                len(status.wrap(console, width)),
                len(lines.wrap(console, width)),
            )
        self._show(key, out, shape)


def last_play(snapshot: Snapshot, names: Names) -> str:
    """The last action in a line: ``"Last: North 5-5, +10"``, ``"Last: You draw"`` (``names``
    tells who *you* are), ``"Last: —"``."""
    last = snapshot.history[-1] if snapshot.history else None
    if last is None:
        return _("Last: —")
    you = names.you is not None and last.seat == names.you
    name = names.seat(last.seat)
    if isinstance(last.action, Play):
        if last.points:
            text = _("Last: {name} {tile}, +{points}")
        else:
            text = _("Last: {name} {tile}, no score")
        return text.format(name=name, tile=last.action.tile, points=number(last.points))
    if isinstance(last.action, Draw):
        return _("Last: You draw") if you else _("Last: {name} draw").format(name=name)
    if isinstance(last.action, Pass):
        return _("Last: You pass") if you else _("Last: {name} pass").format(name=name)
    return _("Last: {name} {action}").format(name=name, action=move_words(str(last.action)))


def boneyard_text(n: int, room: int | None = None) -> Text:
    """``"Boneyard 5 tiles"`` and, on a line of its own, a little stack (or "(empty)"); with
    ``room`` (one line of that many cells), the stack beside the words where it fits,
    else none."""
    # the words before the count in bold, as a label
    message = ngettext("Boneyard {count} tile", "Boneyard {count} tiles", n)
    text = styled(message, "bold", after={"count": ""}, count=(number(n), ""))
    tail = "▮" * min(n, 14) if n else _("(empty)")
    if room is None:
        text.append("\n" + tail, style="dim")
    elif text.cell_len + 2 + cell_len(tail) <= room:
        text.append("  " + tail, style="dim")
    return text


class BoneyardCounter(_Steady):
    """Tiles left in the boneyard, as a number and, on a line of its own, a little stack:
    two lines however many are left, so the panel keeps its height.

    ``stack_beside``: one line, the stack beside the words where it fits (the replay's).
    """

    def __init__(
        self, *, stack_beside: bool = False, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.stack_beside = stack_beside
        self._count: int | None = None

    def show(self, snapshot: Snapshot) -> None:
        """Render the boneyard's size from ``snapshot``."""
        self._count = boneyard_size(snapshot)
        self._show_count()

    def _show_count(self) -> None:
        n = self._count
        if n is None:
            return
        # beside the words only: no stack before the width is known
        room = max(0, self.content_region.width) if self.stack_beside else None
        key = (n, room, current())  # a language switched: worded again
        if key == self._key:
            return
        self._show(key, boneyard_text(n, room))

    def on_resize(self) -> None:
        """A new width: the stack fits beside the words or not (Textual calls
        :meth:`_Steady.on_resize` too)."""
        if self.stack_beside:
            self.call_after_refresh(self._show_count)
