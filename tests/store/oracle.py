"""The test oracle of the statistics: the same figures worked out in Python from
:meth:`History.player_games <allfives_tui.store.history.History.player_games>`.

The product works the statistics out in SQL (:func:`allfives_tui.store.stats.query`);
the tests check its figures against :func:`compute` on real recorded games, and
:func:`compute` itself against a recomputation from the game records.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, timedelta

from allfives_tui.store.stats import (
    Best,
    Filters,
    Group,
    LevelPoints,
    Stats,
    Week,
    counted,
    games_per_week,
    level_order,
)
from allfives_tui.store.summary import PlayerGame


def keeps(filters: Filters, game: PlayerGame) -> bool:
    """True when ``game`` passes every filter of ``filters``."""
    if filters.level is not None and filters.level not in game.opponents:
        return False
    if filters.players is not None and game.players != filters.players:
        return False
    day = game.day
    if filters.since is not None and day < filters.since:
        return False
    return filters.until is None or day <= filters.until


def opponents_label(game: PlayerGame) -> str:
    """The set of opponents in words: "2p vs greedy", "4p with heuristic vs random+random"."""
    opponents = "+".join(sorted(game.opponents))
    if game.partnerships:
        return f"{game.players}p with {game.partner} vs {opponents}"
    return f"{game.players}p vs {opponents}"


def _group(label: str, games: Sequence[PlayerGame], totals: bool = False) -> Group:
    finished = [g for g in games if g.finished]
    bests = [g.best for g in games if g.best is not None]
    one = games[0] if games and not totals else None
    who = (0, None, ()) if one is None else (
        one.players, one.partner if one.partnerships else None, tuple(sorted(one.opponents))
    )
    return counted(
        label, len(games), len(finished), sum(1 for g in finished if g.won),
        sum(g.hands for g in games), sum(g.points - g.penalties for g in games),
        max(bests) if bests else None, who,
    )



def longest_streak(games: Iterable[PlayerGame]) -> int:
    """The most finished games won in a row (abandoned games skipped)."""
    best = run = 0
    for g in games:
        if not g.finished:
            continue
        run = run + 1 if g.won else 0
        best = max(best, run)
    return best


def monday(day: date) -> date:
    """The Monday of ``day``'s week."""
    return day - timedelta(days=day.weekday())


def weeks_of(games: Sequence[PlayerGame]) -> tuple[Week, ...]:
    """Results week by week, from the first game's week to the last's (empty weeks too)."""
    if not games:
        return ()
    counts: dict[date, list[int]] = {}
    for g in games:
        c = counts.setdefault(monday(g.day), [0, 0, 0])
        c[0 if g.won else 1 if g.finished else 2] += 1
    first, last = min(counts), max(counts)
    out = []
    day = first
    while day <= last:
        w, lost, ab = counts.get(day, (0, 0, 0))
        out.append(Week(day, w, lost, ab))
        day += timedelta(days=7)
    return tuple(out)


def by_level(games: Sequence[PlayerGame]) -> tuple[LevelPoints, ...]:
    """Net points a hand against each opponent level, weakest level first."""
    totals: dict[str, list[int]] = {}
    for g in games:
        for level in set(g.opponents):
            t = totals.setdefault(level, [0, 0, 0])
            t[0] += 1
            t[1] += g.hands
            t[2] += g.points - g.penalties
    return tuple(
        LevelPoints(level, n, hands, net / hands if hands else None)
        for level, (n, hands, net) in sorted(totals.items(), key=lambda kv: level_order(kv[0]))
    )


def compute(games: Sequence[PlayerGame], player: str, filters: Filters | None = None) -> Stats:
    """The statistics of ``player`` over ``games`` (oldest first) that pass ``filters``."""
    filters = filters or Filters()
    kept = [g for g in games if keeps(filters, g)]
    total = _group("all", kept, totals=True)
    groups: dict[str, list[PlayerGame]] = {}
    for g in kept:
        groups.setdefault(opponents_label(g), []).append(g)
    best: Best | None = None
    for g in kept:
        if g.best is not None and (best is None or g.best > best.net):
            best = Best(g.best, g.game_id, g.day)
    first = kept[0].day if kept else None
    last = kept[-1].day if kept else None
    per_week = games_per_week(len(kept), first, last)
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
        streak=longest_streak(kept),
        per_week=per_week,
        first=first,
        last=last,
        groups=tuple(
            sorted((_group(k, v) for k, v in groups.items()), key=lambda gr: (-gr.games, gr.label))
        ),
        weeks=weeks_of(kept),
        by_level=by_level(kept),
    )
