"""Engine events in plain words, for the event log.

``describe(event, names, viewer=0)`` -> ``"West plays 5-3 on the east end — ends total 15: +15"``.
A tile another seat drew is never named: only ``viewer``'s own draws are.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import Dealt, Drew, Event, GameOver, HandOver, Passed, Placed, Rules

_YOU_FORM = {"plays": "play", "leads": "lead", "draws": "draw", "passes": "pass",
             "goes": "go", "wins": "win"}


def verb_for(name: str, verb: str) -> str:
    """``verb`` (written for "she": ``"leads"``) as it agrees with ``name``: "You lead"."""
    return _YOU_FORM.get(verb, verb) if name == "You" else verb


def says(name: str, verb: str) -> str:
    """``"Ann leads"``, ``"You lead"``: a name and a verb that agrees with it."""
    return f"{name} {verb_for(name, verb)}"


def _verb(names: Sequence[str], seat: int, viewer: int | None, verb: str) -> str:
    return says("You" if seat == viewer else names[seat], verb)


def team_name(rules: Rules, team: int, names: Sequence[str]) -> str:
    """A side's name: the seat's name, or "A & B" for a partnership."""
    return " & ".join(names[s] for s in rules.seats_of(team))


def describe(
    event: Event,
    names: Sequence[str],
    viewer: int | None = 0,
    rules: Rules | None = None,
) -> str:
    """One event as a sentence. ``viewer`` is the seat reading (``None``: an onlooker)."""
    if isinstance(event, Placed):
        total = f"ends total {event.total}"
        score = f": +{event.points}" if event.points else ""
        if event.end is None:
            return f"{_verb(names, event.seat, viewer, 'leads')} {event.tile} — {total}{score}"
        where = f"on the {event.end.word} end"
        return f"{_verb(names, event.seat, viewer, 'plays')} {event.tile} {where} — {total}{score}"
    if isinstance(event, Drew):
        what = f" {event.tile}" if event.seat == viewer and event.tile is not None else ""
        text = f"{_verb(names, event.seat, viewer, 'draws')}{what} from the boneyard"
        if event.must_play:
            text += " — it fits and must be played"
        return text
    if isinstance(event, Passed):
        who = _verb(names, event.seat, viewer, "passes")
        return f"{who}: nothing fits and the boneyard is empty"
    if isinstance(event, Dealt):
        return f"Hand {event.hand_number} dealt; {_verb(names, event.start, viewer, 'leads')}."
    if isinstance(event, HandOver):
        if event.out_seat is None:
            head = f"Hand {event.hand_number} is blocked."
        else:
            who = _verb(names, event.out_seat, viewer, "goes")
            head = f"{who} out: hand {event.hand_number} is over."
        losses = ", ".join(
            f"{names[s]} -{p}" for s, p in enumerate(event.penalties) if p
        )
        return f"{head} Tiles left count against: {losses}." if losses else head
    if isinstance(event, GameOver):
        if rules is None:
            rules = Rules(players=len(event.scores), target=5)
        order = [event.winner] + [t for t in range(len(event.scores)) if t != event.winner]
        scores = ", ".join(f"{team_name(rules, t, names)} {event.scores[t]}" for t in order)
        who = team_name(rules, event.winner, names)
        solo = len(rules.seats_of(event.winner)) == 1
        if viewer is not None and rules.team_of(viewer) == event.winner:
            who, verb = ("You", "win") if solo else (who, "win")
        else:
            verb = "wins" if solo else "win"
        return f"{who} {verb} the game: {scores}."
    return str(event)  # pragma: no cover
