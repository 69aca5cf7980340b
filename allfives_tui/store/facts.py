"""What the history keeps of a game besides its record: the result, each counted
hand's scores, each seat's opponents and partner, the first deal's hash."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from engine import GameOver, HandOver, Placed
from engine.record import GameRecord, LoadedGame

PERSON = "person"
"""In ``seats.opponents`` and ``seats.partner``: a seat played by a person."""


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


def seat_label(record: GameRecord, seat: int) -> str:
    """A seat as an opponent or partner: its level, ``person`` or ``remote``."""
    s = record.seats[seat]
    return (s.level or PERSON) if s.kind == "computer" else s.kind

