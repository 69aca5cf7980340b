"""Move notation: every action has one short text form that parses back to it.

=========================  ===========================================
``6-4``                    lead the 6-4 (the first tile of a hand)
``5-3 E``                  place the 5-3 on the east end (W, E, N, S)
``draw``                   draw a tile from the boneyard
``pass``                   pass (nothing fits and the boneyard is empty)
``deal 1 | 6-4 5-3 ... | ... / 2-1 ...``
                           the deal: start seat, each hand, then the
                           boneyard in drawing order after ``/``
=========================  ===========================================
"""

from __future__ import annotations

from engine.actions import DRAW, PASS, PLAY_ACTIONS, Action, Deal, Draw, Pass, Play
from engine.errors import NotationError, shown
from engine.layout import End
from engine.tiles import parse_tile

_END_WORDS = {
    "w": End.W,
    "west": End.W,
    "e": End.E,
    "east": End.E,
    "n": End.N,
    "north": End.N,
    "s": End.S,
    "south": End.S,
}

MAX_TEXT = 400


def to_text(action: Action) -> str:
    """The notation of ``action``."""
    if isinstance(action, Play):
        return str(action.tile) if action.end is None else f"{action.tile} {action.end.value}"
    if isinstance(action, Draw):
        return "draw"
    if isinstance(action, Pass):
        return "pass"
    if not isinstance(action, Deal):
        raise NotationError(
            f"not an action: {shown(action)}", code="not-an-action", part=shown(action)
        )
    hands = " | ".join(" ".join(str(t) for t in h) for h in action.hands)
    boneyard = " ".join(str(t) for t in action.boneyard)
    return f"deal {action.start} | {hands} / {boneyard}"


def parse_action(text: str) -> Action:
    """Parse notation into an action; raise :class:`NotationError` on bad text.

    It checks the form only; :func:`engine.apply` checks the action is legal.
    """
    if not isinstance(text, str):
        raise NotationError(
            f"an action is written as text, not {type(text).__name__}",
            code="not-text",
            details={"type": type(text).__name__},
        )
    if len(text) > MAX_TEXT:
        raise NotationError(
            f"an action of {len(text)} characters is too long to be one",
            code="too-long",
            text=text,
            details={"length": len(text), "most": MAX_TEXT},
        )
    words = text.strip().split()
    if not words:
        raise NotationError("an empty action", code="empty", text=text)
    head = words[0].lower()
    if head == "draw" and len(words) == 1:
        return DRAW
    if head == "pass" and len(words) == 1:
        return PASS
    if head == "deal":
        return _parse_deal(text)
    if len(words) > 2:
        raise _not_an_action(text)
    try:
        tile = parse_tile(words[0])
    except NotationError:
        raise _not_an_action(text) from None
    if len(words) == 1:
        return PLAY_ACTIONS[tile.id * 5 + 4]
    end = _END_WORDS.get(words[1].lower())
    if end is None:
        raise NotationError(
            f"not an end: {shown(words[1])} in {shown(text)} (ends are W, E, N, S)",
            code="not-an-end",
            text=text,
            part=words[1],
        )
    return PLAY_ACTIONS[tile.id * 5 + end.slot]


def _not_an_action(text: str) -> NotationError:
    return NotationError(
        f"not an action: {shown(text)} (write e.g. '5-3 E', 'draw' or 'pass')",
        code="not-an-action",
        text=text,
    )


def _parse_deal(text: str) -> Deal:
    body = text.strip()[4:]
    if "/" not in body:
        raise NotationError(
            "a deal needs '/' before the boneyard", code="deal-without-boneyard", text=text
        )
    front, _, bone_text = body.partition("/")
    parts = [p.strip() for p in front.split("|")]
    if len(parts) < 3:
        raise NotationError(
            "a deal needs a start seat and at least two hands, split by '|'",
            code="deal-parts",
            text=text,
        )
    try:
        start = int(parts[0])
    except ValueError:
        raise NotationError(
            f"the deal's start seat {shown(parts[0])} is not a number",
            code="deal-start",
            text=text,
            part=parts[0],
        ) from None
    hands = tuple(tuple(parse_tile(w) for w in p.split()) for p in parts[1:])
    boneyard = tuple(parse_tile(w) for w in bone_text.split())
    return Deal(hands=hands, boneyard=boneyard, start=start)
