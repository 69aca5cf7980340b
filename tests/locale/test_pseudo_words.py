"""Under the pseudo-locale, the game's sentences and ``replay --text`` come from the catalog."""

from __future__ import annotations

from allfives_tui.locale import use_language
from allfives_tui.table.replay import Replay
from allfives_tui.table.text import render_text
from allfives_tui.table.words import LEVEL_DESCRIPTIONS, Names, describe_event
from engine import Dealt, Drew, End, Event, GameOver, HandOver, Passed, Placed, Rules, Tile
from engine.players import REGISTRY
from tests.locale.pseudo import unmarked
from tests.records import game_record


def test_the_level_descriptions_are_the_engines() -> None:
    assert {n: REGISTRY[n].description for n in LEVEL_DESCRIPTIONS} == dict(LEVEL_DESCRIPTIONS)
    assert set(LEVEL_DESCRIPTIONS) == set(REGISTRY)


def test_every_event_for_you_and_for_another_is_marked(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    tile = Tile(high=5, low=3)
    events: list[Event] = [
        Placed(seat=0, tile=tile, end=None, total=8, points=0),
        Placed(seat=1, tile=tile, end=End.N, total=10, points=10),
        Drew(seat=0, tile=tile, must_play=True),
        Drew(seat=1, tile=tile, must_play=False),
        Passed(seat=1),
        Dealt(hand_number=2, start=0),
        HandOver(hand_number=2, out_seat=0, pips=(0, 12), penalties=(0, 10), scores=(40, 5)),
        GameOver(winner=1, scores=(40, 250)),
    ]
    for you in (0, 1):
        names = Names(("Ana", "Bo"), Rules(players=2), you=you)
        for event in events:
            text = describe_event(event, names, reveal=True)
            assert unmarked(text, {"Ana", "Bo"}) == [], text


def test_the_plain_text_replay_is_marked(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    replay = Replay(game_record(players=4, partnerships=True))
    names = {s.name for s in replay.record.seats if s.name is not None}
    words = {w for n in names for w in n.split()}
    levels = {s.level for s in replay.record.seats if s.level}
    # the move notation (5-3 E, draw, pass) and the hand size are the record's tokens
    notation = {"W", "E", "N", "S", "draw", "pass", "standard"}
    assert unmarked(render_text(replay, reveal_all=True), words | levels | notation) == []

