"""An input whose placeholder fits it: the long one when there is room, else the short one.

A translation is often longer than the English; the long placeholder says how to fill
the field in (``from yyyy-mm-dd``), the short one only what it is (``from``).
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from textual.widgets import Input


class FittedInput(Input):
    """An :class:`Input` showing ``long`` as its placeholder when it fits, else ``short``."""

    def __init__(self, long: str, short: str, **options: Any) -> None:
        super().__init__(placeholder=long, **options)
        self.long = long
        self.short = short

    def on_resize(self) -> None:
        """The placeholder that fits the field's width."""
        room = self.content_size.width
        self.placeholder = self.long if cell_len(self.long) <= room else self.short
