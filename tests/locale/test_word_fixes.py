"""What the translators could not translate naturally, now in each language: *your* own
sentences, a [y/N] answer in the reader's language, numbers in ``--help`` formatted for
it, the lock's holder in whole sentences, one name per language and one per place."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

import allfives_tui.cli.serve_server
import allfives_tui.ui.language
from allfives_tui.cli import main
from allfives_tui.cli.play import is_yes, yes_no
from allfives_tui.locale import use_language
from allfives_tui.locale.formats import language_name
from allfives_tui.net import wording
from allfives_tui.net.protocol import ProtocolError, parse_client
from allfives_tui.net.wording import refusal_text
from allfives_tui.store.lock import GameLock
from allfives_tui.table.places import place_names
from allfives_tui.table.problems import validation_text
from allfives_tui.table.replay import Replay
from allfives_tui.table.words import Names, describe_event, game_over_title, hand_over_title
from engine import Draw, GameOver, HandOver, Rules
from engine.record import parse_record
from tests.records import SMALL_RECORD

NNBSP = "\u202f"
"""French groups thousands with a narrow no-break space."""


@pytest.mark.parametrize(
    ("lang", "brackets", "yes", "no"),
    [
        ("en", "[y/N]", ["y", "Y", "yes", " YES "], ["n", "", "no", "sì", "oui"]),
        ("it", "[s/N]", ["s", "sì", "Si", "y", "yes"], ["n", "no", ""]),
        ("fr", "[o/N]", ["o", "oui", "Oui", "y", "yes"], ["n", "non", "si"]),
        ("es", "[s/N]", ["s", "sí", "si", "y", "yes"], ["n", "no"]),
        ("nl", "[j/N]", ["j", "ja", "JA", "y", "yes"], ["n", "nee"]),
    ],
)
def test_a_yes_or_no_question_takes_the_readers_yes_and_always_y(
    lang: str, brackets: str, yes: list[str], no: list[str]
) -> None:
    use_language(lang)
    assert yes_no() == brackets
    assert [a for a in yes if not is_yes(a)] == []
    assert [a for a in no if is_yes(a)] == []


def _unwrapped(text: str) -> str:
    """``text`` with its lines joined (argparse wraps at ASCII blanks only)."""
    return re.sub(r"[ \n]+", " ", text)


def _help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit):
        main(argv)
    return capsys.readouterr().out


@pytest.mark.parametrize(
    ("lang", "numbers"),
    [
        ("en", ["1,000,000", "0.25", "10,000"]),
        ("it", ["1.000.000", "0,25", "10.000"]),
        ("fr", [f"1{NNBSP}000{NNBSP}000", "0,25", f"10{NNBSP}000"]),
        ("nl", ["1.000.000", "0,25", "10.000"]),
    ],
)
def test_the_numbers_in_help_are_the_languages(
    lang: str, numbers: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    text = _unwrapped(_help(["--lang", lang, "sim", "--help"], capsys))
    assert [n for n in numbers if n not in text] == []
    rated = _unwrapped(_help(["--lang", lang, "analyse", "--help"], capsys))
    assert numbers[0][:5] in rated  # a rating's 1,000 playouts


def test_your_side_and_your_going_out_have_their_own_sentences_in_italian() -> None:
    use_language("it")
    four = Rules(players=4, partnerships=True)
    names = Names(("Ana", "Bo", "Cy", "Di"), four, you=0)
    assert game_over_title(names, 0) == "Tu e Cy avete vinto la partita!"
    assert describe_event(GameOver(winner=0, scores=(200, 5)), names).startswith(
        "Tu e Cy avete vinto la partita: "
    )
    two = Names(("Ana", "Bo"), Rules(players=2), you=0)
    over = HandOver(hand_number=3, out_seat=0, pips=(0, 9), penalties=(0, 10), scores=(60, 30))
    assert hand_over_title(two, over) == "Mano 3: hai fatto domino."


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 1
    return capsys.readouterr().err


def test_the_other_allfives_is_named_in_whole_sentences(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """With its process id when the lock's file names it, without when it does not."""
    holder = GameLock()
    assert holder.acquire()
    try:
        said = _refused(["--lang", "it"], capsys)
        assert said == (
            f"allfives: la partita in corso è aperta in un altro allfives (processo "
            f"{os.getpid()}): prima esci da lì (o avvia questo in un terminale per iniziare "
            "una partita a parte)\n"
        )
        said = _refused(["--lang", "nl", "--continue"], capsys)
        assert said == (
            f"allfives: het lopende spel is open in een andere allfives (proces {os.getpid()}): "
            "speel daar verder\n"
        )
        holder.path.write_text("")  # no process id to name
        said = _refused(["--lang", "es", "--continue"], capsys)
        assert said == (
            "allfives: la partida en curso está abierta en otro allfives: continúala allí\n"
        )
    finally:
        holder.release()
    assert not hasattr(GameLock, "holder")  # the store words nothing


def test_a_language_has_one_own_name_for_the_app_and_the_browser_page() -> None:
    assert language_name("en") == "English"
    assert (language_name("it"), language_name("fr")) == ("italiano", "français")
    assert language_name("es", capital=True) == "Español"
    assert language_name("xx_QQ") == "xx_QQ"  # a code Babel does not know
    assert vars(allfives_tui.ui.language)["language_name"] is language_name
    assert vars(allfives_tui.cli.serve_server)["language_name"] is language_name


def test_the_places_at_a_table_are_worded_in_one_place(tmp_path: Path) -> None:
    assert place_names(4) == ("South", "West", "North", "East")
    use_language("fr")
    assert place_names(3) == ("Sud", "Ouest", "Est")
    assert place_names(5) == ()
    assert not hasattr(wording, "places") and not hasattr(wording, "place_text")


def test_a_view_is_yours_or_someones_in_a_whole_message() -> None:
    """No possessive built from a fragment: "your view" and "{name}'s view" are each a
    message (in Italian "la tua vista", "vista di Bob")."""
    replay = Replay(parse_record(SMALL_RECORD))
    use_language("it")
    assert (replay.view_name(0), replay.view_name(1)) == ("la tua vista", "vista di Bob")


def test_a_bad_network_message_is_worded_as_any_validation_problem() -> None:
    """The host's refusal of a message that does not validate, worded by the client in its
    language with the one validation wording."""
    try:
        parse_client(json.dumps({"kind": "act", "action": Draw().model_dump(mode="json"),
                                 "step": 0, "seat": 1}))
    except ProtocolError as err:
        refused = err.refused
    else:  # pragma: no cover - the message is bad
        raise AssertionError("a message naming a seat is refused")
    use_language("it")
    problem = validation_text({"type": "extra_forbidden"})
    assert problem == "Campi in più non ammessi"
    assert refusal_text(refused) == f"messaggio sbagliato: act.seat: {problem}"
