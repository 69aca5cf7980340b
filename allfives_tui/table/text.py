"""``allfives replay FILE --text``: a recorded game as plain text, hand by hand.

Plain ASCII, one action a line in notation with its points and the running
scores, then the end-of-hand arithmetic: made for sharing and for diffs.

A game still in progress is printed as its player saw it (see
:meth:`~allfives_tui.table.replay.Replay.private_viewer`): the other hands
and the boneyard face down, and its seed (which deals every hand again) is not
printed. ``reveal_all`` (``--all``) prints everything.
"""

from __future__ import annotations

from allfives_tui.locale import ngettext
from allfives_tui.table.replay import NOBODY, Frame, Replay
from allfives_tui.table.words import Names, printable
from engine import GameOver, HandOver


def _scores(scores: tuple[int, ...]) -> str:
    return " : ".join(str(s) for s in scores)


def render_text(replay: Replay, *, reveal_all: bool = False) -> str:
    """The whole game as text (ending with a newline); an unfinished game from its
    player's view unless ``reveal_all``."""
    viewer = None if reveal_all else replay.private_viewer()
    record = replay.record
    rules = replay.rules
    width = max(len(replay.seat_name(seat)) for seat in range(rules.players))
    out: list[str] = []
    team_word = "partnerships" if rules.partnerships else "no partnerships"
    out.append(
        f"All Fives: {rules.players} players, {team_word}, target {rules.target}, "
        f"hand size {rules.hand_size.value} ({rules.tiles_per_hand} tiles)"
    )
    seats = []
    for seat, s in enumerate(record.seats):
        kind = s.kind if s.level is None else f"{s.kind}, {printable(s.level)}"
        you = ", read as you" if seat == replay.owner else ""
        seats.append(f"{printable(s.name)} ({kind}{you})")
    out.append("Seats: " + ", ".join(seats))
    if record.seed is not None and viewer is None:
        out.append(f"Seed: {record.seed}")  # it deals every hand: shown only with them
    if viewer == NOBODY:
        out.append("The game is not over: every hand is face down (--all shows them).")
    elif viewer is not None:
        out.append(
            f"The game is not over: shown as {replay.seat_name(viewer)} saw it, the other "
            "hands and the boneyard face down (--all shows them)."
        )
    labels = Names.of([s.name for s in record.seats], rules)
    out.append("Scores: " + " : ".join(labels.team(t) for t in range(rules.teams)))
    for frame in replay.frames:
        if frame.move == 0:
            _deal_lines(out, frame, replay, width, viewer)
        else:
            _move_line(out, frame, replay, width)
        for ev in frame.events:
            if isinstance(ev, HandOver):
                _hand_over_lines(out, ev, frame, replay)
            elif isinstance(ev, GameOver):
                out.append(
                    f"  Game over: {replay.team_name(ev.winner)} {replay.wins_word(ev.winner)}, "
                    f"{_scores(ev.scores)}"
                )
    final = replay.frames[-1].state
    if not final.is_terminal:
        if final.is_chance:
            out.append(f"(the record ends after hand {final.hand_number}; the game is not over)")
        else:
            out.append(
                f"(the record ends during hand {final.hand_number}, "
                f"{replay.seat_name(final.current or 0)} to play)"
            )
    return "\n".join(out) + "\n"


def _face_down(count: int) -> str:
    return ngettext("({count} tile, face down)", "({count} tiles, face down)", count).format(
        count=count
    )


def _deal_lines(
    out: list[str], frame: Frame, replay: Replay, width: int, viewer: int | None
) -> None:
    state = frame.state
    start = state.current if state.current is not None else 0
    out.append("")
    out.append(f"Hand {frame.hand}: {replay.says(start, 'leads')}")
    for seat, hand in enumerate(state.hands):
        shown = viewer is None or viewer == seat
        tiles = " ".join(str(t) for t in hand) if shown else _face_down(len(hand))
        out.append(f"  {replay.seat_name(seat) + ':':<{width + 1}} {tiles}")
    if viewer is None:
        bone = " ".join(str(t) for t in state.boneyard) or "(empty)"
    else:
        bone = _face_down(len(state.boneyard)) if state.boneyard else "(empty)"
    out.append(f"  Boneyard: {bone}")


def _move_line(out: list[str], frame: Frame, replay: Replay, width: int) -> None:
    seat = replay.seat_name(frame.seat if frame.seat is not None else 0)
    points = f"+{frame.points}" if frame.points else ""
    scores = frame.state.scores
    for ev in frame.events:
        if isinstance(ev, HandOver):  # the running score before the end-of-hand penalties
            rules = replay.rules
            scores = tuple(
                s + sum(ev.penalties[seat] for seat in rules.seats_of(t))
                for t, s in enumerate(ev.scores)
            )
    out.append(
        f"  {frame.move:>3}. {seat:<{width}}  {frame.text:<6} {points:>4}  {_scores(scores)}"
    )


def _hand_over_lines(out: list[str], ev: HandOver, frame: Frame, replay: Replay) -> None:
    rules = replay.rules
    labels = Names.of([s.name for s in replay.record.seats], rules)
    if ev.out_seat is None:
        out.append(f"  Hand {ev.hand_number} is blocked.")
    else:
        out.append(f"  {replay.says(ev.out_seat, 'goes')} out.")
    for team in range(rules.teams):
        seats = rules.seats_of(team)
        penalty = sum(ev.penalties[s] for s in seats)
        after = ev.scores[team]
        before = after + penalty
        parts = ", ".join(
            f"{replay.seat_name(s)} {ev.pips[s]} pips -> {ev.penalties[s]}" for s in seats
        )
        out.append(f"  {labels.team(team)}: {before} - {penalty} = {after}   ({parts})")
    out.append(f"  Scores after hand {ev.hand_number}: {_scores(ev.scores)}")
