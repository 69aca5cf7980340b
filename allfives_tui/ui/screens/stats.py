"""The statistics screen: a player's record from the game history, with filters and charts.

The figures come from :func:`allfives_tui.store.stats.query`, on a
thread, whenever the screen opens or a filter changes. The first read starts as
the screen is made, beside its composing (SQLite works without the GIL), and the
screen waits up to :data:`FIRST_WAIT` for it before its first frame: on all but
a huge history it opens once, with its figures, instead of saying "Reading the
history…" and laying itself out again a moment later.
Results over time and points a hand by opponent level are drawn by
:class:`~allfives_tui.ui.widgets.chart.SeriesChart`.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from rich.cells import cell_len
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Input, Static

from allfives_tui.locale import N_, _, formats, ngettext, pgettext
from allfives_tui.store import wording
from allfives_tui.store.history import History, HistoryError, history_path
from allfives_tui.store.stats import Filters, Stats, empty, parse_day, query
from allfives_tui.table.places import person_label
from allfives_tui.table.words import printable
from allfives_tui.ui.screens import HISTORY_CSS
from allfives_tui.ui.widgets.chart import ChartData, Series, SeriesChart
from allfives_tui.ui.widgets.compact import compact
from allfives_tui.ui.widgets.fitted_input import FittedInput
from allfives_tui.ui.widgets.footer import AppFooter
from allfives_tui.ui.widgets.too_small import TooSmall
from engine.players import LEVELS

LEVEL_CHOICES: tuple[str | None, ...] = (None, *LEVELS, "person")
"""What the opponent-level filter cycles through (``None``: any level)."""
PLAYER_CHOICES: tuple[int | None, ...] = (None, 2, 3, 4)
"""What the player-count filter cycles through (``None``: any count)."""


GROUPS_SHARE = 0.4
"""The table by opponents takes at most this share of the screen's height (less the
footer and the table's margin)."""

CHART_FRAME = 8
"""Columns of a chart that its title cannot take: the y axis's labels and the frame."""

FIRST_WAIT = 0.1
"""Seconds the screen waits for its first figures before it shows without them."""

_READER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="allfives-stats")
"""Reads a screen's first figures while the screen is being made."""

Figures = tuple[list[str], Stats, str | None]
"""What a read of the history gives: the people in it, the figures, a warning."""


def read_figures(path: Path | None, player: str, filters: Filters) -> Figures:
    """``player``'s figures under ``filters`` and who played, from the history at
    ``path`` (the data folder's by default); a history that cannot be read gives
    no figures and says why."""
    path = path or history_path()
    people: list[str] = []
    stats = empty(player, filters)
    error = None
    if path.exists():
        try:
            with History(path) as history:
                error = history.notice
                people = history.people()
                stats = query(history, player, filters)
        except HistoryError as err:
            error = str(err)
    return people, stats, error


def level_text(level: str | None) -> str:
    """The opponent-level filter's button."""
    if level is None:
        return _("any level")
    if level == "person":
        return _("vs a person")
    return _("vs {level}").format(level=level)


def players_text(players: int | None) -> str:
    """The player-count filter's button."""
    if players is None:
        return _("2-4 players")
    return ngettext("{count} player", "{count} players", players).format(
        count=formats.number(players)
    )


def period_labels(starts: Sequence[date]) -> tuple[str, ...]:
    """The x labels of periods starting on ``starts``: month and day ("03-31"), or,
    when they reach over more than a year, year and month ("2025-03")."""
    long = len(starts) > 1 and (starts[-1] - starts[0]).days > 365
    if long:
        pattern = pgettext("CLDR date pattern: a month, all in digits", "yyyy-MM")
        return tuple(formats.dated(day, pattern, "yyyy-MM") for day in starts)
    pattern = pgettext("CLDR date pattern: a day of the year, all in digits", "MM-dd")
    return tuple(formats.dated(day, pattern, "MM-dd") for day in starts)


def results_chart(stats: Stats) -> ChartData:
    """Games won, lost and abandoned over time (weeks, gathered when there are many)."""
    periods = stats.periods()
    return ChartData(
        title=_("Results over time"),
        x_labels=period_labels([p.start for p in periods]),
        series=(
            Series(pgettext("games, in a chart's legend", "won"),
                   tuple(p.wins for p in periods), "green"),
            Series(pgettext("games, in a chart's legend", "lost"),
                   tuple(p.losses for p in periods), "red"),
            Series(pgettext("games, in a chart's legend", "abandoned"),
                   tuple(p.abandoned for p in periods), "gray"),
        ),
        kind="stacked",
        counts=True,
        empty=_("no games yet"),
    )


def points_chart(stats: Stats, room: int | None = None) -> ChartData:
    """The side's net points a hand against each opponent level; titled briefly when the
    full title is wider than ``room`` (Plotext leaves out a title that does not fit)."""
    levels = [p for p in stats.by_level if p.per_hand is not None]
    title = _("Points a hand by opponent level")
    if room is not None and cell_len(title) > room:
        title = _("Points a hand")
    return ChartData(
        title=title,
        x_labels=tuple(wording.opponent(p.level) for p in levels),
        series=(Series(_("side's net a hand"), tuple(round(p.per_hand or 0, 1) for p in levels)),),
        kind="bar",
        empty=_("no hand played yet"),
    )


GROUP_COLUMNS = (
    N_("Opponents"), N_("Games"), N_("Won"), N_("Win%"), N_("95% CI"), N_("Net/hand"), N_("Best")
)
"""The columns of the table of results by opponents (marked for the catalog)."""


def group_rows(stats: Stats) -> list[tuple[str, ...]]:
    """The table of results by opponents: one row a group, as the columns show it."""
    return [
        (
            wording.group_label(g), formats.number(g.games), formats.number(g.wins),
            wording.rate(g.rate), wording.interval(g.low, g.high) if g.finished else "-",
            wording.points(g.per_hand), wording.points(g.best, 0),
        )
        for g in stats.groups
    ]


def groups_text(stats: Stats, room: int | None = None) -> Text:
    """The table of results by opponents as text in columns, the header in bold; in
    ``room`` columns of the terminal, the columns after the first that do not fit whole
    are left out (a wider terminal shows them).

    (A plain text table: Textual's DataTable, with a cursor nobody uses here, took
    about a quarter of the screen's first frame to draw.)"""
    rows = group_rows(stats)
    header = tuple(_(column) for column in GROUP_COLUMNS)
    columns = zip(header, *rows, strict=True)
    widths = [max(cell_len(cell) for cell in column) for column in columns]
    kept = 1
    while kept < len(widths) and (
        room is None or sum(widths[: kept + 1]) + 2 * kept <= room
    ):
        kept += 1
    text = Text(no_wrap=True, overflow="ellipsis")
    for n, row in enumerate([header, *rows]):
        if n:
            text.append("\n")
        line = "  ".join(
            cell + " " * (width - cell_len(cell))
            for cell, width in zip(row[:kept], widths[:kept], strict=True)
        )
        text.append(line.rstrip(), style="bold" if n == 0 else "")
    return text


def summary_lines(stats: Stats) -> str:
    """The headline figures in two lines, each a few facts apart; the points are the
    player's side's (in a partnership both partners', as the scoreboard counts them)."""
    if not stats.games:
        return _("No games match.") if stats.filters != Filters() else _("No games yet.")
    games = ngettext(
        "{count} game ({abandoned} abandoned)", "{count} games ({abandoned} abandoned)",
        stats.games,
    ).format(count=formats.number(stats.games), abandoned=formats.number(stats.abandoned))
    week = _("{per_week} a week").format(per_week=formats.fixed(stats.per_week, 1))
    figures = {
        "wins": formats.number(stats.wins),
        "finished": formats.number(stats.finished),
        "rate": wording.rate(stats.rate),
        "low": wording.rate(stats.low),
        "high": wording.rate(stats.high),
    }
    won = (
        _("won {wins} of {finished}: {rate} (95% CI {low}-{high})")
        if stats.finished else _("won {wins} of {finished}: {rate}")
    ).format(**figures)
    nets = ngettext(
        "Your side nets {net} a hand ({count} hand)",
        "Your side nets {net} a hand ({count} hands)",
        stats.hands,
    ).format(net=wording.points(stats.per_hand), count=formats.number(stats.hands))
    best = _("best hand {best}").format(
        best=wording.points(stats.best.net, 0) if stats.best else "-"
    )
    streak = _("best streak {streak}").format(streak=formats.number(stats.streak))
    return f"{games} · {week} · {won}\n{nets} · {best} · {streak}"


class StatsScreen(Screen[None]):
    """A player's statistics: filters, the headline figures, a table and two charts."""

    CSS_PATH = [HISTORY_CSS]

    BINDINGS = [
        Binding("escape", "close", N_("Back"), key_display="Esc"),
        Binding("p", "cycle_player", N_("Player")),
        Binding("l", "cycle_level", N_("Level")),
        Binding("n", "cycle_players", N_("Players")),
        Binding("ctrl+g", "past_games", N_("Past games"), key_display="^g"),
        Binding("question_mark", "app.show_help", N_("Help"), key_display="?"),
    ]

    @dataclass
    class Loaded(Message):
        """The figures were worked out (``error`` says why they could not be)."""

        people: list[str]
        stats: Stats
        error: str | None

    def __init__(self, player: str, *, path: Path | None = None) -> None:
        """``player`` is the person shown first (the settings' name); ``path`` the
        history database (the data folder's by default)."""
        super().__init__()
        self.player = player
        self.path = path
        self.stats: Stats | None = None
        self.level: str | None = None
        """The opponent level the figures are filtered by (``None``: any)."""
        self.players: int | None = None
        """The player count the figures are filtered by (``None``: any)."""
        self.people: list[str] = [player]
        """The people in the history, the one shown first."""
        self.loaded = False
        """True while the figures on show are those of the filters as set."""
        self._ready = False
        """True once the first figures came (filters changed before are the defaults)."""
        self._wanted = Filters()
        """The filters of the figures last asked for (older answers are dropped)."""
        self._first = True
        """The first figures are still to be read (as the screen mounts)."""

    def compose(self) -> ComposeResult:
        """Filters, figures, the table by opponents, the charts."""
        yield TooSmall()
        yield Static(self._title(), id="stats-title")
        with Horizontal(id="stats-filters"):
            # buttons that cycle (a click or p / l / n): far lighter to draw than selects
            yield compact(Button(printable(person_label(self.player)), id="stats-player"))
            # as wide as the widest label they cycle through, in the language spoken
            for name, labels in (
                ("stats-level", [level_text(c) for c in LEVEL_CHOICES]),
                ("stats-players", [players_text(c) for c in PLAYER_CHOICES]),
            ):
                button = compact(Button(labels[0], id=name))
                button.styles.min_width = max(map(cell_len, labels)) + 2  # + the line pads
                yield button
            for edge, long, short in (
                ("since", _("from yyyy-mm-dd"), _("from")), ("until", _("to yyyy-mm-dd"), _("to"))
            ):
                yield compact(FittedInput(long, short, id=f"stats-{edge}",
                                          restrict=r"[0-9-]*", max_length=10))
        yield Static(_("Reading the history…"), id="stats-summary")
        with VerticalScroll(id="stats-groups"):
            yield Static(id="stats-table")
        with Horizontal(id="stats-charts"):
            yield SeriesChart(id="stats-results")
            yield SeriesChart(id="stats-points")
        yield AppFooter()

    def _title(self) -> Text:
        return Text(
            _("Statistics of {player}").format(player=printable(person_label(self.player)))
        )

    def on_mount(self) -> None:
        """Show the first figures if they come in time for the first frame, else when
        they come."""
        if not self._first:
            self.refresh_figures()
            return
        self._first = False
        # Read on a thread, and wait for it here: the screen's widgets are made by
        # now, so the read has the interpreter to itself (reading while composing
        # made both slower), and a huge or locked history does not hold the screen.
        first = _READER.submit(read_figures, self.path, self.player, self._wanted)
        try:
            self._loaded(self.Loaded(*first.result(timeout=FIRST_WAIT)))
        except FutureTimeout:
            self.wait_for_figures(first)

    @work(thread=True, exclusive=True, group="stats")
    def read_history(self, player: str, filters: Filters) -> None:
        """Work ``player``'s figures out (and who played) off the UI thread."""
        self.post_message(self.Loaded(*read_figures(self.path, player, filters)))

    @work(thread=True, exclusive=True, group="stats")
    def wait_for_figures(self, reading: Future[Figures]) -> None:
        """Show the figures of a read that began earlier when it ends."""
        self.post_message(self.Loaded(*reading.result()))

    @on(Loaded)
    def _loaded(self, message: Loaded) -> None:
        if message.error:
            self.notify(message.error, severity="warning", timeout=10)
        if message.stats.player != self.player or message.stats.filters != self._wanted:
            return  # a player or filters chosen since
        self.people = list(dict.fromkeys([*self.people, *message.people]))
        self.show(message.stats)
        self.loaded = self._ready = True

    def filters(self) -> Filters:
        """The filters as set; ``ValueError`` for a date that is not one."""
        since = self.query_one("#stats-since", Input).value.strip()
        until = self.query_one("#stats-until", Input).value.strip()
        return Filters(
            level=self.level,
            players=self.players,
            since=parse_day(since) if since else None,
            until=parse_day(until) if until else None,
        )

    def refresh_figures(self) -> None:
        """Work the figures out again (off the UI thread) for the filters as set."""
        try:
            filters = self.filters()
        except ValueError as err:
            self.query_one("#stats-summary", Static).update(
                Content.from_markup("[b $error]$problem[/]", problem=str(err))
            )
            return
        self.loaded = False
        self._wanted = filters
        self.read_history(self.player, filters)

    def show(self, stats: Stats) -> None:
        """Show ``stats``: the headline figures, the table and the charts."""
        self.stats = stats
        summary = self.query_one("#stats-summary", Static)
        summary.update(Text(summary_lines(stats)))
        self._show_table()
        self.query_one("#stats-results", SeriesChart).show(results_chart(stats))
        self._show_points()

    def _show_points(self) -> None:
        """Draw the points by opponent level, titled to fit the chart's width (less its
        axis and frame; before the first layout, half the terminal's)."""
        if self.stats is None:
            return
        chart = self.query_one("#stats-points", SeriesChart)
        room = (chart.size.width or self.app.size.width // 2) - CHART_FRAME
        chart.show(points_chart(self.stats, room))

    def _table_room(self) -> int:
        """The columns the table by opponents has: its region's, less its padding and
        a scroll bar's (before the first layout, the terminal's less the margins)."""
        width = self.query_one("#stats-groups", VerticalScroll).size.width
        return (width or self.app.size.width - 2) - 3

    def _show_table(self) -> None:
        """Show the table by opponents in the width there is; its region is at most as
        tall as the table, and shares what is left with the charts (see history.tcss)."""
        if self.stats is None:
            return
        table = groups_text(self.stats, self._table_room())
        self.query_one("#stats-table", Static).update(table)
        most = int((self.app.size.height - 2) * GROUPS_SHARE)  # of the rows above the footer
        lines = len(table.plain.splitlines())
        self.query_one("#stats-groups", VerticalScroll).styles.max_height = min(lines, most)

    def on_resize(self) -> None:
        """Lay the table by opponents and the points' title out for the size there is now."""
        self._show_table()
        self._show_points()

    @on(Button.Pressed, "#stats-player, #stats-level, #stats-players")
    def _filter_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        action = {"stats-player": "player", "stats-level": "level"}.get(
            event.button.id or "", "players"
        )
        getattr(self, f"action_cycle_{action}")()

    def action_cycle_level(self) -> None:
        """The next opponent level (any, each level, a person)."""
        self.level = LEVEL_CHOICES[(LEVEL_CHOICES.index(self.level) + 1) % len(LEVEL_CHOICES)]
        self.query_one("#stats-level", Button).label = level_text(self.level)
        self.refresh_figures()

    def action_cycle_players(self) -> None:
        """The next player count (any, 2, 3, 4)."""
        i = PLAYER_CHOICES.index(self.players)
        self.players = PLAYER_CHOICES[(i + 1) % len(PLAYER_CHOICES)]
        self.query_one("#stats-players", Button).label = players_text(self.players)
        self.refresh_figures()

    def action_cycle_player(self) -> None:
        """The next person in the history."""
        i = self.people.index(self.player) if self.player in self.people else -1
        self.player = self.people[(i + 1) % len(self.people)]
        self.query_one("#stats-player", Button).label = printable(person_label(self.player))
        self.query_one("#stats-title", Static).update(self._title())
        self.refresh_figures()

    @on(Input.Changed)
    def _date_typed(self, event: Input.Changed) -> None:
        text = event.value.strip()
        if self._ready and (not text or len(text) == 10):
            self.refresh_figures()

    @on(Input.Submitted)
    def _date_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self._ready:
            self.refresh_figures()

    def action_close(self) -> None:
        """Back to where the screen was opened from."""
        if self.is_active:
            self.dismiss(None)

    def action_past_games(self) -> None:
        """Show the past games instead."""
        from allfives_tui.ui.screens.past_games import PastGamesScreen

        if self.is_active:
            self.app.switch_screen(PastGamesScreen(self.player, path=self.path))
