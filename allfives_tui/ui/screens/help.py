"""Help: the rules of All Fives in brief, and every key, in the current language."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from allfives_tui.locale import N_, _, pgettext
from allfives_tui.ui.screens.dialog import Dialog
from allfives_tui.ui.widgets.footer import AppFooter
from allfives_tui.ui.widgets.too_small import TooSmall


def _rules() -> list[str]:
    """The rules in brief: the aim, play and scoring."""
    return [
        "# " + _("All Fives"),
        _(
            "**Aim:** score points by making the open ends of the layout add up to a "
            "multiple of five. The first side to reach the target wins, even mid-hand."
        ),
        "## " + pgettext("help heading: how a hand is played", "Play"),
        _list(
            _(
                "The first player of a hand leads any tile. After that, a tile must match "
                "an open end: its touching half shows the number that end needs (marked "
                "on the board, e.g. {marker})."
            ).format(marker="`W:5`"),
            _(
                "If you can play you must. If nothing fits you **draw** ({draw}) one tile "
                "at a time until one fits — then it must be played at once. With the "
                "boneyard empty you **pass** ({pass_})."
            ).format(draw="`d`", pass_="`p`"),
            _(
                "The first double of a hand is the **spinner** (double border). It takes "
                "tiles on both sides first; then its north and south ends open too."
            ),
            _("Doubles lie crosswise and count both halves at an end."),
        ),
        "## " + _("Scoring"),
        _list(
            _(
                "After each placement the open ends are added up; a multiple of five "
                "scores that many points (a lone spinner counts all its pips)."
            ),
            _(
                "When a hand ends, each player's remaining pips are rounded to the "
                "nearest five and taken off their own side's score."
            ),
        ),
    ]


def _keys(served: bool) -> list[tuple[str, str]]:
    """The keys table's rows: the keys (the same in every language), what they do."""
    if served:
        save = _("download a copy of the game")
        leave = _("quit (a game left in the browser cannot be continued)")
    else:
        save = _("save a copy of the game where you say")
        leave = _("quit; the game is kept: {command} resumes it").format(
            command="`allfives --continue`"
        )
    return [
        (
            _("{arrows} or {letters}").format(arrows="`←` `→`", letters="`h` `l`"),
            _("choose a tile (or, when choosing an end, the end)"),
        ),
        (_("{first} to {last}").format(first="`1`", last="`9`"), _("choose tile by number")),
        (
            "`⏎` " + pgettext("key", "Enter"),
            _("play the chosen tile (asks for the end when it fits two)"),
        ),
        ("`n` `e` `s` `w`, `↑` `↓`", _("choose the end; {key} goes back").format(key="`Esc`")),
        ("`d` / `p`", _("draw / pass — only when the rules require it")),
        (
            "`u`",
            _("undo your last move of this hand and the replies since (alone against "
              "computers)"),
        ),
        ("`t`", _("hint: the coach marks the best tile and end and lists the top three")),
        ("`?`", _("this help")),
        ("`ctrl+s`", save),
        ("`q`", leave),
        ("`ctrl+t` / `ctrl+g`", _("on the new-game screen: your statistics / past games")),
        (
            "`ctrl+p`",
            _("command palette: new game, save, replay, statistics, past games, help, "
              "themes"),
        ),
    ]


def _board() -> list[str]:
    """The board: its end markers, the spinner, the tiles in the hand."""
    markers = [
        ("` W:5 `", _("an open end")),
        ("`▸W:5◂`", _("(green) the chosen tile fits here")),
        (
            "`▶W:5◀`",
            _("(bright) choosing an end: {key} plays the tile **here** (the prompt names "
              "it)").format(key="`⏎`"),
        ),
        (
            "`▹W:5◃`",
            _("choosing an end: the tile fits here too; {keys} or its letter moves "
              "there").format(keys="`←` `→`"),
        ),
    ]
    return [
        "## " + _("The board"),
        _("Each open end has a marker: its letter and the pip a tile needs there."),
        _table(_("marker"), _("means"), markers),
        _("The spinner has a double border; the tile just played is highlighted."),
        _(
            "Playable tiles have solid borders; tiles that cannot be played now have "
            "dashed borders and are dimmed; the chosen tile has a heavy border and "
            "{marker} above it."
        ).format(marker="`▶n◀`"),
    ]


def _list(*items: str) -> str:
    """A Markdown list of ``items``."""
    return "\n".join(f"- {item}" for item in items)


def _table(first: str, second: str, rows: list[tuple[str, str]]) -> str:
    """A Markdown table of two columns headed ``first`` and ``second``."""
    lines = [f"| {first} | {second} |", "|---|---|"]
    lines.extend(f"| {left} | {right} |" for left, right in rows)
    return "\n".join(lines)


def help_text(*, served: bool = False) -> str:
    """The help as Markdown, in the current language: each heading, paragraph, list item
    and table cell a message of its own (the Markdown around them is not a translator's
    to keep). ``served``: as it reads in a browser (saving downloads, nothing resumes)."""
    blocks = [
        *_rules(),
        "## " + _("Keys"),
        _table(_("key"), _("does"), _keys(served)),
        _(
            "**Mouse:** click a tile to choose it, click it again to play it; where it "
            "fits two ends, click the highlighted end on the board."
        ),
        *_board(),
    ]
    return "\n\n".join(blocks) + "\n"


class HelpScreen(Dialog[None]):
    """The rules and keys; any of Escape, q or ? closes it."""

    BINDINGS = [
        Binding("escape,q,question_mark", "close", N_("Close"), key_display="Esc"),
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
            yield Static(_("{key} closes this help.").format(key="Esc"), classes="dialog-note")
        yield AppFooter()  # this screen's keys, not the game's beneath

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)
