"""The game history: every finished or abandoned game, in SQLite in the data folder.

``history.sqlite`` holds, for every game: when it started and was recorded,
the rules, the seats (names, kinds, levels), each hand's points and penalties
per seat, the final scores, the winner and the whole game record (compressed
JSON), so any past game can be replayed without a saved file. The schema is
versioned with ``PRAGMA user_version`` and upgraded forward step by step
(:data:`MIGRATIONS`); the database runs in WAL mode, so readers never block
the writer.

Recording never loses a game: when the database cannot be written (missing
folder, locked, read-only, full disk, newer schema) the record is kept as a
file in ``unrecorded/`` in the data folder, and :class:`RecordOutcome` says so
in one line; the next successful recording adds those files too. A damaged
database is set aside under a new name (with its ``-wal``/``-shm`` files) and
a new one starts; one removed or replaced while allfives runs is noticed before
the next game is written (the file's device and inode) and opened afresh.
:class:`HistoryWriter` records on a background thread, so play never waits.
Nothing here imports Textual.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import zlib
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Literal

from allfives_tui.store.folder import damaged_name, data_dir
from allfives_tui.table.words import one_line, printable
from engine import GameOver, HandOver, Placed
from engine.errors import RecordError, shown
from engine.files import atomic_write
from engine.record import GameRecord, LoadedGame, parse_game
from engine.rng import SEED_LIMIT
from engine.rules import MAX_TARGET

DB_NAME = "history.sqlite"
UNRECORDED = "unrecorded"
"""The folder (in the data folder) of games that could not be recorded yet."""
BUSY_MS = 2000
"""How long a write waits for another process's write before giving up."""
PERSON = "person"
"""In ``seats.opponents`` and ``seats.partner``: a seat played by a person."""

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
(from version 4, in a partnership, its side's: both partners').
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
games (the statistics, the list) no longer reads every record with them: with
10,000 games, reading one person's games took 90 ms instead of about 15."""


_to_v2 = _script(_SCHEMA_V2)


_SCHEMA_V3 = """
CREATE INDEX seats_person_stats
    ON seats(name, kind, opponents, partner, game, won, hands, points, penalties, best);
DROP INDEX seats_person
"""
"""Schema version 3: one index holds everything the statistics read of a person's
seats, in the order of their groups (by opponents and partner), so they are summed
without reading the seats table or sorting: with 10,000 games the statements of
:func:`~allfives_tui.store.stats.query` took 17 ms instead of 35. It starts
with (name, kind), so it also does the work of the index it replaces."""


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


MIGRATIONS: tuple[Migration, ...] = (_to_v1, _to_v2, _to_v3, _to_v4)
"""``MIGRATIONS[i]`` upgrades schema version ``i`` to ``i + 1``; the last gives
:data:`SCHEMA_VERSION`. A new version appends one step, never edits an old one."""
SCHEMA_VERSION = len(MIGRATIONS)


def quoted(value: object, most: int = 80) -> str:
    """``value`` as an error line quotes it, in at most about ``most`` characters: text
    (a file's name) as it is but printable, anything else as :func:`~engine.errors.shown`
    shows it."""
    if not isinstance(value, str):
        return shown(value, most)
    text = printable(value)
    return text if len(text) <= most else text[: most - 1] + "…"


class HistoryError(ValueError):
    """The history cannot be read or written; ``str`` is one line saying why."""


class NewerHistoryError(HistoryError):
    """The database was written by a newer allfives (a schema version above ours)."""


def history_path(folder: Path | None = None) -> Path:
    """Where the history database is."""
    return (folder or data_dir()) / DB_NAME


def utc_text(moment: datetime) -> str:
    """``moment`` as stored: UTC, ``YYYY-MM-DDTHH:MM:SSZ`` (naive times are local)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_utc(text: str) -> datetime:
    """A stored time back as an aware UTC datetime."""
    return datetime.fromisoformat(text)


def _started(record: GameRecord, now: datetime) -> str:
    if record.created:
        try:
            moment = datetime.fromisoformat(record.created)
        except ValueError:
            return utc_text(now)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return utc_text(moment)
    return utc_text(now)


def compress(record: GameRecord) -> bytes:
    """The record as stored: compact JSON, zlib-compressed."""
    text = json.dumps(record.model_dump(mode="json"), separators=(",", ":"))
    return zlib.compress(text.encode("utf-8"), 6)


def decompress(blob: bytes) -> LoadedGame:
    """A stored record, validated and replayed; :class:`RecordError` if it is damaged."""
    try:
        text = zlib.decompress(blob)
    except (zlib.error, TypeError):
        raise RecordError("the stored record is damaged") from None
    return parse_game(text)


def deal_key(record: GameRecord) -> str:
    """A hash of the record's first deal (empty for a record with no deal)."""
    if not record.hands:
        return ""
    deal = record.hands[0].deal.model_dump(mode="json")
    text = json.dumps(deal, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def is_prefix(short: GameRecord, long: GameRecord) -> bool:
    """True when ``short``'s deals are ``long``'s and its actions a prefix of ``long``'s."""
    if short.rules != long.rules or len(short.hands) > len(long.hands):
        return False
    last = len(short.hands) - 1
    for i, hand in enumerate(short.hands):
        other = long.hands[i]
        if hand.deal != other.deal:
            return False
        if i < last and hand.actions != other.actions:
            return False
        if i == last and other.actions[: len(hand.actions)] != hand.actions:
            return False
    return True


@dataclass(frozen=True, slots=True)
class ImportResult:
    """What an import did: ``"added"``, ``"skipped"`` (the history holds the game:
    ``game_id`` is the stored one) or ``"extended"`` (it replaced an earlier save)."""

    outcome: Literal["added", "skipped", "extended"]
    game_id: str


@dataclass(frozen=True, slots=True)
class HandScore:
    """One seat's part of one hand: points scored, penalty, pips left, went out."""

    hand: int
    seat: int
    points: int
    penalty: int
    pips: int
    went_out: bool


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What the history keeps of a game besides its record."""

    finished: bool
    winner: int | None
    scores: tuple[int, ...]
    hands: int
    hand_scores: tuple[HandScore, ...]


def game_facts(game: LoadedGame) -> GameFacts:
    """The result and every counted hand's scores of a loaded game.

    A hand counts when it ended (a :class:`HandOver`) or the game ended in it;
    the unfinished last hand of an abandoned game does not.
    """
    players = game.record.rules.players
    points = [0] * players
    out: list[HandScore] = []
    winner: int | None = None
    for step in game.steps:
        if step.move == 0:
            points = [0] * players
        for event in step.events:
            if isinstance(event, Placed):
                points[event.seat] += event.points
            elif isinstance(event, HandOver):
                out.extend(
                    HandScore(
                        step.hand, s, points[s], event.penalties[s], event.pips[s],
                        event.out_seat == s,
                    )
                    for s in range(players)
                )
                points = [0] * players
            elif isinstance(event, GameOver):
                winner = event.winner
                if not out or out[-1].hand != step.hand:
                    out.extend(HandScore(step.hand, s, points[s], 0, 0, False)
                               for s in range(players))
    state = game.state
    return GameFacts(
        finished=state.is_terminal,
        winner=winner if winner is not None else state.winner,
        scores=tuple(state.scores),
        hands=len(game.record.hands),
        hand_scores=tuple(out),
    )


def as_seen_by(record: GameRecord, seat: int) -> GameRecord:
    """A networked game's record as the person at ``seat`` keeps it in their history:
    their seat a person's, every other person's a remote player's (the host's record
    says so of the host's seat's guests only); the computers as they were."""
    seats = tuple(
        s if s.kind == "computer"
        else s.model_copy(update={"kind": "person" if i == seat else "remote"})
        for i, s in enumerate(record.seats)
    )
    return record.model_copy(update={"seats": seats})


def _seat_label(record: GameRecord, seat: int) -> str:
    """A seat as an opponent or partner: its level, ``person`` or ``remote``."""
    s = record.seats[seat]
    return (s.level or PERSON) if s.kind == "computer" else s.kind


# -- what is read back ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """A seat of a past game."""

    name: str
    kind: str
    level: str | None


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A past game as the list of past games shows it (no record)."""

    key: int
    """The row's id in this database."""
    game_id: str
    started: datetime
    players: int
    partnerships: bool
    target: int
    finished: bool
    winner: int | None
    scores: tuple[int, ...]
    hands: int
    seats: tuple[SeatSummary, ...]

    def team_of(self, seat: int) -> int:
        """The scoring side of ``seat``."""
        return seat % 2 if self.partnerships else seat

    def seat_of(self, name: str) -> int:
        """The seat of the person ``name`` (else the first person's, else seat 0)."""
        people = [i for i, s in enumerate(self.seats) if s.kind == "person"]
        mine = [i for i in people if self.seats[i].name == name]
        return (mine or people or [0])[0]

    def others(self, name: str) -> str:
        """Everyone at the table but ``name``: "North (greedy), Ana"."""
        me = self.seat_of(name)
        return ", ".join(
            f"{s.name} ({s.level})" if s.kind == "computer" and s.level else s.name
            for i, s in enumerate(self.seats)
            if i != me
        )

    def opponents(self, name: str) -> str:
        """Who ``name`` played, briefly: computers by level, people by name; in
        partnerships the partner first ("with greedy vs random, Ana")."""
        me = self.seat_of(name)

        def who(seat: int) -> str:
            s = self.seats[seat]
            return (s.level or s.name) if s.kind == "computer" else s.name

        mine = self.team_of(me)
        against = ", ".join(
            who(i) for i in range(len(self.seats)) if self.team_of(i) != mine
        )
        mates = [who(i) for i in range(len(self.seats)) if i != me and self.team_of(i) == mine]
        return f"with {mates[0]} vs {against}" if mates else against

    def result(self, name: str) -> str:
        """The result for ``name``: "won 105:60", "lost 80:150" or "abandoned 35:40"."""
        me = self.team_of(self.seat_of(name))
        mine = self.scores[me] if me < len(self.scores) else 0
        best_other = max((s for t, s in enumerate(self.scores) if t != me), default=0)
        score = f"{mine}:{best_other}"
        if not self.finished:
            return f"abandoned {score}"
        return f"{'won' if self.winner == me else 'lost'} {score}"

    def local_start(self) -> str:
        """When it started, in local time: "2026-01-05 09:00"."""
        return self.started.astimezone().strftime("%Y-%m-%d %H:%M")

    def search_text(self, name: str) -> str:
        """What a search looks in (lower case): the date, the players and levels, the
        result for ``name``, the player count and the id."""
        return " ".join(
            (self.local_start(), self.others(name), self.result(name), f"{self.players}p",
             "partners" if self.partnerships else "", self.game_id)
        ).lower()

    def matches(self, text: str, name: str) -> bool:
        """True when every word of ``text`` is in :meth:`search_text`, ignoring case."""
        hay = self.search_text(name)
        return all(word in hay for word in text.lower().split())


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """One game from the seat of one person: what the statistics are made of."""

    game_id: str
    started: datetime
    day: date
    """The local calendar day it started."""
    players: int
    partnerships: bool
    finished: bool
    won: bool | None
    opponents: tuple[str, ...]
    partner: str | None
    hands: int
    points: int
    """Points scored by the person's side (in a partnership, both partners')."""
    penalties: int
    """Penalties of the person's side."""
    best: int | None
    """The side's best net hand."""
    score: int


# -- the database -----------------------------------------------------------------------


def _check_numbers(record: GameRecord) -> None:
    """Refuse (:class:`HistoryError`) a seed or target the history cannot keep (the
    engine refuses them too; a record changed without validation may still hold one)."""
    seed = record.seed
    if seed is not None and not 0 <= seed < SEED_LIMIT:
        raise HistoryError(
            f"the seed {quoted(seed)} is out of range: a seed is a whole number "
            f"from 0 to {SEED_LIMIT - 1}"
        )
    target = record.rules.target
    if not 0 < target <= MAX_TARGET:
        raise HistoryError(
            f"the target {quoted(target)} is out of range: at most {MAX_TARGET:,} points"
        )


def _is_corrupt(err: sqlite3.Error) -> bool:
    name = getattr(err, "sqlite_errorname", "")
    if name in ("SQLITE_CORRUPT", "SQLITE_NOTADB"):
        return True
    text = str(err)
    return "not a database" in text or "malformed" in text


def _reason(err: BaseException) -> str:
    if isinstance(err, OSError):
        return one_line(err.strerror or str(err))
    if isinstance(err, (HistoryError, sqlite3.Error, RecordError)):
        return one_line(str(err))
    return f"unexpected {type(err).__name__}: {quoted(one_line(str(err)))}"


def set_aside(path: Path, now: datetime | None = None) -> Path:
    """Rename a damaged database (and its ``-wal``/``-shm``) out of the way; its new name."""
    aside = damaged_name(path, now)
    os.rename(path, aside)
    for extra in ("-wal", "-shm", "-journal"):
        side = Path(f"{path}{extra}")
        if os.path.lexists(side):
            with contextlib.suppress(OSError):
                os.rename(side, Path(f"{aside}{extra}"))
    return aside


class _SetAside(Exception):
    """A damaged database was just set aside as ``path``."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(reason)
        self.path = path
        self.reason = reason


class History:
    """The game history in one SQLite file (one connection; use from one thread).

    Opening creates the file (and folder) if needed and upgrades an older
    schema. A damaged file is set aside (:attr:`notice` says where) and a new
    one started. Raises :class:`HistoryError` when it cannot be opened.
    """

    def __init__(
        self,
        path: Path | None = None,
        *,
        readonly: bool = False,
        migrations: Sequence[Migration] = MIGRATIONS,
    ) -> None:
        self.path = path or history_path()
        self.notice: str | None = None
        """Set when a damaged database was set aside on opening."""
        self._migrations = tuple(migrations)
        self._identity: tuple[int, int] | None = None
        try:
            self.conn = self._open(readonly)
        except _SetAside as aside:
            self.notice = (
                f"The game history was damaged ({aside.reason}): it is set aside as "
                f"{aside.path}, and a new history starts."
            )
            try:
                self.conn = self._open(readonly)
            except (sqlite3.Error, _SetAside) as again:
                raise HistoryError(
                    f"the history {self.path} cannot be opened: {_reason(again)}"
                ) from None
        except sqlite3.Error as err:
            raise HistoryError(
                f"the history {self.path} cannot be opened: {_reason(err)}"
            ) from None
        self._identity = self._file()

    def _file(self) -> tuple[int, int] | None:
        """The device and inode of the file at :attr:`path` (``None`` if there is none)."""
        try:
            info = os.stat(self.path)
        except OSError:
            return None
        return (info.st_dev, info.st_ino)

    def is_current(self) -> bool:
        """True while the file at :attr:`path` is the one opened (not removed, moved
        away or replaced since)."""
        return self._identity is not None and self._file() == self._identity

    @property
    def version(self) -> int:
        """The schema version of the open database."""
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    def _open(self, readonly: bool) -> sqlite3.Connection:
        if readonly:
            if not self.path.exists():
                raise HistoryError("there is no game history yet")
            uri = f"{self.path.resolve().as_uri()}?mode=ro"
            conn = sqlite3.connect(
                uri, uri=True, timeout=BUSY_MS / 1000, isolation_level=None
            )
        else:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise HistoryError(
                    f"the folder {self.path.parent} cannot be made: {_reason(err)}"
                ) from None
            conn = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None)
        try:
            conn.execute("PRAGMA foreign_keys = ON")
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            latest = len(self._migrations)
            if version > latest:
                raise NewerHistoryError(
                    f"the history {self.path} is from a newer allfives (schema {version}, "
                    f"this one reads up to {latest}): upgrade allfives"
                )
            if not readonly:
                conn.execute("PRAGMA journal_mode = WAL").fetchone()
                # in WAL mode a crash or kill never corrupts; only a power cut may lose
                # the last commits, and the game is still in current.json then
                conn.execute("PRAGMA synchronous = NORMAL")
                if version < latest:
                    self._migrate(conn, version)
                    if version > 0:  # an upgrade may leave the tables scattered
                        conn.execute("VACUUM")
            elif version < latest:
                raise HistoryError(
                    f"the history {self.path} needs an upgrade (schema {version}); "
                    "it happens at the next game recorded"
                )
            if version == latest:
                conn.execute("SELECT 1 FROM games LIMIT 1").fetchall()
        except sqlite3.Error as err:
            try:
                if not _is_corrupt(err) or readonly:
                    raise
                try:  # set aside while still open: closing may remove the -wal and -shm
                    aside = set_aside(self.path)
                except OSError as move:
                    raise HistoryError(
                        f"the history {self.path} is damaged ({_reason(err)}) and could not "
                        f"be set aside: {_reason(move)}"
                    ) from None
                raise _SetAside(aside, _reason(err)) from None
            finally:
                conn.close()
        except BaseException:
            conn.close()
            raise
        return conn

    def _migrate(self, conn: sqlite3.Connection, version: int) -> None:
        """Apply every step from ``version`` up, each in its own transaction."""
        for target in range(version, len(self._migrations)):
            conn.execute("BEGIN IMMEDIATE")
            try:
                self._migrations[target](conn)
                conn.execute(f"PRAGMA user_version = {target + 1}")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def __enter__(self) -> History:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -----------------------------------------------------------------------
    def record(
        self,
        game: GameRecord | LoadedGame,
        *,
        now: datetime | None = None,
        source: str = "play",
    ) -> bool:
        """Add a game, or bring a stored game with the same id up to date.

        A game already stored with as many actions or more is left as it is
        (False); True when the history changed. ``now`` is when it is
        recorded (the present by default).
        """
        loaded = game if isinstance(game, LoadedGame) else LoadedGame(game, tuple(game.steps()))
        record = loaded.record
        _check_numbers(record)
        now = now or datetime.now(UTC)
        row = self.conn.execute(
            "SELECT id, actions FROM games WHERE game_id = ?", (record.game_id,)
        ).fetchone()
        if row is not None and row[1] >= record.action_count:
            return False
        facts = game_facts(loaded)
        rules = record.rules
        with self._transaction():
            if row is not None:
                self.conn.execute("DELETE FROM games WHERE id = ?", (row[0],))
            cur = self.conn.execute(
                "INSERT INTO games (game_id, started, recorded, players, partnerships, "
                "hand_size, target, seed, finished, winner, scores, hands, actions, "
                "first_deal, source) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    record.game_id, _started(record, now), utc_text(now), rules.players,
                    int(rules.partnerships), rules.hand_size.value, rules.target, record.seed,
                    int(facts.finished), facts.winner if facts.finished else None,
                    json.dumps(list(facts.scores)), facts.hands, record.action_count,
                    deal_key(record), source,
                ),
            )
            key = cur.lastrowid
            self.conn.execute("INSERT INTO records VALUES (?, ?)", (key, compress(record)))
            self.conn.executemany(
                "INSERT INTO hands VALUES (?,?,?,?,?,?,?)",
                [(key, h.hand, h.seat, h.points, h.penalty, h.pips, int(h.went_out))
                 for h in facts.hand_scores],
            )
            self.conn.executemany(
                "INSERT INTO seats VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [self._seat_row(key, record, facts, s) for s in range(rules.players)],
            )
        return True

    @staticmethod
    def _seat_row(
        key: int | None, record: GameRecord, facts: GameFacts, seat: int
    ) -> tuple[object, ...]:
        rules = record.rules
        team = rules.team_of(seat)
        s = record.seats[seat]
        side = rules.seats_of(team)
        mates = [o for o in side if o != seat]
        opponents = [o for o in range(rules.players) if rules.team_of(o) != team]
        ours = [h for h in facts.hand_scores if h.seat in side]
        nets: dict[int, int] = {}
        for h in ours:
            nets[h.hand] = nets.get(h.hand, 0) + h.points - h.penalty
        won = None if not facts.finished else int(facts.winner == team)
        return (
            key, seat, s.name, s.kind, s.level, team, won, facts.scores[team],
            "+".join(_seat_label(record, o) for o in opponents),
            _seat_label(record, mates[0]) if mates else None,
            len(nets), sum(h.points for h in ours), sum(h.penalty for h in ours),
            max(nets.values()) if nets else None,
        )

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def _same_deals(self, record: GameRecord) -> Iterator[tuple[str, GameRecord]]:
        """Stored games that begin with ``record``'s first deal, and their records."""
        rows = self.conn.execute(
            "SELECT g.game_id, r.record FROM games g JOIN records r ON r.game = g.id "
            "WHERE g.first_deal = ?",
            (deal_key(record),),
        ).fetchall()
        for game_id, blob in rows:
            try:
                yield str(game_id), decompress(blob).record
            except RecordError:
                continue

    def duplicate_of(self, record: GameRecord) -> str | None:
        """The id of a stored game ``record`` repeats: the same id, or the same deals
        with actions that are a prefix of the stored game's; ``None`` if it is new."""
        if self.conn.execute(
            "SELECT 1 FROM games WHERE game_id = ?", (record.game_id,)
        ).fetchone():
            return record.game_id
        for game_id, stored in self._same_deals(record):
            if is_prefix(record, stored):
                return game_id
        return None

    def import_game(self, game: LoadedGame, *, now: datetime | None = None) -> ImportResult:
        """Add a saved game unless the history holds it already.

        A game the history holds (:meth:`duplicate_of`) is skipped. A stored game
        that is an earlier moment of this one (under another id: two saves of a
        version 1 game) is replaced by it. Otherwise it is added.
        """
        same = self.duplicate_of(game.record)
        if same is not None:
            return ImportResult("skipped", same)
        earlier = [
            game_id for game_id, stored in self._same_deals(game.record)
            if is_prefix(stored, game.record)
        ]
        for game_id in earlier:
            self.delete(game_id)
        self.record(game, now=now, source="import")
        return ImportResult("extended" if earlier else "added", game.record.game_id)

    def delete(self, game_id: str) -> bool:
        """Remove a game; False if there was none of that id."""
        with self._transaction():
            cur = self.conn.execute("DELETE FROM games WHERE game_id = ?", (game_id,))
        return cur.rowcount > 0

    # -- reading -----------------------------------------------------------------------
    def count(self) -> int:
        """How many games are stored."""
        return int(self.conn.execute("SELECT count(*) FROM games").fetchone()[0])

    def games(self, limit: int | None = None) -> list[GameSummary]:
        """Past games, newest first (at most ``limit``)."""
        sql = (
            "SELECT id, game_id, started, players, partnerships, target, finished, winner, "
            "scores, hands FROM games ORDER BY started DESC, id DESC"
        )
        params: tuple[int, ...] = ()
        if limit is not None:
            sql += " LIMIT ?"
            params = (limit,)
        rows = self.conn.execute(sql, params).fetchall()
        seats: dict[int, list[SeatSummary]] = {}
        seat_sql = "SELECT game, name, kind, level FROM seats"
        if limit is not None:
            seat_sql += f" WHERE game IN ({','.join(str(int(r[0])) for r in rows) or 'NULL'})"
        for game, name, kind, level in self.conn.execute(seat_sql + " ORDER BY game, seat"):
            seats.setdefault(game, []).append(SeatSummary(name, kind, level or None))
        return [
            GameSummary(
                key=r[0], game_id=r[1], started=parse_utc(r[2]), players=r[3],
                partnerships=bool(r[4]), target=r[5], finished=bool(r[6]), winner=r[7],
                scores=tuple(json.loads(r[8])), hands=r[9], seats=tuple(seats.get(r[0], ())),
            )
            for r in rows
        ]

    def last_game_id(self) -> str | None:
        """The id of the newest game, or ``None`` in an empty history."""
        row = self.conn.execute(
            "SELECT game_id FROM games ORDER BY started DESC, id DESC LIMIT 1"
        ).fetchone()
        return None if row is None else str(row[0])

    def find(self, text: str) -> list[str]:
        """Ids of stored games that are ``text`` or start with it."""
        rows = self.conn.execute(
            "SELECT game_id FROM games WHERE game_id >= ? AND game_id < ? LIMIT 2",
            (text, text + "\U0010ffff"),
        ).fetchall()
        return [str(r[0]) for r in rows]

    def load(self, game_id: str) -> LoadedGame:
        """A stored game's record, replayed; :class:`HistoryError` if it is not there or
        is damaged."""
        row = self.conn.execute(
            "SELECT r.record FROM games g JOIN records r ON r.game = g.id WHERE g.game_id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            raise HistoryError(f"no game {game_id} in the history")
        try:
            return decompress(row[0])
        except RecordError as err:
            raise HistoryError(f"the stored game {game_id} cannot be read: {err}") from None

    def people(self) -> list[str]:
        """The names of the people who played, most games first."""
        rows = self.conn.execute(
            "SELECT name FROM seats WHERE kind = 'person' GROUP BY name "
            "ORDER BY count(*) DESC, name"
        )
        return [str(r[0]) for r in rows]

    def player_games(self, name: str) -> list[PlayerGame]:
        """Every game ``name`` played as a person, oldest first, from their seat."""
        rows = self.conn.execute(
            "SELECT g.game_id, g.started, g.players, g.partnerships, g.finished, s.won, "
            "s.opponents, s.partner, s.hands, s.points, s.penalties, s.best, s.score "
            "FROM seats s JOIN games g ON g.id = s.game "
            "WHERE s.name = ? AND s.kind = 'person' ORDER BY g.started, g.id",
            (name,),
        )
        out = []
        days = _LocalDays()
        for r in rows:
            started = parse_utc(r[1])
            out.append(PlayerGame(
                r[0], started, days.of(r[1], started), r[2], bool(r[3]), bool(r[4]),
                None if r[5] is None else bool(r[5]), tuple(r[6].split("+")) if r[6] else (),
                r[7], r[8], r[9], r[10], r[11], r[12],
            ))
        return out


class _LocalDays:
    """Local calendar days of stored UTC times: the local offset is looked up once a
    UTC day (exactly: a day whose offset changes is worked out time by time)."""

    def __init__(self) -> None:
        self.offsets: dict[str, timedelta | None] = {}

    def of(self, text: str, moment: datetime) -> date:
        key = text[:10]
        if key not in self.offsets:
            start = moment.replace(hour=0, minute=0, second=0)
            first = start.astimezone().utcoffset()
            last = (start + timedelta(hours=23, minutes=59, seconds=59)).astimezone().utcoffset()
            self.offsets[key] = first if first == last else None
        offset = self.offsets[key]
        if offset is None:
            return moment.astimezone().date()
        return (moment + offset).date()


# -- recording after play ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RecordOutcome:
    """How a recording went: ``line`` is the one line to show when there is one."""

    recorded: bool
    line: str | None = None
    kept: Path | None = None
    """Where the game was kept as a file when the history could not take it."""


def unrecorded_folder(folder: Path | None = None) -> Path:
    """Where games wait that the history could not take."""
    return (folder or data_dir()) / UNRECORDED


def keep_unrecorded(record: GameRecord, folder: Path | None = None) -> Path:
    """Save ``record`` in the unrecorded folder (one file per game id); its path."""
    path = unrecorded_folder(folder) / f"{record.game_id}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    return atomic_write(path, record.to_json())


class Recorder:
    """Records games into one history, keeping the database open between games.

    Use it from one thread. Whatever happens to the database the game is kept
    (see :meth:`record`); after a failure, or when the file at the path is no
    longer the one open (removed or replaced), the database is opened afresh
    for the next game, and a damaged one is set aside and a new one started.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or history_path()
        self._history: History | None = None

    def record(self, game: GameRecord | LoadedGame, *, now: datetime | None = None
               ) -> RecordOutcome:
        """Record a game played here.

        On any failure the game is kept as a file (:func:`keep_unrecorded`) and
        the outcome's line says why and where; after a success, games kept that
        way earlier are added too (and their files removed).
        """
        record = game.record if isinstance(game, LoadedGame) else game
        lines: list[str] = []
        for attempt in (1, 2):
            try:
                if self._history is not None and not self._history.is_current():
                    self.close()
                    lines.append(self._gone())
                if self._history is None:
                    self._history = History(self.path)
                    if self._history.notice:
                        lines.append(self._history.notice)
                self._history.record(game, now=now)
                _add_unrecorded(self._history, self.path.parent, now)
                return RecordOutcome(True, " ".join(lines) or None)
            except Exception as err:  # whatever it is, the game is kept
                self.close()
                if attempt == 1 and isinstance(err, sqlite3.Error) and _is_corrupt(err):
                    continue  # opened again, the damaged database is set aside
                return self._keep(record, err)
        raise AssertionError("unreachable")  # pragma: no cover

    def _gone(self) -> str:
        """The line for a database file that was removed or replaced since it was opened."""
        if os.path.lexists(self.path):
            return (f"The game history {self.path} was replaced while allfives ran: "
                    "this game is recorded in the one there now.")
        return (f"The game history {self.path} was removed while allfives ran: "
                "a new history starts with this game.")

    def _keep(self, record: GameRecord, err: BaseException) -> RecordOutcome:
        why = _reason(err)
        try:
            kept = keep_unrecorded(record, self.path.parent)
        except Exception as save:
            return _not_recorded(why, save)
        return _not_recorded(why, kept)

    def close(self) -> None:
        """Close the database (it is opened again for the next game)."""
        history, self._history = self._history, None
        if history is not None:
            with contextlib.suppress(sqlite3.Error):
                history.close()


def record_game(
    game: GameRecord | LoadedGame,
    *,
    path: Path | None = None,
    now: datetime | None = None,
) -> RecordOutcome:
    """Record one game (see :meth:`Recorder.record`), opening and closing the database."""
    recorder = Recorder(path)
    try:
        return recorder.record(game, now=now)
    finally:
        recorder.close()


def _add_unrecorded(history: History, folder: Path, now: datetime | None) -> None:
    waiting = unrecorded_folder(folder)
    if not waiting.is_dir():
        return
    try:
        files = sorted(waiting.glob("*.json"))
    except OSError:
        return
    for file in files:
        try:
            loaded = parse_game(file.read_bytes())
            history.record(loaded, now=now)
            file.unlink()
        except Exception:  # left waiting: history import says what is wrong with it
            continue


def _keep_bytes(data: bytes | None, err: Exception, folder: Path) -> RecordOutcome:
    """What is left when a game could not even be read to record it: its file's bytes
    (if there are any) kept in the unrecorded folder, and the line that says so."""
    why = _reason(err)
    if data is None:
        return RecordOutcome(False, f"The game could not be added to the history ({why}).")
    path = unrecorded_folder(folder) / f"saved-{hashlib.sha256(data).hexdigest()[:16]}.json"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(f".{path.name}.part")
        part.write_bytes(data)
        os.replace(part, path)
    except OSError as save:
        return _not_recorded(why, save)
    return _not_recorded(why, path)


def _not_recorded(why: str, kept: Path | BaseException) -> RecordOutcome:
    """The outcome of a game the history could not take: kept as a file, or not even that."""
    if isinstance(kept, BaseException):
        return RecordOutcome(
            False,
            f"The game could not be added to the history ({why}) nor kept as a file "
            f"({_reason(kept)}).",
        )
    return RecordOutcome(
        False,
        f"The game could not be added to the history ({why}); it is kept in {kept} "
        "(allfives history import adds it).",
        kept,
    )


def game_in(data: bytes) -> LoadedGame | None:
    """The game in a saved record's bytes, or ``None`` when they hold none to record
    (damaged, or not a move made yet)."""
    try:
        game = parse_game(data)
    except RecordError:
        return None
    return game if game.record.action_count > 1 else None


class HistoryWriter:
    """Records games on one background thread, in order, so play never waits.

    ``report`` is called (on that thread) with the one line to show after a
    recording that has one; ``clock`` gives the time of recording (tests fix it).
    """

    def __init__(
        self,
        path: Path | None = None,
        *,
        report: Callable[[str], None] | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.path = path
        self.report = report
        self.clock = clock or (lambda: datetime.now(UTC))
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="allfives-history")
        self._last: Future[RecordOutcome | None] | None = None
        self._recorder = Recorder(path)
        """Used on the pool's one thread only."""

    def submit(self, game: GameRecord | LoadedGame) -> Future[RecordOutcome | None]:
        """Queue a game to record."""
        self._last = self._pool.submit(self._run, lambda: game)
        return self._last

    def submit_bytes(self, data: bytes) -> Future[RecordOutcome | None]:
        """Queue the game in a record file's bytes (a ``current.json`` about to be
        replaced); nothing is recorded when they hold no game (see :func:`game_in`)."""
        self._last = self._pool.submit(self._run, lambda: game_in(data), data)
        return self._last

    def _run(
        self, read: Callable[[], GameRecord | LoadedGame | None], data: bytes | None = None
    ) -> RecordOutcome | None:
        try:
            game = read()
            if game is None:
                return None
            outcome = self._recorder.record(game, now=self.clock())
        except Exception as err:  # never lost without a word
            outcome = _keep_bytes(data, err, self._recorder.path.parent)
        if outcome.line and self.report is not None:
            with contextlib.suppress(Exception):
                self.report(outcome.line)
        return outcome

    def flush(self, timeout: float = 10.0) -> None:
        """Wait for the queued recordings."""
        if self._last is not None:
            with contextlib.suppress(Exception):
                self._last.result(timeout)

    def close(self) -> None:
        """Finish the queued recordings, close the database and stop the thread."""
        self.flush()
        self._pool.submit(self._recorder.close)
        self._pool.shutdown(wait=True)
