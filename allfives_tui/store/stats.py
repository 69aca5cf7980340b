"""A player's statistics from the game history: win rates, points a hand, streaks.

:func:`query` has the database work out, over the games one person played that
pass the filters, a :class:`Stats`: the win rate with a 95% Wilson interval
against each set of opponents (per player count, and in partnerships with the
partner), the average net points a hand (points scored less penalties) of the
player's side (in a partnership both partners', as the scoreboard counts them), the
side's best hand, the longest winning streak (finished games in order; an abandoned
game neither wins nor breaks it), games per week, the results week by week
and the points a hand by opponents. Win rates count finished games only;
abandoned games are counted apart. :func:`empty` is the statistics of no games.
Textual-free.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from allfives_tui.locale import _
from allfives_tui.store.history import History
from allfives_tui.store.schema import parse_utc, utc_text
from engine.intervals import Z95, wilson
from engine.players import LEVELS


@dataclass(frozen=True, slots=True)
class Filters:
    """Which games count: an opponent level among the opponents, a player count, dates
    (``since`` and ``until`` inclusive, in local time)."""

    level: str | None = None
    players: int | None = None
    since: date | None = None
    until: date | None = None



def local_day(moment: datetime) -> date:
    """The local calendar day of a stored (UTC) time."""
    return moment.astimezone().date()


@dataclass(frozen=True, slots=True)
class Group:
    """The results against one set of opponents (``label`` names them for a machine:
    ``"4p with greedy vs random+random"``; :func:`allfives_tui.store.wording.group_label`
    words them)."""

    label: str
    games: int
    finished: int
    wins: int
    rate: float | None
    low: float
    high: float
    hands: int
    net: int
    per_hand: float | None
    best: int | None
    players: int = 0
    """The player count of the games (0 for the totals)."""
    partner: str | None = None
    """The partner's level, ``person`` or ``remote`` in partnerships, else ``None``."""
    opponents: tuple[str, ...] = ()
    """The opponents' levels, ``person`` or ``remote``, sorted."""


@dataclass(frozen=True, slots=True)
class Week:
    """One week's results (``start`` is its Monday)."""

    start: date
    wins: int
    losses: int
    abandoned: int


@dataclass(frozen=True, slots=True)
class LevelPoints:
    """Net points a hand in the games against one opponent level (a game against
    greedy and random counts for both)."""

    level: str
    games: int
    hands: int
    per_hand: float | None


@dataclass(frozen=True, slots=True)
class Period:
    """Results over a run of weeks (``start`` is the first week's Monday)."""

    start: date
    weeks: int
    wins: int
    losses: int
    abandoned: int


@dataclass(frozen=True, slots=True)
class Best:
    """The best hand: its net points, and the game it was in."""

    net: int
    game_id: str
    day: date


@dataclass(frozen=True, slots=True)
class Stats:
    """A player's statistics (see the module doc)."""

    player: str
    filters: Filters
    games: int
    finished: int
    abandoned: int
    wins: int
    rate: float | None
    low: float
    high: float
    hands: int
    net: int
    per_hand: float | None
    best: Best | None
    streak: int
    per_week: float
    first: date | None
    last: date | None
    groups: tuple[Group, ...] = field(default=())
    weeks: tuple[Week, ...] = field(default=())
    by_level: tuple[LevelPoints, ...] = field(default=())

    def periods(self, most: int = 16) -> tuple[Period, ...]:
        """The weeks gathered into at most ``most`` equal runs of weeks, for a chart."""
        if not self.weeks:
            return ()
        size = max(1, -(-len(self.weeks) // most))
        out = []
        for i in range(0, len(self.weeks), size):
            run = self.weeks[i : i + size]
            out.append(Period(
                run[0].start, len(run), sum(w.wins for w in run), sum(w.losses for w in run),
                sum(w.abandoned for w in run),
            ))
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        """The statistics as plain JSON data (dates as ISO text)."""
        data = asdict(self)

        def fix(value: Any) -> Any:
            if isinstance(value, date):
                return value.isoformat()
            if isinstance(value, dict):
                return {k: fix(v) for k, v in value.items()}
            if isinstance(value, (list, tuple)):
                return [fix(v) for v in value]
            return value

        out: dict[str, Any] = fix(data)
        return out


def counted(
    label: str, games: int, finished: int, wins: int, hands: int, net: int, best: int | None,
    who: tuple[int, str | None, tuple[str, ...]] = (0, None, ()),
) -> Group:
    """A :class:`Group` from its counts (the rate, its interval and the points a hand);
    ``who`` is the player count, the partner and the opponents (see :class:`Group`)."""
    low, high = wilson(wins, finished, Z95)
    return Group(
        label=label,
        games=games,
        finished=finished,
        wins=wins,
        rate=wins / finished if finished else None,
        low=low,
        high=high,
        hands=hands,
        net=net,
        per_hand=net / hands if hands else None,
        best=best,
        players=who[0],
        partner=who[1],
        opponents=who[2],
    )


def group_label(players: int, partner: str | None, opponents: tuple[str, ...]) -> str:
    """A set of opponents for a machine: ``"2p vs greedy"``, ``"4p with greedy vs
    random+random"`` (``opponents`` sorted)."""
    against = "+".join(opponents)
    return f"{players}p with {partner} vs {against}" if partner else f"{players}p vs {against}"


def games_per_week(games: int, first: date | None, last: date | None) -> float:
    """Games a week from the first day to the last (a span under a week counts as one)."""
    if first is None or last is None:
        return 0.0
    return games / max(1.0, ((last - first).days + 1) / 7)


def level_order(level: str) -> tuple[int, str]:
    """Sort key: computer levels weakest first, then people and others by name."""
    return (LEVELS.index(level), level) if level in LEVELS else (len(LEVELS), level)


def empty(player: str, filters: Filters | None = None) -> Stats:
    """The statistics of ``player`` when there are no games (no history yet)."""
    total = counted("all", 0, 0, 0, 0, 0, None)
    return Stats(
        player=player, filters=filters or Filters(), games=0, finished=0, abandoned=0,
        wins=0, rate=total.rate, low=total.low, high=total.high, hands=0, net=0,
        per_hand=None, best=None, streak=0, per_week=0.0, first=None, last=None,
    )


_FROM = "FROM seats s JOIN games g ON g.id = s.game WHERE s.name = ? AND s.kind = 'person'"


def _where(player: str, filters: Filters) -> tuple[str, list[object]]:
    """The SQL that picks ``player``'s games that pass ``filters``, and its parameters."""
    sql = _FROM
    params: list[object] = [player]
    if filters.level is not None:
        sql += " AND instr('+' || s.opponents || '+', ?) > 0"
        params.append(f"+{filters.level}+")
    if filters.players is not None:
        sql += " AND g.players = ?"
        params.append(filters.players)
    if filters.since is not None:
        sql += " AND g.started >= ?"
        params.append(utc_text(datetime.combine(filters.since, time())))
    if filters.until is not None:
        sql += " AND g.started < ?"
        params.append(utc_text(datetime.combine(filters.until + timedelta(days=1), time())))
    return sql, params


def query(history: History, player: str, filters: Filters | None = None) -> Stats:
    """``player``'s statistics over the games that pass ``filters``, worked out by the
    database: only sums, a week's counts and one bit a game come back."""
    filters = filters or Filters()
    where, params = _where(player, filters)
    conn = history.conn
    # grouped in the order of the seats' index (schema 3): no sort, no table read;
    # the opponents and the partner give the player count and the partnership
    rows = conn.execute(
        "SELECT max(g.players), max(g.partnerships), s.partner, s.opponents, count(*), "
        "sum(g.finished), sum(coalesce(s.won, 0)), sum(s.hands), "
        f"sum(s.points - s.penalties), max(s.best), min(g.started), max(g.started) {where} "
        "GROUP BY s.opponents, s.partner",
        params,
    ).fetchall()
    merged: dict[str, list[int | None]] = {}
    who: dict[str, tuple[int, str | None, tuple[str, ...]]] = {}
    levels: dict[str, list[int]] = {}
    first_text = last_text = None
    for players, teams, partner, opponents, n, done, won, hands, net, top, lo, hi in rows:
        parts = tuple(opponents.split("+")) if opponents else ()
        mate = partner if teams else None
        label = group_label(players, mate, tuple(sorted(parts)))
        who[label] = (int(players), mate, tuple(sorted(parts)))
        m = merged.setdefault(label, [0, 0, 0, 0, 0, None])
        m[0] = (m[0] or 0) + n
        m[1] = (m[1] or 0) + done
        m[2] = (m[2] or 0) + won
        m[3] = (m[3] or 0) + hands
        m[4] = (m[4] or 0) + net
        if top is not None and (m[5] is None or top > m[5]):
            m[5] = top
        for level in set(parts):
            t = levels.setdefault(level, [0, 0, 0])
            t[0] += n
            t[1] += hands
            t[2] += net
        first_text = lo if first_text is None or lo < first_text else first_text
        last_text = hi if last_text is None or hi > last_text else last_text
    groups = [
        counted(
            label, int(n or 0), int(d or 0), int(w or 0), int(h or 0), int(t or 0), b,
            who[label],
        )
        for label, (n, d, w, h, t, b) in merged.items()
    ]
    bests = [g.best for g in groups if g.best is not None]
    total = counted(
        "all", sum(g.games for g in groups), sum(g.finished for g in groups),
        sum(g.wins for g in groups), sum(g.hands for g in groups),
        sum(g.net for g in groups), max(bests) if bests else None,
    )
    best: Best | None = None
    if total.best is not None:  # the first game with the best hand
        row = conn.execute(
            f"SELECT g.game_id, g.started {where} AND s.best = ? "
            "ORDER BY g.started, g.id LIMIT 1",
            [*params, total.best],
        ).fetchone()
        if row is not None:
            best = Best(total.best, row[0], local_day(parse_utc(row[1])))
    # every finished game's result in order, as one string of 1s and 0s
    (results,) = conn.execute(
        "SELECT group_concat(won, '') FROM "
        f"(SELECT coalesce(s.won, 0) AS won {where} AND g.finished = 1 "
        "ORDER BY g.started, g.id)",
        params,
    ).fetchone()
    streak = max((len(run) for run in (results or "").split("0")), default=0)
    counts = {
        date.fromisoformat(monday_text): (w, lost, ab)
        for monday_text, w, lost, ab in conn.execute(
            "SELECT date(g.started, 'localtime', 'weekday 0', '-6 days') AS week, "
            "sum(coalesce(s.won, 0)), sum(g.finished) - sum(coalesce(s.won, 0)), "
            f"sum(1 - g.finished) {where} GROUP BY week",
            params,
        )
    }
    weeks: list[Week] = []
    if counts:
        day, end = min(counts), max(counts)
        while day <= end:
            w, lost, ab = counts.get(day, (0, 0, 0))
            weeks.append(Week(day, w, lost, ab))
            day += timedelta(days=7)
    first = local_day(parse_utc(first_text)) if first_text else None
    last = local_day(parse_utc(last_text)) if last_text else None
    per_week = games_per_week(total.games, first, last)
    return Stats(
        player=player,
        filters=filters,
        games=total.games,
        finished=total.finished,
        abandoned=total.games - total.finished,
        wins=total.wins,
        rate=total.rate,
        low=total.low,
        high=total.high,
        hands=total.hands,
        net=total.net,
        per_hand=total.per_hand,
        best=best,
        streak=streak,
        per_week=per_week,
        first=first,
        last=last,
        groups=tuple(sorted(groups, key=lambda gr: (-gr.games, gr.label))),
        weeks=tuple(weeks),
        by_level=tuple(
            LevelPoints(level, n, hands, net / hands if hands else None)
            for level, (n, hands, net) in sorted(
                levels.items(), key=lambda kv: level_order(kv[0])
            )
        ),
    )


def parse_day(text: str) -> date:
    """A date as the filters take it: ``YYYY-MM-DD``; ``ValueError`` in words."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(
            _("{text} is not a date: write it like 2026-03-31").format(text=repr(text.strip()))
        ) from None
