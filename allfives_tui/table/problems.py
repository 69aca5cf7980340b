"""What the engine reports, in the player's language: a refused move, text that is not an
action, a record that does not read, a value refused.

The engine's messages stay English, for library users; a player reads an engine error
worded here from its ``code`` (a refusal's ``rule``) and the facts it carries:
:func:`problem_text` is the one function for any engine error. A pydantic error is worded
from its ``type`` and ``ctx`` (:func:`validation_text`), as :mod:`engine.problems` words it
in English. The English words are the engine's. A problem is one line, lower case first
and without a full stop, as it is often put after a file's name (``allfives: game.json:
the file is empty, not a game record``); an error whose code is none known here is worded
as a problem in general, naming its code. Without ``names``, a seat is named as a record
numbers it (``seat 0``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from allfives_tui.locale import N_, _, ngettext
from allfives_tui.table.words import Names, end_name, one_line
from engine import (
    Action,
    End,
    IllegalActionError,
    NotationError,
    Pass,
    RecordError,
    SeatView,
    Tile,
)
from engine.errors import AllFivesError

NO_HANDS = "no-hands"
"""A front-end's :class:`RecordError` code: a record with no hands to resume or replay
(``details["to"]``: ``"resume"`` or ``"replay"``)."""
STORED_DAMAGED = "stored-damaged"
"""A front-end's :class:`RecordError` code: a stored record that does not decompress."""

Facts = dict[str, Any]
"""An error's facts by name, the placeholders of its sentence."""


def problem_text(err: AllFivesError, names: Names | None = None) -> str:
    """Any engine error (a refusal, a notation or record problem, a value the engine's
    checks refused) in words, on one line; ``names`` names the seats and *you*."""
    if isinstance(err, RecordError):
        return record_text(err)
    if isinstance(err, IllegalActionError):
        return refusal_text(err, names)
    if isinstance(err, NotationError):
        return notation_text(err)
    return coded_text(err)


def _unknown(code: str) -> str:
    return one_line(_("not allowed or not valid ({code})").format(code=code or "?"))


def _filled(message: str, facts: Mapping[str, object]) -> str:
    return one_line(_(message).format_map(_Facts(facts)))


class _Facts(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return "?"


# -- refusals ---------------------------------------------------------------------------

RefusalWording = Callable[[IllegalActionError, bool, Facts], str]
"""Words a refusal: the error, whether the seat it names is *you*, and its facts."""


def refusal_text(err: IllegalActionError, names: Names | None = None) -> str:
    """A refused action in words, for *you* when the seat it names is ``names.you``."""
    facts: Facts = {
        **err.details,
        "name": _seat_name(err.seat, names, you=True),
        "other": _seat_name(err.details.get("value"), names, you=False),
        "tile": str(err.tile) if err.tile is not None else "?",
        "end": end_name(err.end) if err.end is not None else "?",
        "needs": err.needs if err.needs is not None else "?",
        "drawn": str(err.drawn) if err.drawn is not None else "?",
    }
    yours = names is not None and err.seat is not None and err.seat == names.you
    fixed = REFUSALS.get(err.rule)
    if fixed is not None:
        return _filled(fixed, facts)
    wording = _REFUSAL_WORDINGS.get(err.rule)
    if wording is None:
        return _unknown(err.rule)
    return one_line(wording(err, yours, facts))


def _seat_name(seat: object, names: Names | None, *, you: bool) -> str:
    """A seat a refusal names: by ``names`` ("You" for *you* if ``you``), else as a record
    numbers it (``seat 0``)."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        return "?"
    if names is None:
        return _("seat {seat}").format(seat=seat)
    return names.seat(seat) if you else names.name(seat)


REFUSALS: Mapping[str, str] = {
    "boneyard-empty": N_("the boneyard is empty"),
    "draw-before-pass": N_("the boneyard is not empty: draw until a tile can be played"),
    "play-drawn-tile": N_("the drawn tile {drawn} must be played now, not {tile}"),
    "lead": N_("{tile} leads the hand: it takes no end"),
    "spinner-sides-first": N_(
        "the {end} end is not open: the spinner's sides must both be covered first"
    ),
    "open-end": N_("the {end} end is not open"),
    "game-over": N_("the game is over"),
    "deal-first": N_("the hand has not been dealt yet"),
    "deal-between-hands": N_("a hand is already in play"),
    "stale": N_("the table has moved on since that move was chosen"),
    "deal": N_("there is no hand to deal now"),
    "take_back": N_("no move is taken back at a table played over the network"),
}
"""The refusals that say one thing whoever they concern, by rule (the engine's, then the
table's own), their facts as placeholders."""


def _must_play(err: IllegalActionError, yours: bool, facts: Facts) -> str:
    if isinstance(err.action, Pass):
        text = (_("you can play, so you may not pass") if yours
                else _("{name} can play, so may not pass"))
    else:
        text = (_("you can play, so you may not draw") if yours
                else _("{name} can play, so may not draw"))
    return text.format(**facts)


def _own_tile(err: IllegalActionError, yours: bool, facts: Facts) -> str:
    text = _("you do not hold {tile}") if yours else _("{name} does not hold {tile}")
    return text.format(**facts)


def _match_end(err: IllegalActionError, yours: bool, facts: Facts) -> str:
    if err.end is None:
        return _("the lead is already down: say which end {tile} goes on").format(**facts)
    return _("{tile} does not match the {end} end, which needs a {needs}").format(**facts)


def _deal_tiles(err: IllegalActionError, yours: bool, facts: Facts) -> str:
    missing = err.details.get("missing")
    if isinstance(missing, tuple) and missing:
        # the same words for one tile and many in English: a language's own forms are its own
        return ngettext(
            "the deal is missing {tiles}", "the deal is missing {tiles}", len(missing)
        ).format(tiles=", ".join(map(str, missing)))
    if err.tile is not None:
        return _("tile {tile} is dealt twice").format(**facts)
    return _filled(N_("no tile with id {value}"), facts)


def _counted(facts: Facts) -> int:
    count = facts.get("count")
    return count if isinstance(count, int) else 0


def _deal_hands(err: IllegalActionError, yours: bool, facts: Facts) -> str:
    return ngettext(
        "the deal has {count} hand for {expected} players",
        "the deal has {count} hands for {expected} players",
        _counted(facts),
    ).format_map(_Facts(facts))


def _deal_hand_size(err: IllegalActionError, yours: bool, facts: Facts) -> str:
    if yours:
        text = ngettext(
            "you were dealt {count} tile, not {expected}",
            "you were dealt {count} tiles, not {expected}",
            _counted(facts),
        )
    else:
        text = ngettext(
            "{name} was dealt {count} tile, not {expected}",
            "{name} was dealt {count} tiles, not {expected}",
            _counted(facts),
        )
    return text.format_map(_Facts(facts))


def _start_player(err: IllegalActionError, yours: bool, facts: Facts) -> str:
    if err.seat is None:
        return _filled(N_("no seat {value} to start"), facts)
    if yours:
        return _("you went out last hand and must start, not {other}").format(**facts)
    return _("{name} went out last hand and must start, not {other}").format(**facts)


def _not_your_turn(err: IllegalActionError, yours: bool, facts: Facts) -> str:
    return _("it is not your turn now") if yours else _("{name} cannot act now").format(**facts)


def _take_back(err: IllegalActionError, yours: bool, facts: Facts) -> str:
    reason = err.details.get("reason")
    if reason == "moves-stand":
        return _("nothing to take back: moves stand in a game with other people")
    if reason == "hand-over":
        return _("nothing to take back: the hand is over")
    if yours:
        return _("nothing to take back: you have not moved in this hand")
    return _("nothing to take back: {name} has not moved in this hand").format(**facts)


_REFUSAL_WORDINGS: Mapping[str, RefusalWording] = {
    "must-play": _must_play,
    "own-tile": _own_tile,
    "match-end": _match_end,
    "deal-tiles": _deal_tiles,
    "deal-hands": _deal_hands,
    "deal-hand-size": _deal_hand_size,
    "start-player": _start_player,
    "turn": _not_your_turn,
    "take-back": _take_back,
}
"""The refusals whose words depend on the facts (and on whether they concern *you*)."""


def refusal_of(rule: str, action: Action, view: SeatView) -> IllegalActionError:
    """The refusal of ``action`` under ``rule``, its facts read off the action and the view
    of the seat that asked (a host sends the rule only: a joiner words it from these)."""
    tile = getattr(action, "tile", None)
    end = getattr(action, "end", None)
    needs = view.layout.ends[end.slot] if isinstance(end, End) else None
    return IllegalActionError(
        f"refused by the host: {rule}",
        rule=rule,
        seat=view.seat,
        action=action,
        tile=tile if isinstance(tile, Tile) else None,
        end=end if isinstance(end, End) else None,
        needs=needs if needs is not None and needs >= 0 else None,
        drawn=view.must_play,
    )


# -- notation -------------------------------------------------------------------------------

NOTATION: Mapping[str, str] = {
    "not-text": N_("an action is written as text"),
    "too-long": N_("an action of {length} characters is too long to be one"),
    "empty": N_("an empty action"),
    "not-an-action": N_("not an action: {text} (write e.g. '5-3 E', 'draw' or 'pass')"),
    "not-an-end": N_("not an end: {part} in {text} (ends are W, E, N, S)"),
    "deal-without-boneyard": N_("a deal needs '/' before the boneyard"),
    "deal-parts": N_("a deal needs a start seat and at least two hands, split by '|'"),
    "deal-start": N_("the deal's start seat {part} is not a number"),
    "not-a-tile": N_("not a tile: {value} (write it like 5-3)"),
    "tile-pips": N_("not a tile: {value} (pips run from 0 to {most})"),
    "tile-not-text": N_("a tile is written as text like 5-3, not {value}"),
}
"""Each notation problem's words, by code; ``text`` and ``part`` (quoted) and the details
are the placeholders, ``value`` the text of a tile."""


def notation_text(err: NotationError) -> str:
    """Text that is not an action or a tile, in words."""
    text = _quoted(err.text) if err.text is not None else "?"
    facts: Facts = {"text": text, "part": _quoted(err.part) if err.part else "?", "value": text,
                    **err.details}
    message = NOTATION.get(err.code)
    return _unknown(err.code) if message is None else _filled(message, facts)


def _quoted(text: str) -> str:
    return repr(text) if len(text) <= 40 else repr(text[:40])[:-1] + "…'"


# -- the engine's checks of values -------------------------------------------------------------

CHECKS: Mapping[str, str] = {
    "control-characters": N_("control characters are not allowed"),
    "computer-without-level": N_("a computer seat needs its level"),
    "level-not-computer": N_("only a computer seat has a level"),
    "partnerships-of-four": N_("partnerships need exactly 4 players"),
    "target-positive": N_("the target must be a positive number of points"),
    "target-too-high": N_("the target must be at most {most} points"),
    "target-multiple-of-5": N_("the target must be a multiple of 5"),
    "game-seed": N_("a seed must be a whole number from 0 to {most}, not {value}"),
    "not-a-tile": N_("not a tile: {value} (write it like 5-3)"),
    "not-a-tile-pair": N_("not a tile: {value} (two pips from 0 to {most}, like [5, 3])"),
    "no-such-tile": N_("no such tile {value} in a double-six set"),
    "not-a-hand-size": N_("not a hand size: {value} (one of {choices})"),
    "not-an-end": N_("not an end: {value} (one of {choices})"),
    "deal-as-move": N_("a deal cannot be one of a hand's moves"),
    "unknown-level": N_("unknown computer level {value}; choose one of {choices}"),
    "budget-not-a-number": N_("the time budget must be a number of seconds, not {value}"),
    "budget-not-positive": N_(
        "the time budget must be a finite number of seconds above 0, not {value}"
    ),
    "budget-too-high": N_("the time budget is at most {most} seconds a move, not {value}"),
    "playouts-not-positive": N_("the playout count must be a whole number above 0, not {value}"),
    "playouts-too-high": N_("the playout count is at most {most} a move, not {value}"),
    "needs-budget-or-playouts": N_("a search needs a time budget, a playout count, or both"),
    "partnership-levels": N_("a partnership match needs two levels, one per partnership"),
    "match-players": N_("a match needs 2 to 4 players"),
    "no-games": N_("play at least one game"),
    "workers-not-a-number": N_("the worker count must be a whole number, not {value}"),
    "workers-too-few": N_("at least 1 worker, not {value}"),
}
"""The words of the errors the engine's checks raise (a record's seats and tiles, the
rules, a seed, a match's levels and limits), by code; the details are the placeholders."""


_NUMBERED = frozenset({"target-too-high", "playouts-too-high", "budget-too-high"})
"""The codes whose ``most`` is shown as the language writes numbers."""


def coded_text(err: AllFivesError) -> str:
    """An error of the engine's checks in words, from its code and details."""
    if err.code == "needs-budget-or-playouts" and "level" in err.details:
        return _filled(
            N_("the {level} level needs a time budget, a playout count, or both"), err.details
        )
    if err.code == "workers-too-many":
        most = err.details.get("most")
        return one_line(ngettext(
            "at most {most} worker on this machine (one per core), not {value}",
            "at most {most} workers on this machine (one per core), not {value}",
            most if isinstance(most, int) else 0,
        ).format_map(_Facts(err.details)))
    if err.code == "seats-for-players":
        seats = err.details.get("seats")
        return one_line(ngettext(
            "the record has {seats} seat for {players} players",
            "the record has {seats} seats for {players} players",
            seats if isinstance(seats, int) else 0,
        ).format_map(_Facts(err.details)))
    message = CHECKS.get(err.code)
    if message is None:
        return _unknown(err.code)
    facts: Facts = dict(err.details)
    if isinstance(facts.get("choices"), tuple):  # tokens: levels as they are, others quoted
        shown = (str if err.code == "unknown-level" else repr)
        facts["choices"] = ", ".join(shown(c) for c in facts["choices"])
    if err.code in _NUMBERED and isinstance(facts.get("most"), (int, float)):
        from allfives_tui.locale.formats import number

        facts["most"] = number(facts["most"])
    return _filled(message, facts)


# -- records -----------------------------------------------------------------------------------

RECORDS: Mapping[str, str] = {
    "empty": N_("the file is empty, not a game record"),
    "truncated": N_("not a game record: the JSON stops in the middle (is the file truncated?)"),
    "not-json": N_("not a game record: not valid JSON (line {line}, column {column})"),
    "not-utf8": N_("not a game record: text that is not valid UTF-8"),
    "huge-number": N_("not a game record: it holds a number thousands of digits long"),
    "too-deep": N_("not a game record: it is nested too deeply"),
    "too-big-to-read": N_("not a game record: too big to read"),
    "not-an-object": N_("not a game record: the JSON is not an object"),
    "wrong-format": N_("not a game record: format is {format}, not '{expected}'"),
    "version-not-a-number": N_("the record's version {version} is not a number"),
    "version-too-new": N_(
        "the record is version {version}, newer than this allfives reads ({newest}): "
        "upgrade allfives"
    ),
    "version-unknown": N_("unknown record version {version}"),
    "no-game-id": N_("invalid record at game_id: a version {version} record needs its game id"),
    "too-large": N_("the file is over the size cap of {kib} KiB"),
    "number-out-of-range": N_("invalid record: it holds a number out of range"),
    "wrong-type": N_("invalid record: it holds a value of the wrong type"),
    "unreadable": N_("invalid record: it could not be read"),
    "after-game-over": N_("action {action} comes after the game is over"),
    "after-hand-over": N_("action {action} comes after the hand is over"),
    "hand-not-over": N_("the hand is not over but another hand follows"),
    "no-such-file": N_("no such file"),
    "is-a-folder": N_("is a folder, not a game record"),
    "name-with-nul": N_("no such file (the name holds a NUL character)"),
    "would-wait": N_("it would wait for data (not a plain file)"),
    "permission-denied": N_("cannot read it: permission denied"),
    "cannot-read": N_("cannot read it: {reason}"),
    STORED_DAMAGED: N_("the stored record is damaged"),
}
"""Each record problem that says one thing, by code; the details are the placeholders."""
NOT_REGULAR: Mapping[str, str] = {
    "named-pipe": N_("not a regular file (a named pipe)"),
    "device": N_("not a regular file (a device)"),
    "socket": N_("not a regular file (a socket)"),
    "socket-or-device": N_("not a regular file (a socket or a device)"),
}
"""A file that is not a regular one, by its kind."""


def record_text(err: RecordError) -> str:
    """A record that cannot be read or does not replay, in words, with the hand and the
    move it stops at."""
    problem = _record_problem(err)
    if err.hand is not None and err.move is not None:
        return one_line(_("hand {hand}, move {move}: {problem}").format(
            hand=err.hand, move=err.move, problem=problem
        ))
    if err.hand is not None:
        return one_line(_("hand {hand}: {problem}").format(hand=err.hand, problem=problem))
    return problem


def _record_problem(err: RecordError) -> str:
    code, cause = err.code, err.cause
    if code == "bad-deal":
        behind = problem_text(cause) if cause is not None else "?"
        return one_line(_("bad deal: {problem}").format(problem=behind))
    if code == "illegal-action":
        behind = problem_text(cause) if cause is not None else "?"
        return _filled(N_("illegal action {action}: {problem}"), {**err.details,
                                                                   "problem": behind})
    if code == "invalid-field":
        where = str(err.details.get("where") or "")
        behind = (problem_text(cause) if cause is not None
                  else validation_text(err.invalid or {}))
        if not where:
            return behind
        return one_line(_("invalid record at {where}: {problem}").format(
            where=where, problem=behind
        ))
    if code == "not-a-regular-file":
        kind = NOT_REGULAR.get(str(err.details.get("kind")))
        return _filled(kind or N_("not a regular file (not a plain file)"), err.details)
    if code == NO_HANDS:
        if err.details.get("to") == "resume":
            return one_line(_("the record holds no hands to resume"))
        return one_line(_("the record holds no hands to replay"))
    if code == "invalid":
        if cause is not None:
            return one_line(_("invalid record: {problem}").format(problem=problem_text(cause)))
        return one_line(_("invalid record"))
    message = RECORDS.get(code)
    return _unknown(code) if message is None else _filled(message, err.details)


# -- pydantic's errors ---------------------------------------------------------------------

VALIDATION: Mapping[str, str] = {
    "missing": N_("Field required"),
    "extra_forbidden": N_("Extra inputs are not permitted"),
    "int_type": N_("Input should be a valid integer"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional part"),
    "float_type": N_("Input should be a valid number"),
    "float_parsing": N_("Input should be a valid number, unable to parse string as a number"),
    "bool_type": N_("Input should be a valid boolean"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input"),
    "string_type": N_("Input should be a valid string"),
    "string_pattern_mismatch": N_("String should match pattern '{pattern}'"),
    "greater_than": N_("Input should be greater than {gt}"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "less_than": N_("Input should be less than {lt}"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
    "literal_error": N_("Input should be {expected}"),
    "enum": N_("Input should be {expected}"),
    "list_type": N_("Input should be a valid list"),
    "tuple_type": N_("Input should be a valid tuple"),
    "dict_type": N_("Input should be a valid dictionary"),
    "model_type": N_("Input should be a valid dictionary or instance of {class_name}"),
    "union_tag_invalid": N_(
        "Input tag '{tag}' found using {discriminator} does not match any of the expected "
        "tags: {expected_tags}"
    ),
    "union_tag_not_found": N_("Unable to extract tag using discriminator {discriminator}"),
    "recursion_loop": N_("Recursion error - cyclic reference detected"),
}
"""Each pydantic error type's words (those that count are :func:`_counted_words`), its
``ctx`` values as placeholders; the English is :data:`engine.problems.PROBLEMS`'."""
UNKNOWN_VALIDATION = N_("Input is not valid")
"""The words of a pydantic error type not in :data:`VALIDATION`."""
_QUOTED = re.compile(r"'([^']*)'")


def _field_type(name: object) -> str:
    """pydantic's name of a kind of collection, in words."""
    if name == "List":
        return _("List")
    if name == "Tuple":
        return _("Tuple")
    if name == "Set":
        return _("Set")
    if name == "Dictionary":
        return _("Dictionary")
    return str(name)


def _counted_words(kind: str, ctx: Facts) -> str | None:
    """The words of a pydantic error that counts (characters, items), else ``None``."""
    least, most = ctx.get("min_length"), ctx.get("max_length")
    if kind == "string_too_short" and isinstance(least, int):
        return ngettext(
            "String should have at least {min_length} character",
            "String should have at least {min_length} characters",
            least,
        )
    if kind == "string_too_long" and isinstance(most, int):
        return ngettext(
            "String should have at most {max_length} character",
            "String should have at most {max_length} characters",
            most,
        )
    if kind == "too_short" and isinstance(least, int):
        return ngettext(
            "{field_type} should have at least {min_length} item after validation, "
            "not {actual_length}",
            "{field_type} should have at least {min_length} items after validation, "
            "not {actual_length}",
            least,
        )
    if kind == "too_long" and isinstance(most, int):
        return ngettext(
            "{field_type} should have at most {max_length} item after validation, "
            "not {actual_length}",
            "{field_type} should have at most {max_length} items after validation, "
            "not {actual_length}",
            most,
        )
    return None


def _choices(expected: str) -> str:
    """pydantic's English list of the values expected (``'a', 'b' or 'c'``), in words."""
    items = [f"'{t}'" for t in _QUOTED.findall(expected)]
    if len(items) < 2:
        return items[0] if items else expected
    return _("{items} or {last}").format(items=", ".join(items[:-1]), last=items[-1])


def validation_text(error: Mapping[str, Any]) -> str:
    """One pydantic error (an item of ``ValidationError.errors()``) in words, on one line.

    A validator's own error is worded by its code when the engine raised it, else its
    text is used as it is (the front-end's validators word theirs already).
    """
    kind = str(error.get("type", ""))
    ctx: Facts = dict(error.get("ctx") or {})
    if kind in ("value_error", "assertion_error"):
        cause = ctx.get("error")
        if isinstance(cause, AllFivesError) and cause.code:
            return problem_text(cause)
        return one_line(str(cause)) if cause is not None else _(UNKNOWN_VALIDATION)
    if isinstance(ctx.get("expected"), str):
        ctx["expected"] = _choices(ctx["expected"])
    if "field_type" in ctx:
        ctx["field_type"] = _field_type(ctx["field_type"])
    counted = _counted_words(kind, ctx)
    if counted is not None:
        return one_line(counted.format_map(_Facts(ctx)))
    message = VALIDATION.get(kind)
    return _filled(message if message is not None else UNKNOWN_VALIDATION, ctx)
