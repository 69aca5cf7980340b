"""The one rule for a player's name, wherever it is given.

The new-game screen, ``settings.json``, ``--name`` and a network client's
``hello`` all take a name through :func:`player_name`.
"""

from __future__ import annotations

from allfives_tui.locale import _

NAME_MAX = 20
"""The longest player name."""


def player_name(text: str) -> str:
    """``text`` as a player's name: blanks collapsed to single spaces, 1 to
    :data:`NAME_MAX` printable characters; ``ValueError`` in words otherwise."""
    name = " ".join(text.split())
    if not name:
        raise ValueError(_("the name is empty"))
    if len(name) > NAME_MAX:
        raise ValueError(_("a name has at most {count} characters").format(count=NAME_MAX))
    if not name.isprintable():
        raise ValueError(_("a name cannot hold control characters"))
    return name
