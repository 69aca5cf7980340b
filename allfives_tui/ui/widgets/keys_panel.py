"""The Keys panel (the palette's "Keys"): every active key of the screen, worded in the
current language.

Textual's panel writes each binding's description and each group's title as
they are declared; this one shows them through
:func:`~allfives_tui.ui.textual_words.shown`, as the footer does, and is made
anew when the bindings change (a language switch refreshes them).
"""

from __future__ import annotations

from collections import defaultdict
from itertools import groupby
from operator import itemgetter

from rich import box
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import HelpPanel, KeyPanel
from textual.widgets._key_panel import BindingsTable

from allfives_tui.ui.textual_words import ENGLISH, binding_word, shown


class KeysTable(BindingsTable):
    """Textual's table of bindings, each worded in the current language."""

    def render_bindings_table(self) -> Table:
        """A row a key (its keys together when several do the same), under its node's
        title, grouped by node as Textual's table is."""
        key_style = self.get_component_rich_style("bindings-table--key")
        description_style = self.get_component_rich_style("bindings-table--description")
        header_style = self.get_component_rich_style("bindings-table--header")
        divider_transparent = self.get_component_styles("bindings-table--divider").color.a == 0
        table = Table(
            padding=(0, 0),
            show_header=False,
            box=box.SIMPLE if divider_transparent else box.HORIZONTALS,
            border_style=self.get_component_rich_style("bindings-table--divider"),
        )
        table.add_column("", justify="right")
        table.add_column("", overflow="fold")  # a long word is broken, not cut off
        key_display = self.app.get_key_display
        previous: object = None
        active = self.screen.active_bindings.values()
        for namespace, in_node in groupby(active, key=itemgetter(0)):
            by_action: defaultdict[str, list[Binding]] = defaultdict(list)
            for _, binding, _, _ in in_node:
                if not binding.system:
                    by_action[binding.action].append(shown(namespace, binding))
            if not by_action:
                continue
            title = namespace.BINDING_GROUP_TITLE
            if title:
                heading = binding_word(title, textual=title in ENGLISH)
                table.add_row("", Text(heading, style=header_style))
            for bindings in by_action.values():
                first = bindings[0]
                keys = " ".join(dict.fromkeys(key_display(b) for b in bindings))
                words = Text.from_markup(first.description, end="", style=description_style)
                if first.tooltip:
                    if first.description:
                        words.append(" ")
                    words.append(first.tooltip, "dim")
                table.add_row(Text(keys, style=key_style), words)
            if namespace != previous:
                table.add_section()
            previous = namespace
        return table


class KeysPanel(KeyPanel):
    """Textual's keys panel with :class:`KeysTable`."""

    def compose(self) -> ComposeResult:
        """The table of keys."""
        yield KeysTable(shrink=True, expand=False)


class KeysHelpPanel(HelpPanel):
    """Textual's help panel (the focused widget's help, then the keys) with
    :class:`KeysPanel`."""

    def compose(self) -> ComposeResult:
        """The focused widget's help (the app's widgets have none) and the keys."""
        from textual.widgets import Markdown  # imported here: it is slow to import

        yield Markdown(id="widget-help")
        yield KeysPanel(id="keys-help")
