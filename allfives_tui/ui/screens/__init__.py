"""The app's screens (one module each).

The style sheets of the screens the game opens on request are named here, so that
the App can read them with its own at start-up: a screen's style sheet read when
it first opens makes Textual parse and apply every style sheet again (about half
of a cold open of the statistics screen).
"""

from pathlib import Path

HISTORY_CSS = Path(__file__).with_name("history.tcss")
"""The statistics and past-games screens."""

REPLAY_CSS = Path(__file__).with_name("replay.tcss")
"""The replay and open-replay screens."""
