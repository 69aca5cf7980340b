"""The coach at one table: who may have hints, the background ratings, and hints counted.

No Textual here. The app keeps one :class:`TableCoach` per game: it says
whether hints are offered (one person against computers, or every person at
the table agreed at the start), runs the :class:`~allfives_tui.coach.process.Analyst`
process that rates the person's decisions while the game goes on (the app
pauses it while a computer seat thinks), and collects the ratings that come
back, matched to the line the game really took (a take-back leaves ratings of
the abandoned line behind). A finished game's review goes into the analysis
cache, for its replay's coach pane and ``allfives analyse``. Hints used are
counted per game in the data folder (``coach-hints.json``, the most recent
games only), never in the record.
"""

from __future__ import annotations

import contextlib
import json
import threading
from pathlib import Path

from allfives_tui.coach import ratings
from allfives_tui.coach.cache import AnalysisCache, default_cache
from allfives_tui.coach.process import Analyst, Progress
from allfives_tui.coach.ratings import Rating, Review
from allfives_tui.store.folder import data_dir
from allfives_tui.table.settings import Settings
from allfives_tui.table.table import Table
from engine.files import atomic_write, read_small_file
from engine.record import GameRecord

HINTS_FILE = "coach-hints.json"
HINTS_KEEP = 200
"""The most games whose hint counts are kept."""


def hints_path() -> Path:
    """Where hint counts are kept."""
    return data_dir() / HINTS_FILE


def _read_hints() -> dict[str, int]:
    try:
        data = json.loads(read_small_file(hints_path(), 64 * 1024))
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): v for k, v in data.items() if isinstance(v, int) and not isinstance(v, bool)}


def hints_used(game_id: str) -> int:
    """How many hints were used in the game ``game_id``."""
    return max(0, _read_hints().get(game_id, 0))


def count_hint(game_id: str) -> int:
    """One more hint used in ``game_id``; the count now (kept even if it cannot be saved)."""
    counts = _read_hints()
    counts[game_id] = max(0, counts.pop(game_id, 0)) + 1
    kept = dict(list(counts.items())[-HINTS_KEEP:])
    with contextlib.suppress(OSError):
        atomic_write(hints_path(), json.dumps(kept) + "\n")
    return counts[game_id]


def _keep(cache: AnalysisCache, key: str, found: Review) -> None:
    """Keep ``found`` in ``cache`` (a miss later, whatever goes wrong)."""
    with contextlib.suppress(Exception):
        cache.put(key, found)


class TableCoach:
    """The coach for one game at one table."""

    def __init__(self, table: Table, settings: Settings) -> None:
        self.table = table
        people = table.people
        alone = len(people) == 1 and all(s.is_person or s.is_computer for s in table.seats)
        self.seat: int | None = people[0] if alone and settings.coach else None
        """The seat whose decisions are rated (the one person against computers), if any."""
        local = all(s.is_person or s.is_computer for s in table.seats)
        self.hints = settings.coach and local and (alone or settings.hints_for_all)
        """True when hints are offered: one person, or every person agreed at the start."""
        self.analyst: Analyst | None = Analyst() if self.seat is not None else None
        self.ratings: dict[str, Rating] = {}
        """Every rating come back, by its decision's key."""
        self.progress: tuple[int, int] = (0, 0)
        """Decisions rated and found in the latest record sent."""
        self.hints_used = hints_used(table.game_id)
        self._sent = -1
        self._kept = ""
        """The cache key of the finished game's review once it is kept (see :meth:`poll`)."""

    @property
    def rates(self) -> bool:
        """True when the person's decisions are rated."""
        return self.analyst is not None

    def start(self) -> None:
        """Rate what the game holds already (the process starts with the first decision)."""
        self.changed()

    def changed(self) -> None:
        """The game moved on: send the record when the rated seat has a new decision or a
        hand ended (a take-back sends the shorter line too)."""
        if self.analyst is None or self.seat is None:
            return
        record = self.table.record()
        count = record.action_count
        if count == self._sent:
            return
        self._sent = count
        if not self.analyst.alive and not ratings.decisions(record, self.seat):
            return  # nothing to rate yet: no process until there is
        self.analyst.submit(self.table.game_id, record, self.seat)

    def pause(self) -> None:
        """Hold the analysis (a computer thinks, a hint is worked out)."""
        if self.analyst is not None:
            self.analyst.pause()

    def resume(self) -> None:
        """Let the analysis go on."""
        if self.analyst is not None:
            self.analyst.resume()

    def poll(self) -> bool:
        """Collect what the analyst sent; True when anything new came."""
        if self.analyst is None:
            return False
        new = False
        for item in self.analyst.poll():
            if isinstance(item, Rating):
                self.ratings[item.key] = item
                new = True
            elif isinstance(item, Progress):
                self.progress = (item.done, item.total)
                new = True
        if new:
            self._keep_if_finished()
        return new

    def _keep_if_finished(self) -> None:
        """Once the game is over and every decision rated, keep the review in the analysis
        cache (in a thread), so its replay's coach pane and ``allfives analyse`` find it."""
        if self.seat is None or self.analyst is None or not self.table.is_over:
            return
        record = self.table.record()
        key = ratings.record_key(record, self.seat, self.analyst.playouts)
        if key == self._kept:
            return
        found = self.review(record)
        if found is None or not found.complete or not found.total:
            return
        self._kept = key
        threading.Thread(
            target=_keep, args=(default_cache(), key, found), name="allfives-coach-cache"
        ).start()

    def hint_used(self) -> int:
        """Count a hint; the game's count now."""
        self.hints_used = count_hint(self.table.game_id)
        return self.hints_used

    def review(self, record: GameRecord | None = None) -> Review | None:
        """The ratings of the line the game took so far (``None`` when nothing is rated)."""
        if self.seat is None:
            return None
        record = record if record is not None else self.table.record()
        found = ratings.decisions(record, self.seat)
        rated = tuple(self.ratings[d.key] for d in found if d.key in self.ratings)
        playouts = self.analyst.playouts if self.analyst is not None else ratings.RATING_PLAYOUTS
        return Review(self.seat, playouts, rated, len(found))

    def hand_status(self, hand: int) -> tuple[list[Rating], int, int]:
        """Hand ``hand``'s costly decisions (labelled), how many of its decisions are rated,
        and how many there are."""
        if self.seat is None:
            return [], 0, 0
        found = [d for d in ratings.decisions(self.table.record(), self.seat) if d.hand == hand]
        rated = [self.ratings[d.key] for d in found if d.key in self.ratings]
        return [r for r in rated if r.label is not None], len(rated), len(found)

    def close(self) -> None:
        """Stop the analyst process."""
        if self.analyst is not None:
            self.analyst.close()
