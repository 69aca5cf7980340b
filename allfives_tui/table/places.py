"""The places at the table, and the default name of a seat nobody named, in the reader's
language.

Seat 0 (the first person, the host's seat) sits south, and play goes round the table
(:data:`engine.record.PLACES`). A seat nobody named has the default name of its place:
records, the settings, the host's seats and the network's messages keep no word for it
(an absent or blank name), and the history keeps its place code; each reader words it
here, so an Italian screen says "Nord" where an English one says "North". Place codes
(``north``) are the same in every language: ``--seat`` takes them.
"""

from __future__ import annotations

from allfives_tui.locale import pgettext
from engine.record import PLACE_NAMES, PLACES, Place, place_of

PLACE_CODES: frozenset[str] = frozenset(p for places in PLACES.values() for p in places)
"""Every place code."""


def place_name(place: str) -> str:
    """A place's name in the current language (the default name of a seat there)."""
    if place == "south":
        return pgettext("place", "South")
    if place == "west":
        return pgettext("place", "West")
    if place == "north":
        return pgettext("place", "North")
    if place == "east":
        return pgettext("place", "East")
    return place


def places(players: int) -> tuple[Place, ...]:
    """Each seat's place at a table of ``players`` (none for a table that cannot be)."""
    return PLACES.get(players, ())


def place_names(players: int) -> tuple[str, ...]:
    """Where each seat sits at a table of ``players``, in words: seat 0 south, then the
    others round the table (none for a table that cannot be)."""
    return tuple(place_name(p) for p in places(players))


def default_name(seat: int, players: int) -> str:
    """The default name of ``seat`` at a table of ``players``: its place's name."""
    return place_name(place_of(seat, players))


def seat_name(name: str | None, seat: int, players: int) -> str:
    """A seat's name to show: the name given, else the default name of its place."""
    return name if name else default_name(seat, players)


def person_key(name: str | None, seat: int, players: int) -> str:
    """How the history knows the person at ``seat``: the name given, else the code of the
    place whose default name they had (``"south"`` for the first person left unnamed)."""
    return name if name else place_of(seat, players)


def person_label(key: str) -> str:
    """A person the history knows (see :func:`person_key`), in words: a place code is
    worded as that place's name."""
    return place_name(key) if key in PLACE_CODES else key


OWNER_PLACE: Place = "south"
"""The place of this terminal's own player (seat 0) in a game played here."""


def owner_key(name: str) -> str:
    """How the history knows this terminal's own player, whose remembered name is ``name``
    (blank: the default)."""
    return name or OWNER_PLACE


def person_key_of(text: str) -> str:
    """The person someone names by ``text`` (``--player``): a place's code, or its name in
    the current language or in English, names the person who had that place's default
    name; any other text is a name."""
    folded = text.strip().casefold()
    for place, english in PLACE_NAMES.items():
        if folded in (place, place_name(place).casefold(), english.casefold()):
            return place
    return text
