"""In each language, ``allfives replay --text`` of a fixed record and three error lines
read in that language: no line of them is left English.

Each output is compared line by line with the English one: every line holding a word
must differ from its English twin, and hold no three words in a row of it, save the
lines made only of tokens that stay as they are in every language (players' and levels'
names, tile and move notation, digits, the program's name, option names, a file's path)
and the words of a message the catalog translates by the same English words (a borrowed
word: Dutch keeps *seed*). Under the pseudo-locale every word must also come from the
catalog (:func:`~tests.locale.pseudo.unmarked`).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path

import pytest
from rich.cells import cell_len

from allfives_tui.cli.parser import COMMANDS, PROG
from allfives_tui.locale import SOURCE
from engine.players import LEVELS
from engine.record import parse_record
from tests.cli.helpers import run as allfives
from tests.locale.languages import CATALOGS, LANGUAGES, PSEUDO, kept_as_english
from tests.locale.pseudo import unmarked
from tests.records import SMALL_RECORD, game_record

_WORD = re.compile(r"[^\W\d_]+")

NOTATION = frozenset({"W", "E", "N", "S", "draw", "pass"})
"""The move notation of ``replay --text`` (``5-3 E``, ``draw``, ``pass``): tokens."""
RUN = 3
"""Words in a row of an English line that a translated line may not hold (fewer may be
shared: a cognate, a borrowed word)."""


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text))


def _runs(text: str, run: int = RUN) -> set[tuple[str, ...]]:
    words = _WORD.findall(text)
    return {tuple(words[i : i + run]) for i in range(len(words) - run + 1)}


_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([^)]*\)[sdrfg]")


def english_left(
    english: str, spoken: str, tokens: Collection[str], kept: Collection[str] = ()
) -> list[str]:
    """The lines of ``spoken`` left (wholly or in part) in English: each the same as its
    line in ``english`` though it holds a word that is no token, or holding :data:`RUN`
    words in a row of it, none a token. A word of a message the catalog ``kept`` as
    English (a borrowed word, outside the placeholders) is a translation: it counts as a
    token. The outputs must have as many lines."""
    english_lines, spoken_lines = english.splitlines(), spoken.splitlines()
    assert len(spoken_lines) == len(english_lines), spoken
    known = {*tokens, *(w for message in kept for w in _words(_PLACEHOLDER.sub(" ", message)))}
    return [
        line
        for line, twin in zip(spoken_lines, english_lines, strict=True)
        if (line == twin and not _words(line) <= known)
        or any(not set(run) & known for run in _runs(line) & _runs(twin))
    ]


def _record_file(folder: Path, name: str) -> tuple[Path, set[str]]:
    """A fixed record written to ``folder``, and the tokens of its text (its seats' names
    and levels, its hand size)."""
    text = SMALL_RECORD if name == "small" else game_record(4, partnerships=True).to_json()
    record = parse_record(text)
    path = folder / f"{name}.json"
    path.write_text(text, encoding="utf-8")
    # named seats: a seat left unnamed is worded by the catalog, its name no token
    tokens = {w for s in record.seats if s.name for w in _WORD.findall(s.name)}
    tokens |= {s.level for s in record.seats if s.level}
    tokens |= _words(record.rules.hand_size.value)
    return path, tokens


@pytest.mark.parametrize("record", ["small", "four-partners"])
@pytest.mark.parametrize("language", LANGUAGES, indirect=True)
def test_replay_text_reads_in_the_language(
    language: str, record: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, tokens = _record_file(tmp_path, record)
    code, english, _err = allfives(["--lang", "en", "replay", "--text", str(path)], capsys)
    assert code == 0 and english
    code, spoken, err = allfives(["--lang", language, "replay", "--text", str(path)], capsys)
    assert code == 0 and err == ""
    tokens |= NOTATION
    assert english_left(english, spoken, tokens, kept_as_english(language)) == []
    if language == PSEUDO:
        assert unmarked(spoken, tokens) == [], spoken


def _damaged(folder: Path) -> Path:
    """A saved game cut off in the middle, as a full disk leaves one."""
    path = folder / "cut.json"
    path.write_text(SMALL_RECORD[: len(SMALL_RECORD) // 2], encoding="utf-8")
    return path


ERRORS = {
    "unknown option": lambda folder: ["--no-such-option"],
    "seed out of range": lambda folder: ["--seed", str(2**63)],
    "damaged save": lambda folder: ["replay", "--text", str(_damaged(folder))],
}
"""Three mistakes a player makes, each the arguments after ``--lang``."""


@pytest.mark.parametrize("mistake", list(ERRORS))
@pytest.mark.parametrize("language", LANGUAGES, indirect=True)
def test_error_lines_read_in_the_language(
    language: str, mistake: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ERRORS[mistake](tmp_path)
    code, out, english = allfives(["--lang", "en", *argv], capsys)
    assert code == 2 and out == "" and english
    code, out, spoken = allfives(["--lang", language, *argv], capsys)
    assert code == 2 and out == ""
    # the program's, the commands' and the options' names, and the path, are the user's
    tokens = {PROG, *COMMANDS, *LEVELS, *_words(" ".join(argv))}
    assert english_left(english, spoken, tokens, kept_as_english(language)) == []
    if language == PSEUDO:
        assert unmarked(spoken, tokens) == [], spoken


@pytest.mark.parametrize("language", [SOURCE, *CATALOGS], indirect=True)
def test_the_help_fits_80_columns_in_the_language(
    language: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    code, out, err = allfives(["--lang", language, "--help"], capsys)
    assert code == 0 and err == "" and out
    assert [line for line in out.splitlines() if cell_len(line) > 80] == []
    if language != SOURCE:
        usage = out.split("\n\n")[0]
        assert not re.search(r"\[(play|sim|host) options\]", usage), usage


def test_lines_left_in_english_are_found() -> None:
    english = "Hand 1: You lead\n  Ann: 6-4 4-2\n    9. Ann  draw  15 : 5\n"
    spoken = "Mano 1: Tu inizi\n  Ann: 6-4 4-2\n    9. Ann  draw  15 : 5\n"
    assert english_left(english, spoken, {"Ann", "draw"}) == []
    half = "Mano 1: Tu inizi\n  Ann: 6-4 4-2 pips\n    9. Ann  draw  15 : 5\n"
    assert english_left(english.replace("4-2", "4-2 pips"), half, {"Ann", "draw"}) == [
        "  Ann: 6-4 4-2 pips"
    ]
    inner = "allfives: errore: a seed must be whole\n"
    assert english_left("allfives: error: a seed must be whole\n", inner, {"allfives"}) == [
        inner.strip()
    ]
    shared = "allfives: errore: la seed must\n"
    assert english_left("allfives: error: a seed must\n", shared, {"allfives"}) == []


def test_a_message_the_catalog_keeps_in_english_is_its_translation() -> None:
    english = "Seed: 1\nScores after hand 1\nGame over: you win\n"
    spoken = "Seed: 1\nScore na hand 1\nGame over: you win\n"
    assert english_left(english, spoken, set()) == ["Seed: 1", "Game over: you win"]
    assert english_left(english, spoken, set(), ["Seed: {seed}"]) == ["Game over: you win"]
    kept = ["Seed: {seed}", "Game over: {who} win"]
    assert english_left(english, spoken, set(), kept) == ["Game over: you win"]  # {who}
    assert english_left(english, spoken, {"you"}, kept) == []
    # placeholders stand for words of their own: English there is still English
    wrapped = "allfives: error: unrecognized arguments: --x\n"
    assert english_left(wrapped, wrapped, {"allfives", "x"}, ["{prog}: error: {message}"]) == [
        wrapped.strip()
    ]
