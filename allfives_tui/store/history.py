"""The game history: every finished or abandoned game, in SQLite in the data folder.

``history.sqlite`` holds, for every game: when it started and was recorded,
the rules, the seats (names, kinds, levels), each hand's points and penalties
per seat, the final scores, the winner and the whole game record (compressed
JSON), so any past game can be replayed without a saved file. The schema and
its migrations are in :mod:`~allfives_tui.store.schema`; the database runs in
WAL mode, so readers never block the writer. A damaged database is set aside
under a new name (with its ``-wal``/``-shm`` files) and a new one starts; one
removed or replaced while allfives runs is noticed before the next game is
written (the file's device and inode). Recording after play is in
:mod:`~allfives_tui.store.recorder`. Nothing here imports Textual.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Literal

from allfives_tui.locale import _, formats
from allfives_tui.store.facts import GameFacts, deal_key, game_facts, is_prefix, seat_label
from allfives_tui.store.folder import data_dir, set_aside
from allfives_tui.store.schema import (
    MIGRATIONS,
    Migration,
    compress,
    decompress,
    parse_utc,
    utc_text,
)
from allfives_tui.store.summary import GameSummary, PlayerGame, SeatSummary
from allfives_tui.table.places import person_key
from allfives_tui.table.problems import problem_text
from allfives_tui.table.words import one_line, printable
from engine.errors import RecordError, shown
from engine.record import GameRecord, LoadedGame
from engine.rng import SEED_LIMIT
from engine.rules import MAX_TARGET

DB_NAME = "history.sqlite"
BUSY_MS = 2000
"""How long a write waits for another process's write before giving up."""


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




@dataclass(frozen=True, slots=True)
class ImportResult:
    """What an import did: ``"added"``, ``"skipped"`` (the history holds the game:
    ``game_id`` is the stored one) or ``"extended"`` (it replaced an earlier save)."""

    outcome: Literal["added", "skipped", "extended"]
    game_id: str



# -- the database -----------------------------------------------------------------------


def _check_numbers(record: GameRecord) -> None:
    """Refuse (:class:`HistoryError`) a seed or target the history cannot keep (the
    engine refuses them too; a record changed without validation may still hold one)."""
    seed = record.seed
    if seed is not None and not 0 <= seed < SEED_LIMIT:
        raise HistoryError(
            _("the seed {seed} is out of range: a seed is a whole number from 0 to {most}")
            .format(seed=quoted(seed), most=SEED_LIMIT - 1)
        )
    target = record.rules.target
    if not 0 < target <= MAX_TARGET:
        raise HistoryError(
            _("the target {target} is out of range: at most {most} points").format(
                target=quoted(target), most=formats.number(MAX_TARGET)
            )
        )


def is_corrupt(err: sqlite3.Error) -> bool:
    """True when ``err`` says the database file is damaged (or not a database)."""
    name = getattr(err, "sqlite_errorname", "")
    if name in ("SQLITE_CORRUPT", "SQLITE_NOTADB"):
        return True
    text = str(err)
    return "not a database" in text or "malformed" in text


def reason(err: BaseException) -> str:
    """``err`` in one line, as a notice gives the cause."""
    if isinstance(err, OSError):
        return one_line(err.strerror or str(err))
    if isinstance(err, (HistoryError, sqlite3.Error, RecordError)):
        return one_line(str(err))
    return _("unexpected {error}: {message}").format(
        error=type(err).__name__, message=quoted(one_line(str(err)))
    )


def _cannot_open(path: Path, err: BaseException) -> str:
    return _("the history {path} cannot be opened: {why}").format(path=path, why=reason(err))


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
            self.notice = _(
                "The game history was damaged ({why}): it is set aside as {path}, and a new "
                "history starts."
            ).format(why=aside.reason, path=aside.path)
            try:
                self.conn = self._open(readonly)
            except (sqlite3.Error, _SetAside) as again:
                raise HistoryError(_cannot_open(self.path, again)) from None
        except sqlite3.Error as err:
            raise HistoryError(_cannot_open(self.path, err)) from None
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
                raise HistoryError(_("there is no game history yet"))
            uri = f"{self.path.resolve().as_uri()}?mode=ro"
            conn = sqlite3.connect(
                uri, uri=True, timeout=BUSY_MS / 1000, isolation_level=None
            )
        else:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise HistoryError(
                    _("the folder {folder} cannot be made: {why}").format(
                        folder=self.path.parent, why=reason(err)
                    )
                ) from None
            conn = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None)
        try:
            conn.execute("PRAGMA foreign_keys = ON")
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            latest = len(self._migrations)
            if version > latest:
                raise NewerHistoryError(
                    _(
                        "the history {path} is from a newer allfives (schema {version}, "
                        "this one reads up to {latest}): upgrade allfives"
                    ).format(path=self.path, version=version, latest=latest)
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
                    _(
                        "the history {path} needs an upgrade (schema {version}); it happens "
                        "at the next game recorded"
                    ).format(path=self.path, version=version)
                )
            if version == latest:
                conn.execute("SELECT 1 FROM games LIMIT 1").fetchall()
        except sqlite3.Error as err:
            try:
                if not is_corrupt(err) or readonly:
                    raise
                try:  # set aside while still open: closing may remove the -wal and -shm
                    aside = set_aside(self.path)
                except OSError as move:
                    raise HistoryError(
                        _(
                            "the history {path} is damaged ({why}) and could not be set "
                            "aside: {cause}"
                        ).format(path=self.path, why=reason(err), cause=reason(move))
                    ) from None
                raise _SetAside(aside, reason(err)) from None
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
            key, seat, person_key(s.name, seat, rules.players), s.kind, s.level, team, won,
            facts.scores[team],
            "+".join(seat_label(record, o) for o in opponents),
            seat_label(record, mates[0]) if mates else None,
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
            raise HistoryError(_("no game {game} in the history").format(game=game_id))
        try:
            return decompress(row[0])
        except RecordError as err:
            raise HistoryError(
                _("the stored game {game} cannot be read: {why}").format(
                    game=game_id, why=problem_text(err)
                )
            ) from None

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

