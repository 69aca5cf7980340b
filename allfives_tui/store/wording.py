"""The history's figures and past games in the words of the language spoken.

A past game's start, result, players and opponents, and what a search of past games
looks in (:class:`~allfives_tui.store.summary.GameSummary`); the set of opponents a
line of statistics is about (:class:`~allfives_tui.store.stats.Group`); points with
their sign, rates in percent and days, through :mod:`allfives_tui.locale.formats`.
Level names stay as they are (the same in every language). What a machine reads
(``--json``) is the store's own data, never these words.
"""

from __future__ import annotations

from datetime import date

from allfives_tui.locale import _, formats, pgettext
from allfives_tui.store.facts import PERSON
from allfives_tui.store.stats import Group
from allfives_tui.store.summary import GameSummary
from allfives_tui.table.places import person_label

DAY = "yyyy-MM-dd"
"""A day as English writes it in the statistics (a CLDR pattern)."""
START = "yyyy-MM-dd HH:mm"
"""When a past game started, as English writes it (a CLDR pattern)."""


def day(value: date) -> str:
    """A day (``2026-03-31`` in English; the order a translation gives)."""
    pattern = pgettext("CLDR date pattern: a day, all in digits", "yyyy-MM-dd")
    return formats.dated(value, pattern, DAY)


def started(game: GameSummary) -> str:
    """When ``game`` started, in local time (``2026-01-05 09:00`` in English)."""
    pattern = pgettext("CLDR date pattern: a day and a time, all in digits", "yyyy-MM-dd HH:mm")
    return formats.dated(game.started.astimezone(), pattern, START)


def opponent(token: str) -> str:
    """An opponent or partner in a line of statistics: a level as it is; ``person`` and
    ``remote`` in words."""
    if token == PERSON:
        return pgettext("an opponent or partner: someone at this computer", "person")
    if token == "remote":
        return pgettext("an opponent or partner: someone across the network", "remote")
    return token


def group_label(group: Group) -> str:
    """The opponents of a line of statistics: ``2p vs greedy``, ``4p with person vs
    random+random``."""
    against = "+".join(opponent(o) for o in group.opponents)
    if group.partner is not None:
        return _("{players}p with {partner} vs {opponents}").format(
            players=formats.number(group.players), partner=opponent(group.partner),
            opponents=against,
        )
    return _("{players}p vs {opponents}").format(
        players=formats.number(group.players), opponents=against
    )


def points(value: float | None, digits: int = 1) -> str:
    """Points with their sign (``+17.2``), or a dash for none."""
    return "-" if value is None else formats.signed(value, digits)


def rate(value: float | None) -> str:
    """A share in percent (``61%``), or a dash for none."""
    return "-" if value is None else formats.percent(value)


def interval(low: float, high: float) -> str:
    """A range of rates: ``44%-75%``."""
    return f"{rate(low)}-{rate(high)}"


def result(game: GameSummary, name: str) -> str:
    """The result for ``name`` with the score: ``won 105:60``, ``lost 80:150``,
    ``abandoned 35:40``."""
    outcome, mine, other = game.outcome(name)
    if outcome == "won":
        text = _("won {mine}:{other}")
    elif outcome == "lost":
        text = _("lost {mine}:{other}")
    else:
        text = _("abandoned {mine}:{other}")
    return text.format(mine=formats.number(mine), other=formats.number(other))


def opponents(game: GameSummary, name: str) -> str:
    """Who ``name`` played, briefly: computers by level, people by name; in
    partnerships the partner first (``with greedy vs random, Ana``)."""
    mates, against = game.sides(name)
    others = ", ".join(game.who(i) for i in against)
    if not mates:
        return others
    return _("with {partner} vs {opponents}").format(
        partner=game.who(mates[0]), opponents=others
    )


def others(game: GameSummary, name: str) -> str:
    """Everyone at the table but ``name``: ``North (greedy), Ana``."""
    me = game.seat_of(name)
    shown = []
    for i, s in enumerate(game.seats):
        if i == me:
            continue
        if s.kind == "computer" and s.level:
            shown.append(
                pgettext("a computer seat: its name and level", "{name} ({level})").format(
                    name=person_label(s.name), level=s.level
                )
            )
        else:
            shown.append(person_label(s.name))
    return ", ".join(shown)


def search_text(game: GameSummary, name: str) -> str:
    """What a search of past games looks in (lower case): the start as shown and as
    stored, the players and levels, the result for ``name`` in words and as
    ``--json`` gives it, the player count, partnerships and the id."""
    partners = pgettext("a word a search of past games finds partnerships by", "partners")
    return " ".join((
        started(game), game.started.astimezone().strftime("%Y-%m-%d %H:%M"),
        others(game, name), result(game, name), game.result(name), f"{game.players}p",
        partners if game.partnerships else "", game.game_id,
    )).lower()


def matches(game: GameSummary, text: str, name: str) -> bool:
    """True when every word of ``text`` is in :func:`search_text`, ignoring case."""
    hay = search_text(game, name)
    return all(word in hay for word in text.lower().split())
