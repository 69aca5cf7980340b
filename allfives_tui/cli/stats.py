"""``allfives stats``: the local player's statistics from the game history, as a table.

The player is the settings' name unless ``--player`` names another person (in
hot-seat games each named person has their own). ``--json`` prints the
figures for scripts. Filters: ``--level`` (an opponent's level), ``--players``,
``--since`` and ``--until`` (dates, inclusive). Reads the history only: no
Textual and no other command is loaded. The arguments are in
:mod:`allfives_tui.cli.parser`.
"""

from __future__ import annotations

import argparse
import json
import sys

from allfives_tui.locale import N_, _, formats, ngettext
from allfives_tui.store import wording
from allfives_tui.store.history import History, HistoryError, history_path
from allfives_tui.store.settings_file import load_settings
from allfives_tui.store.stats import Filters, Stats, empty, parse_day, query
from allfives_tui.table.places import owner_key, person_key_of, person_label
from allfives_tui.table.words import one_line

PROG = "allfives"

COLUMNS = (
    N_("Opponents"), N_("Games"), N_("Won"), N_("Win%"), N_("95% CI"),
    N_("Net/hand"), N_("Best"),
)
"""The table's column headings, marked for the catalog (short: the table fits 80
columns)."""


def _fail(message: str) -> int:
    print(f"{PROG}: {one_line(message)}", file=sys.stderr)
    return 2


def filters_of(args: argparse.Namespace) -> Filters:
    """The filters the options ask for; ``ValueError`` for a date that is not one."""
    since = None if args.since is None else parse_day(args.since)
    until = None if args.until is None else parse_day(args.until)
    if since and until and since > until:
        raise ValueError(
            _("--since {since} is after --until {until}").format(since=since, until=until)
        )
    return Filters(level=args.level, players=args.players, since=since, until=until)


def render(stats: Stats) -> None:
    """Print the statistics as rich tables (points are the player's side's)."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    console = Console(highlight=False)
    if not stats.games:
        console.print(
            Text(
                _("No games of {player} in the history match.").format(
                    player=person_label(stats.player)
                )
            )
        )
        return
    # the player's name in bold: the message holds no markup (a translation could
    # break it)
    headline = ngettext(
        "{player}: {games} game ({finished} finished, {abandoned} abandoned), "
        "{first} to {last}",
        "{player}: {games} games ({finished} finished, {abandoned} abandoned), "
        "{first} to {last}",
        stats.games,
    )
    figures = {
        "games": formats.number(stats.games),
        "finished": formats.number(stats.finished),
        "abandoned": formats.number(stats.abandoned),
        "first": wording.day(stats.first) if stats.first else "-",
        "last": wording.day(stats.last) if stats.last else "-",
    }
    before, _sep, after = headline.partition("{player}")
    line = Text(before.format(**figures))
    if _sep:
        line.append(person_label(stats.player), style="bold")
    line.append(after.format(**figures))
    console.print(line)
    table = Table(box=None, pad_edge=False, header_style="bold")
    for column in COLUMNS:
        if column == COLUMNS[0]:  # a label too long for the room is cut short, never wrapped
            table.add_column(escape(_(column)), no_wrap=True, overflow="ellipsis", ratio=1)
        else:
            table.add_column(escape(_(column)), justify="right", no_wrap=True)
    for g in stats.groups:
        table.add_row(
            escape(wording.group_label(g)), formats.number(g.games), formats.number(g.wins),
            wording.rate(g.rate), wording.interval(g.low, g.high) if g.finished else "-",
            wording.points(g.per_hand), wording.points(g.best, 0),
        )
    table.add_row(
        "[b]" + escape(_("all")) + "[/b]", formats.number(stats.games),
        formats.number(stats.wins), wording.rate(stats.rate),
        wording.interval(stats.low, stats.high) if stats.finished else "-",
        wording.points(stats.per_hand), wording.points(stats.best.net if stats.best else None, 0),
    )
    console.print(table)
    best = "-"
    if stats.best:
        best = _("{points} ({day})").format(
            points=wording.points(stats.best.net, 0), day=wording.day(stats.best.day)
        )
    console.print(
        ngettext(
            "Your side nets {net} points a hand over {hands} hand · best hand {best}",
            "Your side nets {net} points a hand over {hands} hands · best hand {best}",
            stats.hands,
        ).format(net=wording.points(stats.per_hand), hands=formats.number(stats.hands), best=best)
    )
    console.print(
        _("Longest winning streak {streak} · {per_week} games a week").format(
            streak=formats.number(stats.streak), per_week=formats.fixed(stats.per_week, 1)
        )
    )
    console.print(_("(In a partnership, points are both partners', as the scoreboard has them.)"))


def run(args: argparse.Namespace) -> int:
    """Print the statistics; 2 for a bad filter or a history that cannot be read."""
    try:
        filters = filters_of(args)
    except ValueError as err:
        return _fail(str(err))
    player = person_key_of(args.player) if args.player else owner_key(load_settings().name)
    path = history_path()
    if not path.exists():
        stats = empty(player, filters)
        people: list[str] = []
    else:
        try:
            with History(path) as history:
                if history.notice:
                    print(f"{PROG}: {history.notice}", file=sys.stderr)
                stats = query(history, player, filters)
                people = history.people()
        except HistoryError as err:
            return _fail(str(err))
    if args.json:
        print(json.dumps({**stats.to_json(), "people": people}, indent=1))
        return 0
    if not path.exists():
        print(_("No games in the history yet: every game played from now on is kept."))
        return 0
    render(stats)
    if not stats.games and people and player not in people:
        print(
            _("People in the history: {people} (choose with --player).").format(
                people=", ".join(person_label(p) for p in people)
            )
        )
    return 0
