"""Help: the rules of All Fives in brief, and every key."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from allfives_tui.ui.screens.dialog import Dialog
from allfives_tui.ui.widgets.footer import AppFooter
from allfives_tui.ui.widgets.too_small import TooSmall

HELP_TEXT = """\
# All Fives

**Aim:** score points by making the open ends of the layout add up to a
multiple of five. The first side to reach the target wins, even mid-hand.

## Play
- The first player of a hand leads any tile. After that, a tile must match an
  open end: its touching half shows the number that end needs (marked on the
  board, e.g. `W:5`).
- If you can play you must. If nothing fits you **draw** (`d`) one tile at a
  time until one fits — then it must be played at once. With the boneyard
  empty you **pass** (`p`).
- The first double of a hand is the **spinner** (double border). It takes tiles
  on both sides first; then its north and south ends open too.
- Doubles lie crosswise and count both halves at an end.

## Scoring
- After each placement the open ends are added up; a multiple of five scores
  that many points (a lone spinner counts all its pips).
- When a hand ends, each player's remaining pips are rounded to the nearest
  five and taken off their own side's score.

## Keys
| key | does |
|---|---|
| `←` `→` or `h` `l` | choose a tile (or, when choosing an end, the end) |
| `1` to `9` | choose tile by number |
| `⏎` Enter | play the chosen tile (asks for the end when it fits two) |
| `n` `e` `s` `w`, `↑` `↓` | choose the end; `Esc` goes back |
| `d` / `p` | draw / pass — only when the rules require it |
| `u` | undo your last move of this hand and the replies since (alone against computers) |
| `t` | hint: the coach marks the best tile and end and lists the top three |
| `?` | this help |
| `ctrl+s` | save a copy of the game where you say |
| `q` | quit; the game is kept: `allfives --continue` resumes it |
| `ctrl+t` / `ctrl+g` | on the new-game screen: your statistics / past games |
| `ctrl+p` | command palette: new game, save, replay, statistics, past games, help, themes |

**Mouse:** click a tile to choose it, click it again to play it; where it fits
two ends, click the highlighted end on the board.

## The board
Each open end has a marker: its letter and the pip a tile needs there.

| marker | means |
|---|---|
| ` W:5 ` | an open end |
| `▸W:5◂` green | the chosen tile fits here |
| `▶W:5◀` bright | choosing an end: `⏎` plays the tile **here** (the prompt names it) |
| `▹W:5◃` | choosing an end: the tile fits here too; `←` `→` or its letter moves there |

The spinner has a double border; the tile just played is highlighted.

Playable tiles have solid borders; tiles that cannot be played now have dashed
borders and are dimmed; the chosen tile has a heavy border and `▶n◀` above it.
"""

SERVED_LINES = {
    "| `ctrl+s` | save a copy of the game where you say |":
        "| `ctrl+s` | download a copy of the game |",
    "| `q` | quit; the game is kept: `allfives --continue` resumes it |":
        "| `q` | quit (a game left in the browser cannot be continued) |",
}
"""The lines of :data:`HELP_TEXT` that say otherwise in a browser."""


def help_text(*, served: bool = False) -> str:
    """The help; ``served``: as it reads in a browser (saving downloads, nothing resumes)."""
    text = HELP_TEXT
    if served:
        for terminal, browser in SERVED_LINES.items():
            text = text.replace(terminal, browser)
    return text


class HelpScreen(Dialog[None]):
    """The rules and keys; any of Escape, q or ? closes it."""

    BINDINGS = [
        Binding("escape,q,question_mark", "close", "Close", key_display="Esc"),
    ]

    def __init__(self, *, served: bool = False) -> None:
        """``served``: the app runs in a browser (see :func:`help_text`)."""
        super().__init__()
        self.served = served

    def compose(self) -> ComposeResult:
        """The help text, scrollable."""
        from textual.widgets import Markdown  # imported here: it is slow to import

        yield TooSmall()
        with VerticalScroll(id="help", classes="dialog"):
            yield Markdown(help_text(served=self.served))
            yield Static("Esc closes this help.", classes="dialog-note")
        yield AppFooter()  # this screen's keys, not the game's beneath

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)
