"""The waiting room of a networked table: who has joined which seat, and the start.

Every player sees it until the host starts the game. The host's own screen
(``owner``) may also open a seat for a person or give it to a computer (keys
1-4) and start (Enter or s); a seat still empty at the start is a computer at
the table's level. The screen posts :class:`LobbyScreen.SetSeat` and
:class:`LobbyScreen.Start`; the App sends them to the host.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from allfives_tui.locale import N_, _, ngettext
from allfives_tui.net.protocol import Lobby
from allfives_tui.table.places import place_names
from allfives_tui.table.words import printable
from allfives_tui.ui.widgets.footer import AppFooter


def seat_table(lobby: Lobby, you: int | None) -> Table:
    """One row a seat: where, who, and whether they are here."""
    table = Table(box=None, padding=(0, 2), header_style="bold", expand=False)
    table.add_column(_("Seat"))
    table.add_column(_("Who"))
    table.add_column("")
    where = place_names(lobby.players)
    for i, seat in enumerate(lobby.seats):
        place = f"{i + 1} {where[i] if i < len(where) else ''}"
        if seat.computer:
            words = _("computer ({level})").format(level=lobby.level)
            who, state = Text(words, style="dim"), ""
        elif seat.name is None:
            who, state = Text(_("open: waiting for a player"), style="italic"), ""
        else:
            name = printable(seat.name)
            if i == you:
                name = _("{name} (you)").format(name=name)
            elif seat.host:
                name = _("{name} (host)").format(name=name)
            who = Text(name, style="bold" if i == you else "")
            state = _("here") if seat.connected else _("reconnecting…")
        table.add_row(place, who, state)
    return table


def teams_line(lobby: Lobby) -> str:
    """The game to be played, in one line: who plays with whom, then the target."""
    where = place_names(lobby.players)
    if lobby.partnerships and len(where) == 4:
        teams = _("Partnerships: {south} and {north} against {west} and {east}.").format(
            south=where[0], west=where[1], north=where[2], east=where[3]
        )
    else:
        teams = ngettext(
            "{count} player, each for themselves.",
            "{count} players, each for themselves.",
            lobby.players,
        ).format(count=lobby.players)
    target = ngettext(
        "The game is to {target} point.", "The game is to {target} points.", lobby.target
    ).format(target=lobby.target)
    return f"{teams} {target}"


class LobbyScreen(Screen[None]):
    """The waiting room (see the module's docstring)."""

    DEFAULT_CSS = """
    LobbyScreen { align: center middle; }
    LobbyScreen #lobby {
        width: 80; max-width: 100%; height: auto; max-height: 100%;
        padding: 1 2; background: $panel; border: thick $primary;
    }
    LobbyScreen #lobby-address { margin-bottom: 1; text-style: bold; }
    LobbyScreen #lobby-seats { margin-bottom: 1; }
    """

    BINDINGS = [
        Binding("1", "switch_seat(0)", N_("Seat 1"), show=False),
        Binding("2", "switch_seat(1)", N_("Seat 2"), show=False),
        Binding("3", "switch_seat(2)", N_("Seat 3"), show=False),
        Binding("4", "switch_seat(3)", N_("Seat 4"), show=False),
        Binding("enter,s", "start", N_("Start"), key_display="⏎"),
        Binding("question_mark", "app.show_help", N_("Help"), key_display="?"),
        Binding("q", "app.quit_keep", N_("Quit")),
    ]

    @dataclass
    class SetSeat(Message):
        """The host opens seat ``seat`` for a person or gives it to a computer."""

        seat: int
        computer: bool

    class Start(Message):
        """The host starts the game."""

    def __init__(self, *, owner: bool, address: str | None = None, you: int | None = None) -> None:
        super().__init__()
        self.owner = owner
        self.address = address
        self.you = you
        self.lobby: Lobby | None = None

    def compose(self) -> ComposeResult:
        """The title, where to join, the seats and what to do."""
        with Vertical(id="lobby"):
            yield Static(_("Waiting room"), classes="dialog-title")
            if self.address:
                yield Static(self.address, id="lobby-address")
            yield Static("", id="lobby-game", classes="dialog-note")
            yield Static("", id="lobby-seats")
            yield Static(self._hint(), id="lobby-hint", classes="dialog-note")
        yield AppFooter()

    def _hint(self) -> str:
        if self.owner:
            return _(
                "1-4: open a seat for a person, or give it to a computer. "
                "⏎ starts; a seat still open then is played by the computer."
            )
        return _("The host starts the game when everyone is here.")

    def show(self, lobby: Lobby) -> None:
        """Show the waiting room as the host describes it now."""
        self.lobby = lobby
        if self.is_mounted:
            self._render_lobby()

    def on_mount(self) -> None:
        """The room as last described (it may have come before the screen was up)."""
        self._render_lobby()

    def _render_lobby(self) -> None:
        lobby = self.lobby
        if lobby is None:
            return
        self.query_one("#lobby-game", Static).update(teams_line(lobby))
        self.query_one("#lobby-seats", Static).update(seat_table(lobby, self.you))
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Setting seats and starting are the host's, and only once the room is known."""
        if action in {"switch_seat", "start"}:
            if not self.owner:
                return False  # a joined player's footer does not offer them
            return True if self.lobby is not None else None
        return True

    def action_switch_seat(self, seat: int) -> None:
        """Open seat ``seat`` for a person, or give it to a computer."""
        lobby = self.lobby
        if lobby is None or seat >= len(lobby.seats) or lobby.seats[seat].host:
            return
        self.post_message(self.SetSeat(seat, not lobby.seats[seat].computer))

    def action_start(self) -> None:
        """Start the game."""
        if self.lobby is not None:
            self.post_message(self.Start())
