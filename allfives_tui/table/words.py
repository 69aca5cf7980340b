"""Every event in one sentence, and the names, team names and scores lines around them.

One wording for the whole program: the game's log, the replay screen, the
plain-text replay and the end-of-hand and game-over screens all say things
the same way. A :class:`Names` knows the seats' names (a seat nobody named has
its place's, worded by :mod:`allfives_tui.table.places`), the rules (for teams)
and which seat, if any, is *you*: that seat is called "You" and its events
have their own sentences ("You play", "West plays"). Which sentence goes by
seat, never by what a seat happens to be called.

>>> from engine import Rules, Dealt
>>> names = Names(("Ana", "West"), Rules(players=2), you=0)
>>> describe_event(Dealt(hand_number=2, start=0), names)
'Hand 2 dealt; You lead.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from allfives_tui.locale import N_, _, ngettext, pgettext
from allfives_tui.locale.formats import number, percent
from allfives_tui.table.places import seat_name
from engine import Dealt, Drew, End, Event, GameOver, HandOver, Passed, Placed, Rules, errors
from engine.errors import MAX_REASON


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

    ``names`` are the names the seats were given, in seat order (``None``: the
    default name of the seat's place); ``you`` is the seat read as "You" (the
    person whose screen this is), or ``None`` for an onlooker.
    """

    names: tuple[str | None, ...]
    rules: Rules
    you: int | None = None

    @classmethod
    def of(cls, names: Sequence[str | None], rules: Rules, you: int | None = None) -> Names:
        """Names made safe to print (a blank name is the default)."""
        return cls(tuple(printable(n) if n else None for n in names), rules, you)

    def seat(self, seat: int) -> str:
        """``seat``'s name: "You" for *you*, its place's for a seat nobody named."""
        if seat == self.you:
            return _("You")
        return self.name(seat)

    def name(self, seat: int) -> str:
        """``seat``'s name, whoever reads it (*you* too): the name given, else its place's."""
        if 0 <= seat < len(self.names):
            return seat_name(self.names[seat], seat, self.rules.players)
        return _("Seat {number}").format(number=seat + 1)

    def all(self) -> tuple[str, ...]:
        """Every seat's name, whoever reads them (:meth:`name`), in seat order."""
        return tuple(self.name(s) for s in range(self.rules.players))

    def label(self, seat: int) -> str:
        """``seat``'s name as a label (a scoreboard row), *you* marked: "Ana (you)";
        "You" when *you* kept the default name."""
        if seat != self.you:
            return self.name(seat)
        if 0 <= seat < len(self.names) and self.names[seat] is None:
            return _("You")
        return _("{name} (you)").format(name=self.name(seat))

    def team(self, team: int) -> str:
        """A side's name: its seat's name, or partners joined with ``&``."""
        seats = self.rules.seats_of(team)
        if len(seats) == 2:
            return _("{one} & {other}").format(one=self.seat(seats[0]), other=self.seat(seats[1]))
        return " & ".join(self.seat(s) for s in seats)

    def is_yours(self, team: int) -> bool:
        """True when *you* play for ``team``."""
        return self.you is not None and self.rules.team_of(self.you) == team

    def scores(self, scores: Sequence[int], *, winner_first: int | None = None) -> str:
        """``"West 40, You -15"``: each side's name and score (a winner first, if given)."""
        order = list(range(len(scores)))
        if winner_first is not None:
            order.remove(winner_first)
            order.insert(0, winner_first)
        return ", ".join(
            _("{side} {score}").format(side=self.team(t), score=scores[t]) for t in order
        )


def end_name(end: End) -> str:
    """An end of the layout in words, in the current language: ``"west"``."""
    if end is End.W:
        return pgettext("end", "west")
    if end is End.E:
        return pgettext("end", "east")
    if end is End.N:
        return pgettext("end", "north")
    return pgettext("end", "south")


def _placed(event: Placed, names: Names) -> str:
    you = event.seat == names.you
    values = {
        "name": names.seat(event.seat),
        "tile": str(event.tile),
        "total": event.total,
        "points": event.points,
        "end": end_name(event.end) if event.end is not None else "",
    }
    if event.end is None:
        if event.points:
            text = (
                _("You lead {tile} — ends total {total}: +{points}.")
                if you
                else _("{name} leads {tile} — ends total {total}: +{points}.")
            )
        else:
            text = (
                _("You lead {tile} — ends total {total}.")
                if you
                else _("{name} leads {tile} — ends total {total}.")
            )
    elif event.points:
        text = (
            _("You play {tile} on the {end} end — ends total {total}: +{points}.")
            if you
            else _("{name} plays {tile} on the {end} end — ends total {total}: +{points}.")
        )
    else:
        text = (
            _("You play {tile} on the {end} end — ends total {total}.")
            if you
            else _("{name} plays {tile} on the {end} end — ends total {total}.")
        )
    return text.format(**values)


def _drew(event: Drew, names: Names, viewer: int | None, reveal: bool) -> str:
    reader = names.you if viewer is None else viewer
    shown = event.tile is not None and (reveal or event.seat == reader)
    you = event.seat == names.you
    if shown and event.must_play:
        text = (
            _("You draw {tile} from the boneyard: it fits and must be played.")
            if you
            else _("{name} draws {tile} from the boneyard: it fits and must be played.")
        )
    elif shown:
        text = (
            _("You draw {tile} from the boneyard.")
            if you
            else _("{name} draws {tile} from the boneyard.")
        )
    elif event.must_play:
        text = (
            _("You draw a tile from the boneyard: it fits and must be played.")
            if you
            else _("{name} draws a tile from the boneyard: it fits and must be played.")
        )
    else:
        text = (
            _("You draw a tile from the boneyard.")
            if you
            else _("{name} draws a tile from the boneyard.")
        )
    return text.format(name=names.seat(event.seat), tile=str(event.tile))


def _hand_over(event: HandOver, names: Names) -> str:
    if event.out_seat is None:
        head = _("Hand {hand} is blocked.")
    elif event.out_seat == names.you:
        head = _("You go out: hand {hand} is over.")
    else:
        head = _("{name} goes out: hand {hand} is over.")
    name = names.seat(event.out_seat) if event.out_seat is not None else ""
    sentences = [head.format(hand=event.hand_number, name=name)]
    lost = [
        # the same words for one pip and many in English: a language's own forms are its own
        ngettext("{name} {pips} pips, -{penalty}", "{name} {pips} pips, -{penalty}", pips).format(
            name=names.seat(s), pips=pips, penalty=pen
        )
        for s, (pips, pen) in enumerate(zip(event.pips, event.penalties, strict=True))
        if pen
    ]
    if lost:
        sentences.append(_("Left in hand: {losses}.").format(losses=", ".join(lost)))
    sentences.append(_("Scores: {scores}.").format(scores=names.scores(event.scores)))
    return " ".join(sentences)


def _partner(names: Names, team: int) -> str | None:
    """*Your* partner's name when *you* play for ``team`` with a partner, else ``None``."""
    if not names.is_yours(team):
        return None
    partners = [s for s in names.rules.seats_of(team) if s != names.you]
    return names.seat(partners[0]) if partners else None


def _side_wins(names: Names, team: int) -> str:
    """``"West wins the game: {scores}"`` and its kin, the side, *your* partner and the
    scores left to fill."""
    seats = names.rules.seats_of(team)
    if _partner(names, team) is not None:
        return _("You and {partner} win the game: {scores}.")
    if len(seats) > 1:
        return _("{side} win the game: {scores}.")
    if seats[0] == names.you:
        return _("You win the game: {scores}.")
    return _("{side} wins the game: {scores}.")


def describe_event(
    event: Event, names: Names, *, viewer: int | None = None, reveal: bool = False
) -> str:
    """One event as one sentence, in the current language.

    A drawn tile is named only to the seat that drew it: the ``viewer`` (by
    default *you*); with ``reveal`` to everyone (a replay with every hand face up).
    """
    if isinstance(event, Placed):
        return _placed(event, names)
    if isinstance(event, Drew):
        return _drew(event, names, viewer, reveal)
    if isinstance(event, Passed):
        if event.seat == names.you:
            return _("You pass: nothing fits and the boneyard is empty.")
        text = _("{name} passes: nothing fits and the boneyard is empty.")
        return text.format(name=names.seat(event.seat))
    if isinstance(event, Dealt):
        if event.start == names.you:
            return _("Hand {hand} dealt; You lead.").format(hand=event.hand_number)
        text = _("Hand {hand} dealt; {name} leads.")
        return text.format(hand=event.hand_number, name=names.seat(event.start))
    if isinstance(event, HandOver):
        return _hand_over(event, names)
    if isinstance(event, GameOver):
        scores = names.scores(event.scores, winner_first=event.winner)
        text = _side_wins(names, event.winner)
        partner = _partner(names, event.winner) or ""
        return text.format(side=names.team(event.winner), partner=partner, scores=scores)
    raise TypeError(f"not an engine event: {event!r}")  # pragma: no cover


def game_over_title(names: Names, winner: int) -> str:
    """The game-over headline, from *your* side of the table when you played."""
    side = names.team(winner)
    partner = _partner(names, winner)
    if partner is not None:
        return _("You and {partner} win the game!").format(partner=partner)
    if names.is_yours(winner):
        return _("You win the game!")
    if len(names.rules.seats_of(winner)) > 1:
        return _("{side} win the game.").format(side=side)
    return _("{side} wins the game.").format(side=side)


def hand_over_title(names: Names, event: HandOver) -> str:
    """The end-of-hand headline."""
    if event.out_seat is None:
        return _("Hand {hand} is blocked: nobody can play.").format(hand=event.hand_number)
    if event.out_seat == names.you:
        return _("Hand {hand}: you went out.").format(hand=event.hand_number)
    return _("Hand {hand}: {name} went out.").format(
        hand=event.hand_number, name=names.seat(event.out_seat)
    )


# -- the computer levels -----------------------------------------------------------------

LEVEL_DESCRIPTIONS: Mapping[str, str] = {
    "random": N_("a random legal move, for learning the rules"),
    "greedy": N_("the most points now; won 3 % vs expert"),
    "heuristic": N_("points now less the reply; won 28 % vs montecarlo"),
    "montecarlo": N_("Monte Carlo; won 72 % vs heuristic, 35 % vs expert"),
    "expert": N_("tree search, 0.25 s a move; won 65 % vs montecarlo"),
    "master": N_("1 s a move; won 55 % vs expert"),
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

LABELS = ("inaccuracy", "mistake", "blunder")
"""The labels of a costly decision, mildest first (the coach's ``ratings.LABELS``)."""


def label_name(label: str) -> str:
    """A decision's label (``"mistake"``, one of :data:`~allfives_tui.coach.ratings.LABELS`)
    in the current language."""
    if label == "inaccuracy":
        return pgettext("rating", "inaccuracy")
    if label == "mistake":
        return pgettext("rating", "mistake")
    if label == "blunder":
        return pgettext("rating", "blunder")
    return label


def label_count(label: str, n: int) -> str:
    """``"1 blunder"``, ``"2 blunders"``: ``n`` decisions with ``label``, the language's
    plural."""
    count = number(n)
    if label == "inaccuracy":
        return ngettext("{count} inaccuracy", "{count} inaccuracies", n).format(count=count)
    if label == "mistake":
        return ngettext("{count} mistake", "{count} mistakes", n).format(count=count)
    return ngettext("{count} blunder", "{count} blunders", n).format(count=count)


def labels_line(counts: Mapping[str, int], sep: str = ", ") -> str:
    """``"5 inaccuracies, 3 mistakes, 1 blunder"``: each label counted, mildest first
    (``counts`` by label; a missing one is none)."""
    return sep.join(label_count(label, counts.get(label, 0)) for label in LABELS)


def lost_share(loss: float) -> str:
    """The win chance a decision lost, as a negative percentage: ``"-3.2%"``."""
    return percent(-round(100 * loss, 1) / 100, 1)


def win_lost(loss: float) -> str:
    """What a decision cost, the win chance lost: ``"-3.2% win"``."""
    return _("{loss} win").format(loss=lost_share(loss))


def move_words(notation: str) -> str:
    """An action's notation as shown: a play as it is (``"5-3 E"``, tile notation and the
    end's key), a draw and a pass in the current language."""
    if notation == "draw":
        return pgettext("move", "draw")
    if notation == "pass":
        return pgettext("move", "pass")
    return notation
