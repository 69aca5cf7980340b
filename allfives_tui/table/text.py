"""``allfives replay FILE --text``: a recorded game as plain text, hand by hand.

Plain ASCII, one action a line in notation with its points and the running
scores, then the end-of-hand arithmetic: made for sharing and for diffs.

A game still in progress is printed as its player saw it (see
:meth:`~allfives_tui.table.replay.Replay.private_viewer`): the other hands
and the boneyard face down, and its seed (which deals every hand again) is not
printed. ``reveal_all`` (``--all``) prints everything.
"""

from __future__ import annotations

from allfives_tui.locale import N_, _, ngettext
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
    heading = (
        _(
            "All Fives: {players} players, partnerships, target {target}, "
            "hand size {size} ({tiles} tiles)"
        )
        if rules.partnerships
        else _(
            "All Fives: {players} players, no partnerships, target {target}, "
            "hand size {size} ({tiles} tiles)"
        )
    )
    out.append(
        heading.format(
            players=rules.players,
            target=rules.target,
            size=rules.hand_size.value,
            tiles=rules.tiles_per_hand,
        )
    )
    seats = []
    for seat, s in enumerate(record.seats):
        kind = _(s.kind) if s.level is None else f"{_(s.kind)}, {printable(s.level)}"
        text = _("{name} ({kind}, read as you)") if seat == replay.owner else _("{name} ({kind})")
        seats.append(text.format(name=replay.seat_name(seat), kind=kind))
    out.append(_("Seats: {seats}").format(seats=", ".join(seats)))
    if record.seed is not None and viewer is None:
        # it deals every hand: shown only with them
        out.append(_("Seed: {seed}").format(seed=record.seed))
    if viewer == NOBODY:
        out.append(_("The game is not over: every hand is face down (--all shows them)."))
    elif viewer is not None:
        out.append(
            _(
                "The game is not over: shown as {name} saw it, the other "
                "hands and the boneyard face down (--all shows them)."
            ).format(name=replay.seat_name(viewer))
        )
    labels = Names.of([s.name for s in record.seats], rules)
    sides = " : ".join(labels.team(t) for t in range(rules.teams))
    out.append(_("Scores: {sides}").format(sides=sides))
    for frame in replay.frames:
        if frame.move == 0:
            _deal_lines(out, frame, replay, width, viewer)
        else:
            _move_line(out, frame, replay, width)
        for ev in frame.events:
            if isinstance(ev, HandOver):
                _hand_over_lines(out, ev, frame, replay)
            elif isinstance(ev, GameOver):
                out.append("  " + _game_over(replay, ev.winner, ev.scores))
    final = replay.frames[-1].state
    if not final.is_terminal:
        if final.is_chance:
            out.append(
                _("(the record ends after hand {hand}; the game is not over)").format(
                    hand=final.hand_number
                )
            )
        else:
            out.append(
                _("(the record ends during hand {hand}, {name} to play)").format(
                    hand=final.hand_number, name=replay.seat_name(final.current or 0)
                )
            )
    return "\n".join(out) + "\n"


SEAT_KINDS = (N_("person"), N_("computer"))
"""A seat's kind as the record has it, marked for the catalog."""


def _game_over(replay: Replay, team: int, scores: tuple[int, ...]) -> str:
    """The game-over line: who won (the owner and their partner in their own words), and
    the scores."""
    seats = replay.rules.seats_of(team)
    values = {"side": replay.team_name(team), "scores": _scores(scores)}
    if replay.owner in seats and len(seats) > 1:
        partner = next(s for s in seats if s != replay.owner)
        text = _("Game over: You and {partner} win, {scores}")
        return text.format(partner=replay.seat_name(partner), **values)
    if len(seats) > 1:
        return _("Game over: {side} win, {scores}").format(**values)
    if seats[0] == replay.owner:
        return _("Game over: You win, {scores}").format(**values)
    return _("Game over: {side} wins, {scores}").format(**values)


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
    leads = _("Hand {hand}: You lead") if start == replay.owner else _("Hand {hand}: {name} leads")
    out.append(leads.format(hand=frame.hand, name=replay.seat_name(start)))
    for seat, hand in enumerate(state.hands):
        shown = viewer is None or viewer == seat
        tiles = " ".join(str(t) for t in hand) if shown else _face_down(len(hand))
        out.append(f"  {replay.seat_name(seat) + ':':<{width + 1}} {tiles}")
    if viewer is None:
        bone = " ".join(str(t) for t in state.boneyard) or _("(empty)")
    else:
        bone = _face_down(len(state.boneyard)) if state.boneyard else _("(empty)")
    out.append("  " + _("Boneyard: {tiles}").format(tiles=bone))


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
        out.append("  " + _("Hand {hand} is blocked.").format(hand=ev.hand_number))
    elif ev.out_seat == replay.owner:
        out.append("  " + _("You go out."))
    else:
        out.append("  " + _("{name} goes out.").format(name=replay.seat_name(ev.out_seat)))
    for team in range(rules.teams):
        seats = rules.seats_of(team)
        penalty = sum(ev.penalties[s] for s in seats)
        after = ev.scores[team]
        before = after + penalty
        parts = ", ".join(
            ngettext(
                "{name} {pips} pips -> {penalty}", "{name} {pips} pips -> {penalty}", ev.pips[s]
            ).format(name=replay.seat_name(s), pips=ev.pips[s], penalty=ev.penalties[s])
            for s in seats
        )
        out.append(f"  {labels.team(team)}: {before} - {penalty} = {after}   ({parts})")
    out.append(
        "  "
        + _("Scores after hand {hand}: {scores}").format(
            hand=ev.hand_number, scores=_scores(ev.scores)
        )
    )
