"""The replay model over random games: every frame, hand boundaries, words and text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from allfives_tui.table.replay import NOBODY, Replay, status_line
from allfives_tui.table.text import render_text
from engine import Placed, Rules, parse_tile
from engine.record import GameRecord, Seat, parse_record
from tests.games import NAMES, play_game
from tests.records import SMALL_RECORD


def _record(players: int, partnerships: bool, seed: int, moves: int) -> GameRecord:
    rules = Rules(players=players, partnerships=partnerships)
    state = play_game(rules, seed, level="random", max_actions=moves)
    seats = [Seat(name=NAMES[i]) for i in range(players)]
    return GameRecord.from_state(state, seats, seed=seed)


@settings(max_examples=12, deadline=None, derandomize=True)
@given(
    st.sampled_from([(2, False), (3, False), (4, False), (4, True)]),
    st.integers(0, 10_000),
    st.integers(1, 400),
)
def test_frames_match_the_record(table: tuple[int, bool], seed: int, moves: int) -> None:
    players, partnerships = table
    record = _record(players, partnerships, seed, moves)
    replay = Replay(record)
    assert len(replay) == record.action_count
    assert replay.frames[-1].state == record.final_state()
    assert [f.index for f in replay.frames] == list(range(len(replay)))
    # hands: each starts with its deal, PgUp/PgDn land on deals (or the very end)
    assert len(replay.hand_starts) == len(record.hands)
    for hand, start in enumerate(replay.hand_starts, start=1):
        frame = replay.frames[start]
        assert (frame.hand, frame.move, frame.text, frame.seat) == (hand, 0, "deal", None)
    for i in range(len(replay)):
        nxt = replay.next_hand(i)
        assert nxt == replay.last or replay.frames[nxt].move == 0
        assert nxt > i or i == replay.last
        prev = replay.prev_hand(i)
        assert replay.frames[prev].move == 0 and prev <= i
        assert prev < i or i == 0 or replay.frames[i].move == 0
    # every action was taken by the seat to act before it, and has words
    for frame in replay.frames[1:]:
        if frame.move:
            assert frame.seat == frame.before.current
            assert frame.text == record.hands[frame.hand - 1].actions[frame.move - 1]
        assert replay.describe(frame.index)
    # --text: one line per move
    text = render_text(replay)
    assert text.endswith("\n")
    lines = text.splitlines()
    moves_shown = [ln for ln in lines if ln[:6].strip().rstrip(".").isdigit()]
    assert len(moves_shown) == sum(len(h.actions) for h in record.hands)


def test_the_games_one_person_reads_in_the_second_person() -> None:
    """The replay of a game one person played against computers speaks to that
    person as the game's log did: "You lead", never "You leads", whatever their
    name; labels keep the names."""
    replay = Replay(parse_record(SMALL_RECORD))
    words = "\n".join(replay.describe(i) for i in range(replay.last + 1))
    text = render_text(replay)
    for bad in ("You leads", "You plays", "You draws", "You passes", "You goes", "You wins"):
        assert bad not in words and bad not in text
    assert "Hand 1 dealt; You lead." in words
    assert "You lead 6-4 — ends total 10: +10." in words
    assert "Ann" not in words and replay.seat_name(0) == "Ann"
    assert "Hand 1: You lead" in text
    assert "Bob leads" in words or "Bob plays" in words
    assert replay.view_name(0) == "your view" and replay.view_name(1) == "Bob's view"


def test_the_status_line_says_where_the_replay_stands() -> None:
    replay = Replay(parse_record(SMALL_RECORD))
    assert status_line(replay, 0) == "Replay · hand 1 of 2 · deal · step 1/19 · all hands face up"
    line = status_line(
        replay, 3, viewer=NOBODY, source="games/small.json", in_progress=True, step_seconds=0.5
    )
    assert line == (
        "Replay · small.json · hand 1 of 2 · move 3 of 14 · step 4/19 · every hand face down"
        " · game in progress · ▶ playing, 0.5 s a step"
    )


def test_a_frame_names_the_tile_it_laid() -> None:
    replay = Replay(parse_record(SMALL_RECORD))
    assert replay.frames[0].last_placed is None  # the deal
    assert replay.frames[1].last_placed == parse_tile("6-4")
    for frame in replay.frames:
        placed = [e.tile for e in frame.events if isinstance(e, Placed)]
        assert frame.last_placed == (placed[-1] if placed else None)


def test_a_narrow_status_line_goes_without_the_least_needed_and_keeps_the_view() -> None:
    replay = Replay(parse_record(SMALL_RECORD))
    source = "saved/2026-12-05-14-03-22-north-and-south.json"
    whole = status_line(replay, 3, viewer=1, source=source, in_progress=True)
    assert len(whole) > 78
    for width, want in [
        (200, whole),
        (110, "2026-12-05-14-03-22-north-and-south.json · hand 1 of 2 · move 3 of 14 · "
              "Bob's view · game in progress"),
        (78, "hand 1 of 2 · move 3 of 14 · Bob's view · game in progress"),
        (40, "Bob's view · game in progress"),
    ]:
        line = status_line(replay, 3, viewer=1, source=source, in_progress=True, width=width)
        assert line == want
        assert len(line) <= width
    playing = status_line(replay, 3, step_seconds=0.5, width=78)
    assert playing == "hand 1 of 2 · move 3 of 14 · all hands face up · ▶ playing, 0.5 s a step"
