"""One seat's decisions in a recorded game, reviewed: from the cache, else by the analyst.

No Textual here. :class:`SeatReview` is what the replay screen runs for its
coach pane: :meth:`~SeatReview.look_up` reads the analysis cache (a file:
call it off the UI thread), :meth:`~SeatReview.begin` starts the
:class:`~allfives_tui.coach.process.Analyst` process when the cache has no
review, :meth:`~SeatReview.poll` collects the ratings that came back, and
:meth:`~SeatReview.keep` puts a finished review into the cache (a file again).
The record is never written.
"""

from __future__ import annotations

from collections.abc import Callable

from allfives_tui.coach import ratings
from allfives_tui.coach.cache import AnalysisCache, default_cache
from allfives_tui.coach.process import Analyst
from allfives_tui.coach.ratings import CoachError, Rating, Review
from allfives_tui.table.replay import Replay


class SeatReview:
    """The review of ``seat``'s decisions in ``replay`` at ``playouts`` a legal action.

    ``seat`` ``None`` means nobody's decisions may be seen (a game in progress
    between several people): :attr:`error` and :attr:`review` stay empty.
    """

    def __init__(
        self,
        replay: Replay,
        seat: int | None,
        playouts: int = ratings.RATING_PLAYOUTS,
        cache: Callable[[], AnalysisCache] = default_cache,
    ) -> None:
        self.replay = replay
        self.seat = seat
        self.playouts = playouts
        self._cache = cache
        self.total = 0
        self.error: str | None = None
        self.review: Review | None = None
        self.from_cache = False
        self.kept = False
        self.analyst: Analyst | None = None
        self.key = ""
        if seat is not None:
            try:
                ratings.check_seat_visible(replay, seat)
                self.total = len(ratings.decisions(replay, seat))
            except CoachError as err:
                self.error = str(err)
            else:
                self.key = ratings.record_key(replay.record, seat, playouts)

    @property
    def possible(self) -> bool:
        """True when there is a seat whose decisions may be rated."""
        return self.seat is not None and self.error is None

    @property
    def complete(self) -> bool:
        """True when every decision is rated."""
        return self.review is not None and self.review.complete

    def look_up(self) -> Review | None:
        """The cached review, if the cache holds a sound one (reads a file)."""
        if not self.possible:
            return None
        try:
            found = self._cache().get(self.key)
        except Exception:  # a miss, whatever went wrong: the review is made again
            return None
        if found is not None and found.seat == self.seat and found.total == self.total:
            return found
        return None

    def begin(self, found: Review | None) -> bool:
        """Go on from the cache's answer ``found``: take it, or start rating in the
        background. True when the analyst process was started (poll it)."""
        if not self.possible or self.analyst is not None or self.seat is None:
            return False
        if found is not None:
            self.from_cache = True
            self.review = found
            return False
        self.review = Review(self.seat, self.playouts, (), self.total)
        if not self.total:
            return False
        self.analyst = Analyst(self.playouts)
        self.analyst.submit(self.key, self.replay.record, self.seat)
        return True

    def poll(self) -> bool:
        """Collect the analyst's ratings; True when the review or the error changed.
        The analyst is closed once the review is complete or has failed."""
        analyst = self.analyst
        if analyst is None or self.seat is None:
            return False
        by_index = {r.index: r for r in self.review.ratings} if self.review else {}
        before = len(by_index)
        for item in analyst.poll():
            if isinstance(item, Rating):
                by_index[item.index] = item
            elif isinstance(item, str):
                self.error = item
        changed = len(by_index) != before or self.error is not None
        if changed:
            ordered = tuple(by_index[i] for i in sorted(by_index))
            self.review = Review(self.seat, self.playouts, ordered, self.total)
        if self.complete or self.error is not None:
            self.close()
        return changed

    @property
    def to_keep(self) -> bool:
        """True when a complete review was rated here and is not in the cache yet."""
        return self.complete and not self.from_cache and not self.kept and self.analyst is None

    def keep(self) -> None:
        """Put the complete review into the cache (writes a file; a failure is ignored:
        the review is made again next time)."""
        review = self.review
        if review is None or not review.complete:
            return
        try:
            self._cache().put(self.key, review)
        except Exception:
            return
        self.kept = True

    def close(self) -> None:
        """Stop the analyst process, if any."""
        if self.analyst is not None:
            self.analyst.close()
            self.analyst = None
