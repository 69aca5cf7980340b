"""Widgets shared by the play and replay screens (they render engine snapshots).

Include :data:`WIDGETS_CSS` in a screen's or app's ``CSS_PATH`` to style them.
"""

from __future__ import annotations

from pathlib import Path

from allfives_tui.ui.widgets.board import Board
from allfives_tui.ui.widgets.event_log import EventLog
from allfives_tui.ui.widgets.hand import HandView
from allfives_tui.ui.widgets.scoreboard import BoneyardCounter, Scoreboard

WIDGETS_CSS = Path(__file__).with_name("widgets.tcss")
"""The stylesheet of these widgets (board, hand, scoreboard, counter, log)."""

__all__ = [
    "WIDGETS_CSS",
    "Board",
    "BoneyardCounter",
    "EventLog",
    "HandView",
    "Scoreboard",
]
