"""The coach (issue 17, items 1 and 3): decisions rated from the mover's view, labels,
accuracy, the cache and the background analyst."""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

import pytest

from allfives_tui.coach import ratings
from allfives_tui.coach.cache import CACHE_FILE_MAX_BYTES, AnalysisCache
from allfives_tui.coach.process import Analyst, Progress
from allfives_tui.coach.ratings import (
    CoachError,
    Decision,
    Rating,
    Review,
    decisions,
    label_for,
    rate,
    record_key,
    review,
    score_series,
)
from allfives_tui.table.replay import Replay
from engine import Placed, Rules, apply, parse_action, to_text
from engine.players.evaluate import evaluate
from tests.coach.helpers import BLOCK_DEAL, BLOCK_MOVES, short_game
from tests.players.helpers import position, with_scores
from tests.players.test_honesty import midgame, reshuffled
from tests.players.test_levels import EASY_TWENTY
from tests.waiting import block_until

TO_250 = Rules(players=2, target=250)


def test_a_rating_is_the_evaluation_at_the_fixed_count_exactly() -> None:
    state = midgame(TO_250, 3, 7)
    view = state.view(state.current or 0)
    legal = view.legal_actions()
    played = legal[-1]
    rating = rate(Decision.at(view, played), 50)
    values = evaluate(view, playouts=50 * len(legal), seed=ratings.COACH_SEED)
    assert [o.action for o in rating.options] == [to_text(v.action) for v in values]
    assert [(o.win, o.points) for o in rating.options] == [(v.win, v.points) for v in values]
    assert rating.best == to_text(values[0].action)
    played_value = next(v for v in values if v.action == played)
    assert rating.loss == pytest.approx(max(0.0, values[0].win - played_value.win))


def test_the_winning_twenty_at_the_target_is_best_and_anything_else_a_blunder() -> None:
    # seat 0 at 230 of 250: 4-4 W scores 20 on 6-6 E's ends and wins the game
    state = with_scores(position(TO_250, EASY_TWENTY[0], ["6-4", "6-6 E"]), (230, 240))
    view = state.view(0)
    won = rate(Decision.at(view, parse_action("4-4 W")), 300)
    assert won.best == "4-4 W" and won.loss == 0.0 and won.label is None
    assert won.options[0].win == 1.0 and won.options[0].points == 20.0
    for other in ("6-0 E", "6-1 E", "4-0 W"):
        missed = rate(Decision.at(view, parse_action(other)), 300)
        assert missed.best == "4-4 W"
        assert missed.label == "blunder", (other, missed.loss)
        assert missed.loss > 0.5 and missed.points_loss > 10


def test_blocking_the_last_end_the_opponent_needs_is_best_and_leaving_it_a_blunder() -> None:
    state = with_scores(position(TO_250, BLOCK_DEAL, BLOCK_MOVES), (240, 235))
    assert state.current == 1

    # the engine's own count: after 6-3 E seat 0's 5-5 scores the 10 it needs, after 6-2 not
    def seat0_best(after_text: str) -> int:
        after = apply(state, parse_action(after_text)).state
        return max(
            sum(e.points for e in apply(after, a).events if isinstance(e, Placed))
            for a in after.legal_actions()
        )

    assert seat0_best("6-3 E") >= 10
    assert all(seat0_best(t) < 10 for t in ("6-2 N", "6-2 S", "6-2 E"))
    view = state.view(1)
    left_open = rate(Decision.at(view, parse_action("6-3 E")), 600)
    assert left_open.best in {"6-2 N", "6-2 S"}
    assert left_open.label == "blunder" and left_open.loss > 0.2
    blocked = rate(Decision.at(view, parse_action(left_open.best)), 600)
    assert blocked.label is None and blocked.loss == 0.0


@pytest.mark.parametrize(
    "rules", [Rules(players=2), Rules(players=3), Rules(players=4, partnerships=True)]
)
def test_honest_reshuffled_hidden_tiles_give_the_same_rating(rules: Rules) -> None:
    rng = random.Random(5)
    for seed in range(3):
        state = midgame(rules, seed, 5 + seed)
        seat = state.current
        assert seat is not None
        view = state.view(seat)
        played = view.legal_actions()[0]
        base = rate(Decision.at(view, played), 40)
        other = None
        while other is None:
            other = reshuffled(state, seat, rng)
        assert other.hands != state.hands or other.boneyard != state.boneyard
        assert rate(Decision.at(other.view(seat), played), 40) == base


def test_decisions_are_the_seat_s_turns_with_a_choice_from_its_own_view() -> None:
    record = short_game()
    replay = Replay(record)
    found = decisions(record, 0)
    assert found
    at = {d.index for d in found}
    for frame in replay.frames:
        if frame.move == 0 or frame.seat != 0:
            assert frame.index not in at
            continue
        legal = frame.before.view(0).legal_actions()
        assert (frame.index in at) == (len(legal) > 1)
    for d in found:
        frame = replay.frames[d.index]
        assert d.view == frame.before.view(0)
        assert d.view.seat == 0 and to_text(d.played) == frame.text
    assert len({d.key for d in found}) == len(found)
    with pytest.raises(CoachError, match="no seat 2"):
        decisions(record, 2)


def test_a_review_is_reproducible_and_adds_up() -> None:
    record = short_game()
    first = review(record, 0, 60)
    assert first == review(record, 0, 60)
    assert first.complete and first.total == len(decisions(record, 0))
    assert first.accuracy is not None and 0 < first.accuracy <= 100
    assert first.accuracy == pytest.approx(
        sum(100 * 2.718281828459045 ** (-r.loss / ratings.ACCURACY_SCALE) for r in first.ratings)
        / len(first.ratings)
    )
    for r in first.ratings:
        assert r.label == (label_for(r.loss, r.loss_se) if r.played != r.best else None)
    assert first.points_lost == pytest.approx(sum(r.points_loss for r in first.ratings if r.label))
    assert Review.from_dict(json.loads(json.dumps(first.to_dict()))) == first


def test_labels_follow_the_documented_thresholds() -> None:
    assert label_for(0.0199) is None
    assert label_for(0.02) == "inaccuracy"
    assert label_for(0.05) == "mistake"
    assert label_for(0.0999) == "mistake"
    assert label_for(0.10) == "blunder"
    assert label_for(0.30, loss_se=0.2) is None  # within two standard errors of nothing
    assert ratings.decision_accuracy(0.0) == 100.0
    assert ratings.decision_accuracy(0.10) == pytest.approx(36.79, abs=0.01)


def test_an_unfinished_game_is_reviewed_only_for_its_player() -> None:
    record = short_game().truncated(12)
    replay = Replay(record)
    ratings.check_seat_visible(replay, 0)
    with pytest.raises(CoachError, match="only its player's seat"):
        ratings.check_seat_visible(replay, 1)
    ratings.check_seat_visible(Replay(short_game()), 1)  # a finished game: any seat


def test_score_series_hand_by_hand() -> None:
    record = short_game()
    series = score_series(record)
    assert series[0] == (0, 0)
    assert series[-1] == record.final_state().scores
    assert len(series) == len(record.hands) + 1


def test_the_cache_keeps_reviews_bounded_and_drops_what_it_cannot_trust(
    tmp_path: Path,
) -> None:
    record = short_game()
    found = review(record, 0, 20)
    cache = AnalysisCache(tmp_path / "analysis", max_files=3)
    key = record_key(record, 0, 20)
    assert cache.get(key) is None
    cache.put(key, found)
    assert cache.get(key) == found
    # the same game under other names is the same key; another seat or count is not
    renamed = record.model_copy(
        update={
            "seats": tuple(
                s.model_copy(update={"name": f"X{i}"}) for i, s in enumerate(record.seats)
            )
        }
    )
    assert record_key(renamed, 0, 20) == key
    assert len({key, record_key(record, 1, 20), record_key(record, 0, 21)}) == 3
    # an incomplete review is never kept
    part = Review(0, 20, found.ratings[:1], found.total)
    cache.put("part", part)
    assert not (tmp_path / "analysis" / "part.json").exists()
    # damaged and stale files are misses
    (tmp_path / "analysis" / "bad.json").write_text("{not json")
    assert cache.get("bad") is None and not (tmp_path / "analysis" / "bad.json").exists()
    stale = {**found.to_dict(), "version": "old"}
    (tmp_path / "analysis" / "stale.json").write_text(json.dumps(stale))
    assert cache.get("stale") is None
    # bounded: the least recently used go first (each file's use a second after the last)
    used = time.time() - 100
    for path in (tmp_path / "analysis").glob("*.json"):
        os.utime(path, (used, used))
    for i in range(5):
        cache.put(f"k{i}", found)
        used += 1
        os.utime(tmp_path / "analysis" / f"k{i}.json", (used, used))
    names = sorted(p.stem for p in (tmp_path / "analysis").glob("*.json"))
    assert len(names) == 3 and names == ["k2", "k3", "k4"]
    # the record itself is never touched: the cache holds reviews only
    assert "ratings" not in record.to_json()


def test_a_cache_file_must_be_a_review_and_nothing_else(tmp_path: Path) -> None:
    record = short_game()
    found = review(record, 0, 4)
    cache = AnalysisCache(tmp_path / "analysis")
    cache.put("good", found)
    good = json.loads((tmp_path / "analysis" / "good.json").read_text())
    damaged = {
        "extra": {**good, "note": "hi"},
        "extra-in-a-rating": {**good, "ratings": [{**good["ratings"][0], "x": 1}]},
        "text-for-a-number": {**good, "ratings": [{**good["ratings"][0], "loss": "x"}]},
        "a-number-as-text": {**good, "seat": "0"},
        "an-unknown-label": {**good, "ratings": [{**good["ratings"][0], "label": "oops"}]},
    }
    for key, data in damaged.items():
        path = tmp_path / "analysis" / f"{key}.json"
        path.write_text(json.dumps(data))
        assert cache.get(key) is None, key
        assert not path.exists(), key
    big = tmp_path / "analysis" / "big.json"
    big.write_text(" " * (CACHE_FILE_MAX_BYTES + 1) + json.dumps(good))
    assert cache.get("big") is None and not big.exists()
    assert cache.get("good") == found


def _collect(analyst: Analyst, tag: str, total: int, timeout: float) -> list[Rating]:
    """The ratings that come back until job ``tag`` has rated ``total`` decisions."""
    got: list[Rating] = []
    done = -1

    def finished() -> bool:
        nonlocal done
        for item in analyst.poll():
            if isinstance(item, Rating):
                got.append(item)
            elif isinstance(item, Progress) and item.tag == tag:
                done = item.done
            elif isinstance(item, str):
                raise AssertionError(item)
        return done >= total

    block_until(finished, timeout, f"job {tag!r} rated")
    return got


def _idle(pid: int) -> bool:
    """True while process ``pid``'s main thread waits (is not running); True where
    there is no /proc to tell."""
    if not Path("/proc/self/stat").exists():
        return True
    text = Path(f"/proc/{pid}/stat").read_text()
    return text[text.rindex(")") + 2] == "S"


def test_the_analyst_process_rates_as_the_review_does_and_pauses() -> None:
    record = short_game()
    expected = review(record, 0, 30).ratings
    analyst = Analyst(playouts=30)
    try:
        analyst.start()
        analyst.pause()
        analyst.submit("g", record, 0)
        seen: list[Rating | Progress | str] = []

        def held() -> bool:  # the job taken, and the analyst waiting before its first chunk
            seen.extend(analyst.poll())
            taken = any(isinstance(i, Progress) and i.tag == "g" for i in seen)
            return taken and _idle(analyst._process.pid)

        block_until(held, 30, "the analyst to take the job and wait")
        seen.extend(analyst.poll())
        assert not [i for i in seen if isinstance(i, (Rating, str))]  # nothing rated paused
        analyst.resume()
        got = _collect(analyst, "g", len(expected), 60)
        assert tuple(got) == expected
        # a second job for the same positions comes back at once, from memory
        analyst.submit("again", record, 0)
        assert tuple(_collect(analyst, "again", len(expected), 10)) == expected
        analyst.submit("bad", record, 7)
        errors: list[str] = []

        def said() -> bool:
            errors.extend(i for i in analyst.poll() if isinstance(i, str))
            return bool(errors)

        block_until(said, 10, "the error line")
        assert "no seat 7" in errors[0]
    finally:
        analyst.close()
    assert not analyst.alive
