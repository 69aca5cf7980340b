"""The app's footers: Textual's, with keys worded in the current language and styled
once as they mount, and the game screen's, with a group's name dimmed with its keys."""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey, FooterLabel

from allfives_tui.locale import current
from allfives_tui.ui.textual_words import binding_word, shown


class AppFooter(Footer):
    """Textual's footer whose keys are worded in the current language (see
    :func:`~allfives_tui.ui.textual_words.binding_word`) and take its compactness before
    they mount. The command palette's key shows only where the screen's own keys leave
    room for it (words are longer in some languages).

    Textual's keys start compact and are made plain by a data binding once
    mounted, each change restyling the key: two style passes a key, about a
    sixth of the time a screen takes to open. Here each key is given the
    footer's value (and class) as it is made, so neither pass happens."""

    DEFAULT_CSS = "AppFooter FooterKey.-bare { margin: 0 1 0 0; }"
    """A key shown without its words (no room for them) stands a space from the next."""

    _shown: tuple[object, ...] | None = None
    """What the keys on show were made from (see :meth:`_signature`)."""

    def _signature(
        self, screen: Screen[object], active: dict[str, ActiveBinding] | None = None
    ) -> tuple[object, ...]:
        """Everything the keys are made from: the shown bindings (``active``: the screen's
        active bindings, when known), whether each is enabled, the footer's own settings
        and the language."""
        if active is None:
            active = screen.active_bindings
        return (
            current(),
            self._room(),
            self.compact,
            self.show_command_palette,
            tuple(
                (binding.key, binding.key_display, binding.description, binding.action,
                 binding.group, enabled, tooltip)
                for key, (_, binding, enabled, tooltip) in active.items()
                if binding.show or key == self.app.COMMAND_PALETTE_BINDING
            ),
        )

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Make the keys again only when what they show has changed.

        Textual's footer remakes every key whenever the focus moves or a
        binding is refreshed (after each move in a game), though mostly
        nothing it shows has changed."""
        same = self._bindings_ready and screen is self.screen
        signature = self._signature(screen)
        if same and self._shown == signature:
            return
        super().bindings_changed(screen)
        if self._bindings_ready and screen is self.screen:
            # a recompose is on its way: a second change to the same keys needs none
            self._shown = signature

    def compose(self) -> ComposeResult:
        """Textual's keys, worded in the current language, each already as compact as it
        will be shown.

        Textual's footer starts empty and makes its keys once the screen says its
        bindings are ready, a frame or more after the screen shows. Here the keys
        are made with the footer, from the bindings the screen has then, so the
        first frame shows them; the screen's word that they are ready then finds
        them made (or makes them again if they changed)."""
        if self.is_attached:
            self._bindings_ready = True
        bound: dict[str, tuple[DOMNode, Binding]] = {}
        if self._bindings_ready:
            active = self.screen.active_bindings
            self._shown = self._signature(self.screen, active)
            bound = {key: (found.node, found.binding) for key, found in active.items()}
        room = self._room()
        used = 0
        described: list[FooterKey] = []
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                # the palette's key is not bound to the footer: it stays compact
                palette = widget.has_class("-command-palette")
                compact = self.compact or palette
                widget.set_reactive(FooterKey.compact, compact)
                widget.set_class(compact, "-compact", update=False)
                if widget.key in bound:
                    _word_key(widget, *bound[widget.key])
                group = bound[widget.key][1].group if widget.key in bound else None
                width = self._width(widget, group is not None and group.compact) + palette
                if palette:
                    if used + width > room:
                        continue  # no room beside the screen's own keys (ctrl+p opens it)
                elif widget.description:
                    described.append(widget)
                used += width
            elif isinstance(widget, FooterLabel) and isinstance(widget.content, str):
                widget.content = binding_word(widget.content)  # a group's name
                used += cell_len(widget.content) + 3  # its margin, its group's padding, margin
            yield widget
        # too long (a language's longer words): the last keys show without their words,
        # which stay in their tooltips (the last key's blank cell after it may fall off)
        while used > room + 1 and described:
            key = described.pop()
            used -= self._width(key, False)
            key.tooltip = key.tooltip or key.description
            key.description = ""
            key.add_class("-bare", update=False)
            used += self._width(key, False)

    def _room(self) -> int:
        """The cells the keys have (the app's width until the footer is laid out)."""
        return self.size.width or self.app.size.width

    def on_resize(self, event: events.Resize) -> None:
        """Another width: the keys are made again if what fits has changed."""
        made = self._shown
        if self._bindings_ready and made is not None and self.is_attached and (
            made != self._signature(self.screen)
        ):
            self._shown = None
            self.call_after_refresh(self.recompose)

    def _width(self, key: FooterKey, compact_group: bool) -> int:
        """The cells ``key`` takes in the footer, its margins and padding too (one of a
        group: ``compact_group`` when its group's keys stand together)."""
        width = cell_len(key.key_display)
        if key.has_class("-grouped"):
            return width + (0 if compact_group else 2 if self.compact else 4)
        if not key.description:  # drawn without padding, a space after it
            return width + 1
        width += cell_len(key.description) + 1
        return width + 1 if key.has_class("-compact") else width + 2


def _word_key(key: FooterKey, namespace: DOMNode, binding: Binding) -> None:
    """``key``'s description and tooltip, made by Textual from ``binding`` (its own
    tooltip, else its description), in the current language (its key label is worded by
    the App's ``get_key_display``)."""
    worded = shown(namespace, binding)
    if key.description:
        key.description = worded.description
    tooltip = key.tooltip
    if isinstance(tooltip, str) and tooltip:
        key.tooltip = worded.tooltip if tooltip == binding.tooltip else worded.description


class GameFooter(AppFooter):
    """A footer whose group names (the "End" after ``n e s w``) dim when every key
    of the group is disabled, as each key does. Below :attr:`ROOMY` cells the
    command palette's key (``^p``, also in the help) gives its place to the game's
    own keys, and the keys stand a space apart instead of two (compact), so all of
    them show at 80 columns."""

    ROOMY = 100
    """The width from which the command palette's key shows too."""

    DEFAULT_CSS = """
    GameFooter FooterLabel.-disabled { text-style: dim; }
    GameFooter.-compact FooterLabel { margin: 0 1 0 0; }
    """

    def __init__(self) -> None:
        """A footer as narrow or roomy as the app is now (its keys are made so at once)."""
        super().__init__()
        self._fit(self.app.size.width)

    def _fit(self, width: int) -> None:
        self.set_reactive(GameFooter.show_command_palette, width >= self.ROOMY)
        self.set_reactive(GameFooter.compact, width < self.ROOMY)
        self.set_class(width < self.ROOMY, "-compact", update=False)

    def on_resize(self, event: events.Resize) -> None:
        """Narrow terminals show the game's keys only, a space apart."""
        self.show_command_palette = event.size.width >= self.ROOMY
        self.compact = event.size.width < self.ROOMY

    def compose(self) -> ComposeResult:
        """Textual's footer; a group's label marked when none of its keys is enabled."""
        grouped: list[FooterKey] = []
        widget: Widget
        for widget in super().compose():
            if isinstance(widget, FooterKey) and widget.has_class("-grouped"):
                grouped.append(widget)
            elif isinstance(widget, FooterLabel):
                if grouped and all(key.has_class("-disabled") for key in grouped):
                    widget.add_class("-disabled")
                grouped = []
            yield widget
