"""The analysis cache: finished reviews kept in the data folder, bounded in size.

:class:`AnalysisCache` keys a review by the record, the seat, the playout
count and :func:`~allfives_tui.coach.ratings.evaluator_version`; nothing is
ever written into a game record. A damaged or oversized entry is dropped.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from allfives_tui.coach.ratings import Option, Rating, Review, evaluator_version
from engine.files import atomic_write

CACHE_FOLDER = "analysis"
"""The cache's folder in the data folder."""
CACHE_MAX_FILES = 200
"""The most reviews the cache keeps; the least recently used go first."""
CACHE_MAX_BYTES = 8 * 1024 * 1024
"""The most bytes the cache keeps."""


CACHE_FILE_MAX_BYTES = 4 * 1024 * 1024
"""The most bytes one cached review may have (larger: damaged, dropped)."""

_STRICT = ConfigDict(extra="forbid", strict=True, frozen=True)


class CachedOption(BaseModel):
    """An :class:`Option` as the cache keeps it."""

    model_config = _STRICT

    action: str = Field(max_length=16)
    win: float
    win_se: float
    points: float
    points_se: float


class CachedRating(BaseModel):
    """A :class:`Rating` as the cache keeps it."""

    model_config = _STRICT

    index: int = Field(ge=0)
    hand: int = Field(ge=1)
    move: int = Field(ge=1)
    seat: int = Field(ge=0)
    played: str = Field(max_length=16)
    best: str = Field(max_length=16)
    loss: float
    loss_se: float
    points_loss: float
    label: Literal["inaccuracy", "mistake", "blunder"] | None
    options: tuple[CachedOption, ...] = Field(min_length=1)
    key: str = Field(max_length=64)

    def rating(self) -> Rating:
        """The rating kept."""
        options = tuple(Option(**o.model_dump()) for o in self.options)
        return Rating(**{**self.model_dump(), "options": options})


class CachedReview(BaseModel):
    """A cache file: a :class:`Review` (:meth:`Review.to_dict`), validated; nothing else."""

    model_config = _STRICT

    seat: int = Field(ge=0)
    playouts: int = Field(ge=1)
    version: str = Field(max_length=64)
    total: int = Field(ge=0)
    ratings: tuple[CachedRating, ...]

    def review(self) -> Review:
        """The review kept."""
        ratings = tuple(r.rating() for r in self.ratings)
        return Review(self.seat, self.playouts, ratings, self.total, self.version)


class AnalysisCache:
    """Finished reviews in a folder, one JSON file each, bounded in count and size.

    Reading a review touches its file, so the least recently used go first.
    A damaged or foreign file is ignored (and removed); any I/O error means a
    miss, never a failure.
    """

    def __init__(
        self,
        folder: Path,
        *,
        max_files: int = CACHE_MAX_FILES,
        max_bytes: int = CACHE_MAX_BYTES,
    ) -> None:
        self.folder = folder
        self.max_files = max_files
        self.max_bytes = max_bytes

    def _path(self, key: str) -> Path:
        return self.folder / f"{key}.json"

    def get(self, key: str) -> Review | None:
        """The review stored under ``key``, or ``None``.

        The file is read with :func:`~engine.files.read_small_file`
        (at most :data:`CACHE_FILE_MAX_BYTES`; a pipe, a device or a link to one
        is refused, never waited on) and validated by :class:`CachedReview`. Any
        failure but a missing file drops the entry. It may take a while: call it
        off the UI thread.
        """
        from engine.files import read_small_file

        path = self._path(key)
        try:
            data = read_small_file(path, CACHE_FILE_MAX_BYTES)
            found = CachedReview.model_validate_json(data).review()
        except FileNotFoundError:
            return None
        except Exception:  # RecursionError and MemoryError included: a damaged entry
            with contextlib.suppress(OSError):
                path.unlink()
            return None
        if found.version != evaluator_version():
            return None
        with contextlib.suppress(OSError):
            os.utime(path)
        return found

    def put(self, key: str, found: Review) -> None:
        """Keep ``found`` under ``key`` (only a complete review), then trim the cache."""
        if not found.complete:
            return
        try:
            atomic_write(self._path(key), json.dumps(found.to_dict()) + "\n")
        except OSError:
            return
        self.trim()

    def trim(self) -> None:
        """Drop the least recently used reviews beyond the bounds."""
        files = []
        try:
            for path in self.folder.glob("*.json"):
                with contextlib.suppress(OSError):
                    files.append((path.lstat(), path))
        except OSError:
            return
        files.sort(key=lambda sp: sp[0].st_mtime, reverse=True)
        total = 0
        for i, (st, path) in enumerate(files):
            total += st.st_size
            if i >= self.max_files or total > self.max_bytes:
                with contextlib.suppress(OSError):
                    path.unlink()


def default_cache() -> AnalysisCache:
    """The cache in the data folder."""
    from allfives_tui.store.folder import data_dir

    return AnalysisCache(data_dir() / CACHE_FOLDER)
