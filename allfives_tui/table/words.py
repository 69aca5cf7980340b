"""Every event in one sentence, and the names, team names and scores lines around them.

One wording for the whole program: the game's log, the replay screen, the
plain-text replay and the end-of-hand and game-over screens all say things
the same way. A :class:`Names` knows the seats' names, the rules (for teams)
and which seat, if any, is *you*: that seat is called "You" and its verbs
agree ("You play", "West plays"). Agreement goes by seat, never by what a
seat happens to be called.

>>> from engine import Rules, Dealt
>>> names = Names(("Ana", "West"), Rules(players=2), you=0)
>>> describe_event(Dealt(hand_number=2, start=0), names)
'Hand 2 dealt; You lead.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from allfives_tui.locale import N_, _
from engine import Dealt, Drew, Event, GameOver, HandOver, Passed, Placed, Rules, errors
from engine.errors import MAX_REASON

YOU = "You"
_PLAIN_FORM = {
    "plays": "play",
    "leads": "lead",
    "draws": "draw",
    "passes": "pass",
    "goes": "go",
    "wins": "win",
    "takes": "take",
}


def printable(text: str) -> str:
    """``text`` with control characters (escape sequences, newlines) shown as ``?``.

    Names can come from a file: printed raw, an escape sequence could drive
    the terminal, and a newline would break a one-line-per-action text.
    """
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def one_line(text: str, limit: int = MAX_REASON) -> str:
    """``text`` on one line (:func:`engine.errors.one_line`) and safe to print: control
    characters shown as ``?``."""
    return printable(errors.one_line(text, limit))


@dataclass(frozen=True, slots=True)
class Names:
    """How the seats of one game are named, and which of them is *you*.

    ``names`` are the seats' names in seat order; ``you`` is the seat read as
    "You" (the person whose screen this is), or ``None`` for an onlooker.
    """

    names: tuple[str, ...]
    rules: Rules
    you: int | None = None

    @classmethod
    def of(cls, names: Sequence[str], rules: Rules, you: int | None = None) -> Names:
        """Names made safe to print."""
        return cls(tuple(printable(n) for n in names), rules, you)

    def seat(self, seat: int) -> str:
        """``seat``'s name: "You" for *you*."""
        if seat == self.you:
            return YOU
        return self.names[seat] if 0 <= seat < len(self.names) else f"Seat {seat + 1}"

    def verb(self, seat: int, verb: str) -> str:
        """``verb`` (written for "she": ``"leads"``) as it agrees with ``seat``."""
        return _PLAIN_FORM.get(verb, verb) if seat == self.you else verb

    def says(self, seat: int, verb: str) -> str:
        """``"West leads"``, ``"You lead"``."""
        return f"{self.seat(seat)} {self.verb(seat, verb)}"

    def label(self, seat: int) -> str:
        """``seat``'s name as a label (a scoreboard row), *you* marked: "Ana (you)".

        The name shows as it is ("You" when the person kept the default name,
        with nothing added).
        """
        name = self.names[seat] if 0 <= seat < len(self.names) else f"Seat {seat + 1}"
        return f"{name} (you)" if seat == self.you and name != YOU else name

    def possessive(self, seat: int) -> str:
        """``"West's"``, ``"your"``."""
        return "your" if seat == self.you else f"{self.seat(seat)}'s"

    def team(self, team: int) -> str:
        """A side's name: its seat's name, or partners joined with ``&``."""
        return " & ".join(self.seat(s) for s in self.rules.seats_of(team))

    def team_says(self, team: int, verb: str) -> str:
        """``"West wins"``, ``"You win"``, ``"You & North win"``: a side and its verb."""
        seats = self.rules.seats_of(team)
        if len(seats) == 1:
            return self.says(seats[0], verb)
        return f"{self.team(team)} {_PLAIN_FORM.get(verb, verb)}"

    def is_yours(self, team: int) -> bool:
        """True when *you* play for ``team``."""
        return self.you is not None and self.rules.team_of(self.you) == team

    def scores(self, scores: Sequence[int], *, winner_first: int | None = None) -> str:
        """``"West 40, You -15"``: each side's name and score (a winner first, if given)."""
        order = list(range(len(scores)))
        if winner_first is not None:
            order.remove(winner_first)
            order.insert(0, winner_first)
        return ", ".join(f"{self.team(t)} {scores[t]}" for t in order)


def describe_event(
    event: Event, names: Names, *, viewer: int | None = None, reveal: bool = False
) -> str:
    """One event as one sentence.

    A drawn tile is named only to the seat that drew it: the ``viewer`` (by
    default *you*); with ``reveal`` to everyone (a replay with every hand face up).
    """
    if isinstance(event, Placed):
        total = f"ends total {event.total}"
        score = f": +{event.points}" if event.points else ""
        if event.end is None:
            return f"{names.says(event.seat, 'leads')} {event.tile} — {total}{score}."
        where = f"on the {event.end.word} end"
        return f"{names.says(event.seat, 'plays')} {event.tile} {where} — {total}{score}."
    if isinstance(event, Drew):
        reader = names.you if viewer is None else viewer
        shown = event.tile is not None and (reveal or event.seat == reader)
        what = f" {event.tile}" if shown else " a tile"
        must = ": it fits and must be played" if event.must_play else ""
        return f"{names.says(event.seat, 'draws')}{what} from the boneyard{must}."
    if isinstance(event, Passed):
        return f"{names.says(event.seat, 'passes')}: nothing fits and the boneyard is empty."
    if isinstance(event, Dealt):
        return f"Hand {event.hand_number} dealt; {names.says(event.start, 'leads')}."
    if isinstance(event, HandOver):
        if event.out_seat is None:
            head = f"Hand {event.hand_number} is blocked."
        else:
            head = f"{names.says(event.out_seat, 'goes')} out: hand {event.hand_number} is over."
        lost = [
            f"{names.seat(s)} {pips} pips, -{pen}"
            for s, (pips, pen) in enumerate(zip(event.pips, event.penalties, strict=True))
            if pen
        ]
        left = f" Left in hand: {', '.join(lost)}." if lost else ""
        return f"{head}{left} Scores: {names.scores(event.scores)}."
    if isinstance(event, GameOver):
        scores = names.scores(event.scores, winner_first=event.winner)
        return f"{names.team_says(event.winner, 'wins')} the game: {scores}."
    raise TypeError(f"not an engine event: {event!r}")  # pragma: no cover


def game_over_title(names: Names, winner: int) -> str:
    """The game-over headline, from *your* side of the table when you played."""
    if names.is_yours(winner):
        if len(names.rules.seats_of(winner)) == 1:
            return "You win the game!"
        return f"{names.team(winner)} win the game: your side wins!"
    return f"{names.team_says(winner, 'wins')} the game."


def hand_over_title(names: Names, event: HandOver) -> str:
    """The end-of-hand headline."""
    if event.out_seat is None:
        return f"Hand {event.hand_number} is blocked: nobody can play."
    return f"Hand {event.hand_number}: {names.seat(event.out_seat)} went out."


# -- the computer levels -----------------------------------------------------------------

LEVEL_DESCRIPTIONS: Mapping[str, str] = {
    "random": N_("a random legal move, for learning the rules"),
    "greedy": N_("the most points now; won 3 % vs expert"),
    "heuristic": N_("points now less the reply; won 28 % vs montecarlo"),
    "montecarlo": N_("Monte Carlo; won 72 % vs heuristic, 35 % vs expert"),
    "expert": N_("tree search, 0.25 s a move; won 65 % vs montecarlo"),
    "master": N_("1 s a move, yet no stronger: won 46 of 100 vs expert"),
}
"""Each level's description, keyed by level name: the engine's (English) words, marked for
the catalog (a test keeps them equal to the engine's)."""


def level_description(level: str) -> str:
    """What the computer ``level`` is, in the current language (the engine's words for a
    level not in :data:`LEVEL_DESCRIPTIONS`)."""
    from engine.players import REGISTRY

    known = LEVEL_DESCRIPTIONS.get(level)
    return _(known) if known is not None else REGISTRY[level].description


# -- the coach's ratings ---------------------------------------------------------------

LABEL_PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
"""Each label of a costly decision, and its plural, mildest first."""


def counted(n: int, one: str, many: str) -> str:
    """``"1 blunder"``, ``"2 blunders"``."""
    return f"{n} {one if n == 1 else many}"


def labels_line(counts: Mapping[str, int], sep: str = ", ") -> str:
    """``"5 inaccuracies, 3 mistakes, 1 blunder"``: each label of :data:`LABEL_PLURALS`
    counted (``counts`` by label; a missing one is none)."""
    return sep.join(counted(counts.get(one, 0), one, many) for one, many in LABEL_PLURALS.items())


def win_lost(loss: float) -> str:
    """What a decision cost, the win chance lost: ``"-3.2% win"``."""
    return f"-{100 * loss:.1f}% win"


def better_move(played: str, best: str) -> str:
    """A decision that was not the best: ``"5-0 W, better 6-4 N"``."""
    return f"{played}, better {best}"
