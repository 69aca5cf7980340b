"""The history database's schema, its migrations, and how values are stored in it.

The schema is versioned with ``PRAGMA user_version`` and upgraded forward step
by step (:data:`MIGRATIONS`); times are stored as UTC text (:func:`utc_text`)
and records as compressed JSON (:func:`compress`).
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Callable
from datetime import UTC, datetime

from allfives_tui.table.problems import STORED_DAMAGED
from engine.errors import RecordError
from engine.record import PLACE_NAMES, PLACES, GameRecord, LoadedGame, parse_game
from engine.record_versions import OLD_FIRST_NAME

_SCHEMA_V1 = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL UNIQUE,
    started TEXT NOT NULL,
    recorded TEXT NOT NULL,
    players INTEGER NOT NULL,
    partnerships INTEGER NOT NULL,
    hand_size TEXT NOT NULL,
    target INTEGER NOT NULL,
    seed INTEGER,
    finished INTEGER NOT NULL,
    winner INTEGER,
    scores TEXT NOT NULL,
    hands INTEGER NOT NULL,
    actions INTEGER NOT NULL,
    first_deal TEXT NOT NULL,
    source TEXT NOT NULL,
    record BLOB NOT NULL
);
CREATE INDEX games_started ON games(started);
CREATE INDEX games_first_deal ON games(first_deal);
CREATE TABLE seats (
    game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    level TEXT,
    team INTEGER NOT NULL,
    won INTEGER,
    score INTEGER NOT NULL,
    opponents TEXT NOT NULL,
    partner TEXT,
    hands INTEGER NOT NULL,
    points INTEGER NOT NULL,
    penalties INTEGER NOT NULL,
    best INTEGER,
    PRIMARY KEY (game, seat)
) WITHOUT ROWID;
CREATE INDEX seats_person ON seats(name, kind);
CREATE TABLE hands (
    game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    hand INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    points INTEGER NOT NULL,
    penalty INTEGER NOT NULL,
    pips INTEGER NOT NULL,
    went_out INTEGER NOT NULL,
    PRIMARY KEY (game, hand, seat)
) WITHOUT ROWID;
"""
"""Schema version 1 (version 2 moves ``games.record`` to a table of its own).

``games``: one row a game; ``started``/``recorded`` are UTC ``YYYY-MM-DDTHH:MM:SSZ``;
``finished`` 1 when a side won (``winner`` is its team), 0 when abandoned;
``scores`` the final team scores (JSON); ``first_deal`` a hash of the first deal
(duplicates on import); ``source`` ``"play"`` or ``"import"``; ``record`` the
zlib-compressed record JSON. ``seats``: one row a seat, with the seat's team's
result (``won`` NULL when abandoned), its opponents' levels (``person`` for a
person; ``+``-joined, seat order), its partner's, and its hands (a hand counts
when it ended or the game ended in it), points, penalties and best net hand
(from version 4, in a partnership, its side's: both partners'). A seat's ``name`` is
the name it was given, or (from version 5) the code of its place (``"north"``) when it
had that place's default name (:func:`allfives_tui.table.places.person_key`).
``hands``: each seat's points and penalty in each counted hand.
"""

Migration = Callable[[sqlite3.Connection], None]


def _script(script: str) -> Migration:
    """A migration step that runs the statements of ``script`` (``;``-separated)."""

    def step(conn: sqlite3.Connection) -> None:
        for statement in script.split(";"):
            if statement.strip():
                conn.execute(statement)

    return step


_to_v1 = _script(_SCHEMA_V1)


_SCHEMA_V2 = """
CREATE TABLE records (
    game INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    record BLOB NOT NULL
);
INSERT INTO records (game, record) SELECT id, record FROM games;
ALTER TABLE games DROP COLUMN record
"""
"""Schema version 2: each game's compressed record in ``records``, so that reading the
games (the statistics, the list) does not read every record with them."""


_to_v2 = _script(_SCHEMA_V2)


_SCHEMA_V3 = """
CREATE INDEX seats_person_stats
    ON seats(name, kind, opponents, partner, game, won, hands, points, penalties, best);
DROP INDEX seats_person
"""
"""Schema version 3: one index holds everything the statistics read of a person's
seats, in the order of their groups (by opponents and partner), so
:func:`~allfives_tui.store.stats.query` sums them without reading the seats table
or sorting. It starts with (name, kind), so it also does the work of the index it
replaces."""


_to_v3 = _script(_SCHEMA_V3)


_SIDE = "h.game = seats.game AND h.seat % 2 = seats.seat % 2"
_SCHEMA_V4 = f"""
UPDATE seats SET
    points = (SELECT coalesce(sum(h.points), 0) FROM hands h WHERE {_SIDE}),
    penalties = (SELECT coalesce(sum(h.penalty), 0) FROM hands h WHERE {_SIDE}),
    best = (SELECT sum(h.points - h.penalty) AS net FROM hands h WHERE {_SIDE}
            GROUP BY h.hand ORDER BY net DESC LIMIT 1)
WHERE game IN (SELECT id FROM games WHERE partnerships = 1)
"""
"""Schema version 4: in a partnership game a seat's ``points``, ``penalties`` and
``best`` are its side's (both partners' hands, as the scoreboard counts them), worked
out again from ``hands`` (a partnership's teams are the seats' parities)."""


_to_v4 = _script(_SCHEMA_V4)


def _to_v5(conn: sqlite3.Connection) -> None:
    """Schema version 5: a seat that had its place's default name is kept as the place's
    code (``seats.name`` ``"north"``), not as an English word: the names older allfives
    gave by default (a place's English name at that place, the first person's ``"You"``)
    become the code, as :func:`engine.record_versions.upgrade_v2` reads them in a record."""
    rows = conn.execute(
        "SELECT s.game, s.seat, s.name, s.kind, g.players FROM seats s "
        "JOIN games g ON g.id = s.game WHERE s.name IN (?, ?, ?, ?, ?)",
        (*PLACE_NAMES.values(), OLD_FIRST_NAME),
    ).fetchall()
    for game, seat, name, kind, players in rows:
        places = PLACES.get(players, ())
        if not 0 <= seat < len(places):
            continue
        place = places[seat]
        first = seat == 0 and kind == "person" and name == OLD_FIRST_NAME
        if name == PLACE_NAMES[place] or first:
            conn.execute(
                "UPDATE seats SET name = ? WHERE game = ? AND seat = ?", (place, game, seat)
            )


MIGRATIONS: tuple[Migration, ...] = (_to_v1, _to_v2, _to_v3, _to_v4, _to_v5)
"""``MIGRATIONS[i]`` upgrades schema version ``i`` to ``i + 1``; the last gives
:data:`SCHEMA_VERSION`. A new version appends one step, never edits an old one."""
SCHEMA_VERSION = len(MIGRATIONS)


def utc_text(moment: datetime) -> str:
    """``moment`` as stored: UTC, ``YYYY-MM-DDTHH:MM:SSZ`` (naive times are local)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_utc(text: str) -> datetime:
    """A stored time back as an aware UTC datetime."""
    return datetime.fromisoformat(text)


def compress(record: GameRecord) -> bytes:
    """The record as stored: compact JSON, zlib-compressed."""
    text = json.dumps(record.model_dump(mode="json"), separators=(",", ":"))
    return zlib.compress(text.encode("utf-8"), 6)


def decompress(blob: bytes) -> LoadedGame:
    """A stored record, validated and replayed; :class:`RecordError` if it is damaged."""
    try:
        text = zlib.decompress(blob)
    except (zlib.error, TypeError):
        raise RecordError("the stored record is damaged", code=STORED_DAMAGED) from None
    return parse_game(text)

