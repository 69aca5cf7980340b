"""The record's format versions: which this allfives reads, and older ones read as the newest.

Format versions
---------------

This allfives writes version 3 (:data:`VERSION`) and reads versions 1 to 3.

* **3**: a seat's ``name`` may be ``null`` (or left out): the seat has the
  default name of its place (:data:`~engine.record_parts.PLACES`: seat 0
  sits south), which each reader words in its own language, so no language's
  word for "North" is written into the record. Everything else is as in 2.
* **2**: every seat has a ``kind``: ``"person"`` (someone at the table: a
  name), ``"computer"`` (a name and its ``level``, which a computer must have)
  or ``"remote"`` (a player elsewhere: a name); ``level`` is ``null`` unless
  the seat is a computer. Each seat counts its ``take_backs``: how many times
  that seat took a move back (0 when it never did; a computer's is 0). The
  record has a ``game_id``: made once, when a game's first record is made
  (:meth:`GameRecord.from_state` makes a fresh one unless given one) and kept
  by every later save of that game, so two files with the same id are two
  moments of one game.
* **1**: seats were ``"human"`` or ``"computer"``, there were no counts and no
  game id. A version 1 record is read as version 2: ``"human"`` becomes
  ``"person"`` (its level, if any, is dropped), a computer without a level
  gets :data:`UNKNOWN_LEVEL`, take-backs are 0, and the game id is derived
  from what every save of one game shares (its creation time, seed, rules,
  seat names and first deal: see :func:`derived_game_id`), so reading the same
  file, or a later save of the same game, always gives the same id.

An older record is read as version 3 (version 1 by way of 2) and saved again as
version 3. A version 1 or 2 seat whose name is its place's English name
(``"North"`` at north, :data:`~engine.record_parts.PLACE_NAMES`), or the first
person's ``"You"``, is read as having the default name: these are the names older
allfives gave a seat nobody named (a computer by its place, a person left
unnamed, the first person's default), and a person who chose such a name is
read as the same word in English.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel

from engine.errors import RecordError, shown
from engine.record_parts import PLACE_NAMES, PLACES, DealRecord
from engine.rules import Rules

VERSION = 3
"""The version this allfives writes."""
OLDEST_VERSION = 1
"""The oldest version this allfives reads (every version from it to :data:`VERSION`)."""
UNKNOWN_LEVEL = "unknown"
"""The level of a computer seat that a version 1 record saved without one."""


def check_version(version: object) -> int:
    """``version`` as a version this allfives reads; :class:`RecordError` says why not."""
    details = {"version": shown(version), "newest": VERSION}
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordError(
            f"the record's version {shown(version)} is not a number",
            code="version-not-a-number",
            details=details,
        )
    if version > VERSION:
        raise RecordError(
            f"the record is version {shown(version)}, newer than this allfives reads ({VERSION}): "
            "upgrade allfives",
            code="version-too-new",
            details=details,
        )
    if version < OLDEST_VERSION:
        raise RecordError(
            f"unknown record version {shown(version)}", code="version-unknown", details=details
        )
    return version


def upgrade_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 record data as version 2 data (see the module doc); not yet validated."""
    out = {**data, "version": 2}
    seats = data.get("seats")
    if isinstance(seats, list):
        out["seats"] = [_upgrade_v1_seat(seat) for seat in seats]
    if "game_id" not in data:
        out["game_id"] = derived_game_id(data)
    return out


def _upgrade_v1_seat(seat: object) -> object:
    if not isinstance(seat, dict):
        return seat
    kind = seat.get("kind", "human")
    if kind == "human":
        return {k: v for k, v in seat.items() if k != "level"} | {"kind": "person"}
    if kind == "computer" and not seat.get("level"):
        return {**seat, "level": UNKNOWN_LEVEL}
    return seat


OLD_FIRST_NAME = "You"
"""The name older allfives gave the first person (seat 0) by default."""


def upgrade(data: dict[str, Any], version: int) -> dict[str, Any]:
    """Record data of ``version`` (one this allfives reads) as data of :data:`VERSION`;
    not yet validated."""
    if version == 1:
        data = upgrade_v1(data)
    if version <= 2:
        data = upgrade_v2(data)
    return data


def upgrade_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 record data as version 3 data: a name an older allfives gave by default
    becomes the default name (see the module doc); not yet validated."""
    out = {**data, "version": 3}
    seats = data.get("seats")
    if isinstance(seats, list):
        out["seats"] = [_upgrade_v2_seat(s, i, len(seats)) for i, s in enumerate(seats)]
    return out


def _upgrade_v2_seat(seat: object, index: int, players: int) -> object:
    if not isinstance(seat, dict) or players not in PLACES:
        return seat
    name = seat.get("name")
    default = PLACE_NAMES[PLACES[players][index]]
    first = index == 0 and seat.get("kind", "person") in ("person", "human")
    if name == default or (first and name == OLD_FIRST_NAME):
        return {k: v for k, v in seat.items() if k != "name"}
    return seat


def derived_game_id(data: dict[str, Any]) -> str:
    """The game id of a record saved without one (version 1), from its data.

    A hash of what every save of one game shares: its creation time, seed,
    rules, seat names and first deal (later deals and the moves grow from save
    to save). Deal and rules are hashed as validated, so how the file spells
    them does not matter; the same file always gives the same id.
    """
    seats = data.get("seats")
    hands = data.get("hands")
    first = (
        hands[0].get("deal")
        if isinstance(hands, list) and hands and isinstance(hands[0], dict)
        else None
    )
    content = {
        "created": data.get("created"),
        "seed": data.get("seed"),
        "rules": _canonical(Rules, data.get("rules")),
        "names": [s.get("name") if isinstance(s, dict) else s for s in seats]
        if isinstance(seats, list)
        else seats,
        "deal": _canonical(DealRecord, first),
    }
    try:
        text = json.dumps(content, sort_keys=True, separators=(",", ":"), default=repr)
    except (TypeError, ValueError, RecursionError):
        text = repr(content)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _canonical(model: type[BaseModel], value: object) -> object:
    """``value`` validated as ``model`` and dumped back, or as it is if it is not valid."""
    try:
        return model.model_validate(value).model_dump(mode="json")
    except (ValueError, TypeError, RecursionError):
        return value
