"""What start-up made, kept out of the garbage collector's full passes while the app runs."""

from __future__ import annotations

import gc


class StartUpFreeze:
    """Start-up's objects (modules, styles, the first screen) frozen out of the
    collector's full passes, so those passes, often during a frame that allocates
    much, stay short; :meth:`thaw` hands them back."""

    def __init__(self) -> None:
        self.frozen = False
        """True while start-up's objects are kept out of full garbage collections."""

    def freeze(self) -> None:
        """(After the first frame.) Load the statistics screen's code (its charts'
        library is the largest), then freeze what is alive."""
        import allfives_tui.ui.screens.stats  # noqa: F401

        if not self.frozen:
            gc.freeze()
            self.frozen = True

    def thaw(self) -> None:
        """What start-up made can be collected again."""
        if self.frozen:
            gc.unfreeze()
            self.frozen = False
