"""Textual's own words, through our catalog, and every key binding's words as shown.

Textual writes some words itself: its widgets' key bindings (shown in the
footer and the Keys panel), its system commands in the palette and their help
lines, the palette's placeholder and its "No matches found". Each is marked
here in the catalog's context ``textual`` (so that Textual's "End", the End
key, and the game's "End" are translated apart) and shown through
:func:`textual_word`. (The notices Textual would give, of a screenshot or of
ctrl+c, the App gives in its own words.) :func:`shown` is the one way a
binding's words (description, tooltip, key label, group name) are shown:
Textual's own through :func:`textual_word`, the app's (marked with ``N_()``, or
``NP_()`` for a word with a context, where declared) through
:func:`~allfives_tui.locale.marked`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache

from textual.app import SystemCommand
from textual.binding import Binding
from textual.dom import DOMNode

from allfives_tui.locale import marked, pgettext

NO_MATCHES = "No matches found"
"""What Textual's palette says when nothing matches what was typed."""
SEARCH_COMMANDS = "Search for commands…"
"""The command palette's placeholder."""
SEARCH_THEMES = "Search for themes…"
"""The theme palette's placeholder."""


def _marked(pgettext: Callable[[str, str], str]) -> tuple[str, ...]:
    """Textual's words, each given to ``pgettext`` (:data:`ENGLISH` gives one that hands
    the English back); written as calls so that ``pybabel extract`` finds them."""
    return (
        # the App's and every screen's keys
        pgettext("textual", "Quit"),
        pgettext("textual", "Quit the app and return to the command prompt."),
        pgettext("textual", "palette"),
        pgettext("textual", "Open the command palette"),
        pgettext("textual", "Focus Next"),
        pgettext("textual", "Focus Previous"),
        pgettext("textual", "Copy selected text"),
        # a button, a dropdown and its list, a list of options
        pgettext("textual", "Press button"),
        pgettext("textual", "Show menu"),
        pgettext("textual", "Dismiss menu"),
        pgettext("textual", "Down"),
        pgettext("textual", "Up"),
        pgettext("textual", "First"),
        pgettext("textual", "Last"),
        pgettext("textual", "Select"),
        # a text field
        pgettext("textual", "Input"),
        pgettext("textual", "Move cursor left"),
        pgettext("textual", "Move cursor left and select"),
        pgettext("textual", "Move cursor left a word"),
        pgettext("textual", "Move cursor left a word and select"),
        pgettext("textual", "Move cursor right or accept the completion suggestion"),
        pgettext("textual", "Move cursor right and select"),
        pgettext("textual", "Move cursor right a word"),
        pgettext("textual", "Move cursor right a word and select"),
        pgettext("textual", "Delete character left"),
        pgettext("textual", "Select all"),
        pgettext("textual", "Go to start"),
        pgettext("textual", "Go to end"),
        pgettext("textual", "Select line start"),
        pgettext("textual", "Select line end"),
        pgettext("textual", "Delete character right"),
        pgettext("textual", "Submit"),
        pgettext("textual", "Delete left to start of word"),
        pgettext("textual", "Delete all to the left"),
        pgettext("textual", "Delete right to start of word"),
        pgettext("textual", "Delete all to the right"),
        pgettext("textual", "Cut selected text"),
        pgettext("textual", "Paste text from the clipboard"),
        # anything that scrolls
        pgettext("textual", "Scroll Up"),
        pgettext("textual", "Scroll Down"),
        pgettext("textual", "Scroll Left"),
        pgettext("textual", "Scroll Right"),
        pgettext("textual", "Scroll Home"),
        pgettext("textual", "Scroll End"),
        pgettext("textual", "Page Up"),
        pgettext("textual", "Page Down"),
        pgettext("textual", "Page Left"),
        pgettext("textual", "Page Right"),
        # a table
        pgettext("textual", "Cursor up"),
        pgettext("textual", "Cursor down"),
        pgettext("textual", "Cursor right"),
        pgettext("textual", "Cursor left"),
        pgettext("textual", "Page up"),
        pgettext("textual", "Page down"),
        pgettext("textual", "Top"),
        pgettext("textual", "Bottom"),
        pgettext("textual", "Home"),
        pgettext("textual", "End"),
        # the command palette
        pgettext("textual", "Go to bottom"),
        pgettext("textual", "Go to top"),
        pgettext("textual", "Next command"),
        pgettext("textual", "Exit the command palette"),
        pgettext("textual", "Next page"),
        pgettext("textual", "Previous page"),
        pgettext("textual", "Previous command"),
        pgettext("textual", "Search for commands…"),
        pgettext("textual", "Search for themes…"),
        pgettext("textual", "No matches found"),
        # the system commands in the palette, and their help lines
        pgettext("textual", "Theme"),
        pgettext("textual", "Change the current theme"),
        pgettext("textual", "Quit the application as soon as possible"),
        pgettext("textual", "Keys"),
        pgettext("textual", "Hide the keys and widget help panel"),
        pgettext("textual", "Show help for the focused widget and a summary of available keys"),
        pgettext("textual", "Minimize"),
        pgettext("textual", "Minimize the widget and restore to normal size"),
        pgettext("textual", "Maximize"),
        pgettext("textual", "Maximize the focused widget"),
        pgettext("textual", "Screenshot"),
        pgettext("textual", "Save an SVG 'screenshot' of the current screen"),
    )


ENGLISH = frozenset(_marked(lambda context, message: message))
"""Textual's words as Textual writes them."""


def textual_word(text: str) -> str:
    """Textual's own ``text`` in the current language (as it is, when the catalog lacks it)."""
    return pgettext("textual", text)


@lru_cache(maxsize=1024)
def _textual_binding(node: type[DOMNode], action: str, text: str) -> bool:
    """True when the binding of ``action`` worded ``text`` at a ``node`` is Textual's: one
    of Textual's words, not declared in one of the app's own classes."""
    if text not in ENGLISH:
        return False
    for cls in node.__mro__:
        for binding in cls.__dict__.get("BINDINGS", ()):
            declared = binding if isinstance(binding, Binding) else Binding(*binding)
            if declared.action == action and text in (declared.description, declared.tooltip):
                return cls.__module__.partition(".")[0] == "textual"
    return True  # made by Textual as it runs (the command palette's key)


def binding_word(text: str, textual: bool = False) -> str:
    """A key binding's ``text`` (description, tooltip, key label or group name) as shown:
    Textual's own word when ``textual`` (the binding is one of Textual's), else the app's
    (marked with ``N_()`` or, in a context, ``NP_()``) through
    :func:`~allfives_tui.locale.marked`; a text the catalog lacks (a key's name) stays as
    it is, and so does an empty one."""
    if not text:
        return text
    if textual:
        return textual_word(text)
    return marked(text)


def _description(namespace: DOMNode, binding: Binding) -> str:
    """``binding``'s description (bound at ``namespace``) in the current language."""
    textual = _textual_binding(type(namespace), binding.action, binding.description)
    return binding_word(binding.description, textual)


def shown(namespace: DOMNode, binding: Binding) -> Binding:
    """``binding`` (bound at ``namespace``) with its words in the current language: its
    description, tooltip, key label and group's name."""
    node = type(namespace)
    group = binding.group
    return dataclasses.replace(
        binding,
        description=_description(namespace, binding),
        tooltip=binding_word(
            binding.tooltip, _textual_binding(node, binding.action, binding.tooltip)
        ),
        key_display=binding_word(binding.key_display) if binding.key_display else None,
        group=(
            dataclasses.replace(group, description=binding_word(group.description))
            if group else None
        ),
    )


def system_commands(commands: Iterable[SystemCommand]) -> Iterator[SystemCommand]:
    """Textual's system commands (Theme, Keys, Quit, Screenshot…), titled in the current
    language."""
    for command in commands:
        yield command._replace(
            title=textual_word(command.title), help=textual_word(command.help)
        )
