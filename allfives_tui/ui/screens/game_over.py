"""Game over: the winner, the final scores, and what next."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from allfives_tui.table.words import team_name
from allfives_tui.ui.screens.hand_summary import scores_text
from allfives_tui.ui.widgets.too_small import TooSmall
from engine import GameState


def replay_available() -> bool:
    """True when the replay screen is installed."""
    try:
        import allfives_tui.ui.screens.replay  # noqa: F401
    except ImportError:
        return False
    return True


class GameOverScreen(ModalScreen[str]):
    """Announce the winner; dismisses with ``"new"``, ``"replay"`` or ``"quit"``."""

    BINDINGS = [
        Binding("n", "choose('new')", "New game"),
        Binding("r", "choose('replay')", "Replay"),
        Binding("q", "choose('quit')", "Quit"),
    ]

    def __init__(self, state: GameState, names: tuple[str, ...], human: int = 0) -> None:
        super().__init__()
        self.state = state
        self.names = names
        self.human = human

    def compose(self) -> ComposeResult:
        """The winner, the scores and the choices."""
        yield TooSmall()
        rules = self.state.rules
        winner = self.state.winner if self.state.winner is not None else 0
        who = team_name(rules, winner, self.names)
        mine = rules.team_of(self.human) == winner
        if mine and len(rules.seats_of(winner)) == 1:
            title = "You win the game!"
        elif mine:
            title = f"{who} win the game: your side wins!"
        else:
            verb = "wins" if len(rules.seats_of(winner)) == 1 else "win"
            title = f"{who} {verb} the game."
        with Vertical(id="game-over", classes="dialog"):
            yield Static(title, classes="dialog-title")
            yield Static(scores_text(self.state, self.names), id="final-scores")
            with Horizontal(classes="dialog-buttons"):
                yield Button("New game (n)", id="new", variant="primary", compact=True)
                if replay_available():
                    yield Button("Replay this game (r)", id="replay", compact=True)
                yield Button("Quit (q)", id="quit", compact=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Replay only when the replay screen exists."""
        if action == "choose" and parameters == ("replay",):
            return replay_available() or None
        return True

    def action_choose(self, choice: str) -> None:
        """Close with ``choice``."""
        self.dismiss(choice)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Each button closes with its choice."""
        event.stop()
        self.dismiss(event.button.id or "quit")
